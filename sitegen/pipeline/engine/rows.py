"""The memo's file: its SQLite tables, each row as written and as checked when read, and a new file made whole.

SQLite checks its own structure, not the bytes a row holds, so every row carries a 63-bit
checksum of its fields; `store.DiskMemo` discards the whole memo when one fails.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import struct
from array import array
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
import xxhash

from .fingerprints import FingerprintTable
from .memo import ABSENT, Encode, Key, Record, argument_of, packed

FILE = "memo.sqlite"
FINGERPRINTS = "fingerprints"  # the meta row of every record's id and fingerprint
CHANGES = "fingerprint-changes"  # the meta row of the fingerprints changed since that one was written
READERS = "readers"  # the meta row of how many rows the readers table has
HOPS = "hops"  # the meta row of the changes whose spared readers' rows were not rewritten (hops.py)
# Records are appended in the order they are made, found by a unique index on their id: with the id as the
# table's key, each row went to a random place in its tree (120,000 rows of a render worker's part took 1.2 s
# to insert, appended 0.4 s), and merging the workers' parts in order of id took 1.1 s more than appending.
MEMO_TABLE = """CREATE TABLE memo (id INTEGER NOT NULL, step TEXT NOT NULL, argument BLOB NOT NULL,
                   key_check INTEGER NOT NULL, fingerprint INTEGER NOT NULL, reads BLOB NOT NULL, value BLOB,
                   checksum INTEGER NOT NULL);
CREATE UNIQUE INDEX memo_id ON memo (id)"""
SCHEMA = f"""
CREATE TABLE meta (name TEXT PRIMARY KEY, value BLOB NOT NULL, checksum INTEGER NOT NULL);
{MEMO_TABLE};
CREATE TABLE readers (id INTEGER PRIMARY KEY, ids BLOB NOT NULL, checksum INTEGER NOT NULL);
"""
RECORD_COLUMNS = "step, argument, key_check, fingerprint, reads, value, checksum"
ROW_VALUES = "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"  # a MemoRow
MemoRow = tuple[int, str, bytes, int, int, bytes, bytes | None, int]
_MASK = (1 << 63) - 1
_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder().decode


class MemoDamaged(Exception):
    """A row of the memo on disk failed its checksum, or SQLite could not read it: the memo is not to be trusted."""


def checksum(*parts: bytes | str) -> int:
    """A 63-bit digest of a small row's fields, each framed by its length (meta rows, readers rows)."""
    data = [p.encode("utf-8", "surrogatepass") if isinstance(p, str) else p for p in parts]
    return xxhash.xxh3_64_intdigest(_LENGTHS(len(data)).pack(*map(len, data)) + b"".join(data)) & _MASK


def _record_check(ident: int, step: str, argument: bytes, key_check: int, fingerprint: int, reads: bytes,
                  value: bytes | None) -> int:
    """A record row's checksum: one digest over its fields, framed by their lengths."""
    name = step.encode()
    tail = value if value is not None else b""
    head = _RECORD_HEAD.pack(ident, key_check, fingerprint, len(name), len(argument), len(reads),
                             -1 if value is None else len(tail))
    return xxhash.xxh3_64_intdigest(head + name + argument + reads + tail) & _MASK


def _key_check(ident: int, step: str, argument: bytes) -> int:
    name = step.encode()
    return xxhash.xxh3_64_intdigest(_KEY_HEAD.pack(ident, len(name)) + name + argument) & _MASK


_RECORD_HEAD = struct.Struct("<qqqiiii")
_KEY_HEAD = struct.Struct("<qi")


def _LENGTHS(count: int) -> struct.Struct:
    found = _STRUCTS.get(count)
    if found is None:
        found = _STRUCTS[count] = struct.Struct(f"<{count}i")
    return found


_STRUCTS: dict[int, struct.Struct] = {}


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA synchronous=OFF")  # a killed process loses nothing; a lost machine loses a cache
    db.execute("PRAGMA cache_size=-512")  # KiB: rows are read once each, and the system caches the file anyway
    return db


