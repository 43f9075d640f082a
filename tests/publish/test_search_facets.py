"""Search without surprises: a facet chosen alone, a rating, part of a name, sorts by rating and upvotes, the
status on results, and the wide page's room used."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sitegen.pipeline.build import build
from tests.support import RecordedPage, describe_violations, run_axe, serve_directory

from ..site_factory import CURATED, copy_site, curate
from .test_search import READY, result_hrefs

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The committed list with the curator's marks (site_factory.CURATED), its search index built, served at /."""
    root = copy_site(tmp_path_factory.mktemp("facets") / "site")
    curate(root)
    result = build(root, root / "public", "https://reader.example.org/")
    assert result.search is not None and result.search.ok
    with serve_directory(root / "public", "/") as base_url:
        yield base_url


def open_search(page: RecordedPage, url: str) -> None:
    page.goto(url)
    page.wait_for_selector(READY)


def options(page: RecordedPage, select: str) -> dict[str, str]:
    return {o.get_attribute("value") or "": o.inner_text() for o in page.locator(f"{select} option").all()}


def stems(page: RecordedPage) -> list[str]:
    return [h.rstrip("/").rsplit("/", 1)[-1] for h in result_hrefs(page)]


def test_a_facet_chosen_alone_counts_its_papers_and_keeps_its_other_values(page: RecordedPage, served: str) -> None:
    open_search(page, served + "search/?status=read")
    read = sorted(s for s, (status, _) in CURATED.items() if status == "read")
    assert sorted(stems(page)) == read
    shown = options(page, "#search-reading-status")
    assert shown["read"] == f"read ({len(read)})"
    queued = sum(1 for status, _ in CURATED.values() if status == "to-read")
    assert shown["to-read"] == f"to-read ({queued})" and "reading" in shown  # the others, to switch to


def test_a_rating_in_the_address_finds_the_papers_of_that_rating(page: RecordedPage, served: str) -> None:
    open_search(page, served + "search/?rating=4")
    assert stems(page) == [s for s, (_, rating) in CURATED.items() if rating == 4]
    assert page.locator("#search-rating").input_value() == "4"
    assert options(page, "#search-rating")["4"].startswith("4 of 5 (")


def test_part_of_a_name_finds_every_author_it_is_part_of(page: RecordedPage, served: str) -> None:
    open_search(page, served + "search/?author=gupta")
    found = stems(page)
    assert "vtc-dnn-compilation-with-virtual-tensors-for-data-movement" in found  # Ahan Gupta's
    assert "chai-cache-attention-inference-for-text2video" in found  # Vima Gupta's
    assert "gupta" in page.locator("#search-status").inner_text().lower()


def test_results_sort_by_rating_and_by_upvotes(page: RecordedPage, served: str) -> None:
    open_search(page, served + "search/?q=attention&sort=rating")
    ratings = [int(r.get_attribute("data-rating") or 0) for r in page.locator(".result").all()]
    assert ratings[0] == 5 and ratings.count(0) < len(ratings) - 1 and ratings == sorted(ratings, reverse=True)
    open_search(page, served + "search/?q=attention&sort=upvotes")
    upvotes = [int(r.get_attribute("data-upvotes") or -1) for r in page.locator(".result").all()]
    assert upvotes[0] > 0 and upvotes == sorted(upvotes, reverse=True)
    assert {o for o in options(page, "#search-sort")} >= {"", "newest", "oldest", "rating", "upvotes"}


def test_results_show_the_reading_status(page: RecordedPage, served: str) -> None:
    open_search(page, served + "search/?q=compilation")
    link = page.locator("a[href$='vtc-dnn-compilation-with-virtual-tensors-for-data-movement/']")
    vtc = page.locator(".result", has=link)
    assert vtc.locator(".status").inner_text() == "To read"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_wide_screen_the_filters_stand_beside_the_results(page: RecordedPage, served: str, scheme: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    open_search(page, served + "search/?q=attention")
    results, filters = page.locator("#search-results").bounding_box(), page.locator(".search-filters").bounding_box()
    assert results and filters and filters["x"] >= results["x"] + results["width"] - 1, (results, filters)
    assert filters["y"] < results["y"] + 200  # beside, not under
    violations = run_axe(page)
    assert violations == [], describe_violations(violations)
    page.set_viewport_size({"width": 390, "height": 844})
    violations = run_axe(page)
    assert violations == [], describe_violations(violations)
