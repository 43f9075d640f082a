"""Saving the memo on disk: only the rows that changed, in one transaction; a memo made from nothing, anew.

A one-title edit at 10,000 papers touches a few hundred of the memo's 200,000 records: only
the rows that differ from the saved ones are written, in one transaction, which is what makes
a killed build leave the memo as it was (there is no stamp-last protocol). A memo made from
nothing is written into a new file beside the old one, with the rows its render workers wrote
(parts.py). Reading it: stored.py. Why SQLite and these tables: docs/engine.md.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from . import rows
from .fingerprints import FingerprintTable, table_bytes
from .hops import Hops
from .memo import Decode, Encode, Key, Record
from .rows import FILE, MemoDamaged
from .stored import StoredMemo

__all__ = ["FILE", "DiskMemo", "MemoDamaged"]


class DiskMemo(StoredMemo):
    """A memo on disk (stored.py) that saves what changed in it: only the rows that differ, in one transaction."""

    def __init__(self, folder: Path, stamp: str, encode: Encode | None, decode: Decode | None):
        self._put: set[Key] = set()  # records put here (written if their row differs from the saved one)
        self._dropped: set[int] = set()
        self._dirty_readers: set[int] = set()
        self._meta_moved: set[str] = set()
        super().__init__(folder, stamp, encode, decode)

    # -- changes ---------------------------------------------------------------------------
    def put(self, key: Key, record: Record) -> None:
        if self._db is not None:
            old = self.get(key)  # its row read first: the reverse edges it leaves are known
            if old is None or old.reads != record.reads:
                for read in set(old.reads if old is not None else ()) ^ set(record.reads):  # edges gained or lost
                    self.readers_of(read)
                    self._dirty_readers.add(read)
        super().put(key, record)
        self._put.add(key)
        self._parts.read_back.discard(record.id)  # made here again: written as made here

    def drop(self, key: Key) -> None:
        old = self.get(key)
        if old is not None and self._db is not None:
            for read in set(old.reads):
                self.readers_of(read)
                self._dirty_readers.add(read)
        if old is not None:
            self._dropped.add(old.id)
        self._put.discard(key)
        super().drop(key)

    def set_meta(self, name: str, value: bytes) -> None:
        """Save a named blob with the memo's next write."""
        self.meta[name] = value
        self._meta_moved.add(name)

    # -- writing -----------------------------------------------------------------------------
    def write(self) -> None:
        """Save what changed here: every row of a memo made from nothing, else the rows that differ."""
        if self._db is None:
            self._write_new()
            return
        db = self._db
        if self.hops.moved:
            self.set_meta(rows.HOPS, self.hops.to_bytes())
            self.hops.moved = False
        changed = list(self._changed_rows())
        dropped = [(i,) for i in self._dropped if i not in self.fingerprints]
        if changed or dropped:
            self._save_fingerprints()

        if not changed and not dropped and not self._dirty_readers and not self._meta_moved:
            self._written()
            return
        assert self._readers is not None
        try:
            rows.write_changes(db, dropped, changed, self._readers, self._dirty_readers, self.meta, self._meta_moved)
        except BaseException:
            for row in changed:  # not saved after all: their saved rows stand
                self._checks.pop(row[0], None)
            raise
        self._written()

    def _save_fingerprints(self) -> None:
        """The fingerprint table saved with the next write: the changes since it was saved whole, or whole."""
        table = self.fingerprints
        if isinstance(table, FingerprintTable) and not table.worth_saving_whole():
            self.set_meta(rows.CHANGES, table.changes())
            return
        self.set_meta(rows.FINGERPRINTS, table_bytes(table.items()))
        if self.meta.get(rows.CHANGES):
            self.set_meta(rows.CHANGES, b"")

    def _changed_rows(self) -> Iterator[rows.MemoRow]:
        """The rows put here that differ from the saved ones (a step that came out as it was keeps its row)."""
        checks = self._checks
        for key in self._put:
            record = self.records.get(key)
            if record is not None:
                row = self._row(key, record)
                if checks.get(record.id) != row[-1]:
                    checks[record.id] = row[-1]
                    yield row

    def _row(self, key: Key, record: Record) -> rows.MemoRow:
        return rows.memo_row(key, record, self.encode)

    def _write_new(self) -> None:
        """Every record into a new file (see rows.write_new)."""
        self.readers_of(0)  # every reverse edge, made from the records in one pass
        readers = self._readers
        assert readers is not None
        self.meta["stamp"] = self.stamp.encode()
        self.meta[rows.FINGERPRINTS] = table_bytes(self.fingerprints.items())
        self.meta[rows.CHANGES] = b""
        self.meta.pop(rows.HOPS, None)  # every row as made here: none saw a fingerprint before its last
        self.hops = Hops()
        self.meta[rows.READERS] = str(sum(1 for found in readers.values() if found)).encode()
        checks = self._checks

        from_part = self._parts.read_back

        def records() -> Iterator[rows.MemoRow]:
            for key, record in self.records.items():
                if record.id not in from_part:  # as read from its part, its row is there
                    row = self._row(key, record)
                    checks[row[0]] = row[-1]
                    yield row

        edges = (rows.reader_row(i, found) for i, found in sorted(readers.items()) if found)
        dropped = [i for i in self._dropped if i not in self.fingerprints] if self._parts.paths else []
        rows.write_new(self.folder, records(), edges, rows.meta_rows(self.meta, self.meta), self._parts.paths, dropped)
        self._parts.remove()
        self._db = rows.connect(self.path)
        self._loaded_readers = set(readers)
        self.valid = True
        self._written()

    def _written(self) -> None:
        self._put, self._dropped, self._dirty_readers, self._meta_moved = set(), set(), set(), set()

    def discard(self) -> None:
        """Read as empty from now on (what the file holds is not to be trusted); the next write makes it anew."""
        self.close()
        self.records, self.fingerprints, self.keys, self.meta = {}, {}, {}, {}
        self._readers, self._checks, self.valid, self._loaded_readers = None, {}, False, set()
        self.hops = Hops()
        self._written()
