"""The co-author network in Chromium: drawn from its data, used by keyboard to an author's page, axe-core clean
on a phone and a desktop in both schemes, the list of clusters without JavaScript; the small drawing on an
author's page; both pages through the Nu Html Checker.

The golden site is used (tests/golden/site): two groups of co-authors, so the drawing has clusters and ties.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from sitegen.pipeline.build import build
from tests.support import (
    RecordedPage,
    SiteURL,
    describe_violations,
    describe_vnu,
    open_page,
    run_axe,
    run_vnu,
    screenshot,
    serve_directory,
)

GOLDEN = Path(__file__).resolve().parent / "golden" / "site"
SCREENS = ((390, 844, "light"), (1280, 900, "dark"), (390, 844, "dark"), (1280, 900, "light"))
DRAWN = "() => window.sitegenNetwork ? window.sitegenNetwork.nodes('.author').length : 0"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SiteURL]]:
    root = tmp_path_factory.mktemp("network") / "site"
    shutil.copytree(GOLDEN, root)
    output = root.parent / "public"
    build(root, output, "https://example.github.io/reading-list/", search=False)
    with serve_directory(output, "/reading-list/") as base_url:
        yield output, base_url


def _drawn(page: RecordedPage) -> None:
    page.wait_for_function(DRAWN)
    assert page.evaluate(DRAWN) == 11, "every author of the golden site, \"L. Kaiser\" merged into Łukasz Kaiser"


@pytest.mark.parametrize(("width", "height", "scheme"), SCREENS, ids=lambda v: str(v))
def test_the_network_is_drawn_and_axe_clean_on_phones_and_desktops(browser: Browser, site: tuple[Path, SiteURL],
                                                                   width: int, height: int, scheme: str) -> None:
    with open_page(browser, viewport={"width": width, "height": height}, color_scheme=scheme) as page:
        page.goto(site[1].url("network/"), wait_until="load")
        _drawn(page)
        assert page.locator("#network-canvas canvas").count() > 0 and page.locator(".network-tools").is_visible()
        assert page.locator(".cluster h3").all_text_contents()[0].startswith("attention · mixture-of-experts")
        box = page.locator("#network-canvas").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, "no sideways scrolling"
        violations = run_axe(page)
        assert violations == [], describe_violations(violations)
        screenshot(page, f"network-{width}-{scheme}", full_page=False)
        page.assert_clean()


def test_keyboard_reaches_an_author_moves_to_a_co_author_and_opens_their_page(page: RecordedPage,
                                                                             site: tuple[Path, SiteURL]) -> None:
    page.goto(site[1].url("network/"), wait_until="load")
    _drawn(page)
    page.locator("button[data-zoom=fit]").focus()
    page.keyboard.press("Tab")
    focused = page.evaluate("""() => { const el = document.activeElement;
        return {id: el.id, outline: getComputedStyle(el).outlineStyle, role: el.getAttribute('role')}; }""")
    assert focused == {"id": "network-canvas", "outline": "solid", "role": "application"}
    canvas = page.locator("#network-canvas")
    assert canvas.get_attribute("data-selected") == "noam-shazeer"  # the author with most papers, first
    assert page.locator("#network-status").inner_text().startswith("Noam Shazeer: 5 papers; wrote most with")
    neighbours = set(page.evaluate("""() => window.sitegenNetwork.$('#n0').neighborhood('node')
                                         .map(n => n.data('slug'))"""))
    seen = set()
    for key in ("ArrowDown", "ArrowRight", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        seen.add(canvas.get_attribute("data-selected"))
        page.keyboard.press("Home")
    assert seen - {"noam-shazeer"} and seen - {"noam-shazeer"} <= neighbours, "arrows move to co-authors"
    page.keyboard.press("ArrowDown")
    chosen = canvas.get_attribute("data-selected")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/authors/{chosen}/")
    assert page.locator("h1").inner_text() == page.evaluate("() => document.title").split(" · ")[0]
    page.assert_clean()


def test_an_author_is_found_by_name_and_by_the_link_from_their_page(page: RecordedPage,
                                                                    site: tuple[Path, SiteURL]) -> None:
    page.goto(site[1].url("authors/kenton-lee/"), wait_until="load")
    page.get_by_role("link", name="In the co-author network").click()
    _drawn(page)
    assert page.locator("#network-canvas").get_attribute("data-selected") == "kenton-lee"
    assert "Kenton Lee: 2 papers" in page.locator("#network-status").inner_text()
    page.locator("#network-find").fill("noam shazeer")
    page.keyboard.press("Enter")
    assert page.locator("#network-canvas").get_attribute("data-selected") == "noam-shazeer"
    assert page.evaluate("() => document.activeElement.id") == "network-canvas"
    page.assert_clean()


def test_without_javascript_the_clusters_are_listed_with_links(browser: Browser, site: tuple[Path, SiteURL]) -> None:
    with open_page(browser, java_script_enabled=False) as page:
        page.goto(site[1].url("network/"), wait_until="load")
        assert page.locator(".network-note").is_visible() and not page.locator(".network-tools").is_visible()
        clusters = page.locator("section.cluster")
        assert clusters.count() == 2
        first = clusters.nth(0).locator("ul a")
        assert first.all_text_contents()[:2] == ["Noam Shazeer", "Łukasz Kaiser"], "most papers first"
        assert first.nth(1).get_attribute("href") == "../authors/lukasz-kaiser/"
        assert page.locator("section.cluster li").count() == 11


def test_an_author_page_draws_their_closest_co_authors(page: RecordedPage, site: tuple[Path, SiteURL]) -> None:
    for width, height, scheme in SCREENS[:2]:
        page.set_viewport_size({"width": width, "height": height})
        page.emulate_media(color_scheme=scheme)
        page.goto(site[1].url("authors/noam-shazeer/"), wait_until="load")
        drawing = page.locator("#coauthors-heading + svg.ego-graph")
        assert drawing.get_attribute("aria-hidden") == "true" and drawing.locator("a").count() == 6
        box = drawing.bounding_box()
        assert box is not None and box["width"] > 200 and box["x"] + box["width"] <= width
        violations = run_axe(page)
        assert violations == [], describe_violations(violations)
        screenshot(page, f"author-ego-{width}-{scheme}", full_page=False)
    page.assert_clean()


def test_the_network_page_and_an_author_page_are_valid_html(site: tuple[Path, SiteURL]) -> None:
    pages = [site[0] / "network" / "index.html", site[0] / "authors" / "noam-shazeer" / "index.html"]
    errors = run_vnu(pages)
    assert not errors, describe_vnu(errors, site[0])
