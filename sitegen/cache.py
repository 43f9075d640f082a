"""A plain, optional cache of parsed entries, keyed by the hash of each file's bytes.

JSON, never pickle: a cache file is data a future version can read or ignore.
Deleting `.sitegen-cache/` never changes the output; it only makes the next build
parse every entry again. Entries are spread over 256 files by the first two hex digits
of their key, so saving after a one-entry edit rewrites one small file, not all of them.

Shards are replaced atomically but not fsynced (256 fsyncs a cold build at 10,000 papers
waited for, in line): after a crash a shard is its old self, its new self or unreadable,
and an unreadable shard is only a miss.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import hashlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from . import __version__
from .fsutil import write_atomic
from .lazy import LazyDict
from .loader import Entry

CACHE_DIR = ".sitegen-cache"
ENTRIES = "entries"  # a folder of shards


def digest(data: bytes) -> str:
    """The key of a file's content."""
    return hashlib.sha256(data).hexdigest()


def _tag_dates(value: Any) -> Any:
    """A source's values as stored: dates tagged, since a source field may hold any scalar."""
    if isinstance(value, dt.date):
        return {"$date": value.isoformat()}
    if isinstance(value, tuple | list):
        return [_tag_dates(v) for v in value]
    return value


def _untag_dates(value: Any) -> Any:
    if isinstance(value, dict) and "$date" in value:
        return dt.date.fromisoformat(value["$date"])
    if isinstance(value, list | tuple):
        return tuple(_untag_dates(v) for v in value)
    return value


class _Shard(msgspec.Struct):
    """One cache file, as written. Entries decode straight into Entry objects, typed by its fields:
    dates from ISO strings, tuples from arrays. At 10,000 entries this is a third of the time
    `json.loads` and a conversion pass took, which a front-matter edit pays in every build."""

    version: str
    format: int
    by_key: dict[str, Entry]  # not "entries", the key of format 1: a version reading only that misses


class _RawShard(msgspec.Struct):
    """A cache file with its entries left undecoded: each is decoded when a shard or `EntryCache.lazy` needs it."""

    version: str
    format: int
    by_key: dict[str, msgspec.Raw]


FORMAT = 2  # 1: JSON of tagged values, read field by field
_RAW_DECODER = msgspec.json.Decoder(_RawShard)
_ENTRY_DECODER = msgspec.json.Decoder(Entry)
_ENCODER = msgspec.json.Encoder()


class CacheDamaged(Exception):
    """An entry the cache holds could not be decoded when read: the caller builds without it."""


class CachedEntries(LazyDict[str, Entry]):
    """Entry path -> Entry, each decoded from the cache when first read; `slugs` without decoding."""

    def __init__(self, slugs: dict[str, str], make: Callable[[str], Entry]):
        super().__init__(slugs, make)
        self.slugs = slugs


class EntryCache:
    """Parsed entries by content hash; `get` misses on any doubt."""

    def __init__(self, root: Path):
        self.folder = root / CACHE_DIR / ENTRIES
        self._legacy = root / CACHE_DIR / "entries.json"  # the single-file cache of earlier versions
        self._shards: dict[str, dict[str, Entry]] = {}  # key prefix -> key -> entry, read on demand
        self._raw: dict[str, dict[str, msgspec.Raw]] = {}  # the same, not decoded yet (see `lazy`)
        self._dirty: set[str] = set()
        self._used: set[str] = set()
        self.keys: dict[str, str] = {}  # entry path (as shown) -> content hash, for this build

    def _undecoded(self, prefix: str) -> dict[str, msgspec.Raw]:
        """A shard's entries as raw JSON, read once; none when the file is missing, damaged or not this version's."""
        undecoded = self._raw.get(prefix)
        if undecoded is None:
            try:
                read = _RAW_DECODER.decode((self.folder / f"{prefix}.json").read_bytes())
                undecoded = read.by_key if read.version == __version__ and read.format == FORMAT else {}
            except (OSError, msgspec.DecodeError):
                undecoded = {}
            self._raw[prefix] = undecoded
        return undecoded

    def _shard(self, prefix: str) -> dict[str, Entry]:
        shard = self._shards.get(prefix)
        if shard is None:
            try:  # one entry by one as fast as the whole file typed, and the raw form serves `lazy` too
                shard = {key: _restored(_ENTRY_DECODER.decode(raw)) for key, raw in self._undecoded(prefix).items()}
            except (msgspec.DecodeError, ValueError, TypeError):
                shard = {}
            self._raw.pop(prefix, None)
            self._shards[prefix] = shard
        return shard

    def _keys_in(self, prefix: str) -> Iterable[str]:
        """The keys a shard holds, decoding none of its entries."""
        shard = self._shards.get(prefix)
        return shard.keys() if shard is not None else self._undecoded(prefix).keys()

    def lazy(self, keys: Mapping[str, str], slugs: dict[str, str]) -> CachedEntries | None:
        """Entries of these paths (path -> content hash, path -> slug), each decoded when first read.

        None when the cache misses any of them. A state restored by `sitegen build` holds
        10,000 entries, of which a front-matter edit reads a few thousand.
        """
        for key in keys.values():
            if key not in self._keys_in(key[:2]):
                return None
        self._used.update(keys.values())
        self.keys.update(keys)
        return CachedEntries(slugs, lambda path: self._decoded(keys[path], path, slugs[path]))

    def _decoded(self, key: str, source_path: str, slug: str) -> Entry:
        shard = self._shards.get(key[:2])
        try:
            entry = shard[key] if shard is not None else _restored(_ENTRY_DECODER.decode(self._raw[key[:2]][key]))
        except (KeyError, msgspec.DecodeError, ValueError, TypeError) as exc:
            raise CacheDamaged(f"{source_path}: the cached entry cannot be read ({exc})") from exc
        if entry.source_path != source_path or entry.slug != slug:
            entry = dataclasses.replace(entry, source_path=source_path, slug=slug)
        return entry

    def get(self, key: str, source_path: str, slug: str) -> Entry | None:
        entry = self._shard(key[:2]).get(key)
        if entry is None:
            return None
        # the same content may sit in another file now: where it is and its slug come from the caller
        if entry.source_path != source_path or entry.slug != slug:
            entry = dataclasses.replace(entry, source_path=source_path, slug=slug)
        self._used.add(key)
        self.keys[source_path] = key
        return entry

    def put(self, key: str, entry: Entry) -> None:
        self._shard(key[:2])[key] = entry
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
                write_atomic(self.folder / f"{prefix}.json", _encoded(shard), durable=False)
            self._dirty.clear()

    def release(self) -> None:
        """Forget the shards read or filled (after `save`); `keys` stays, for the build state."""
        self._shards.clear()
        self._raw.clear()
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
                held = self._keys_in(prefix)  # a shard read only for its keys stays undecoded if kept as it is
                if prefix in self._dirty or prefix not in on_disk or any(k not in self._used for k in held):
                    shard = self._shard(prefix)
                    kept = {k: shard[k] for k in sorted(shard) if k in self._used}
                    self._shards[prefix] = kept
                    write_atomic(self.folder / f"{prefix}.json", _encoded(kept), durable=False)
            self._dirty.clear()


def _restored(entry: Entry) -> Entry:
    return dataclasses.replace(entry, sources=_untag_dates(entry.sources)) if entry.sources else entry


def _encoded(entries: dict[str, Entry]) -> bytes:
    stored = {key: dataclasses.replace(e, sources=_tag_dates(e.sources)) if e.sources else e
              for key, e in sorted(entries.items())}
    return _ENCODER.encode(_Shard(__version__, FORMAT, stored))
