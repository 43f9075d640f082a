"""Full-text search: the Pagefind index built by `sitegen build`, and the search page driving it in Chromium."""

from __future__ import annotations

import datetime as dt
import gzip
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.pipeline.build import build
from sitegen.publish import search
from sitegen.publish.search_records import Record

from ..conftest import REPO, BuiltSite
from ..site_factory import copy_site
from ..support import RecordedPage, describe_violations, run_axe, screenshot, serve_directory

EASYSPEC = "papers/easyspec-layer-parallel-speculative-decoding-for-efficient/"
NOTES_WORD = "zorblefrumpish"  # made up: appears in one entry's curator notes and nowhere else
READY = ", ".join(f"#search[data-state={state}]" for state in ("done", "idle", "unavailable", "failed"))


def fragments(site: Path, bundle: str = "pagefind") -> list[dict[str, Any]]:
    """Every page record in the shards of a search bundle (gzip files holding a signature, then JSON)."""
    records = []
    for path in search.fragment_paths(site / bundle):
        raw = gzip.decompress(path.read_bytes())
        assert raw.startswith(b"pagefind_dcd"), f"unexpected fragment format in {path.name}"
        records.append(json.loads(raw[len(b"pagefind_dcd"):]))
    return records


def cli_build(site: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["build", "--root", str(site), *args])
    return result.exit_code, result.output


# ---- the index ---------------------------------------------------------------------------------------------------

def test_index_holds_every_paper_page_and_nothing_else(built_site: BuiltSite) -> None:
    papers = sorted(p.stem for p in (REPO / "content" / "papers").glob("*.md"))
    assert len(papers) == built_site.result.pages_by_kind["paper"] == 106
    assert built_site.result.search is not None and built_site.result.search.ok, built_site.result.search
    shards = json.loads(built_site.text("pagefind/sitegen-search.json"))["shards"]
    assert [shard["path"] for shard in shards] == ["s0/"]  # 106 papers: one shard
    entry = json.loads(built_site.text("pagefind/s0/pagefind-entry.json"))
    assert sum(language["page_count"] for language in entry["languages"].values()) == len(papers)
    records = fragments(built_site.output)
    assert sorted(r["url"] for r in records) == sorted(f"/papers/{slug}/" for slug in papers)
    # Only paper pages opt in to indexing.
    bodies = [p.relative_to(built_site.output).as_posix() for p in built_site.output.rglob("*.html")
              if "data-pagefind-body" in p.read_text(encoding="utf-8")]
    assert sorted(bodies) == sorted(f"papers/{slug}/index.html" for slug in papers)
    easyspec = next(r for r in records if r["url"] == "/" + EASYSPEC)
    assert easyspec["meta"]["title"].startswith("EasySpec")
    assert easyspec["filters"]["tag"] == ["tensor-parallelism", "speculative-decoding"]
    assert easyspec["filters"]["year"] == ["2025"]
    # Tag chips and link labels are filters, not text: they would crowd every excerpt.
    assert "speculative-decoding." not in easyspec["content"]
    assert "lossless method" in easyspec["content"]


def test_no_search_builds_without_an_index(tmp_path: Path) -> None:
    site = copy_site(tmp_path / "site", papers=3)
    code, output = cli_build(site, "--no-search")
    assert code == 0, output
    assert "search index" not in output
    assert (site / "public/search/index.html").is_file()
    assert not (site / "public/pagefind").exists()


def test_missing_pagefind_warns_and_the_build_succeeds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = copy_site(tmp_path / "site", papers=3)
    monkeypatch.setattr(search, "binary", lambda: None)
    code, output = cli_build(site)
    assert code == 0, output
    assert "warning: search index skipped: Pagefind is not installed" in output
    assert len(list((site / "public/papers").glob("*/index.html"))) == 3
    assert not (site / "public/pagefind").exists()


def test_a_pagefind_that_cannot_run_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "public").mkdir()
    broken = tmp_path / "pagefind"
    broken.write_bytes(b"\x7fELF not really")  # not executable here
    os.chmod(broken, 0o644)
    monkeypatch.setattr(search, "binary", lambda: broken)
    result = search.index(tmp_path / "public" / "pagefind", [Record("papers/a/index.html", "<html></html>")])
    assert not result.ok and "Pagefind could not run here" in result.message
    assert not (tmp_path / "public" / "pagefind").exists()


# ---- sites for the browser tests ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def notes_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 12-paper copy where one entry has curator notes with a unique word, built for a domain root."""
    site = copy_site(tmp_path_factory.mktemp("notes") / "site", papers=12)
    entry = sorted((site / "content" / "papers").glob("*.md"))[4]
    entry.write_text(entry.read_text(encoding="utf-8").rstrip("\n") + "\n\nRead this for the "
                     f"{NOTES_WORD} trick: `<em>{NOTES_WORD}</em>` & more.\n", encoding="utf-8")
    result = build(site, site / "public", "https://reader.example.org/")
    assert result.search is not None and result.search.ok
    return site / "public"


