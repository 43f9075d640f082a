"""Atomic file writes: a reader never sees half a file, a crash never leaves one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes | str, durable: bool = True) -> None:
    """Write to a temporary file beside `path`, fsync it, then rename it over `path`.

    `durable=False` skips the fsync: still atomic for readers, for files a crash may lose
    (the preview's temporary output, rebuilt from scratch at every start).
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
