"""The preview's search index: an edit is found by search once the one shard that holds the paper is indexed."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from sitegen.publish import search
from sitegen.serve import serve
from sitegen.serve.serve import PreviewSession

from ..publish.test_search import fragments
from ..site_factory import copy_site

WORD = "quibbleflux"  # made up: in no entry until the edit


def test_a_notes_edit_reindexes_one_shard_and_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(serve, "PREVIEW_SHARD_SIZE", 4)  # 12 papers in three shards
    root = copy_site(tmp_path / "site", papers=12)
    with PreviewSession(root, port=0) as session:
        assert [(r.ok, r.shards, r.indexed) for r in session.indexed] == [(True, 3, 3)]
        before = shard_bytes(session.output)
        entry = sorted((root / "content" / "papers").glob("*.md"))[5]
        # saved whole (written aside, then renamed): a watcher that saw the file half-written would build the
        # list without that paper first, which moves every shard's boundary and re-indexes all three
        edited = entry.with_suffix(".tmp")
        edited.write_text(entry.read_text(encoding="utf-8") + f"\nThe {WORD} trick.\n", encoding="utf-8")
        edited.replace(entry)
        deadline = time.monotonic() + 60
        # the index is swapped in before its result is reported: wait for both, or the result read is the first one
        while time.monotonic() < deadline and not (len(session.indexed) > 1 and _found(session.output)):
            time.sleep(0.05)
        assert [r["url"] for r in fragments(session.output) if WORD in r["content"]] == [
            f"/papers/{entry.stem}/"]
        assert session.indexed[-1].ok and (session.indexed[-1].shards, session.indexed[-1].indexed) == (3, 1)
        after = shard_bytes(session.output)
        assert sorted(after) == ["s0", "s1", "s2"]
        assert [shard for shard in after if after[shard] != before[shard]] == [_shard_of(session.output, entry.stem)]


def _found(output: Path) -> bool:
    """Whether the index finds the word yet; a shard being swapped in while it is read is not found yet (its
    files are listed, then gone)."""
    try:
        return any(WORD in r["content"] for r in fragments(output))
    except FileNotFoundError:
        return False


def shard_bytes(output: Path) -> dict[str, list[bytes]]:
    """Each shard's page records, as bytes."""
    shards: dict[str, list[bytes]] = {}
    for path in search.fragment_paths(output / "pagefind"):
        shards.setdefault(path.parent.parent.name, []).append(path.read_bytes())
    return shards


def _shard_of(output: Path, slug: str) -> str:
    return next(path.parent.parent.name for path in search.fragment_paths(output / "pagefind")
                if f'/papers/{slug}/' in str(fragments_of(path)))


def fragments_of(path: Path) -> dict[str, object]:
    import gzip
    import json

    return json.loads(gzip.decompress(path.read_bytes())[len(search.FRAGMENT_SIGNATURE):])  # type: ignore[no-any-return]
