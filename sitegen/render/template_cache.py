"""Compiled templates kept on disk, so a quick rebuild does not recompile the theme.

Compiling the paper page and its partials costs a new process ~50 ms, more than
the rest of a notes edit. Jinja's own FileSystemBytecodeCache stores its checksum
with pickle; this one stores a JSON header (source checksum; the sitegen, Jinja and Python that compiled it) and the
marshalled code object, the same trust as Python's own `__pycache__`. A file that
does not match is ignored and rewritten.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import os
import sys
from functools import cache
from pathlib import Path

import jinja2
import xxhash

from ..common.code_digest import code_digest


@cache
def stamp() -> str:
    """What compiled the code: sitegen's own (its Environment generates it, see buffered), Jinja and Python."""
    return f"{code_digest()} jinja2 {jinja2.__version__} {sys.implementation.cache_tag}"


class TemplateCache(jinja2.BytecodeCache):
    """One file per compiled template under `folder`; unreadable files are misses."""

    def __init__(self, folder: Path):
        self.folder = folder

    def _path(self, bucket: jinja2.bccache.Bucket) -> Path:
        return self.folder / f"{bucket.key}.code"

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            data = self._path(bucket).read_bytes()
            header, _, code = data.partition(b"\n")
            meta = json.loads(header)
            if meta.get("format") == stamp() and meta.get("checksum") == bucket.checksum \
                    and meta.get("code") == xxhash.xxh3_128_hexdigest(code):  # damaged code is compiled again
                bucket.code = marshal.loads(code)
        except (OSError, ValueError, EOFError, TypeError, AttributeError):
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.code is None:
            return
        code = marshal.dumps(bucket.code)
        header = json.dumps({"format": stamp(), "checksum": bucket.checksum,
                             "code": xxhash.xxh3_128_hexdigest(code)}).encode("utf-8")
        path = self._path(bucket)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")  # forked renderers may write the same file
        with contextlib.suppress(OSError):  # a cache that cannot be written only costs a recompile
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(header + b"\n" + code)
            os.replace(tmp, path)

    def clear(self) -> None:
        for path in self.folder.glob("*.code"):
            with contextlib.suppress(OSError):
                path.unlink()