def opened(path: Path, stamp: bytes) -> tuple[sqlite3.Connection, dict[str, bytes], FingerprintTable] | None:
    """The memo file at `path`, its meta rows and its fingerprint table, if it is whole and under `stamp`."""
    if not path.is_file():
        return None
    db = None
    try:
        db = connect(path)
        meta = {}
        for name, value, check in db.execute("SELECT name, value, checksum FROM meta"):
            if checksum(name, value) != check:
                raise MemoDamaged(name)
            meta[name] = bytes(value)
        if meta.get("stamp") != stamp:
            db.close()
            return None
        if len(meta[FINGERPRINTS]) % 16 or len(meta.get(CHANGES, b"")) % 16:
            raise MemoDamaged(FINGERPRINTS)
        fingerprints = FingerprintTable(meta.pop(FINGERPRINTS))  # kept as arrays, not twice
        fingerprints.apply(meta.get(CHANGES, b""))
        # a page of reverse edges lost (zeroed, cut short) that SQLite does not notice on the way to one row
        # (a record's row lost is found when it is read: the fingerprint table names every record)
        if db.execute("SELECT count(*) FROM readers").fetchone()[0] != int(meta[READERS]):
            raise MemoDamaged("rows missing")
    except (sqlite3.Error, MemoDamaged, OSError, ValueError, TypeError, LookupError):
        if db is not None:
            db.close()
        return None
    return db, meta, fingerprints


def memo_row(key: Key, record: Record, encode: Encode | None) -> MemoRow:
    """A record as its row: the key, its check, the fingerprint, the reads (ids then fingerprints), the value."""
    argument = _encode(key[1])
    value = record.saved
    if value is None and record.value is not ABSENT and encode is not None:
        encoded = encode(key, record.value)
        value = None if encoded is ABSENT else packed(_encode(encoded))
    reads = record.reads.tobytes() + record.seen.tobytes()
    key_check = _key_check(record.id, key[0], argument)
    return (record.id, key[0], argument, key_check, record.fingerprint, reads, value,
            _record_check(record.id, key[0], argument, key_check, record.fingerprint, reads, value))


def record_of(ident: int, key: Key, row: tuple[Any, ...], fingerprint: int | None) -> Record:
    """The record a row (RECORD_COLUMNS) holds, once it is checked to be whole and `key`'s."""
    try:
        found, record = keyed_record(ident, row, fingerprint)
    except MemoDamaged:
        found = None
    if found != key:
        raise MemoDamaged(f"the row of {key!r}")
    return record


def keyed_record(ident: int, row: tuple[Any, ...], fingerprint: int | None) -> tuple[Key, Record]:
    """The key and record a row (RECORD_COLUMNS) holds, once it is checked to be whole."""
    step, argument, key_check, saved_fingerprint, reads, value, check = row
    if _record_check(ident, step, argument, key_check, saved_fingerprint, reads, value) != check \
            or saved_fingerprint != fingerprint:
        raise MemoDamaged(f"the row of record {ident}")
    key = key_of(ident, step, argument, key_check)
    ids = array("q")
    ids.frombytes(reads)
    half = len(ids) // 2
    saved = None if value is None else bytes(value)
    return key, Record(ident, saved_fingerprint, ids[:half], ids[half:], ABSENT, saved)


def key_of(ident: int, step: str, argument: bytes, check: int) -> Key:
    """A row's key, once checked."""
    if _key_check(ident, step, argument) != check:
        raise MemoDamaged(f"the key of record {ident}")
    try:
        return step, argument_of(_decode(argument))
    except msgspec.DecodeError as exc:
        raise MemoDamaged(f"the key of record {ident}") from exc


def reader_row(ident: int, readers: set[int]) -> tuple[int, bytes, int]:
    data = array("q", sorted(readers)).tobytes()
    return ident, data, _key_check(ident, "", data)


