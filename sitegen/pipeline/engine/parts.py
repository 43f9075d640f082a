"""A new memo file written by the processes that made its records: each render worker's part, merged in SQL.

A cold build at 10,000 papers makes 240,000 records, nearly all of them in the render
workers. Sent to the parent and written there, their rows cost the parent 5 s on one core
after rendering had ended (decoding what crossed, encoding each row, checking it, inserting
it), and held every record's value in its memory at once. Each worker now writes the rows of
the records it made to a part file of its own as it goes, and sends the parent only what the
memo's tables need of them (each id, fingerprint and the ids it read); the parent reads a
record from the parts if it needs one before the memo is written, and merges the parts into
the new memo file in SQL (rows.write_new).

A part belongs to the build that made it (its name carries the parent's process id) and is
removed once merged, or when that build fails; a part whose build died is removed by the next.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from array import array
from collections.abc import Iterable, MutableMapping
from pathlib import Path

from . import rows
from .memo import link
from .rows import MEMO_TABLE, MemoRow

PREFIX = ".memo.part."


def part_path(folder: Path) -> Path:
    """The part file of this process (a render worker), named for the build (its parent) and itself."""
    return folder / f"{PREFIX}{os.getppid()}.{os.getpid()}"


class Part:
    """A render worker's part of a new memo file: its rows, written a chunk of pages at a time."""

    def __init__(self, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.path = part_path(folder)
        self.path.unlink(missing_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA page_size=16384")
        self._db.execute("PRAGMA journal_mode=OFF")  # a part is read only by the build that made it, once written
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.executescript(MEMO_TABLE)

    def add(self, made: Iterable[MemoRow]) -> None:
        """Write these rows (a record two chunks both made is written once)."""
        self._db.execute("BEGIN")
        self._db.executemany(f"INSERT OR IGNORE INTO memo {rows.ROW_VALUES}", made)
        self._db.execute("COMMIT")


class Parts:
    """In the parent: the parts its render workers wrote, and what each record in them read (for the reverse
    edges); the records read back from them, whose rows are there already."""

    def __init__(self) -> None:
        self.paths: list[Path] = []
        self._dbs: list[sqlite3.Connection] | None = None
        self._reads: list[tuple[int, bytes]] = []
        self.read_back: set[int] = set()

    def take(self, path: Path, told: list[tuple[int, int, bytes]], fingerprints: MutableMapping[int, int]) -> None:
        """A worker's part and each record's id, fingerprint and reads (ids) in the chunk it wrote."""
        if path not in self.paths:
            self.paths.append(path)
        for ident, fingerprint, reads in told:
            if ident not in fingerprints:  # made by both workers: one record
                fingerprints[ident] = fingerprint
                self._reads.append((ident, reads))

    def row(self, ident: int) -> tuple[object, ...] | None:
        """The row (rows.RECORD_COLUMNS) of record `ident` in the first part holding it (sqlite3.Error if one cannot
        be read)."""
        if self._dbs is None:
            self._dbs = [rows.connect(path) for path in self.paths]
        for db in self._dbs:
            found = db.execute(f"SELECT {rows.RECORD_COLUMNS} FROM memo WHERE id = ?", (ident,)).fetchall()
            if found:
                return tuple(found[0])
        return None

    def link(self, readers: dict[int, set[int]]) -> None:
        """Add the reverse edges of every record in the parts."""
        for reader, reads in self._reads:
            ids = array("q")
            ids.frombytes(reads)
            link(readers, reader, ids)

    def remove(self) -> None:
        """Close and remove the parts (merged, or not wanted)."""
        for db in self._dbs or ():
            db.close()
        for path in self.paths:
            with contextlib.suppress(OSError):
                path.unlink()
        self.paths, self._dbs, self._reads, self.read_back = [], None, [], set()


def remove_stale(folder: Path) -> None:
    """Remove the parts of builds that are no longer running (killed while rendering, or before merging)."""
    if os.name != "posix":  # only forked workers write parts; elsewhere os.kill(pid, 0) is no question
        return
    with contextlib.suppress(OSError):
        for path in folder.glob(f"{PREFIX}*"):
            owner = path.name[len(PREFIX):].split(".")[0]
            if owner.isdigit() and owner != str(os.getpid()) and not _running(int(owner)):
                path.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: running
        return True
    return True
