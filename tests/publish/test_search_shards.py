"""The search index made from records, in shards: the same index the pages gave, kept shards on an edit,
the same bytes each time, and the search page merging shards as one index."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitegen.pipeline.build import build
from sitegen.pipeline.site_engine import SiteEngine, search_records
from sitegen.publish import search
from sitegen.publish.search_records import Record

from ..conftest import BuiltSite
from ..site_factory import copy_site, tree_bytes
from ..support import RecordedPage, serve_directory
from .test_search import READY, fragments, result_hrefs
from .test_search_quality import misses

SMALL_SHARDS = 40  # the bundled list's 106 papers in three shards


def test_records_give_pagefind_what_the_paper_pages_gave(built_site: BuiltSite, tmp_path: Path) -> None:
    """Pagefind over the built paper pages (as the search step ran before) and over the records: the same
    text, metadata, filters, sort keys and anchors for every paper."""
    exe = search.binary()
    assert exe is not None
    excludes = [arg for selector in search.EXCLUDE_SELECTORS for arg in ("--exclude-selectors", selector)]
    subprocess.run([str(exe), "--site", str(built_site.output), "--glob", "papers/*/index.html",
                    "--output-path", str(tmp_path / "pages" / "s0"), *excludes, "--silent"], check=True)
    by_pages = {r["url"]: r for r in fragments(tmp_path, "pages")}
    by_records = {r["url"]: r for r in fragments(built_site.output)}
    assert len(by_records) == 106 and sorted(by_pages) == sorted(by_records)
    assert [url for url in by_pages if by_pages[url] != by_records[url]] == []


@pytest.fixture(scope="module")
def model_records(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    site = copy_site(tmp_path_factory.mktemp("records") / "site")
    return search_records(SiteEngine(site, site / "public"), search.SHARD_SIZE)


def test_records_come_oldest_first_and_say_nothing_of_the_rest_of_the_page(model_records: list[Record]) -> None:
    dates = [d for r in model_records if (d := _date(r)) is not None]
    assert dates == sorted(dates) and len(dates) > 90
    assert all(r.path.startswith("papers/") and r.path.endswith("/index.html") for r in model_records)
    assert all("Cite" not in r.html and "cite-heading" not in r.html for r in model_records)


def _date(record: Record) -> dt.date | None:
    marker = 'data-pagefind-sort="date:'
    at = record.html.find(marker)
    return dt.date.fromisoformat(record.html[at + len(marker):at + len(marker) + 10]) if at >= 0 else None


def test_an_edit_reindexes_only_its_shard_and_equals_a_clean_index(model_records: list[Record],
                                                                   tmp_path: Path) -> None:
    first = search.index(tmp_path / "first", model_records, shard_size=SMALL_SHARDS)
    assert first.ok and (first.shards, first.indexed) == (3, 3)
    edited = list(model_records)
    edited[50] = Record(edited[50].path, edited[50].html.replace("</article>", "<p>quokkafied</p></article>"))
    second = search.index(tmp_path / "second", edited, tmp_path / "first", shard_size=SMALL_SHARDS)
    assert second.ok and (second.shards, second.indexed) == (3, 1)
    clean = search.index(tmp_path / "clean", edited, shard_size=SMALL_SHARDS)
    assert tree_bytes(tmp_path / "second") == tree_bytes(tmp_path / "clean")  # rebuild == clean build
    kept = tree_bytes(tmp_path / "first" / "s0")
    assert tree_bytes(tmp_path / "second" / "s0") == kept and tree_bytes(tmp_path / "second" / "s2") == tree_bytes(
        tmp_path / "first" / "s2")
    assert tree_bytes(tmp_path / "second" / "s1") != tree_bytes(tmp_path / "first" / "s1")
    assert clean.indexed == 3
    assert any("quokkafied" in r["content"] for r in fragments(tmp_path / "second", ""))


def test_a_damaged_shard_of_the_last_index_is_indexed_again(model_records: list[Record], tmp_path: Path) -> None:
    assert search.index(tmp_path / "first", model_records, shard_size=SMALL_SHARDS).indexed == 3
    next((tmp_path / "first" / "s1" / "fragment").iterdir()).unlink()
    again = search.index(tmp_path / "again", model_records, tmp_path / "first", shard_size=SMALL_SHARDS)
    assert again.ok and again.indexed == 1
    assert search.index(tmp_path / "clean", model_records, shard_size=SMALL_SHARDS).ok
    assert tree_bytes(tmp_path / "again") == tree_bytes(tmp_path / "clean")


def test_shards_indexed_by_other_code_are_indexed_again(model_records: list[Record], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """What a shard holds is stamped with sitegen's code digest: a new sitegen re-indexes every shard."""
    assert search.index(tmp_path / "first", model_records, shard_size=SMALL_SHARDS).indexed == 3
    monkeypatch.setattr(search, "code_digest", lambda: "another sitegen")
    again = search.index(tmp_path / "again", model_records, tmp_path / "first", shard_size=SMALL_SHARDS)
    assert again.ok and again.indexed == 3


