"""The list pages in Chromium, on the bundled list with a few papers marked by a curator (tests/site_factory.py,
CURATED) and seen on more days (SIGHTINGS, so there is a Rising page): how many papers a first screen shows, the
topics and years at the top of a phone's home page, the status and rating badges, the gains on the Rising page,
axe-core, no sideways scrolling, and the reading status and rating as search filters.

`python -m tests.screenshots` saves what these screens look like (see CONTRIBUTING.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sitegen.pipeline.build import build
from tests.screenshots import titles_above_fold
from tests.support import (
    RecordedPage,
    SiteURL,
    describe_violations,
    run_axe,
    serve_directory,
    sideways_overflow,
)

from .publish.test_search import READY, result_hrefs
from .site_factory import copy_site, curate, sight

PAGES = {"home": "", "tag": "tags/compilers/", "author": "authors/ahan-gupta/", "queue": "queue/", "rising": "rising/"}
# (width, height) of a phone and of a desktop screen, and the papers whose title each must show before any scrolling
SCREENS = {"phone": (390, 844, 2), "desktop": (1280, 900, 5)}
SCHEMES = ("light", "dark")
AUTOSP = "autosp-unlocking-long-context-llm-training-via-compiler"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteURL]:
    """The curated copy, seen on more days, built with its search index and served under /reading-list/."""
    root = copy_site(tmp_path_factory.mktemp("lists") / "site")
    curate(root)
    sight(root)
    output = root.parent / "public"
    build(root, output, "https://example.github.io/reading-list/")
    with serve_directory(output, "/reading-list/") as base_url:
        yield base_url


def _open(page: RecordedPage, url: str, screen: str, scheme: str) -> None:
    width, height, _ = SCREENS[screen]
    page.set_viewport_size({"width": width, "height": height})
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    page.goto(url, wait_until="load")




@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("name", PAGES)
def test_a_list_pages_first_screen_shows_five_papers_on_a_desktop_and_two_on_a_phone(
        page: RecordedPage, served: SiteURL, name: str, screen: str, scheme: str) -> None:
    _open(page, served.url(PAGES[name]), screen, scheme)
    # a shorter list shows all its papers (the curated reading queue holds four)
    wanted = min(SCREENS[screen][2], page.locator(".item-title").count())
    shown = titles_above_fold(page)
    assert shown >= wanted, f"{name} on a {screen}, {scheme}: {shown} of {wanted} titles before any scrolling"
    page.assert_clean()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_topics_and_years_are_at_the_top_of_a_phone_screen(page: RecordedPage, served: SiteURL, scheme: str) -> None:
    _open(page, served.url(""), "phone", scheme)
    boxes = page.evaluate("""() => ['#browse-topics', '#browse-years', '.item-title']
        .map(s => document.querySelector(s).getBoundingClientRect().top)""")
    assert boxes[0] < boxes[1] < boxes[2] < SCREENS["phone"][1]
    # each is one row that scrolls sideways, and a link out of sight scrolls into view when it has the focus
    row = page.locator("#browse-topics + .chip-row")
    assert row.evaluate("el => el.scrollWidth > el.clientWidth")
    page.locator("#browse-topics + .chip-row a.all").focus()
    right = page.evaluate("() => document.activeElement.getBoundingClientRect().right")
    assert right <= SCREENS["phone"][0]
    page.assert_clean()


def test_status_and_rating_badges_show_on_list_items(page: RecordedPage, served: SiteURL) -> None:
    _open(page, served.url(""), "desktop", "light")
    item = page.locator(f"article.item:has(a[href='papers/{AUTOSP}/'])")
    assert item.locator(".status").inner_text() == "Reading"
    assert item.locator(".rating").is_visible()
    assert item.locator(".rating .visually-hidden").inner_text() == "rated 4 of 5"
    summary = item.locator(".item-summary")
    line = float(summary.evaluate("el => parseFloat(getComputedStyle(el).lineHeight)"))
    assert summary.evaluate("el => el.getBoundingClientRect().height") <= 2 * line + 1  # two lines of the abstract
    page.assert_clean()


@pytest.mark.parametrize("name", PAGES)
def test_list_pages_pass_axe_and_fit_phones(page: RecordedPage, served: SiteURL, name: str) -> None:
    for screen, scheme in (("phone", "light"), ("desktop", "dark"), ("phone", "dark")):
        _open(page, served.url(PAGES[name]), screen, scheme)
        violations = run_axe(page)
        assert violations == [], f"{name}, {screen}, {scheme}: " + describe_violations(violations)
        assert sideways_overflow(page) == [], f"{name} on a {screen} scrolls sideways"
    page.assert_clean()


def test_search_filters_papers_by_reading_status_and_rating(page: RecordedPage, served: SiteURL) -> None:
    page.goto(served.url("search/?status=to-read"))
    page.wait_for_selector(READY)
    queued = ["statesmix-online-lossless-compression-via-mamba-state-space",
              "vtc-dnn-compilation-with-virtual-tensors-for-data-movement",
              "x-moe-enabling-scalable-training-for-emerging-mixture-of"]
    assert sorted(result_hrefs(page)) == [f"/reading-list/papers/{slug}/" for slug in queued]
    assert page.locator("#search-reading-status").is_visible() and page.locator("#search-rating").is_visible()
    page.locator("#search-reading-status").select_option("")
    page.locator("#search-rating").select_option("5")
    page.wait_for_function("() => new URLSearchParams(location.search).get('rating') === '5'")
    page.wait_for_selector(READY)
    page.wait_for_function("() => document.querySelectorAll('a.result-link').length === 1")
    assert result_hrefs(page) == ["/reading-list/papers/flashattention-4-algorithm-and-kernel-pipelining-co-design/"]
    page.assert_clean()


def test_a_list_without_statuses_offers_no_such_filters(page: RecordedPage, tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=6)
    build(root, tmp_path / "public", "https://example.github.io/reading-list/")
    with serve_directory(tmp_path / "public", "/reading-list/") as base_url:
        page.goto(base_url.url("search/?q=memory"))
        page.wait_for_selector(READY)
        assert page.locator("#search-tag").is_visible()
        assert not page.locator("#search-reading-status").is_visible()
        assert not page.locator("#search-rating").is_visible()
    page.assert_clean()


@pytest.mark.parametrize("screen", SCREENS)
def test_the_rising_page_shows_each_gain_beside_its_paper_and_is_in_the_menu(
        page: RecordedPage, served: SiteURL, screen: str) -> None:
    _open(page, served.url("rising/"), screen, "light")
    rows = page.locator("ol.rising > li")
    gains = rows.locator(".gain strong").all_inner_texts()
    assert gains == ["+15", "+12", "+7", "+7", "+2", "+1"]
    first = rows.nth(0)
    assert first.locator(".gain-span").inner_text() == "8 → 23"
    assert first.locator(".gain .visually-hidden").inner_text().strip() == "upvotes, from 8 to 23"
    assert first.locator(".item-title a").get_attribute("href") == \
        "../papers/tpi-llm-serving-70b-scale-llms-efficiently-on-low-resource/"
    gain, title = (first.locator(s).evaluate("el => el.getBoundingClientRect()") for s in (".gain", ".item-title"))
    assert gain["right"] <= title["left"] and abs(gain["top"] - title["top"]) < 16, "the gain is beside the title"
    assert "6 of the 8 papers seen on both days gained" in page.locator(".page-meta").inner_text()
    menu = page.locator(".site-nav a")
    assert menu.all_inner_texts()[4:6] == ["Timeline", "Rising"]
    assert page.locator(".site-nav a[aria-current=page]").inner_text() == "Rising"
    lines = {round(box["top"]) for box in menu.evaluate_all("els => els.map(el => el.getBoundingClientRect())")}
    assert len(lines) <= 2, "the menu, Rising and the reading queue with it, takes two lines at most"
    page.assert_clean()