@pytest.fixture(scope="module")
def served(built_site: BuiltSite) -> Iterator[str]:
    """The committed site built for https://example.github.io/reading-list/, served under /reading-list/."""
    with serve_directory(built_site.output, built_site.base_path) as base_url:
        yield base_url


def open_search(page: RecordedPage, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(READY)


def result_hrefs(page: RecordedPage) -> list[str]:
    return [a.get_attribute("href") or "" for a in page.locator("a.result-link").all()]


def typed_search(page: RecordedPage, text: str) -> None:
    box = page.locator("#search-query")
    box.click()
    box.press_sequentially(text, delay=20)
    page.wait_for_function("([q]) => new URLSearchParams(location.search).get('q') === q", arg=[text])
    page.wait_for_selector(READY)


# ---- browser -----------------------------------------------------------------------------------------------------

def test_typing_finds_speculative_decoding_papers_and_a_tag_narrows_them(page: RecordedPage, served: str) -> None:
    open_search(page, served + "search/")
    assert page.locator("#search-status").inner_text().startswith("Type to search the reading list")
    typed_search(page, "speculative")
    hrefs = result_hrefs(page)
    assert "/reading-list/" + EASYSPEC in hrefs
    assert len(hrefs) >= 3 and all(h.startswith("/reading-list/papers/") for h in hrefs)
    assert page.locator("#search-status").inner_text() == f"{len(hrefs)} papers match “speculative”."
    for item in page.locator(".result").all():
        marks = [m.lower() for m in item.locator(".result-excerpt mark").all_inner_texts()]
        assert marks and all(m.startswith("speculative") for m in marks), item.inner_text()
    assert page.url.endswith("/reading-list/search/?q=speculative")

    tag = page.locator("#search-tag")
    label = tag.locator("option[value='tensor-parallelism']").inner_text()
    assert label.startswith("tensor-parallelism (") and label != "tensor-parallelism (0)"
    tag.select_option("tensor-parallelism")
    page.wait_for_function("() => new URLSearchParams(location.search).get('tag') === 'tensor-parallelism'")
    page.wait_for_selector(READY)
    narrowed = result_hrefs(page)
    assert "/reading-list/" + EASYSPEC in narrowed and 0 < len(narrowed) < len(hrefs)
    assert set(narrowed) <= set(hrefs)
    for item in page.locator(".result").all():
        assert "tensor-parallelism" in item.locator(".result-tags li").all_inner_texts()
    assert f"{len(narrowed)} paper" in page.locator("#search-status").inner_text()
    assert "with tag tensor-parallelism" in page.locator("#search-status").inner_text()
    page.locator(".search-clear").click()
    page.wait_for_function("() => !new URLSearchParams(location.search).has('tag')")
    page.wait_for_selector(READY)
    assert result_hrefs(page) == hrefs
    page.assert_clean()


def test_query_in_the_url_prefills_and_runs_the_search(page: RecordedPage, served: str) -> None:
    open_search(page, served + "search/?q=speculative")
    assert page.locator("#search-query").input_value() == "speculative"
    assert "/reading-list/" + EASYSPEC in result_hrefs(page)
    violations = run_axe(page)
    assert not violations, describe_violations(violations)
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.locator("#search-query").focus()
            page.keyboard.press("ArrowDown")  # show a focused result too
            screenshot(page, f"search-{width}-{scheme}")
        violations = run_axe(page)
        assert not violations, f"{scheme}: " + describe_violations(violations)
    page.assert_clean()


def test_a_filter_alone_lists_its_papers(page: RecordedPage, served: str, built_site: BuiltSite) -> None:
    tagged = sorted(p.parent.name for p in (built_site.output / "papers").glob("*/index.html")
                    if 'data-pagefind-filter="tag">speculative-decoding<' in p.read_text(encoding="utf-8"))
    open_search(page, served + "search/?tag=speculative-decoding")
    assert page.locator("#search-tag").input_value() == "speculative-decoding"
    assert sorted(h.split("/")[-2] for h in result_hrefs(page)) == tagged and tagged
    assert page.locator("#search-status").inner_text() == f"{len(tagged)} papers match tag speculative-decoding."
    page.assert_clean()


def test_keyboard_moves_through_results_and_enter_opens_one(page: RecordedPage, served: str) -> None:
    open_search(page, served + "search/?q=speculative")
    page.locator("h1").click()
    page.keyboard.press("/")
    focused = "() => document.activeElement.id || document.activeElement.getAttribute('href')"
    assert page.evaluate(focused) == "search-query"
    hrefs = result_hrefs(page)
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == hrefs[0]
    page.keyboard.press("ArrowDown")
    assert page.evaluate(focused) == hrefs[1]
    assert [a.get_attribute("tabindex") for a in page.locator("a.result-link").all()][:3] == ["-1", "0", "-1"]
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == hrefs[0]
    page.keyboard.press("ArrowUp")
    assert page.evaluate(focused) == "search-query"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Escape")
    assert page.evaluate(focused) == "search-query"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    page.wait_for_url("**" + hrefs[0])
    assert page.locator("article.paper h1").count() == 1
    page.assert_clean()


def test_date_sort_orders_results_and_keeps_undated_papers_last(page: RecordedPage, served: str) -> None:
    def dates() -> list[dt.date | None]:
        found: list[dt.date | None] = []
        for item in page.locator(".result").all():
            meta = item.locator(".result-meta span").all_inner_texts()
            found.append(dt.datetime.strptime(meta[0], "%b %d, %Y").date() if meta and meta[0][-4:].isdigit()
                         else None)
        return found

    open_search(page, served + "search/?q=decoding")
    relevance = result_hrefs(page)
    page.locator("#search-sort").select_option("newest")
    page.wait_for_function("() => new URLSearchParams(location.search).get('sort') === 'newest'")
    page.wait_for_selector(READY)
    newest = dates()
    dated = [d for d in newest if d is not None]
    assert sorted(result_hrefs(page)) == sorted(relevance) and len(dated) >= 2
    assert dated == sorted(dated, reverse=True) and newest[: len(dated)] == dated
    open_search(page, served + "search/?q=decoding&sort=oldest")
    assert page.locator("#search-sort").input_value() == "oldest"
    oldest = [d for d in dates() if d is not None]
    assert oldest == sorted(dated)
    page.assert_clean()


def test_a_word_only_in_curator_notes_finds_that_paper(page: RecordedPage, notes_site: Path) -> None:
    with serve_directory(notes_site, "/") as base_url:
        open_search(page, base_url + f"search/?q={NOTES_WORD}")
        hrefs = result_hrefs(page)
        assert len(hrefs) == 1 and hrefs[0].startswith("/papers/")
        assert NOTES_WORD in (notes_site / hrefs[0].strip("/") / "index.html").read_text(encoding="utf-8")
        excerpt = page.locator(".result-excerpt")
        assert NOTES_WORD in [m.lower() for m in excerpt.locator("mark").all_inner_texts()]
        # The excerpt is text: markup quoted in the notes is shown, never parsed.
        assert f"<em>{NOTES_WORD}</em>" in excerpt.inner_text().lower()
        assert excerpt.locator("em").count() == 0
        assert excerpt.evaluate("e => [...e.querySelectorAll('*')].every(n => n.tagName === 'MARK')")
        page.assert_clean()


def test_a_site_built_without_search_says_so(page: RecordedPage, tmp_path: Path) -> None:
    site = copy_site(tmp_path / "site", papers=3)
    build(site, site / "public", "https://example.github.io/reading-list/", search=False)
    with serve_directory(site / "public", "/reading-list/") as base_url:
        open_search(page, base_url + "search/?q=speculative")
        assert page.locator("#search").get_attribute("data-state") == "unavailable"
        notice = page.locator(".search-unavailable")
        assert "Search is not available" in notice.inner_text()
        assert [a.get_attribute("href") for a in notice.locator("a").all()] == [
            "/reading-list/tags/", "/reading-list/authors/"]
        assert page.page_errors == []
        # The only trace is the browser's own note of the missing bundle: nothing thrown, nothing logged by us.
        page.assert_clean(ignore=[r"/reading-list/pagefind/sitegen-search\.json", r"Failed to load resource: .*404"])


def test_an_index_that_cannot_be_loaded_says_so_and_not_that_it_was_never_built(page: RecordedPage,
                                                                                 tmp_path: Path) -> None:
    """A deploy that lost a file of the index (here Pagefind's WebAssembly) is a failure to load, not a site
    built without search: the reader is told to reload, and the cause is named."""
    site = copy_site(tmp_path / "site", papers=3)
    build(site, site / "public", "https://example.github.io/reading-list/")
    for wasm in (site / "public" / "pagefind").glob("s*/wasm.*.pagefind"):
        wasm.unlink()
    with serve_directory(site / "public", "/reading-list/") as base_url:
        open_search(page, base_url + "search/?q=speculative")
        assert page.locator("#search").get_attribute("data-state") == "failed"
        assert page.locator(".search-unavailable").count() == 0
        status = page.locator("#search-status")
        assert status.is_visible() and status.inner_text().startswith("The search index could not be loaded (")
        screenshot(page, "search-failed-1280-light", full_page=False)
        assert page.locator("#search-query").is_disabled()
        page.assert_clean(ignore=[r"wasm\.\w+\.pagefind", r"Failed to load resource: .*404", r"(?i)pagefind"])
