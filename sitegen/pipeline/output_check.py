"""Is the output still exactly what the last build left? Asked before an edit is written in place.

A file someone changed, removed or added by hand must make the next build a full one, which
rewrites the changed files and removes the added ones. The check stats every file the last
build wrote (size and mtime) and every folder holding them (mtime): a folder's mtime moves
when a name in it is added, removed or renamed, so only the folders whose mtime moved are
listed. Listing every folder instead (18,564 of them at 10,000 papers) took half a second.

A folder changed twice within one tick of the file system's clock keeps one mtime, so a
folder whose mtime was within RACY_NS of the moment it was read is remembered as 0 and
listed every time until a build reads it again (as git does for racily clean files).
"""

from __future__ import annotations

import bisect
import os
import stat
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Protocol

from ..common.forked import Forked
from ..common.fsutil import staged_name

ROOT = "."  # the output folder itself, as a folder row
SEARCH_BUNDLE = "pagefind"  # at the top of the output, rebuilt by its own step and not checked
RACY_NS = 1_000_000_000  # far above any file system's clock tick, and a second-old folder is rarely touched again


def folders_of(paths: Iterable[str]) -> list[str]:
    """Every folder holding one of these output paths, up to the output itself (ROOT), sorted."""
    found = {ROOT}
    last = None
    for path in paths:
        folder = path.rpartition("/")[0]
        if folder == last:
            continue
        last = folder
        while folder and folder not in found:
            found.add(folder)
            folder = folder.rpartition("/")[0]
    return sorted(found)


class _At:
    """Stat names relative to the open output folder (no path walk from / per call) where the platform can."""

    def __init__(self, output: Path):
        self.output = str(output)
        self.fd = os.open(self.output, os.O_RDONLY) if os.stat in os.supports_dir_fd else -1

    def stat(self, relative: str) -> os.stat_result:
        if self.fd >= 0:
            return os.stat(relative, dir_fd=self.fd, follow_symlinks=False)
        return os.lstat(os.path.join(self.output, relative))

    def path(self, relative: str) -> str:
        return os.path.join(self.output, relative)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)


def folder_mtimes(output: Path, folders: Iterable[str]) -> dict[str, int]:
    """Folder -> mtime_ns as it is now (0 if it may yet change unseen, see RACY_NS); folders gone are left out."""
    recent = time.time_ns() - RACY_NS
    at = _At(output)
    rows: dict[str, int] = {}
    try:
        for folder in folders:
            try:
                mtime = at.stat(folder).st_mtime_ns
            except OSError:
                continue
            rows[folder] = mtime if mtime < recent else 0
    finally:
        at.close()
    return rows


class Expected:
    """What the last build left: files (sorted paths with sizes and mtimes, amended by `patched`) and folders."""

    def __init__(self, paths: Sequence[str], sizes: Sequence[int], mtimes: Sequence[int],
                 patched: Mapping[str, Sequence[int | str]], folders: Mapping[str, int]):
        self.paths, self.sizes, self.mtimes = paths, sizes, mtimes
        self.patched = patched  # path -> [digest, size, mtime_ns]
        self.folders = folders

    def has(self, relative: str) -> bool:
        """Whether the last build left a file or folder at this path."""
        if relative in self.patched or relative in self.folders:
            return True
        i = bisect.bisect_left(self.paths, relative)
        return i < len(self.paths) and self.paths[i] == relative


class Remembered(Protocol):
    """The last build as remembered (persisted.Table): its files are read when the check runs, in the child."""

    def expected(self) -> Expected | None: ...


def outputs_intact(saved: Remembered, output: Path, marker: str = "") -> bool:
    """True when the output holds exactly the files the last build wrote, unchanged (size, mtime).

    A file someone added by hand also fails the check: a full build then removes it, as
    stale files must disappear. The search bundle is rebuilt by its own step and not counted,
    nor are the temporaries this build stages under `marker` while the check runs (in
    folders of their own, too). A table of outputs that cannot be read fails.
    """
    expected = saved.expected()
    if expected is None:
        return False
    try:
        at = _At(output)
    except OSError:
        return False
    try:
        return _files_intact(expected, at) and _folders_intact(expected, at, marker)
    except OSError:
        return False
    finally:
        at.close()


def _files_intact(expected: Expected, at: _At) -> bool:
    patched = expected.patched
    for path, size, mtime in zip(expected.paths, expected.sizes, expected.mtimes, strict=True):
        st = at.stat(path)
        if (st.st_size != size or st.st_mtime_ns != mtime) and path not in patched:
            return False
    for path, row in patched.items():
        st = at.stat(path)
        if st.st_size != row[1] or st.st_mtime_ns != row[2]:
            return False
    return True


def _folders_intact(expected: Expected, at: _At, marker: str) -> bool:
    """Every folder is still one, and those whose mtime moved hold nothing unexpected."""
    for folder, mtime in expected.folders.items():
        st = at.stat(folder)
        if not stat.S_ISDIR(st.st_mode):
            return False
        if st.st_mtime_ns == mtime:
            continue
        prefix = "" if folder == ROOT else f"{folder}/"
        for name in os.listdir(at.path(folder)):
            if expected.has(prefix + name) or (not prefix and name == SEARCH_BUNDLE):
                continue
            if not _staged_only(at.path(prefix + name), marker):
                return False
    return True


def _staged_only(path: str, marker: str) -> bool:
    """Whether `path` is one of this build's temporaries, or a folder holding nothing else (as the
    folders staging makes for new pages do; an empty folder holds no output either)."""
    if os.path.islink(path) or not os.path.isdir(path):
        return bool(marker) and staged_name(os.path.basename(path), marker) and not os.path.islink(path)
    with os.scandir(path) as listing:
        return all(_staged_only(item.path, marker) for item in listing)


class OutputsCheck(Forked):
    """`outputs_intact`, worked out in a forked process while this one finds and restores the entries.

    At 10,000 papers the check is 64,672 file and 18,564 folder stat calls (about 0.3 s),
    longer than all a front-matter edit does before its first write. The edit stages its
    files beside their targets meanwhile, their names carrying `marker`, which the check
    passes over; it renames nothing in before the answer. Without fork, or if it fails,
    the check runs here; `cancel()` stops it when its answer is not wanted.
    """

    def __init__(self, saved: Remembered, output: Path, beside: bool = True):
        """`beside=False` when there is nothing to do meanwhile: the check then runs here and now."""
        self.marker = f"staged-{uuid.uuid4().hex[:12]}"
        super().__init__(partial(outputs_intact, saved, output, self.marker), beside)


__all__ = ["ROOT", "Expected", "OutputsCheck", "Remembered", "folder_mtimes", "folders_of", "outputs_intact"]
