"""A plain, optional cache of parsed entries, keyed by the hash of each file's bytes.

JSON, never pickle: a cache file is data a future version can read or ignore.
Deleting `.sitegen-cache/` never changes the output; it only makes the next build
parse every entry again. Entries are spread over 256 files by the first two hex digits
of their key, so saving after a one-entry edit rewrites one small file, not all of them.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from . import __version__
from .fsutil import write_atomic
from .loader import Entry

CACHE_DIR = ".sitegen-cache"
ENTRIES = "entries"  # a folder of shards


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


# Entry fields stored as JSON lists or tagged dates; the rest are plain JSON scalars as they are.
_STRUCTURED = tuple(f.name for f in dataclasses.fields(Entry) if "tuple" in str(f.type) or "date" in str(f.type))
_ENCODED = frozenset(_STRUCTURED)


class EntryCache:
    """Parsed entries by content hash; `get` misses on any doubt."""

    def __init__(self, root: Path):
        self.folder = root / CACHE_DIR / ENTRIES
        self._legacy = root / CACHE_DIR / "entries.json"  # the single-file cache of earlier versions
        self._shards: dict[str, dict[str, dict[str, Any]]] = {}  # key prefix -> key -> fields, read on demand
        self._dirty: set[str] = set()
        self._used: set[str] = set()
        self.keys: dict[str, str] = {}  # entry path (as shown) -> content hash, for this build

    def _shard(self, prefix: str) -> dict[str, dict[str, Any]]:
        shard = self._shards.get(prefix)
        if shard is None:
            try:
                raw = json.loads((self.folder / f"{prefix}.json").read_text(encoding="utf-8"))
                shard = raw["entries"] if raw.get("version") == __version__ else {}
                if not isinstance(shard, dict):
                    shard = {}
            except (OSError, ValueError, KeyError, AttributeError, TypeError):
                shard = {}
            self._shards[prefix] = shard
        return shard

    def get(self, key: str, source_path: str, slug: str) -> Entry | None:
        fields = self._shard(key[:2]).get(key)
        if fields is None:
            return None
        try:
            values = dict(fields)
            for name in _STRUCTURED:
                if name in values:
                    values[name] = _decode(values[name])
            # the same content may sit in another file now: where it is and its slug come from the caller
            values["source_path"], values["slug"] = source_path, slug
            entry = Entry(**values)
        except (TypeError, ValueError):
            return None
        self._used.add(key)
        self.keys[source_path] = key
        return entry

    def put(self, key: str, entry: Entry) -> None:
        # 10,000 puts in a cold build: the instance's fields in order, and only structured ones encoded
        self._shard(key[:2])[key] = {name: _encode(value) if name in _ENCODED else value
                                     for name, value in vars(entry).items()}
        self._dirty.add(key[:2])
        self._used.add(key)
        self.keys[entry.source_path] = key

    def keep(self, keys: Iterable[str]) -> None:
        """Keep exactly these entries on the next save (the ones the site now holds)."""
        self._used = set(keys)

    def save_added(self) -> None:
        """Write the shards that gained entries, pruning nothing (for a build that saw few entries)."""
        with contextlib.suppress(OSError):
            for prefix in sorted(self._dirty):
                shard = self._shard(prefix)
                text = json.dumps({"version": __version__, "entries": dict(sorted(shard.items()))},
                                  ensure_ascii=False)
                write_atomic(self.folder / f"{prefix}.json", text)
            self._dirty.clear()

    def release(self) -> None:
        """Forget the shards read or filled (after `save`); `keys` stays, for the build state."""
        self._shards.clear()
        self._used.clear()

    def save(self) -> None:
        """Write the shards that changed, keeping only entries this build used."""
        with contextlib.suppress(OSError):  # a cache that cannot be written is only a slower next build
            self._legacy.unlink(missing_ok=True)
            live = {key[:2] for key in self._used}
            on_disk = {p.stem for p in self.folder.glob("*.json")} if self.folder.is_dir() else set()
            for prefix in sorted(on_disk - live):
                (self.folder / f"{prefix}.json").unlink(missing_ok=True)
            for prefix in sorted(live):
                shard = self._shard(prefix)
                kept = {k: shard[k] for k in sorted(shard) if k in self._used}
                if prefix in self._dirty or len(kept) != len(shard) or prefix not in on_disk:
                    self._shards[prefix] = kept
                    text = json.dumps({"version": __version__, "entries": kept}, ensure_ascii=False)
                    write_atomic(self.folder / f"{prefix}.json", text)
            self._dirty.clear()
