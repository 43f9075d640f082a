"""A plain, optional cache of parsed entries, keyed by the hash of each file's bytes.

JSON, never pickle: a cache file is data a future version can read or ignore. Each shard
is stamped with the digest of the sitegen that wrote it (common.code_digest), and read as
empty by any other: no format number is bumped by hand when what an entry holds changes.
Deleting `.sitegen-cache/` never changes the output; it only makes the next build
parse every entry again. Entries are spread over 256 files by the first two hex digits
of their key, so saving after a one-entry edit rewrites one small file, not all of them.
A shard is JSON Lines: a header naming its keys and the length of each line, then one
entry a line. A shard is mapped, not read: its keys are known from the header, and an
entry's line is cut from the file when it is decoded. Reading the 48 MB of every shard
as one JSON document each, to learn which entries the cache holds, took 85 ms at 10,000
papers; a front-matter edit decodes about 1,800 of the entries.

Shards are replaced atomically but not fsynced (256 fsyncs a cold build at 10,000 papers
waited for, in line): after a crash a shard is its old self, its new self or unreadable,
and an unreadable shard is only a miss.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import hashlib
import mmap
import os
from collections.abc import Iterable, Iterator, KeysView
from pathlib import Path
from typing import Any

import msgspec
import xxhash

from ..common.code_digest import code_digest
from ..common.fsutil import write_atomic
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


class _Header(msgspec.Struct):
    """The first line of a shard: which entries the lines after it hold, in order, and their lengths
    (without the line break)."""

    code: str  # the digest of the sitegen that wrote it (see common.code_digest)
    keys: list[str]
    lengths: list[int]
    checks: list[int]  # each line's XXH3-64: a line damaged on disk is a miss, never a different entry


class _Lines:
    """A shard's entries as JSON text, each cut from the mapped file and checked when asked for."""

    def __init__(self, data: bytes | mmap.mmap, spans: dict[str, tuple[int, int, int]]):
        self._data, self._spans = data, spans

    def keys(self) -> KeysView[str]:
        return self._spans.keys()

    def __getitem__(self, key: str) -> bytes:
        start, end, check = self._spans[key]
        line = self._data[start:end]
        if xxhash.xxh3_64_intdigest(line) != check:
            raise ValueError(f"the cached line of {key} is damaged")
        return line

    def items(self) -> Iterator[tuple[str, bytes]]:
        return ((key, self[key]) for key in self._spans)


_EMPTY = _Lines(b"", {})


def _read_shard(path: Path) -> _Lines:
    """A shard's lines; none when the file is missing, cut short, damaged or not this version's."""
    try:
        with open(path, "rb") as file:
            data = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # an empty file cannot be mapped
        return _EMPTY
    end = data.find(b"\n")
    try:
        header = _HEADER_DECODER.decode(data[:end] if end > 0 else b"")
    except msgspec.DecodeError:
        header = None
    if header is None or header.code != code_digest() \
            or len(header.keys) != len(header.lengths) or len(header.keys) != len(header.checks) \
            or end + 1 + sum(header.lengths) + len(header.lengths) != len(data):  # cut short, or padded
        data.close()
        return _EMPTY
    spans: dict[str, tuple[int, int, int]] = {}
    at = end + 1
    for key, length, check in zip(header.keys, header.lengths, header.checks, strict=True):
        spans[key] = (at, at + length, check)
        at += length + 1
    return _Lines(data, spans)


SUFFIX = ".jsonl"
_HEADER_DECODER = msgspec.json.Decoder(_Header)
# Entries decode straight into Entry objects, typed by its fields: dates from ISO strings,
# tuples from arrays (a third of the time of reading JSON and converting it field by field).
_ENTRY_DECODER = msgspec.json.Decoder(Entry)
_ENCODER = msgspec.json.Encoder()


