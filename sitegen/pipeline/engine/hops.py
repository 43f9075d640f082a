"""Readers spared by a change, answered for without rewriting their rows: the change's old and new fingerprint.

A step that knows its own delta (`Step.spread`: the model) spares the readers of what it left as
it was; their records must then say they saw its new fingerprint, or the next process runs them
again. A new entry spares 36,000 of the model's readers, and rewriting their rows took a third
of its update (1.2 s reading them, 2 s writing them, profiled). A memo on disk keeps instead one
hop per such change, (id, old fingerprint, new fingerprint), and a row read back later that saw
a hop's old fingerprint is read as having seen where its hops lead.

Why that is exact: a reader the change reached ran again and no longer holds the old
fingerprint, and so does every reader of a change that spared none (recorded by no hop). A row
still holding an old fingerprint was spared by every change since the last time the record
held it, so it is valid if the hops from then on follow each other to the current one; where
they do not (a change between them was recorded by none), the reader is not patched and runs
again, as it would without hops.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable

from .memo import Record

MOST = 1024  # hops kept for one record (the oldest dropped first: a reader they answered for runs again)


class Hops:
    """The hops of the records whose readers were spared, in the order the changes were made."""

    def __init__(self, data: bytes = b""):
        """Read back from `to_bytes`; ValueError if the bytes are not whole triples."""
        if len(data) % 24:
            raise ValueError("hops")
        flat = array("q")
        flat.frombytes(data)
        self._chains: dict[int, list[tuple[int, int]]] = {}
        for i in range(0, len(flat), 3):
            self._chains.setdefault(flat[i], []).append((flat[i + 1], flat[i + 2]))
        self.moved = False

    def __bool__(self) -> bool:
        return bool(self._chains)

    def add(self, ident: int, old: int, new: int) -> Callable[[], None]:
        """Record a change of `ident` from `old` to `new` that spared readers; the undo that takes it back."""
        chain = self._chains.setdefault(ident, [])
        chain.append((old, new))
        dropped = chain.pop(0) if len(chain) > MOST else None
        self.moved = True

        def undo() -> None:
            chain.pop()
            if dropped is not None:
                chain.insert(0, dropped)
            if not chain:
                self._chains.pop(ident, None)

        return undo

    def patched(self, record: Record, current: Callable[[int], int | None]) -> Record:
        """The record as seeing, for each hopped read, the fingerprint its hops lead to (if they reach
        `current`'s)."""
        seen: array[int] | None = None
        for ident, chain in self._chains.items():
            if ident not in record.reads:
                continue
            i = record.reads.index(ident)
            now = current(ident)
            if record.seen[i] == now or now is None or _followed(chain, record.seen[i]) != now:
                continue
            if seen is None:
                seen = array("q", record.seen)
            seen[i] = now
        if seen is None:
            return record
        return Record(record.id, record.fingerprint, record.reads, seen, record.value, record.saved)

    def to_bytes(self) -> bytes:
        flat = array("q")
        for ident, chain in self._chains.items():
            for old, new in chain:
                flat.extend((ident, old, new))
        return flat.tobytes()


def _followed(chain: list[tuple[int, int]], seen: int) -> int | None:
    """Where the hops lead from the last time the record held `seen`, if each starts where the one before ended."""
    start = next((j for j in range(len(chain) - 1, -1, -1) if chain[j][0] == seen), None)
    if start is None:
        return None
    for j in range(start, len(chain) - 1):
        if chain[j][1] != chain[j + 1][0]:
            return None
    return chain[-1][1]
