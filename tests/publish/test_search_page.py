"""The search page behaving: focus on arrival, authors and header-free excerpts in results, no junk from
two-letter prefixes, "did you mean", filters folded on phones, no second search box in the header."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from ..conftest import BuiltSite
from ..support import RecordedPage, SiteURL, describe_violations, run_axe, screenshot, serve_directory
from .test_search import EASYSPEC, READY, fragments, result_hrefs

VTC = "papers/vtc-dnn-compilation-with-virtual-tensors-for-data-movement/"
FOCUSED = "() => document.activeElement.id || document.activeElement.getAttribute('href')"


@pytest.fixture(scope="module")
def served(built_site: BuiltSite) -> Iterator[SiteURL]:
    """The committed site built for https://example.github.io/reading-list/, served under /reading-list/."""
    with serve_directory(built_site.output, built_site.base_path) as base_url:
        yield base_url


def open_search(page: RecordedPage, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(READY)


# ---- the index ---------------------------------------------------------------------------------------------------

def test_the_index_carries_authors_as_metadata_without_new_words(built_site: BuiltSite) -> None:
    records = {r["url"]: r for r in fragments(built_site.output)}
    assert records["/" + VTC]["meta"]["authors"] == "Muyan Hu, Ahan Gupta, Jiachen Yuan … Vima Gupta"
    assert records["/" + EASYSPEC]["meta"]["authors"] == "3 …"  # three authors, none named
    # Pagefind indexes metadata too: its words are all words of the page's text, so "authors" finds no extra page.
    for record in records.values():
        said = set(re.findall(r"[^\W\d_]+", record["content"].lower()))
        assert set(re.findall(r"[^\W\d_]+", record["meta"].get("authors", "").lower())) <= said, record["url"]


def test_the_bundle_lists_title_words_for_suggestions(built_site: BuiltSite) -> None:
    words = json.loads(built_site.text("pagefind/sitegen-words.json"))["words"]
    titles = [set(re.findall(r"\w+", r["meta"]["title"].lower())) for r in fragments(built_site.output)]
    assert "attention" in words and "speculative" in words and "layer-parallel" in words
    assert all(len(w) >= 3 for w in words) and len(set(words)) == len(words)
    in_titles = [sum(w in t for t in titles) for w in words[:8]]
    assert in_titles == sorted(in_titles, reverse=True)  # the most frequent first


def test_the_search_page_has_no_second_search_box(built_site: BuiltSite) -> None:
    assert 'id="site-search"' not in built_site.text("search/index.html")
    assert 'id="site-search"' in built_site.text("index.html")


# ---- the page ----------------------------------------------------------------------------------------------------

def test_the_header_box_lands_with_the_focus_in_the_query(page: RecordedPage, served: SiteURL) -> None:
    page.goto(served.url("tags/compilers/"))
    page.locator("#site-search").fill("speculative")
    page.locator("#site-search").press("Enter")
    page.wait_for_url("**/reading-list/search/?q=speculative")
    page.wait_for_selector(READY)
    assert page.evaluate(FOCUSED) == "search-query"
    assert page.evaluate("() => document.activeElement.selectionStart") == len("speculative")
    hrefs = result_hrefs(page)
    page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED) == hrefs[0]
    page.keyboard.press("ArrowDown")
    assert page.evaluate(FOCUSED) == hrefs[1]
    page.keyboard.press("ArrowUp")
    assert page.evaluate(FOCUSED) == hrefs[0]
    with page.expect_navigation():
        page.keyboard.press("Enter")  # the first result opens
    assert page.url.rstrip("/").endswith("/" + hrefs[0].rstrip("/").rsplit("/", 1)[-1])
    page.assert_clean()


def test_results_name_their_authors(page: RecordedPage, served: SiteURL) -> None:
    open_search(page, served.url("search/?q=virtual+tensors"))
    vtc = page.locator(f".result:has(a.result-link[href='/reading-list/{VTC}']) .result-meta")
    assert vtc.inner_text().endswith("Muyan Hu, Ahan Gupta, Jiachen Yuan et al., including Vima Gupta")
    open_search(page, served.url("search/?q=speculative"))
    easyspec = page.locator(f".result:has(a.result-link[href='/reading-list/{EASYSPEC}']) .result-meta")
    assert easyspec.inner_text().endswith("3 authors")  # none named
    page.assert_clean()


def test_excerpts_start_after_the_title(page: RecordedPage, served: SiteURL) -> None:
    open_search(page, served.url("search/?q=speculative"))
    # the excerpt starts where the abstract does: the title above it is not said again
    excerpt = page.locator(f".result:has(a.result-link[href='/reading-list/{EASYSPEC}']) .result-excerpt")
    assert excerpt.inner_text().startswith("Speculative decoding is an effective and lossless method")
    assert "cut-start" not in (excerpt.get_attribute("class") or "")
    for item in page.locator(".result").all():
        title = item.locator(".result-title").inner_text()
        assert title not in item.locator(".result-excerpt").inner_text()
        marks = [m.lower() for m in item.locator(".result-excerpt mark").all_inner_texts()]
        assert all(m.startswith("speculative") for m in marks), item.inner_text()
    page.assert_clean()


