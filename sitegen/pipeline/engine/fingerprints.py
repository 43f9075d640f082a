"""The id -> fingerprint table of a memo on disk, as two sorted integer arrays and the changes made since.

Read whole at open, it is all that verifying a record needs. As a dict it took 100 bytes a record
(35 MB at 10,000 papers, which a no-op rebuild held for nothing); as arrays it takes 16, and a
look-up is a binary search.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, MutableMapping

_GONE = None  # a change that removed the record


class FingerprintTable(MutableMapping[int, int]):
    """Fingerprints by record id: those saved (sorted arrays), overlaid by those put or dropped here."""

    def __init__(self, data: bytes = b""):
        numbers = array("q")
        numbers.frombytes(data)
        half = len(numbers) // 2
        self._ids, self._fingerprints = numbers[:half], numbers[half:]
        self._changed: dict[int, int | None] = {}

    def _saved(self, ident: int) -> int | None:
        ids = self._ids
        at = bisect_left(ids, ident)
        return self._fingerprints[at] if at < len(ids) and ids[at] == ident else None

    def get(self, ident: int, default: int | None = None) -> int | None:  # type: ignore[override]
        found = self._changed[ident] if ident in self._changed else self._saved(ident)
        return default if found is None else found

    def __getitem__(self, ident: int) -> int:
        found = self.get(ident)
        if found is None:
            raise KeyError(ident)
        return found

    def __contains__(self, ident: object) -> bool:
        return isinstance(ident, int) and self.get(ident) is not None

    def __setitem__(self, ident: int, fingerprint: int) -> None:
        self._changed[ident] = fingerprint

    def __delitem__(self, ident: int) -> None:
        if ident not in self:
            raise KeyError(ident)
        self._changed[ident] = _GONE

    def pop(self, ident: int, default: int | None = None) -> int | None:  # type: ignore[override]
        found = self.get(ident)
        self._changed[ident] = _GONE
        return default if found is None else found

    def __iter__(self) -> Iterator[int]:
        return (ident for ident, _ in self.items())

    def items(self) -> Iterator[tuple[int, int]]:  # type: ignore[override]
        """Every id and fingerprint, in order of id."""
        merged = dict(zip(self._ids, self._fingerprints, strict=True))
        for ident, fingerprint in self._changed.items():
            if fingerprint is None:
                merged.pop(ident, None)
            else:
                merged[ident] = fingerprint
        return iter(sorted(merged.items()))

    def __len__(self) -> int:
        return sum(1 for _ in self.items())


def table_bytes(pairs: Iterable[tuple[int, int]]) -> bytes:
    """Ids and fingerprints as the memo saves them: the ids in order, then the fingerprints."""
    ordered = sorted(pairs)
    return array("q", (i for i, _ in ordered)).tobytes() + array("q", (f for _, f in ordered)).tobytes()
