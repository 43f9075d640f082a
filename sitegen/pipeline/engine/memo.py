"""The engine's memo: each key's fingerprint, what it read, its value, and who read it.

The readers of a key (the reverse of what each record read) are what an update follows
upward from a changed input. The memo kept on disk between processes is store.DiskMemo.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

Key = tuple[str, Hashable]  # (step name, argument)


class _Absent:
    """No value kept (the step keeps only its fingerprint, or the memo was loaded without it)."""

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"  # unpickled as the one ABSENT, which the engine tests by identity


ABSENT: Any = _Absent()


@dataclass(slots=True)
class Record:
    """One key's memo: its result's fingerprint, each read with the fingerprint seen, and the result."""

    fingerprint: str
    reads: tuple[tuple[Key, str], ...]
    value: Any = ABSENT


class Memo:
    """Records by key, with the reverse edges made when first asked for and then kept in step.

    A cold build records 140,000 reads at 1,000 papers and never follows one back: it
    makes no reverse edges; the first update makes them all in one pass.
    """

    def __init__(self) -> None:
        self.records: dict[Key, Record] = {}
        self._readers: dict[Key, set[Key]] | None = None
        self.log: list[Key] | None = None  # when a list: every key put since, in order (a worker's new records)

    def readers_of(self, key: Key) -> set[Key]:
        """The keys whose records read `key`."""
        if self._readers is None:
            self._readers = {}
            for reader, record in self.records.items():
                self._link(reader, record)
        return self._readers.get(key, set())

    def put(self, key: Key, record: Record) -> None:
        if self._readers is not None:
            old = self.records.get(key)
            if old is None:
                self._link(key, record)
            elif len(old.reads) != len(record.reads) or any(
                    a[0] != b[0] for a, b in zip(old.reads, record.reads, strict=True)):
                self._unlink(key, old)  # it read other keys this time (a whole-list file mostly reads the same)
                self._link(key, record)
        self.records[key] = record
        if self.log is not None:
            self.log.append(key)

    def drop(self, key: Key) -> None:
        old = self.records.pop(key, None)
        if old is not None and self._readers is not None:
            self._unlink(key, old)

    def _link(self, key: Key, record: Record) -> None:
        readers = self._readers
        assert readers is not None
        for read, _ in record.reads:
            found = readers.get(read)
            if found is None:
                readers[read] = {key}
            else:
                found.add(key)

    def _unlink(self, key: Key, record: Record) -> None:
        assert self._readers is not None
        for read, _ in record.reads:
            readers = self._readers.get(read)
            if readers is not None:
                readers.discard(key)
                if not readers:
                    del self._readers[read]


def argument_of(argument: Any) -> Hashable:
    """An argument as saved (msgpack gives lists) back as the tuple it was (arguments are flat tuples)."""
    return tuple(argument) if type(argument) is list else argument  # exact type: the hot path
