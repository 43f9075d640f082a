"""Atomic file writes: a reader never sees half a file, a crash never leaves one."""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from . import platforms

if TYPE_CHECKING:  # imported when a pool is needed: a notes edit writes one file
    from concurrent.futures import Future, ThreadPoolExecutor

# Files written at once by `StagedFiles`: each waits on its fsync with the GIL released, so
# an edit's 90 files at 10,000 papers wait together instead of one after another.
WRITERS = 16


Data = bytes | bytearray | str


class NotAFile(OSError):
    """A path that names a FIFO, a device, a socket or a folder: never read (a FIFO would block forever)."""


def read_regular(path: str | os.PathLike[str]) -> tuple[bytes, os.stat_result]:
    """A regular file's bytes and its stat from before they were read; NotAFile for anything else.

    Opened without blocking, so a FIFO named like an entry is refused rather than waited on
    until something writes to it; for a regular file the flag changes nothing.
    """
    fd = os.open(path, platforms.READ_FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "it is a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a FIFO, device or socket)"
            raise NotAFile(errno.EINVAL, f"{kind}; only regular files are read", os.fspath(path))
        chunks = []
        while chunk := os.read(fd, max(st.st_size + 1, 65536)):
            chunks.append(chunk)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def exchange(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Swap two existing paths in one step (Linux's renameat2 RENAME_EXCHANGE, macOS's renamex_np RENAME_SWAP).

    Nobody ever sees neither: a kill at any moment leaves both names in place. False where
    the system or the file system cannot, for the caller to fall back on two renames.
    """
    swap = platforms.swap()
    if swap is None:
        return False
    if swap(os.fsencode(a), os.fsencode(b)) == 0:
        return True
    code = platforms.errno_now()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), os.fspath(b))


def write_all(fd: int, data: bytes | bytearray | memoryview) -> None:
    """Write every byte to `fd` (os.write may write less than it is given)."""
    with memoryview(data) as view:
        while view:
            view = view[os.write(fd, view):]


def _umask() -> int:
    """The process's umask (reading it means setting it, so set it straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


_NEW_FILE_MODE = 0o666 & ~_umask()


def write_atomic(path: Path, data: Data, durable: bool = True) -> None:
    """Write to a temporary file beside `path`, fsync it, then rename it over `path`.

    `durable=False` skips the fsync: still atomic for readers, for files a crash may lose
    (the preview's temporary output, rebuilt from scratch at every start).

    The file gets the mode a plain `open()` would give it (a temporary file is private,
    and a page a web server cannot read is a broken page); a file that exists keeps its
    own mode.
    """
    os.replace(_stage(path, data, durable), path)


def prune_empty(path: Path, stop: Path) -> None:
    """Remove the folders above `path` that are now empty, up to (not including) `stop`."""
    parent = path.parent
    while parent != stop and parent.is_relative_to(stop):
        try:
            parent.rmdir()
        except OSError:
            return
        parent = parent.parent


def staged_name(name: str, marker: str) -> bool:
    """Whether a file name is one of `StagedFiles(marker=marker)`'s temporaries."""
    return name.endswith(".tmp") and f".{marker}." in name


def _stage(path: Path, data: Data, durable: bool, marker: str = "") -> str:
    """The temporary file holding `data` beside `path`, written (and fsynced when `durable`), not yet renamed."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    prefix = f".{path.name}.{marker}." if marker else f".{path.name}."
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=path.parent)
    try:
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = _NEW_FILE_MODE
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return tmp


class StagedFiles:
    """Files written beside their targets as they are handed in, and renamed over them together.

    `add` writes the file to a temporary at once (several at a time when each is fsynced,
    each waiting with the GIL released, so the caller goes on rendering meanwhile);
    `commit` waits for them all and renames each over its target, or, if any could not be
    written, removes every temporary and raises the first error: no target is replaced.
    """

    def __init__(self, durable: bool = True, marker: str = "", journal: Path | None = None):
        """`marker` goes into every temporary's name, so a scan of the folder can tell them (see `staged_name`).

        `journal`: a file that exists from the first file staged until the last rename is done,
        naming, once the renames begin, every temporary and its target: a process killed
        half-way leaves it for the next start to finish the renames (see writer.recover).
        """
        self.durable, self.marker, self.journal = durable, marker, journal
        self._pool: ThreadPoolExecutor | None = None
        self._staged: dict[Path, Future[str] | _Written] = {}

    def add(self, path: Path, data: bytes | bytearray) -> None:
        if not self._staged:
            self._note({"pid": os.getpid(), "renames": [], "removals": []}, durable=False)
        if path in self._staged:
            self._discard([self._staged.pop(path)])
        if not self.durable:  # no fsync to wait for: a thread would only cost
            try:
                self._staged[path] = _Written(_stage(path, data, False, self.marker))
            except Exception as exc:
                self._staged[path] = _Written("", exc)
            return
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(max_workers=WRITERS)
        self._staged[path] = self._pool.submit(_stage, path, data, True, self.marker)

    def __len__(self) -> int:
        return len(self._staged)

    def commit(self, removals: Iterable[Path] = ()) -> None:
        """Rename every staged file over its target and remove `removals` (all of it, or none and the
        first error raised)."""
        staged, self._staged = self._staged, {}
        removals = list(removals)
        try:
            errors = [exc for future in staged.values() if (exc := future.exception()) is not None]
            if errors:
                self._discard(staged.values())
                raise errors[0]
            if staged or removals:
                renames = [[future.result(), str(path)] for path, future in staged.items()]
                self._note({"pid": os.getpid(), "renames": renames, "removals": [str(p) for p in removals]},
                           durable=self.durable)
            for path, future in staged.items():
                os.replace(future.result(), path)
            for path in removals:
                path.unlink(missing_ok=True)
            self._forget()
        finally:
            self._close()

    def discard(self) -> None:
        """Remove every staged temporary; no target is touched."""
        staged, self._staged = self._staged, {}
        try:
            self._discard(staged.values())
            self._forget()
        finally:
            self._close()

    def _note(self, plan: dict[str, object], durable: bool) -> None:
        if self.journal is not None:
            import json

            write_atomic(self.journal, json.dumps(plan), durable=durable)

    def _forget(self) -> None:
        if self.journal is not None:
            self.journal.unlink(missing_ok=True)

    @staticmethod
    def _discard(futures: Iterable[Future[str] | _Written]) -> None:
        for future in futures:
            if future.exception() is None:
                Path(future.result()).unlink(missing_ok=True)

    def _close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None


class _Written:
    """A temporary written in this thread: what a Future of `_stage` answers, without the thread."""

    def __init__(self, tmp: str, error: Exception | None = None):
        self.tmp, self.error = tmp, error

    def exception(self) -> Exception | None:
        return self.error

    def result(self) -> str:
        if self.error is not None:
            raise self.error
        return self.tmp

