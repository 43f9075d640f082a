"""Reading the memo on disk: its file opened under a stamp, records, keys and reverse edges read as asked for.

Nothing is read whole but the id -> fingerprint table (16 bytes a record, loaded at open, and
all that verifying a record needs). A record's reads and value are read when a step that
re-runs needs them; the readers of a key (reverse edges) when an update follows them. While
a memo is made from nothing, the records the render workers made are read from their parts
(parts.py). A row that fails its checksum (rows.py) or a file SQLite cannot read raises
MemoDamaged; a file saved under another stamp reads as empty. Saving changes: store.py.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import msgspec

from . import parts, rows
from .hops import Hops
from .memo import Decode, Encode, Key, Memo, Record, key_id
from .rows import FILE, MemoDamaged


class StoredMemo(Memo):
    """A memo whose records, values and reverse edges come from a SQLite file as they are asked for."""

    def __init__(self, folder: Path, stamp: str, encode: Encode | None, decode: Decode | None):
        super().__init__(encode, decode)
        self.folder, self.path = folder, folder / FILE
        self.stamp = f"{stamp}:{sys.byteorder}"  # reads and ids are stored as native integer arrays
        self._db: sqlite3.Connection | None = None
        self._checks: dict[int, int] = {}  # the saved row checksum of each record read from the file
        self._loaded_readers: set[int] = set()
        self.meta: dict[str, bytes] = {}  # small named blobs saved with the memo (the build's table)
        self._parts = parts.Parts()  # a memo made from nothing across render workers: what they wrote
        self.hops = Hops()  # readers spared by changes, whose rows still say what they saw before (hops.py)
        parts.remove_stale(folder)
        self.valid = self._open()
        self._readers = {} if self.valid else None  # a memo made from nothing makes its edges when first asked

    def _open(self) -> bool:
        """Whether the file holds a memo under this stamp, whole; its fingerprints loaded if so."""
        opened = rows.opened(self.path, self.stamp.encode())
        if opened is None:
            return False
        self._db, self.meta, self.fingerprints = opened
        try:
            self.hops = Hops(self.meta.get(rows.HOPS, b""))
        except ValueError:
            self.close()
            self.meta, self.fingerprints = {}, {}
            return False
        return True

    # -- reading ------------------------------------------------------------------------
    def get(self, key: Key) -> Record | None:
        record = self.records.get(key)
        if record is not None:
            return record
        if self._db is None:
            return self._in_parts(key) if self._parts.paths else None
        ident = key_id(key)
        fingerprint = self.fingerprints.get(ident)
        if fingerprint is None:
            return None
        row = _first(self._query(f"SELECT {rows.RECORD_COLUMNS} FROM memo WHERE id = ?", (ident,)))
        if row is None:
            raise MemoDamaged(f"no row for {key!r}")
        return self._keep(key, ident, rows.record_of(ident, key, row, fingerprint), row[-1])

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

    def load_ids(self, idents: Iterable[int]) -> None:
        """Read the rows of the ids not read yet in one query (what a page that runs again read last time)."""
        if self._db is None:
            return
        keys, records, fingerprints = self.keys, self.records, self.fingerprints
        wanted = [i for i in idents if (i not in keys or keys[i] not in records) and fingerprints.get(i) is not None]
        if len(wanted) < 2:
            return  # none, or one the step's own read fetches as cheaply
        found = self._query(f"SELECT id, {rows.RECORD_COLUMNS} FROM memo WHERE id IN (SELECT value FROM json_each(?))",
                            (msgspec.json.encode(wanted),))
        if len(found) != len(set(wanted)):
            raise MemoDamaged("rows missing")
        for ident, *row in found:
            key, record = rows.keyed_record(ident, row, fingerprints.get(ident))
            self._keep(key, ident, record, row[-1])

    def spared(self, ident: int, old: int, new: int, readers: list[Key]) -> tuple[set[Key], Callable[[], None] | None]:
        """The readers not read from the file yet, answered for by a hop rather than read and rewritten."""
        if self._db is None:
            return set(), None
        records = self.records
        return {reader for reader in readers if reader not in records}, self.hops.add(ident, old, new)

    def _keep(self, key: Key, ident: int, record: Record, check: int) -> Record:
        """A record read from the file, as seeing where the hops of its reads lead, kept with its row's check."""
        if self.hops:
            record = self.hops.patched(record, self.fingerprints.get)
        self.records[key] = record
        self.keys[ident] = key
        self._checks[ident] = check
        return record

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
            if self._readers is None and self._parts.paths:  # made now: the records at hand, and those in parts
                super().readers_of(ident)
                assert self._readers is not None
                self._parts.link(self._readers)
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

    # -- a memo made from nothing by render workers (parts.py) -------------------------------
    def makes_parts(self) -> bool:
        """Whether render workers write the rows of their records to parts of this memo: it is made from
        nothing, across forked processes."""
        return self._db is None and os.name == "posix"

    def take_part(self, path: Path, told: list[tuple[int, int, bytes]]) -> None:
        """In the parent: a worker's part, and each record's id, fingerprint and reads (ids) in the chunk it wrote."""
        self._parts.take(path, told, self.fingerprints)

    def _in_parts(self, key: Key) -> Record | None:
        """A record a render worker made, read from its part (the search index reads the papers after rendering)."""
        ident = key_id(key)
        fingerprint = self.fingerprints.get(ident)
        if fingerprint is None:
            return None
        try:
            row = self._parts.row(ident)
        except sqlite3.Error as exc:
            raise MemoDamaged(str(exc)) from exc
        if row is None:
            raise MemoDamaged(f"no row for {key!r}")
        record = self._keep(key, ident, rows.record_of(ident, key, row, fingerprint), row[-1])  # type: ignore[arg-type]
        self._parts.read_back.add(ident)
        return record

    def close(self) -> None:
        """Close the file; parts not merged into it (a build that failed) are removed."""
        self._parts.remove()
        db, self._db = self._db, None
        if db is not None:
            db.close()



def _first(found: list[Any]) -> Any:
    """The first row of a query's answer, or None."""
    return found[0] if found else None
