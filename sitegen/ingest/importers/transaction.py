"""Writing an import's files as one change: every file, or none of them.

Each file is first written in full to a temporary beside its target; only when all of
them are written are they renamed over their targets, each rename atomic. If a rename
fails, the files already replaced get their old bytes back and new ones are removed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterable
from pathlib import Path


def apply(writes: dict[Path, str]) -> None:
    """Replace every file in `writes` with its text, or (raising the first OSError) change none."""
    made = _make_folders({path.parent for path in writes})
    staged: list[tuple[Path, Path]] = []
    try:
        for path in sorted(writes):
            staged.append((path, _stage(path, writes[path].encode("utf-8"))))
    except BaseException:
        _remove(tmp for _, tmp in staged)
        _remove_folders(made)
        raise
    _swap(staged, made)


def _swap(staged: list[tuple[Path, Path]], made: list[Path]) -> None:
    undo: list[tuple[Path, bytes | None]] = []
    try:
        for path, tmp in staged:
            old = path.read_bytes() if path.is_file() else None
            os.replace(tmp, path)
            undo.append((path, old))
    except BaseException:
        for path, old in reversed(undo):
            _restore(path, old)
        _remove(tmp for _, tmp in staged)
        _remove_folders(made)
        raise


def _stage(path: Path, data: bytes) -> Path:
    """`data` in a new file beside `path`, flushed to disk, with the mode `path` has or a new file gets."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        with open(tmp, "xb") as handle:  # "x": created with the umask's mode, never following a link
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileNotFoundError):
            os.chmod(tmp, path.stat().st_mode & 0o7777)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def _restore(path: Path, old: bytes | None) -> None:
    """Put back what `path` held before (or remove it if it was new); best effort while failing."""
    with contextlib.suppress(OSError):
        if old is None:
            path.unlink(missing_ok=True)
        else:
            tmp = _stage(path, old)
            os.replace(tmp, path)


def _remove(paths: Iterable[Path]) -> None:
    for tmp in paths:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


def _make_folders(folders: set[Path]) -> list[Path]:
    """Create missing folders, returning those created (deepest last) so a failure can remove them."""
    made: list[Path] = []
    try:
        for folder in sorted(folders):
            missing = [p for p in (folder, *folder.parents) if not p.exists()]
            for part in reversed(missing):
                part.mkdir()
                made.append(part)
    except BaseException:
        _remove_folders(made)
        raise
    return made


def _remove_folders(made: list[Path]) -> None:
    for folder in reversed(made):
        with contextlib.suppress(OSError):
            folder.rmdir()