def test_two_letters_alone_list_nothing(page: RecordedPage, served: SiteURL) -> None:
    open_search(page, served.url("search/?q=at"))
    assert page.locator(".result").count() == 0
    assert page.locator("#search-status").inner_text() == "Type at least 3 letters to search."
    box = page.locator("#search-query")
    box.press("End")
    box.press_sequentially("t", delay=20)
    page.wait_for_function("() => new URLSearchParams(location.search).get('q') === 'att'")
    page.wait_for_selector(READY)
    assert page.locator(".result").count() > 0  # three letters search, as a prefix
    page.assert_clean()


def test_a_misspelling_finds_nothing_and_suggests_a_title_word(page: RecordedPage, served: SiteURL) -> None:
    open_search(page, served.url("search/?q=atention"))
    # Pagefind falls back to the indexed prefix "at"; those are not results
    assert page.locator(".result").count() == 0
    assert page.locator("#search-status").inner_text() == "No papers match “atention”. Did you mean attention?"
    suggestion = page.locator("#search-status a.search-suggestion")
    assert suggestion.get_attribute("href") == "?q=attention"
    assert ("/reading-list/pagefind/sitegen-words.json", 200) in [(r.path, r.status) for r in served.requests]
    suggestion.click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('q') === 'attention'")
    page.wait_for_selector(READY)
    assert page.locator(".result").count() > 3
    assert page.evaluate(FOCUSED) == "search-query"
    assert page.locator("#search-query").input_value() == "attention"
    page.assert_clean()


def test_a_suggestion_keeps_the_filters_and_comes_from_tags_too(page: RecordedPage, served: SiteURL) -> None:
    open_search(page, served.url("search/?q=kv-cahce&tag=attention"))
    assert page.locator(".result").count() == 0  # Pagefind falls back to "kv"
    suggestion = page.locator("#search-status a.search-suggestion")
    assert suggestion.inner_text() == "kv-cache"  # a tag
    assert suggestion.get_attribute("href") == "?q=kv-cache&tag=attention"
    # a start of 3 letters or more that is half the word still counts ("specul", "decod"); "sep" does not
    open_search(page, served.url("search/?q=speculatve+decodng"))
    assert "/reading-list/" + EASYSPEC in result_hrefs(page)
    open_search(page, served.url("search/?q=sepculative"))
    assert page.locator(".result").count() == 0
    assert page.locator("#search-status a.search-suggestion").inner_text() == "speculative"
    page.assert_clean()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_filters_fold_into_a_disclosure_on_phones(page: RecordedPage, served: SiteURL, scheme: str) -> None:
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": 390, "height": 800})
    open_search(page, served.url("search/?q=decoding"))
    controls = page.locator("details.search-controls")
    assert controls.evaluate("d => d.open") is False
    assert page.locator("#search-tag").is_hidden() and controls.locator("summary").is_visible()
    first = page.locator(".result").first.bounding_box()
    assert first is not None and first["y"] < 800  # a result on the first screen
    violations = run_axe(page)
    assert not violations, describe_violations(violations)
    screenshot(page, f"search-filters-390-{scheme}", full_page=False)
    controls.locator("summary").click()
    assert page.locator("#search-tag").is_visible()
    screenshot(page, f"search-filters-390-open-{scheme}", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function("() => document.querySelector('details.search-controls').open")
    assert page.locator("#search-tag").is_visible() and controls.locator("summary").is_hidden()
    violations = run_axe(page)
    assert not violations, describe_violations(violations)
    screenshot(page, f"search-filters-1280-{scheme}", full_page=False)
    page.set_viewport_size({"width": 390, "height": 800})
    page.wait_for_function("() => !document.querySelector('details.search-controls').open")
    page.assert_clean()


def test_the_author_box_suggests_names_and_filters_by_the_one_picked(page: RecordedPage, served: SiteURL,
                                                                      built_site: BuiltSite) -> None:
    """Thousands of authors do not fit a drop-down: the author facet is a box whose suggestions are the names."""
    by_author = [p.parent.name for p in (built_site.output / "papers").glob("*/index.html")
                 if 'data-pagefind-filter="author">Ahan Gupta<' in p.read_text(encoding="utf-8")]
    open_search(page, served + "search/")
    names = page.locator("#search-author-names option").evaluate_all("options => options.map(o => o.value)")
    assert "Ahan Gupta" in names and len(names) == len(set(names)) > 10
    label = page.locator("#search-author-names option[value='Ahan Gupta']").get_attribute("label")
    assert label == f"{len(by_author)} papers" and len(by_author) > 1
    page.locator("#search-author").fill("Ahan Gupta")
    page.wait_for_function("() => new URLSearchParams(location.search).get('author') === 'Ahan Gupta'")
    page.wait_for_selector("#search[data-state=done]")
    assert sorted(h.rstrip("/").rsplit("/", 1)[-1] for h in result_hrefs(page)) == sorted(by_author)
    assert page.locator("#search-status").inner_text() == f"{len(by_author)} papers match author Ahan Gupta."
    page.locator("#search-author").fill("")
    page.wait_for_function("() => !new URLSearchParams(location.search).has('author')")
    page.wait_for_selector(READY)
    assert page.locator("#search").get_attribute("data-state") == "idle"
    page.assert_clean()
