"""The engine's memo: each key's fingerprint, what it read, its value, and who read it.

The readers of a key (the reverse of what each record read) are what an update follows
upward from a changed input. A memo saved by one process is loaded by the next only
under the same stamp (the digest of sitegen's own code and of the build's settings), so
no version has to be bumped by hand when the output changes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from ...common.fsutil import write_atomic

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

    # -- on disk --------------------------------------------------------------
    def save(self, path: Path, stamp: str, encode: Callable[[Key, Any], Any] | None = None) -> None:
        """Write the memo atomically; values only where `encode` gives one (ABSENT: not saved)."""
        rows = []
        for key, record in self.records.items():
            value = ABSENT if encode is None or record.value is ABSENT else encode(key, record.value)
            row = [key[0], key[1], record.fingerprint, [[r[0], r[1], seen] for r, seen in record.reads]]
            if value is not ABSENT:
                row.append(value)
            rows.append(row)
        write_atomic(path, msgspec.msgpack.encode({"stamp": stamp, "records": rows}))

    @classmethod
    def load(cls, path: Path, stamp: str, decode: Callable[[Key, Any], Any] | None = None) -> Memo:
        """The memo saved under `stamp`, else an empty one (no file, another stamp, or damaged)."""
        memo = cls()
        try:
            saved = msgspec.msgpack.decode(path.read_bytes())
            if not isinstance(saved, dict) or saved.get("stamp") != stamp:
                return memo
            for row in saved["records"]:
                key = (row[0], _hashable(row[1]))
                reads = tuple(((r[0], _hashable(r[1])), r[2]) for r in row[3])
                value = decode(key, row[4]) if len(row) > 4 and decode is not None else ABSENT
                memo.put(key, Record(row[2], reads, value))
        except (OSError, msgspec.DecodeError, LookupError, TypeError, ValueError):
            return cls()
        return memo


def _hashable(argument: Any) -> Hashable:
    """An argument as saved (msgpack gives lists) back as the tuple it was (arguments are flat tuples)."""
    return tuple(argument) if type(argument) is list else argument  # exact type: the hot path
