"""A plain, optional cache of parsed entries, keyed by the hash of each file's bytes.

JSON, never pickle: a cache file is data a future version can read or ignore.
Deleting `.sitegen-cache/` never changes the output; it only makes the next build
parse every entry again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import hashlib
import json
from pathlib import Path
from typing import Any

from . import __version__
from .fsutil import write_atomic
from .loader import Entry

CACHE_DIR = ".sitegen-cache"
ENTRIES = "entries.json"


def digest(data: bytes) -> str:
    """The key of a file's content."""
    return hashlib.sha256(data).hexdigest()


def _encode(value: Any) -> Any:
    if isinstance(value, dt.date):
        return {"$date": value.isoformat()}
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and "$date" in value:
        return dt.date.fromisoformat(value["$date"])
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    return value


class EntryCache:
    """Parsed entries by content hash; `get` misses on any doubt."""

    def __init__(self, root: Path):
        self.path = root / CACHE_DIR / ENTRIES
        self._data: dict[str, dict[str, Any]] = {}
        self._used: set[str] = set()
        self.keys: dict[str, str] = {}  # entry path (as shown) -> content hash, for this build
        self._dirty = False
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            if raw.get("version") == __version__:
                self._data = raw["entries"]
        except (OSError, ValueError, KeyError, AttributeError):
            self._data = {}

    def get(self, key: str, source_path: str, slug: str) -> Entry | None:
        fields = self._data.get(key)
        if fields is None:
            return None
        try:
            values = {k: _decode(v) for k, v in fields.items()}
            entry = Entry(**values)
        except (TypeError, ValueError):
            return None
        self._used.add(key)
        self.keys[source_path] = key
        return dataclasses.replace(entry, source_path=source_path, slug=slug)

    def put(self, key: str, entry: Entry) -> None:
        self._data[key] = {f.name: _encode(getattr(entry, f.name)) for f in dataclasses.fields(entry)}
        self._used.add(key)
        self.keys[entry.source_path] = key
        self._dirty = True

    def save(self) -> None:
        """Write the cache when it changed, keeping only entries this build used."""
        if not self._dirty and set(self._data) == self._used:
            return
        kept = {k: self._data[k] for k in sorted(self._used) if k in self._data}
        with contextlib.suppress(OSError):  # a cache that cannot be written is only a slower next build
            write_atomic(self.path, json.dumps({"version": __version__, "entries": kept}, ensure_ascii=False))
