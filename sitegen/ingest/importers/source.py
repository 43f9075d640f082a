"""Reading a dump file: only a regular file of a sane size, never a device, pipe or folder."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ...common.errors import Diagnostic, Location
from .common import DumpError

# The largest real pages are a few hundred KB; a bigger "dump" is another file, and
# reading /dev/zero or a disk image into memory must stop somewhere.
MAX_DUMP_BYTES = 32 * 1024 * 1024


def read_dump(path: Path, shown: str) -> tuple[bytes, float]:
    """The bytes of a dump and its modification time; DumpError for anything but a readable regular file."""
    where = Location(shown)
    try:
        _check_kind(os.stat(path), where)  # before opening: a socket cannot be opened, a pipe would block
        # O_NONBLOCK: should the file have become a pipe since, opening it does not wait for a writer either.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise _unreadable(where, exc) from None
    try:
        info = os.fstat(fd)
        _check_kind(info, where)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_DUMP_BYTES + 1)
    except OSError as exc:
        raise _unreadable(where, exc) from None
    finally:
        os.close(fd)
    if len(data) > MAX_DUMP_BYTES:
        raise _too_large(where)
    return data, info.st_mtime


def _check_kind(info: os.stat_result, where: Location) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise DumpError(Diagnostic(where, "E710", "this is a folder, not a dump file",
                                   "name the dump files in it, or put them in content/dumps/ and run "
                                   "'sitegen import' without file names"))
    if not stat.S_ISREG(info.st_mode):
        raise DumpError(Diagnostic(where, "E710", "this is not a regular file (a device, pipe or socket)",
                                   "save the dump to a file and import that file"))
    if info.st_size > MAX_DUMP_BYTES:
        raise _too_large(where)


def _too_large(where: Location) -> DumpError:
    return DumpError(Diagnostic(where, "E711", f"the file is larger than {MAX_DUMP_BYTES // 2**20} MB; "
                                "no aggregator page is that long", "check that this is the dump you meant"))


def _unreadable(where: Location, exc: OSError) -> DumpError:
    return DumpError(Diagnostic(where, "E304", f"cannot read the file: {exc.strerror or exc}",
                                "check that the file exists and that you may read it"))
