"""Which entry files changed since the last build: the table of their content hashes and stats.

A row is [content hash, size, mtime_ns, ctime_ns, inode]. A file is re-read only when its
stat moved, and counts as changed only when its content hash did; ctime and inode catch
copies that keep size and mtime (`cp -p`, `rsync -t`), as git's index does.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..content.files import FileStat

# A file changed within this long of the moment its stat is remembered may change again without its
# ctime moving (timestamps advance in clock ticks): its row is saved "racy", to be hashed again
# next time, as git does for files as new as its index.
RACY_NS = 2_000_000_000


def _row(key: str, stat: FileStat, now: int) -> list[Any]:
    """An entry table row: [content hash, size, mtime_ns, ctime_ns, inode]; size -1 when racy."""
    size, mtime, ctime, ino = stat
    return [key, -1 if now - ctime < RACY_NS else size, mtime, ctime, ino]


def entry_stats(keys: dict[str, str], read: Mapping[str, FileStat]) -> dict[str, list[Any]]:
    """Entry path -> [content hash, size, mtime_ns, ctime_ns, inode]: the next build re-hashes only
    files whose stat moved.

    The stat is the one the file had when it was read (`read`: every entry with a content hash
    was read by this build), so a file saved again while the build ran, after it was read, has
    moved by the next build.
    """
    now = time.time_ns()
    return {path: _row(key, read[path], now) for path, key in keys.items() if path in read}


def changed_entries(root: Path, saved: dict[str, list[Any]]) -> tuple[list[Path], dict[str, list[Any]], bool]:
    """Entry files added, removed or edited since the last build, the new stat table, and whether
    any listed entry could not be read.

    A file counts as unchanged only when its size, mtime, ctime and inode are all as
    remembered (a copy that keeps size and mtime still moves the ctime); anything that cannot
    be read as a regular file counts as changed, for the loader to report. Names from
    os.listdir, each stat'ed relative to the open folder: at 10,000 entries Path objects cost
    more than the stats, and os.scandir's entries 10 ms more than this.
    """
    import os
    import stat as stat_kind

    from ..common.fsutil import read_regular
    from ..content.cache import digest
    from ..content.files import file_stat

    folder = root / "content" / "papers"
    changed: list[Path] = []
    table: dict[str, list[Any]] = {}
    unreadable = False
    try:
        names = [name for name in os.listdir(folder) if name.endswith(".md") and not name.startswith(".")]
    except OSError:  # gone, or no folder: the full build's loader says what is wrong, if anything
        return [], {}, True
    relative = os.stat in os.supports_dir_fd and bool(names)
    fd = os.open(folder, os.O_RDONLY) if relative else -1
    now = time.time_ns()
    try:
        for name in names:
            path = f"content/papers/{name}"
            file = folder / name
            before = saved.get(path)
            try:
                st = os.stat(name, dir_fd=fd) if relative else os.stat(file)
                if not stat_kind.S_ISREG(st.st_mode):
                    raise OSError(name)
                if before and before[1:] == list(file_stat(st)):
                    table[path] = before
                    continue
                data, st = read_regular(file)
            except OSError:  # dangling, a loop, a folder or a FIFO: the full build says what is wrong
                unreadable = True
                continue
            key = digest(data)
            table[path] = _row(key, file_stat(st), now)
            if not before or before[0] != key:
                changed.append(file)
    finally:
        if fd >= 0:
            os.close(fd)
    changed[:0] = [root / path for path in saved if path not in table]
    return changed, table, unreadable
