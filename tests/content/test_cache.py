"""The entry cache gives back exactly the entries that were parsed, and ignores what it cannot trust."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from sitegen.common.errors import Report
from sitegen.content.cache import EntryCache
from sitegen.content.loader import Entry, load_content

from ..site_factory import cached_shard, copy_site, edit_cached_entry


def test_saved_entries_read_back_equal_to_a_fresh_parse(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site")
    fresh = load_content(root, Report(), None)
    cache = EntryCache(root)
    load_content(root, Report(), cache)
    cache.save()
    reread = EntryCache(root)
    for entry in fresh.entries:
        key = cache.keys[entry.source_path]
        assert reread.get(key, entry.source_path, entry.slug) == entry
    dated = [value for e in fresh.entries for source in e.sources for _, value in source if isinstance(value, dt.date)]
    assert dated, "the sample holds sources with dates, which must come back as dates"
    assert any(e.links for e in fresh.entries) and any(e.date for e in fresh.entries)


def _one_saved(tmp_path: Path) -> tuple[Path, Entry, str]:
    """A small site whose entries are cached and saved: its root, first entry and that entry's key."""
    root = copy_site(tmp_path / "site", papers=3)
    cache = EntryCache(root)
    entry = load_content(root, Report(), cache).entries[0]
    cache.save()
    return root, entry, cache.keys[entry.source_path]


def test_the_same_content_in_another_file_takes_that_files_path_and_slug(tmp_path: Path) -> None:
    root, entry, key = _one_saved(tmp_path)
    moved = EntryCache(root).get(key, "content/papers/elsewhere.md", "elsewhere")
    assert moved is not None and (moved.source_path, moved.slug) == ("content/papers/elsewhere.md", "elsewhere")
    assert moved.title == entry.title


def test_a_shard_of_another_format_or_damaged_is_a_miss(tmp_path: Path) -> None:
    root, entry, key = _one_saved(tmp_path)
    shard = cached_shard(root, key)
    saved = shard.read_text(encoding="utf-8")
    header, rest = saved.split("\n", 1)
    raw = json.loads(header)
    assert EntryCache(root).get(key, entry.source_path, entry.slug) == entry
    shard.write_text(json.dumps({**raw, "code": "another sitegen"}) + "\n" + rest, encoding="utf-8")
    assert EntryCache(root).get(key, entry.source_path, entry.slug) is None, "written by other code"
    older = {"version": "0.2.0", "format": 7, **{k: v for k, v in raw.items() if k != "code"}}
    shard.write_text(json.dumps(older) + "\n" + rest, encoding="utf-8")
    assert EntryCache(root).get(key, entry.source_path, entry.slug) is None, "a numbered format of before"
    shard.write_text(saved, encoding="utf-8")
    edit_cached_entry(root, key, "date", {"$date": "2024-01-02"})  # a value of the wrong type
    assert EntryCache(root).get(key, entry.source_path, entry.slug) is None
    more = {**raw, "keys": raw["keys"] + ["0" * 64], "lengths": raw["lengths"] + [10]}
    shard.write_text(json.dumps(more) + "\n" + rest, encoding="utf-8")
    assert EntryCache(root).get(key, entry.source_path, entry.slug) is None, "a line short of its header"
    shard.write_text(saved + "{}\n", encoding="utf-8")
    assert EntryCache(root).get(key, entry.source_path, entry.slug) is None, "a line more than its header names"
    shard.write_text("{not json", encoding="utf-8")
    assert EntryCache(root).get(key, entry.source_path, entry.slug) is None
    legacy = shard.with_suffix(".json")  # a shard of format 2, one JSON document
    legacy.write_text(json.dumps({"version": "0.1.0", "format": 2, "by_key": {}}), encoding="utf-8")
    cache = EntryCache(root)
    cache.keep([key])
    cache.save()
    assert not legacy.exists(), "shards of another format are removed"


def test_a_shard_a_crash_cut_short_is_a_miss(tmp_path: Path) -> None:
    """Shards are not fsynced: after a crash one may be empty or cut short, and must read as a miss."""
    root, entry, key = _one_saved(tmp_path)
    shard = cached_shard(root, key)
    saved = shard.read_bytes()
    assert EntryCache(root).get(key, entry.source_path, entry.slug) == entry
    for cut in (b"", saved[: len(saved) // 2], saved[:-1]):
        shard.write_bytes(cut)
        assert EntryCache(root).get(key, entry.source_path, entry.slug) is None


def test_a_line_changed_behind_its_checksum_is_a_miss_never_another_entry(tmp_path: Path) -> None:
    """A flipped letter leaves valid JSON of the right length and type: only the line's checksum tells."""
    root, entry, key = _one_saved(tmp_path)
    shard = cached_shard(root, key)
    saved = shard.read_bytes()
    at = saved.index(entry.title.encode()[:8], saved.index(b"\n"))
    shard.write_bytes(saved[:at] + bytes([saved[at] ^ 0x01]) + saved[at + 1:])
    assert EntryCache(root).get(key, entry.source_path, entry.slug) is None
    shard.write_bytes(saved)
    assert EntryCache(root).get(key, entry.source_path, entry.slug) == entry


def test_numbers_come_back_as_the_file_wrote_them(tmp_path: Path) -> None:
    """A whole-number score stays an int and a fractional one a float, so a page built from the
    cache (after a theme edit, say) prints `5` as a clean build does, not `5.0`."""
    root = copy_site(tmp_path / "site", papers=3)
    papers = sorted((root / "content" / "papers").glob("*.md"))
    for path, score in zip(papers, ("5", "69.4", "7.0"), strict=True):
        text = path.read_text(encoding="utf-8")
        assert "\nscore:" not in text
        path.write_text(text.replace("\ntitle:", f"\nscore: {score}\ntitle:", 1), encoding="utf-8")
    cache = EntryCache(root)
    fresh = load_content(root, Report(), cache).entries
    cache.save()
    assert [repr(e.score) for e in fresh] == ["5", "69.4", "7.0"]
    reread = EntryCache(root)
    for entry in fresh:
        back = reread.get(cache.keys[entry.source_path], entry.source_path, entry.slug)
        assert repr(back) == repr(entry)