def test_the_same_records_give_the_same_bytes(model_records: list[Record], tmp_path: Path) -> None:
    """Pagefind writes its filter values in hash-map order (Pagefind#638): sorted, the bundle is the same."""
    for name in ("a", "b"):
        assert search.index(tmp_path / name, model_records, shard_size=SMALL_SHARDS).ok
    first, second = tree_bytes(tmp_path / "a"), tree_bytes(tmp_path / "b")
    assert first == second and sum(1 for name in first if "/filter/" in name) >= 9


def test_a_list_without_papers_has_an_empty_index(tmp_path: Path) -> None:
    result = search.index(tmp_path / "pagefind", [])
    assert result.ok and result.shards == 0
    assert json.loads((tmp_path / "pagefind" / search.MANIFEST).read_text(encoding="utf-8"))["shards"] == []


def test_a_rebuild_after_a_notes_edit_finds_the_notes_as_a_clean_build_does(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "SHARD_SIZE", 4)  # 12 papers in three shards
    site = copy_site(tmp_path / "site", papers=12)
    assert build(site, site / "public").search.indexed == 3  # type: ignore[union-attr]
    entry = sorted((site / "content" / "papers").glob("*.md"))[7]
    entry.write_text(entry.read_text(encoding="utf-8") + "\nA quokkafied idea.\n", encoding="utf-8")
    again = build(site, site / "public").search
    assert again is not None and again.ok and (again.shards, again.indexed) == (3, 1)
    found = [r["url"] for r in fragments(site / "public") if "quokkafied" in r["content"]]
    assert found == [f"/papers/{entry.stem}/"]
    build(site, tmp_path / "clean", use_cache=False)
    assert tree_bytes(site / "public" / "pagefind") == tree_bytes(tmp_path / "clean" / "pagefind")


# ---- the search page over three shards ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sharded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """The bundled list built under /reading-list/ with its index in three shards, served."""
    site = copy_site(tmp_path_factory.mktemp("sharded") / "site")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "SHARD_SIZE", SMALL_SHARDS)
        result = build(site, site / "public", "https://example.github.io/reading-list/")
    assert result.search is not None and result.search.ok and result.search.shards == 3
    with serve_directory(site / "public", "/reading-list/") as base_url:
        yield base_url, site / "public"
    shutil.rmtree(site, ignore_errors=True)


def test_the_three_shards_open_every_time_the_page_loads(page: RecordedPage, sharded: tuple[str, Path]) -> None:
    """Instances of one Pagefind script share its WebAssembly module, so each overwrote the others' index as they
    loaded: about one load in three trapped ("unreachable") and the page said search was unavailable."""
    states = []
    for _ in range(12):
        page.goto("about:blank")
        page.goto(sharded[0] + "search/")
        page.wait_for_selector(READY)
        states.append(page.locator("#search").get_attribute("data-state"))
    assert states == ["idle"] * 12
    page.assert_clean()


def test_three_shards_rank_the_twenty_queries_as_one_index(page: RecordedPage, sharded: tuple[str, Path]) -> None:
    page.goto(sharded[0] + "search/")
    page.wait_for_selector(READY)
    assert page.locator("#search").get_attribute("data-state") == "idle", page.problems
    assert misses(page, sharded[0]) == {}
    page.assert_clean()


def test_filter_counts_add_up_and_a_date_sort_runs_across_shards(page: RecordedPage,
                                                                  sharded: tuple[str, Path]) -> None:
    base_url, output = sharded
    tagged = sum('data-pagefind-filter="tag">speculative-decoding<' in p.read_text(encoding="utf-8")
                 for p in (output / "papers").glob("*/index.html"))
    page.goto(base_url + "search/")
    page.wait_for_selector(READY)
    assert page.locator("#search").get_attribute("data-state") == "idle", page.problems
    assert page.locator("#search-tag option[value='speculative-decoding']").inner_text() == (
        f"speculative-decoding ({tagged})")
    page.goto(base_url + "search/?q=decoding&sort=newest")
    page.wait_for_selector("#search[data-state=done]")
    dates = []
    for item in page.locator(".result").all():
        meta = item.locator(".result-meta span").all_inner_texts()
        if meta and meta[0][-4:].isdigit():
            dates.append(dt.datetime.strptime(meta[0], "%b %d, %Y").date())
    assert len(dates) >= 5 and dates == sorted(dates, reverse=True)
    page.goto(base_url + "search/?tag=speculative-decoding")
    page.wait_for_selector(READY)
    assert len(result_hrefs(page)) == tagged
    page.assert_clean()
