"""The id -> fingerprint table of a memo on disk, as two sorted integer arrays and the changes made since.

Read whole at open, it is all that verifying a record needs. As a dict it took 100 bytes a record
(35 MB at 10,000 papers, which a no-op rebuild held for nothing); as arrays it takes 16, and a
look-up is a binary search. An update saves only the changes made since the table was last saved
whole (`changes`), until they are an eighth of it: the whole table, 3.8 MB at 10,000 papers,
took a notes edit 0.16 s to merge, sort and write for the few dozen fingerprints it moved.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Iterator, MutableMapping

_GONE = None  # a change that removed the record
_GONE_SAVED = -1  # how `changes` saves one (a fingerprint is never negative)


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

    def worth_saving_whole(self) -> bool:
        """Whether the changes are many enough to save the table whole rather than them alone."""
        return len(self._changed) * 8 > len(self._ids)

    def changes(self) -> bytes:
        """The changes since the table was saved whole, as `apply` reads them back."""
        ids = array("q", self._changed)
        fingerprints = array("q", (_GONE_SAVED if f is None else f for f in self._changed.values()))
        return ids.tobytes() + fingerprints.tobytes()

    def apply(self, data: bytes) -> None:
        """Changes saved by `changes`, made here again (at open)."""
        numbers = array("q")
        numbers.frombytes(data)
        half = len(numbers) // 2
        for ident, fingerprint in zip(numbers[:half], numbers[half:], strict=True):
            self._changed[ident] = None if fingerprint == _GONE_SAVED else fingerprint


def table_bytes(pairs: Iterable[tuple[int, int]]) -> bytes:
    """Ids and fingerprints as the memo saves them: the ids in order, then the fingerprints."""
    ordered = sorted(pairs)
    return array("q", (i for i, _ in ordered)).tobytes() + array("q", (f for _, f in ordered)).tobytes()
