"""Atomic file writes: a reader never sees half a file, a crash never leaves one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# Files written at once by `write_files`: each waits on its fsync with the GIL released, so
# an edit's 90 files at 10,000 papers wait together instead of one after another.
WRITERS = 4


def _umask() -> int:
    """The process's umask (reading it means setting it, so set it straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


_NEW_FILE_MODE = 0o666 & ~_umask()


def write_atomic(path: Path, data: bytes | bytearray | str, durable: bool = True) -> None:
    """Write to a temporary file beside `path`, fsync it, then rename it over `path`.

    `durable=False` skips the fsync: still atomic for readers, for files a crash may lose
    (the preview's temporary output, rebuilt from scratch at every start).

    The file gets the mode a plain `open()` would give it (a temporary file is private,
    and a page a web server cannot read is a broken page); a file that exists keeps its
    own mode.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_files(files: dict[Path, bytes | bytearray], durable: bool = True) -> None:
    """`write_atomic` for each file, several at a time when each is fsynced; the first error is raised.

    Every file is written before the error propagates, as with one `write_atomic` after
    another each file is either its old or its new self.
    """
    if not durable or len(files) < 2:
        for path, data in files.items():
            write_atomic(path, data, durable)
        return
    from concurrent.futures import ThreadPoolExecutor  # not for a notes edit, which writes one file

    with ThreadPoolExecutor(max_workers=WRITERS) as pool:
        for future in [pool.submit(write_atomic, path, data, durable) for path, data in files.items()]:
            future.result()
