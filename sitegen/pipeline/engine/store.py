"""The memo on disk, in shards read when first needed: what a new `sitegen build` process updates.

A one-title edit at 10,000 papers reads a few hundred of the memo's 200,000 records, so the
memo is kept in 256 record shards (by a digest of the key) and 256 shards of reverse edges
(by a digest of the key read), each read when a key in it is first asked for and written
back only if something in it changed. Values cross as msgpack through each step's codec
(`Codec`), or not at all: a step whose value is not saved runs again when read.
Nothing here is pickled; a damaged or foreign shard (another stamp) reads as an empty memo.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import xxhash

from ...common.fsutil import write_atomic
from .memo import ABSENT, Key, Memo, Record, argument_of

SHARDS = 256
Encode = Callable[[Key, Any], Any]  # a value as msgpack can hold it, or ABSENT not to save it
Decode = Callable[[Key, Any], Any]


def shard_of(key: Key) -> int:
    """Which shard a key's record, or the reverse edges of reads of it, live in."""
    return xxhash.xxh3_64_intdigest(repr(key).encode()) % SHARDS


class _Records(dict[Key, Record]):
    """The records loaded so far; a key not yet seen loads its shard first."""

    def __init__(self, store: DiskMemo):
        super().__init__()
        self._store = store

    def get(self, key: Key, default: Any = None) -> Any:  # type: ignore[override]
        found = dict.get(self, key, ABSENT)
        if found is ABSENT:
            if self._store.load_records(shard_of(key)):
                return dict.get(self, key, default)
            return default
        return found

    def __getitem__(self, key: Key) -> Record:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found  # type: ignore[no-any-return]

    def __contains__(self, key: object) -> bool:
        return self.get(key) is not None  # type: ignore[arg-type]