class EntryCache:
    """Parsed entries by content hash; `get` misses on any doubt."""

    def __init__(self, root: Path, stored: bool = True):
        """`stored=False`: a cache of this process alone, that reads and writes no file (a throwaway build)."""
        self.stored = stored
        self.folder = root / CACHE_DIR / ENTRIES
        self._legacy = root / CACHE_DIR / "entries.json"  # the single-file cache of earlier versions
        self._shards: dict[str, dict[str, Entry]] = {}  # key prefix -> key -> entry, read on demand
        self._raw: dict[str, _Lines] = {}  # the same, not decoded yet (see `lazy`)
        self._dirty: set[str] = set()
        self._used: set[str] = set()
        self.keys: dict[str, str] = {}  # entry path (as shown) -> content hash, for this build

    def _undecoded(self, prefix: str) -> _Lines:
        """A shard's entries as JSON text, mapped once (see `_read_shard`)."""
        undecoded = self._raw.get(prefix)
        if undecoded is None:
            undecoded = self._raw[prefix] = _read_shard(self.folder / f"{prefix}{SUFFIX}") if self.stored else _EMPTY
        return undecoded

    def _shard(self, prefix: str) -> dict[str, Entry]:
        shard = self._shards.get(prefix)
        if shard is None:
            try:
                shard = {key: _restored(_ENTRY_DECODER.decode(raw)) for key, raw in self._undecoded(prefix).items()}
            except (msgspec.DecodeError, ValueError, TypeError):
                shard = {}
            self._raw.pop(prefix, None)
            self._shards[prefix] = shard
        return shard

    def _one(self, key: str) -> Entry | None:
        """One entry, decoding only its line when its shard is not decoded yet (a notes edit's new process
        reads a few entries, each from a shard of 40)."""
        shard = self._shards.get(key[:2])
        if shard is not None:
            return shard.get(key)
        try:
            return _restored(_ENTRY_DECODER.decode(self._undecoded(key[:2])[key]))
        except KeyError:
            return None
        except (msgspec.DecodeError, ValueError, TypeError):  # damaged: a miss, and so is the rest of its shard
            self._shards[key[:2]] = {}
            self._raw.pop(key[:2], None)
            return None

    def _keys_in(self, prefix: str) -> Iterable[str]:
        """The keys a shard holds, decoding none of its entries."""
        shard = self._shards.get(prefix)
        return shard.keys() if shard is not None else self._undecoded(prefix).keys()

    def get(self, key: str, source_path: str, slug: str) -> Entry | None:
        entry = self._one(key)
        if entry is None:
            return None
        # the same content may sit in another file now: where it is and its slug come from the caller
        if entry.source_path != source_path or entry.slug != slug:
            entry = dataclasses.replace(entry, source_path=source_path, slug=slug)
        self._used.add(key)
        self.keys[source_path] = key
        return entry

    def peek(self, key: str, source_path: str, slug: str) -> Entry | None:
        """The entry of this content, if held, without taking it as this build's entry of `source_path`."""
        entry = self._one(key)
        if entry is not None and (entry.source_path != source_path or entry.slug != slug):
            entry = dataclasses.replace(entry, source_path=source_path, slug=slug)
        return entry

    def is_empty(self) -> bool:
        """Whether `get` cannot find anything (a cold build): nothing put, and no shard saved."""
        if self._shards or self._raw:  # read from already: taken to hold something
            return False
        if not self.stored:
            return True
        try:
            return not any(name.endswith(SUFFIX) for name in os.listdir(self.folder))
        except OSError:  # no cache folder yet
            return True

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
        if not self.stored:
            return
        with contextlib.suppress(OSError):
            for prefix in sorted(self._dirty):
                shard = self._shard(prefix)
                write_atomic(self.folder / f"{prefix}{SUFFIX}", _encoded(shard), durable=False)
            self._dirty.clear()

    def release(self) -> None:
        """Forget the shards read or filled (after `save`); `keys` stays."""
        self._shards.clear()
        self._raw.clear()
        self._used.clear()

    def save(self) -> None:
        """Write the shards that changed, keeping only entries this build used."""
        if not self.stored:
            return
        with contextlib.suppress(OSError):  # a cache that cannot be written is only a slower next build
            self._legacy.unlink(missing_ok=True)
            live = {key[:2] for key in self._used}
            names = os.listdir(self.folder) if self.folder.is_dir() else []
            on_disk = {name.removesuffix(SUFFIX) for name in names if name.endswith(SUFFIX)}
            for prefix in sorted(on_disk - live):
                (self.folder / f"{prefix}{SUFFIX}").unlink(missing_ok=True)
            for legacy in (name for name in names if name.endswith(".json")):  # shards of format 2
                (self.folder / legacy).unlink(missing_ok=True)
            for prefix in sorted(live):
                held = self._keys_in(prefix)  # a shard read only for its keys stays undecoded if kept as it is
                if prefix in self._dirty or prefix not in on_disk or any(k not in self._used for k in held):
                    shard = self._shard(prefix)
                    kept = {k: shard[k] for k in sorted(shard) if k in self._used}
                    self._shards[prefix] = kept
                    write_atomic(self.folder / f"{prefix}{SUFFIX}", _encoded(kept), durable=False)
            self._dirty.clear()


def _restored(entry: Entry) -> Entry:
    return dataclasses.replace(entry, sources=_untag_dates(entry.sources)) if entry.sources else entry


def storable(entry: Entry) -> Entry:
    """The entry with its sources' dates tagged, as it is stored (a source field may hold any scalar)."""
    return dataclasses.replace(entry, sources=_tag_dates(entry.sources)) if entry.sources else entry


restored = _restored  # a stored entry as it was before `storable`


def _encoded(entries: dict[str, Entry]) -> bytes:
    """A shard: its header line, then each entry's JSON on a line of its own (JSON has no raw line breaks)."""
    keys = sorted(entries)
    lines = []
    for key in keys:
        e = entries[key]
        lines.append(_ENCODER.encode(dataclasses.replace(e, sources=_tag_dates(e.sources)) if e.sources else e))
    header = _ENCODER.encode(_Header(code_digest(), keys, [len(line) for line in lines],
                                     [xxhash.xxh3_64_intdigest(line) for line in lines]))
    return b"\n".join([header, *lines, b""])
