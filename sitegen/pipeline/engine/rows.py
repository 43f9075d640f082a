"""The memo's file: its SQLite tables, each row as written and as checked when read, and a new file made whole.

SQLite checks its own structure, not the bytes a row holds, so every row carries a 63-bit
checksum of its fields; `store.DiskMemo` discards the whole memo when one fails.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
from array import array
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import xxhash

from .memo import ABSENT, Encode, Key, Record, argument_of

FILE = "memo.sqlite"
SCHEMA = """
CREATE TABLE meta (name TEXT PRIMARY KEY, value BLOB NOT NULL, checksum INTEGER NOT NULL);
CREATE TABLE memo (id INTEGER PRIMARY KEY, step TEXT NOT NULL, argument BLOB NOT NULL, key_check INTEGER NOT NULL,
                   fingerprint INTEGER NOT NULL, reads BLOB NOT NULL, value BLOB, checksum INTEGER NOT NULL);
CREATE INDEX memo_step ON memo (step);
CREATE TABLE readers (id INTEGER PRIMARY KEY, ids BLOB NOT NULL, checksum INTEGER NOT NULL);
"""
RECORD_COLUMNS = "step, argument, key_check, fingerprint, reads, value, checksum"
MemoRow = tuple[int, str, bytes, int, int, bytes, bytes | None, int]
_MASK = (1 << 63) - 1
_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder().decode


class MemoDamaged(Exception):
    """A row of the memo on disk failed its checksum, or SQLite could not read it: the memo is not to be trusted."""


def checksum(*parts: bytes | str | int | None) -> int:
    """A 63-bit digest of a row's fields, each framed by its length."""
    hasher = xxhash.xxh3_64()
    for part in parts:
        data = (part.encode("utf-8", "surrogatepass") if isinstance(part, str) else b"\xff" if part is None
                else part.to_bytes(8, "little", signed=True) if isinstance(part, int) else part)
        hasher.update(len(data).to_bytes(4, "little"))
        hasher.update(data)
    return hasher.intdigest() & _MASK


def connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA synchronous=OFF")  # a killed process loses nothing; a lost machine loses a cache
    return db


def memo_row(key: Key, record: Record, encode: Encode | None) -> MemoRow:
    """A record as its row: the key, its check, the fingerprint, the reads (ids then fingerprints), the value."""
    argument = _encode(key[1])
    value = record.saved
    if value is None and record.value is not ABSENT and encode is not None:
        encoded = encode(key, record.value)
        value = None if encoded is ABSENT else _encode(encoded)
    reads = record.reads.tobytes() + record.seen.tobytes()
    key_check = checksum(record.id, key[0], argument)
    return (record.id, key[0], argument, key_check, record.fingerprint, reads, value,
            checksum(record.id, key[0], argument, key_check, record.fingerprint, reads, value))


def record_of(ident: int, key: Key, row: tuple[Any, ...], fingerprint: int | None) -> Record:
    """The record a row (RECORD_COLUMNS) holds, once it is checked to be whole and `key`'s."""
    step, argument, key_check, saved_fingerprint, reads, value, check = row
    if checksum(ident, step, argument, key_check, saved_fingerprint, reads, value) != check \
            or key_of(ident, step, argument, key_check) != key or saved_fingerprint != fingerprint:
        raise MemoDamaged(f"the row of {key!r}")
    ids = array("q")
    ids.frombytes(reads)
    half = len(ids) // 2
    return Record(ident, saved_fingerprint, ids[:half], ids[half:], ABSENT, None if value is None else bytes(value))


def key_of(ident: int, step: str, argument: bytes, check: int) -> Key:
    """A row's key, once checked."""
    if checksum(ident, step, argument) != check:
        raise MemoDamaged(f"the key of record {ident}")
    try:
        return step, argument_of(_decode(argument))
    except msgspec.DecodeError as exc:
        raise MemoDamaged(f"the key of record {ident}") from exc


def reader_row(ident: int, readers: set[int]) -> tuple[int, bytes, int]:
    data = array("q", sorted(readers)).tobytes()
    return ident, data, checksum(ident, data)


def readers_of(ident: int, data: bytes, check: int) -> array[int]:
    """The reader ids a row of `readers` holds, once checked."""
    if checksum(ident, data) != check:
        raise MemoDamaged(f"the readers of record {ident}")
    ids = array("q")
    ids.frombytes(data)
    return ids


def meta_rows(meta: dict[str, bytes], names: Iterable[str]) -> Iterator[tuple[str, bytes, int]]:
    for name in sorted(names):
        yield name, meta[name], checksum(name, meta[name])


def write_new(folder: Path, records: Iterable[MemoRow], readers: Iterable[tuple[int, bytes, int]],
              meta: Iterable[tuple[str, bytes, int]]) -> None:
    """A new memo file, made beside the old one and renamed over it: a killed write leaves the old one."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        folder.unlink()  # a damaged cache: a file where the folder was
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE
    temporary = folder / f".{FILE}.{os.getpid()}"
    temporary.unlink(missing_ok=True)
    db = sqlite3.connect(temporary, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=OFF")
        db.execute("PRAGMA synchronous=OFF")
        db.executescript(SCHEMA)
        db.execute("BEGIN")
        db.executemany("INSERT INTO memo VALUES (?, ?, ?, ?, ?, ?, ?, ?)", records)
        db.executemany("INSERT INTO readers VALUES (?, ?, ?)", readers)
        db.executemany("INSERT INTO meta VALUES (?, ?, ?)", meta)
        db.execute("COMMIT")
        db.close()
        remove(folder, keep_main=True)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(Exception):
            db.close()
        temporary.unlink(missing_ok=True)
        raise


def remove(folder: Path, keep_main: bool = False) -> None:
    """Forget a saved memo (or only the journal files beside it, which belong to the file it replaces)."""
    for name in ((f"{FILE}",) if not keep_main else ()) + (f"{FILE}-journal", f"{FILE}-wal", f"{FILE}-shm"):
        path = folder / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