class DiskMemo(Memo):
    """A memo whose records and reverse edges come from a folder of shards as they are asked for."""

    def __init__(self, folder: Path, stamp: str, encode: Encode, decode: Decode):
        super().__init__()
        self.folder, self.stamp, self._encode, self._decode = folder, stamp, encode, decode
        self.records = _Records(self)
        self._readers = {}  # reverse edges: those of loaded shards, and those added here
        self._loaded: set[int] = set()
        self._loaded_readers: set[int] = set()
        self._dirty: set[int] = set()  # record shards changed here
        self._dirty_readers: set[int] = set()
        self._dropped: set[Key] = set()
        self.valid = (folder / "stamp").is_file() and _read(folder / "stamp") == stamp.encode()

    # -- reading ------------------------------------------------------------------
    def load_records(self, shard: int) -> bool:
        """Read one record shard if not read yet; whether it was read now."""
        if shard in self._loaded:
            return False
        self._loaded.add(shard)
        for row in self._rows(f"records-{shard:02x}"):
            key = (row[0], argument_of(row[1]))
            if key in self._dropped or dict.__contains__(self.records, key):
                continue  # dropped or replaced here: the newer holds
            value = self._decode(key, row[4]) if len(row) > 4 else ABSENT
            reads = tuple(((r[0], argument_of(r[1])), r[2]) for r in row[3])
            dict.__setitem__(self.records, key, Record(row[2], reads, value))
        return True

    def readers_of(self, key: Key) -> set[Key]:
        shard = shard_of(key)
        if shard not in self._loaded_readers:
            self._loaded_readers.add(shard)
            assert self._readers is not None
            for row in self._rows(f"readers-{shard:02x}"):
                read = (row[0], argument_of(row[1]))
                self._readers.setdefault(read, set()).update((r[0], argument_of(r[1])) for r in row[2])
        return super().readers_of(key)

    def _rows(self, name: str) -> list[Any]:
        if not self.valid:
            return []
        try:
            rows = msgspec.msgpack.decode(_read(self.folder / name))
        except (OSError, msgspec.DecodeError):
            return []
        return rows if isinstance(rows, list) else []

    # -- changes --------------------------------------------------------------------
    def put(self, key: Key, record: Record) -> None:
        old = self.records.get(key)  # its shard read first: the reverse edges it leaves are known
        self._dirty.add(shard_of(key))
        self._dropped.discard(key)
        before = [read for read, _ in old.reads] if old is not None else []
        after = [read for read, _ in record.reads]
        if before != after:  # its edges moved (mostly a record reads what it read, in the same order)
            # only the shards of the reads it gained or lost: the edges of the rest are as saved
            for read in set(before).symmetric_difference(after):
                self._dirty_readers.add(shard_of(read))
        super().put(key, record)

    def drop(self, key: Key) -> None:
        old = self.records.get(key)
        if old is not None:
            self._dirty.add(shard_of(key))
            self._dirty_readers.update(shard_of(read) for read, _ in old.reads)
        self._dropped.add(key)
        super().drop(key)

    # -- writing ----------------------------------------------------------------------
    def write(self) -> None:
        """Write the shards changed here (all of them, under a new stamp); then the stamp, last.

        The stamp is removed first: a process killed half-way leaves a memo that reads as
        empty (the next build renders everything), never one of old and new shards mixed.
        """
        fresh = not self.valid
        if not fresh and not self._dirty and not self._dirty_readers:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "stamp").unlink(missing_ok=True)
        if fresh:  # shards of another stamp never count as this one's
            self._dirty = set(range(SHARDS))
            self._dirty_readers = set(range(SHARDS))
        for shard in sorted(self._dirty):
            self.load_records(shard)
        by_shard: dict[int, list[Any]] = {shard: [] for shard in self._dirty}
        for key, record in dict.items(self.records):
            rows = by_shard.get(shard_of(key))
            if rows is not None:
                by_shard[shard_of(key)].append(self._row(key, record))
        for shard, rows in by_shard.items():
            write_atomic(self.folder / f"records-{shard:02x}", msgspec.msgpack.encode(rows), durable=False)
        self._save_readers()
        write_atomic(self.folder / "stamp", self.stamp.encode(), durable=False)
        self.valid = True
        self._dirty, self._dirty_readers = set(), set()

    def _save_readers(self) -> None:
        """The reverse edges of every changed readers shard, made again from the records that hold them."""
        for shard in sorted(self._dirty_readers):
            self.readers_of(_probe(shard))  # the shard's saved edges, for reads of keys whose records are not loaded
        assert self._readers is not None
        edges: dict[int, list[Any]] = {shard: [] for shard in self._dirty_readers}
        for read, readers in self._readers.items():
            rows = edges.get(shard_of(read))
            if rows is not None and readers:
                rows.append([read[0], read[1], [[r[0], r[1]] for r in sorted(readers, key=repr)]])
        for shard, rows in edges.items():
            write_atomic(self.folder / f"readers-{shard:02x}", msgspec.msgpack.encode(rows), durable=False)

    def _row(self, key: Key, record: Record) -> list[Any]:
        row = [key[0], key[1], record.fingerprint, [[r[0], r[1], seen] for r, seen in record.reads]]
        if record.value is not ABSENT:
            value = self._encode(key, record.value)
            if value is not ABSENT:
                row.append(value)
        return row

    def all_records(self) -> Iterator[tuple[Key, Record]]:
        """Every record, every shard read (for a full save or a check)."""
        for shard in range(SHARDS):
            self.load_records(shard)
        yield from dict.items(self.records)


def _read(path: Path) -> bytes:
    with open(path, "rb") as file:
        return file.read()


_PROBES: dict[int, Key] = {}


def _probe(shard: int) -> Key:
    """Some key that falls in `shard` (to read that shard of reverse edges through `readers_of`)."""
    if not _PROBES:
        n = 0
        while len(_PROBES) < SHARDS:
            key: Key = ("probe", n)
            _PROBES.setdefault(shard_of(key), key)
            n += 1
    return _PROBES[shard]


def remove(folder: Path) -> None:
    """Forget a saved memo (its stamp first, so a half-removed one never reads as valid)."""
    (folder / "stamp").unlink(missing_ok=True)
    for name in os.listdir(folder) if folder.is_dir() else ():
        (folder / name).unlink(missing_ok=True)

