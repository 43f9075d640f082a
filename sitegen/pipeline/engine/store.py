"""The memo on disk: one SQLite file, fingerprints apart from values, rows read and written one by one.

A one-title edit at 10,000 papers touches a few hundred of the memo's 200,000 records, so
nothing is read whole but the id -> fingerprint table (16 bytes a record, loaded at open,
and all that verifying a record needs). A record's reads and value are read when a step
that re-runs needs them; the readers of a key (reverse edges) when an update follows
them. At the end only the rows that changed are written, in one transaction, which is
what makes a killed build leave the memo as it was: there is no stamp-last protocol.

A row that fails its checksum (rows.py) or a file SQLite cannot read raises MemoDamaged,
and the build starts again from an empty memo; a file saved under another stamp
(sitegen's code, the build's settings) reads as empty. Values cross as msgpack through
each step's codec, or not at all. Why SQLite and these tables: docs/engine.md.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
from array import array
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec

from . import parts, rows
from .fingerprints import FingerprintTable, table_bytes
from .memo import Decode, Encode, Key, Memo, Record, key_id, link
from .rows import FILE, MemoDamaged

__all__ = ["FILE", "DiskMemo", "MemoDamaged"]


class DiskMemo(Memo):
    """A memo whose records, values and reverse edges come from a SQLite file as they are asked for."""

    def __init__(self, folder: Path, stamp: str, encode: Encode, decode: Decode):
        super().__init__(encode, decode)
        self.folder, self.path = folder, folder / FILE
        self.stamp = f"{stamp}:{sys.byteorder}"  # reads and ids are stored as native integer arrays
        self._db: sqlite3.Connection | None = None
        self._put: set[Key] = set()  # records put here (written if their row differs from the saved one)
        self._dropped: set[int] = set()
        self._checks: dict[int, int] = {}  # the saved row checksum of each record read from the file
        self._loaded_readers: set[int] = set()
        self._dirty_readers: set[int] = set()
        self.meta: dict[str, bytes] = {}  # small named blobs saved with the memo (the build's table)
        self._meta_moved: set[str] = set()
        # a memo made from nothing across render workers (parts.py): the parts they wrote, the parts' rows
        # read meanwhile, what each record the parts hold read (for the reverse edges), and the rows read
        self._parts: list[Path] = []
        self._part_dbs: list[sqlite3.Connection] | None = None
        self._elsewhere: list[tuple[int, bytes]] = []
        self._from_part: set[int] = set()
        parts.remove_stale(folder)
        self.valid = self._open()
        self._readers = {} if self.valid else None  # a memo made from nothing makes its edges when first asked

    def _open(self) -> bool:
        """Whether the file holds a memo under this stamp, whole; its fingerprints loaded if so."""
        opened = rows.opened(self.path, self.stamp.encode())
        if opened is None:
            return False
        self._db, self.meta, self.fingerprints = opened
        return True

    # -- reading ------------------------------------------------------------------------
    def get(self, key: Key) -> Record | None:
        record = self.records.get(key)
        if record is not None:
            return record
        if self._db is None:
            return self._in_parts(key) if self._parts else None
        ident = key_id(key)
        fingerprint = self.fingerprints.get(ident)
        if fingerprint is None:
            return None
        row = _first(self._query(f"SELECT {rows.RECORD_COLUMNS} FROM memo WHERE id = ?", (ident,)))
        if row is None:
            raise MemoDamaged(f"no row for {key!r}")
        record = rows.record_of(ident, key, row, fingerprint)
        self._keep(key, ident, record, row[-1])
        return record

    def load_many(self, keys: Iterable[Key]) -> None:
        """Read the rows of many keys in one query (a whole-list file's 10,000 citations, the model's rows)."""
        if self._db is None:
            return
        wanted = {key_id(key): key for key in keys if key not in self.records}
        wanted = {ident: key for ident, key in wanted.items() if ident in self.fingerprints}
        if not wanted:
            return
        found = self._query(f"SELECT id, {rows.RECORD_COLUMNS} FROM memo WHERE id IN (SELECT value FROM json_each(?))",
                            (msgspec.json.encode(list(wanted)),))
        if len(found) != len(wanted):
            raise MemoDamaged("rows missing")
        for ident, *row in found:
            self._keep(wanted[ident], ident, rows.record_of(ident, wanted[ident], row, self.fingerprints[ident]),
                       row[-1])

    def _keep(self, key: Key, ident: int, record: Record, check: int) -> None:
        self.records[key] = record
        self.keys[ident] = key
        self._checks[ident] = check

    def keys_of(self, idents: Iterable[int]) -> dict[int, Key]:
        wanted = list(idents)
        found = super().keys_of(wanted)
        missing = [i for i in wanted if i not in found and i in self.fingerprints]
        if missing and self._db is not None:
            for ident, step, argument, check in self._query(
                    "SELECT id, step, argument, key_check FROM memo WHERE id IN (SELECT value FROM json_each(?))",
                    (msgspec.json.encode(missing),)):
                self.keys[ident] = found[ident] = rows.key_of(ident, step, argument, check)
        return found

    def keys_of_step(self, name: str) -> list[Key]:
        keys = set(super().keys_of_step(name))
        if self._db is not None:
            ids = [i for (i,) in self._query("SELECT id FROM memo WHERE step = ?", (name,)) if i in self.fingerprints]
            keys.update(self.keys_of(ids).values())
        return sorted(keys, key=repr)

    def readers_of(self, ident: int) -> set[int]:
        if self._db is None:
            if self._readers is None and self._elsewhere:  # made now: the records at hand, and those in parts
                super().readers_of(ident)
                assert self._readers is not None
                for reader, reads in self._elsewhere:
                    ids = array("q")
                    ids.frombytes(reads)
                    link(self._readers, reader, ids)
            return super().readers_of(ident)
        assert self._readers is not None
        if ident not in self._loaded_readers:
            self._loaded_readers.add(ident)
            row = _first(self._query("SELECT ids, checksum FROM readers WHERE id = ?", (ident,)))
            if row is not None:
                self._readers.setdefault(ident, set()).update(rows.readers_of(ident, *row))
        return self._readers.get(ident, set())

    def _query(self, sql: str, parameters: tuple[Any, ...]) -> list[Any]:
        assert self._db is not None
        try:  # every row fetched here: a page found damaged while they are read is a damaged memo too
            return self._db.execute(sql, parameters).fetchall()
        except sqlite3.Error as exc:
            raise MemoDamaged(str(exc)) from exc

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
        self._from_part.discard(record.id)  # made here again: written as made here

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
        self.meta[rows.READERS] = str(sum(1 for found in readers.values() if found)).encode()
        checks = self._checks

        from_part = self._from_part

        def records() -> Iterator[rows.MemoRow]:
            for key, record in self.records.items():
                if record.id not in from_part:  # as read from its part, its row is there
                    row = self._row(key, record)
                    checks[row[0]] = row[-1]
                    yield row

        edges = (rows.reader_row(i, found) for i, found in sorted(readers.items()) if found)
        dropped = [i for i in self._dropped if i not in self.fingerprints] if self._parts else []
        rows.write_new(self.folder, records(), edges, rows.meta_rows(self.meta, self.meta), self._parts, dropped)
        self._remove_parts()
        self._db = rows.connect(self.path)
        self._loaded_readers = set(readers)
        self.valid = True
        self._written()

    # -- a memo made from nothing by render workers (parts.py) -------------------------------
    def makes_parts(self) -> bool:
        """Whether render workers write the rows of their records to parts of this memo: it is made from
        nothing, across forked processes."""
        return self._db is None and os.name == "posix"

    def take_part(self, path: Path, made: list[tuple[int, int, bytes]]) -> None:
        """In the parent: a worker's part, and each record's id, fingerprint and reads (ids) in the chunk it wrote."""
        if path not in self._parts:
            self._parts.append(path)
        fingerprints = self.fingerprints
        for ident, fingerprint, reads in made:
            if ident not in fingerprints:  # made by both workers: one record
                fingerprints[ident] = fingerprint
                self._elsewhere.append((ident, reads))

    def _in_parts(self, key: Key) -> Record | None:
        """A record a render worker made, read from its part (the search index reads the papers after rendering)."""
        ident = key_id(key)
        fingerprint = self.fingerprints.get(ident)
        if fingerprint is None:
            return None
        try:
            if self._part_dbs is None:
                self._part_dbs = [rows.connect(path) for path in self._parts]
            for db in self._part_dbs:
                row = _first(db.execute(f"SELECT {rows.RECORD_COLUMNS} FROM memo WHERE id = ?", (ident,)).fetchall())
                if row is not None:
                    record = rows.record_of(ident, key, row, fingerprint)
                    self._keep(key, ident, record, row[-1])
                    self._from_part.add(ident)
                    return record
        except sqlite3.Error as exc:
            raise MemoDamaged(str(exc)) from exc
        raise MemoDamaged(f"no row for {key!r}")

    def _remove_parts(self) -> None:
        for db in self._part_dbs or ():
            db.close()
        for path in self._parts:
            with contextlib.suppress(OSError):
                path.unlink()
        self._parts, self._part_dbs, self._elsewhere, self._from_part = [], None, [], set()

    def _written(self) -> None:
        self._put, self._dropped, self._dirty_readers, self._meta_moved = set(), set(), set(), set()

    def discard(self) -> None:
        """Read as empty from now on (what the file holds is not to be trusted); the next write makes it anew."""
        self.close()
        self.records, self.fingerprints, self.keys, self.meta = {}, {}, {}, {}
        self._readers, self._checks, self.valid, self._loaded_readers = None, {}, False, set()
        self._written()

    def close(self) -> None:
        """Close the file; parts not merged into it (a build that failed) are removed."""
        self._remove_parts()
        db, self._db = self._db, None
        if db is not None:
            db.close()


def _first(found: list[Any]) -> Any:
    """The first row of a query's answer, or None."""
    return found[0] if found else None