def readers_of(ident: int, data: bytes, check: int) -> array[int]:
    """The reader ids a row of `readers` holds, once checked."""
    if _key_check(ident, "", data) != check:
        raise MemoDamaged(f"the readers of record {ident}")
    ids = array("q")
    ids.frombytes(data)
    return ids


def meta_rows(meta: dict[str, bytes], names: Iterable[str]) -> Iterator[tuple[str, bytes, int]]:
    for name in sorted(names):
        yield name, meta[name], checksum(name, meta[name])


def write_changes(db: sqlite3.Connection, dropped: list[tuple[int]], changed: list[MemoRow],
                  readers: dict[int, set[int]], moved: set[int], meta: dict[str, bytes], meta_moved: set[str]) -> None:
    """An update's rows written in one transaction: all of them, or (killed, failed) none."""
    try:
        db.execute("BEGIN IMMEDIATE")
        db.executemany("DELETE FROM memo WHERE id = ?", dropped)
        db.executemany(f"INSERT OR REPLACE INTO memo {ROW_VALUES}", changed)
        db.executemany("DELETE FROM readers WHERE id = ?", ((i,) for i in moved if not readers.get(i)))
        db.executemany("INSERT OR REPLACE INTO readers VALUES (?, ?, ?)",
                       (reader_row(i, readers[i]) for i in moved if readers.get(i)))
        if moved:  # how many there are, checked at open (see store.DiskMemo._open)
            meta[READERS] = str(db.execute("SELECT count(*) FROM readers").fetchone()[0]).encode()
            meta_moved.add(READERS)
        db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?, ?)", meta_rows(meta, meta_moved))
        db.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise


def write_new(folder: Path, records: Iterable[MemoRow], readers: Iterable[tuple[int, bytes, int]],
              meta: Iterable[tuple[str, bytes, int]], parts: Sequence[Path] = (), dropped: Sequence[int] = ()) -> None:
    """A new memo file, made beside the old one and renamed over it: a killed write leaves the old one.

    The rows of `parts` (files the render workers wrote, parts.py) are copied in after `records`,
    each in one statement: a row that `records` holds too is kept as `records` has it, and the ids
    `dropped` since are left out."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        folder.unlink()  # a damaged cache: a file where the folder was
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE
    temporary = folder / f".{FILE}.{os.getpid()}"
    temporary.unlink(missing_ok=True)
    db = sqlite3.connect(temporary, isolation_level=None)
    try:
        db.execute("PRAGMA page_size=16384")  # rows of a few KB: a fifth less file than with 4 KB pages
        db.execute("PRAGMA journal_mode=OFF")
        db.execute("PRAGMA synchronous=OFF")
        db.executescript(SCHEMA)
        for i, part in enumerate(parts):
            db.execute(f"ATTACH DATABASE ? AS part{i}", (str(part),))
        db.execute("BEGIN")
        db.executemany(f"INSERT INTO memo {ROW_VALUES}", records)
        for i in range(len(parts)):  # a record two workers both made is in both parts: the same row
            db.execute(f"INSERT OR IGNORE INTO memo SELECT * FROM part{i}.memo")
        if parts:
            db.executemany("DELETE FROM memo WHERE id = ?", ((i,) for i in dropped))  # dropped since they were made
        db.executemany("INSERT INTO readers VALUES (?, ?, ?)", readers)
        db.executemany("INSERT INTO meta VALUES (?, ?, ?)", meta)
        db.execute("COMMIT")
        for i in range(len(parts)):
            db.execute(f"DETACH DATABASE part{i}")
        db.close()
        _remove_journals(folder)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(Exception):
            db.close()
        temporary.unlink(missing_ok=True)
        raise


def _remove_journals(folder: Path) -> None:
    """The journal files beside a memo file, which belong to the file a new one replaces."""
    for name in (f"{FILE}-journal", f"{FILE}-wal", f"{FILE}-shm"):
        path = folder / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
