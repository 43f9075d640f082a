"""The co-author network in Chromium: an SVG drawn at build time, above the fold on a desktop, names that do not
overlap, a panel of an author's papers on hover, focus and tap, one click or Enter to their page, a finder that
matches parts of names, a list instead of the drawing on a phone, axe-core clean in both schemes, working without
JavaScript, light to load; the small drawing on an author's page; both pages through the Nu Html Checker.

The golden site is used (tests/golden/site): two groups of co-authors, so the drawing has clusters and ties.
"""

from __future__ import annotations

import gzip
import shutil
from collections.abc import Iterator
from itertools import combinations
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
READY = ".network[data-ready]"
PEOPLE = "#network-drawing .net-people a"
# the page boxes of the names shown in the drawing, as the browser renders them
LABEL_BOXES = """() => [...document.querySelectorAll('#network-drawing text')].map(t => {
    const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.top, r.right, r.bottom]; })"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SiteURL]]:
    root = tmp_path_factory.mktemp("network") / "site"
    shutil.copytree(GOLDEN, root)
    output = root.parent / "public"
    build(root, output, "https://example.github.io/reading-list/", search=False)
    with serve_directory(output, "/reading-list/") as base_url:
        yield output, base_url


@pytest.mark.parametrize(("width", "height", "scheme"), SCREENS, ids=lambda v: str(v))
def test_a_desktop_shows_the_drawing_above_the_fold_a_phone_the_list_axe_clean(
        browser: Browser, site: tuple[Path, SiteURL], width: int, height: int, scheme: str) -> None:
    with open_page(browser, viewport={"width": width, "height": height}, color_scheme=scheme) as page:
        page.goto(site[1].url("network/"), wait_until="load")
        page.wait_for_selector(READY, state="attached")
        drawing, people = page.locator("#network-drawing"), page.locator("#network-list li")
        assert people.count() == 11, "every author of the golden site, \"L. Kaiser\" merged into Łukasz Kaiser"
        assert people.first.inner_text().startswith("Noam Shazeer 5 papers, with Łukasz Kaiser (4)")
        assert page.locator(".cluster h3").all_text_contents()[0].startswith("attention · mixture-of-experts")
        if width >= 600:
            box = drawing.bounding_box()
            assert box is not None and box["width"] > 600 and box["x"] + box["width"] <= width
            assert box["y"] + box["height"] <= height, "the whole drawing above the fold"
            assert page.locator("#network-panel").is_visible()
        else:
            assert not drawing.is_visible() and people.first.is_visible(), "a phone lists the authors instead"
        assert page.locator("#network-find").is_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, "no sideways scrolling"
        assert page.locator(".site-nav a[aria-current=page]").inner_text() == "Network"
        menu_lines = page.evaluate("() => new Set([...document.querySelectorAll('.site-nav li')]"
                                   ".map(li => li.getBoundingClientRect().top)).size")
        assert menu_lines <= 2, "Network joins the menu, which stays within two lines"
        violations = run_axe(page)
        assert violations == [], describe_violations(violations)
        screenshot(page, f"network-{width}-{scheme}", full_page=False)
        page.assert_clean()


def test_the_names_shown_in_the_drawing_do_not_overlap(page: RecordedPage, site: tuple[Path, SiteURL]) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site[1].url("network/"), wait_until="load")
    boxes = page.evaluate(LABEL_BOXES)
    assert len(boxes) >= 8, "most authors and both clusters named"
    overlapping = [(a[0], b[0]) for a, b in combinations(boxes, 2)
                   if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]
    assert overlapping == []
    assert min(b[4] - b[2] for b in boxes) >= 10, "names readable: at least 10 px high"
    page.assert_clean()


def test_pointing_at_an_author_shows_their_papers_and_one_click_opens_their_page(
        page: RecordedPage, site: tuple[Path, SiteURL]) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site[1].url("network/"), wait_until="load")
    page.wait_for_selector(READY, state="attached")
    kaiser = page.locator(PEOPLE).nth(1)
    kaiser.locator("circle").hover()
    panel = page.locator("#network-panel")
    panel.get_by_role("heading", name="Łukasz Kaiser").wait_for()
    assert "4 papers on this list" in panel.inner_text()
    papers = panel.locator("li a")
    assert papers.all_text_contents()[:3] == ["Tensor2Tensor for Neural Machine Translation",
                                              "One Model To Learn Them All", "Attention Is All You Need"]
    assert papers.first.get_attribute("href") == "../papers/tensor2tensor/"
    assert panel.get_by_role("link", name="Noam Shazeer").count() == 1, "their co-authors"
    assert page.locator(".net-drawing.focusing").count() == 1
    kaiser.locator("circle").click()
    page.wait_for_url("**/authors/lukasz-kaiser/")
    page.assert_clean()


def test_a_tap_shows_the_panel_and_a_second_tap_opens_the_page(browser: Browser, site: tuple[Path, SiteURL]) -> None:
    with open_page(browser, viewport={"width": 800, "height": 1000}, has_touch=True, is_mobile=True) as page:
        page.goto(site[1].url("network/"), wait_until="load")
        page.wait_for_selector(READY, state="attached")
        dot = page.locator(PEOPLE).nth(3).locator("circle")
        dot.tap()
        page.locator("#network-panel").get_by_role("heading", name="Kenton Lee").wait_for()
        assert page.url.endswith("/network/")
        dot.tap()
        page.wait_for_url("**/authors/kenton-lee/")
        page.assert_clean()


def test_keyboard_reaches_the_drawing_in_one_stop_moves_to_a_co_author_and_opens_their_page(
        page: RecordedPage, site: tuple[Path, SiteURL]) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site[1].url("network/"), wait_until="load")
    page.wait_for_selector(READY, state="attached")
    assert page.locator(f"{PEOPLE}[tabindex='0']").count() == 1, "one tab stop for the whole drawing"
    page.locator("#network-find").focus()
    page.keyboard.press("Tab")
    focused = page.evaluate("""() => { const el = document.activeElement;
        return [el.getAttribute('href'), getComputedStyle(el.querySelector('circle')).strokeWidth]; }""")
    assert focused == ["../authors/noam-shazeer/", "4px"], "the author with most papers first, with a focus ring"
    assert page.locator("#network-panel h2").inner_text() == "Noam Shazeer"
    co_authors = {"lukasz-kaiser", "azalia-mirhoseini", "ashish-vaswani", "aidan-n-gomez", "krzysztof-maziarz",
                  "niki-parmar"}
    seen = set()
    for key in ("ArrowDown", "ArrowRight", "ArrowLeft", "ArrowUp"):
        page.keyboard.press(key)
        seen.add(page.locator(".network").get_attribute("data-selected"))
        page.keyboard.press("Home")
    assert seen - {"noam-shazeer"} and seen - {"noam-shazeer"} <= co_authors, "arrows move to co-authors"
    page.keyboard.press("ArrowRight")
    chosen = page.locator(".network").get_attribute("data-selected")
    assert page.evaluate("() => document.activeElement.getAttribute('href')") == f"../authors/{chosen}/"
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/authors/{chosen}/")
    page.assert_clean()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_finder_matches_part_of_a_name_whatever_its_case(browser: Browser, site: tuple[Path, SiteURL],
                                                             width: int) -> None:
    with open_page(browser, viewport={"width": width, "height": 900}) as page:
        page.goto(site[1].url("network/"), wait_until="load")
        page.wait_for_selector(READY, state="attached")
        page.locator("#network-find").fill("LEE")
        assert page.locator("#network-status").inner_text().startswith("1 author matches: Kenton Lee.")
        page.locator("#network-find").fill("kaiser")
        assert [a.get_attribute("href") for a in page.locator(f"{PEOPLE}.match").all()] == [
            "../authors/lukasz-kaiser/"]
        assert page.locator("#network-list li:visible").all_inner_texts()[0].startswith("Łukasz Kaiser")
        assert page.locator("#network-list li:visible").count() == 1, "the list narrowed to the match"
        page.locator("#network-find").fill("lukasz")  # without its diacritic
        page.keyboard.press("Enter")
        focused = page.evaluate("() => document.activeElement.getAttribute('href')")
        assert focused == "../authors/lukasz-kaiser/"
        page.locator("#network-find").fill("nobody")
        assert page.locator("#network-status").inner_text() == "No author drawn matches “nobody”."
        page.assert_clean()


def test_the_link_from_an_author_page_selects_them(page: RecordedPage, site: tuple[Path, SiteURL]) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site[1].url("authors/kenton-lee/"), wait_until="load")
    page.get_by_role("link", name="In the co-author network").click()
    page.wait_for_selector(READY, state="attached")
    assert page.locator(".network").get_attribute("data-selected") == "kenton-lee"
    assert "2 papers on this list" in page.locator("#network-panel").inner_text()
    page.assert_clean()


def test_without_javascript_every_author_in_the_drawing_is_a_link(browser: Browser,
                                                                  site: tuple[Path, SiteURL]) -> None:
    with open_page(browser, java_script_enabled=False, viewport={"width": 1280, "height": 900}) as page:
        page.goto(site[1].url("network/"), wait_until="load")
        assert page.locator(PEOPLE).count() == 11 and not page.locator(".net-tools").is_visible()
        clusters = page.locator("section.cluster")
        assert clusters.count() == 2
        first = clusters.nth(0).locator("li > a")
        assert first.all_text_contents()[:2] == ["Noam Shazeer", "Łukasz Kaiser"], "most papers first"
        assert first.nth(1).get_attribute("href") == "../authors/lukasz-kaiser/"
        page.locator(PEOPLE).nth(1).locator("circle").click()
        page.wait_for_url("**/authors/lukasz-kaiser/")


def test_the_page_loads_no_library_only_a_few_kilobytes_of_script(browser: Browser,
                                                                  site: tuple[Path, SiteURL]) -> None:
    with open_page(browser) as page:
        loaded: list[str] = []
        page.page.on("response", lambda response: loaded.append(response.url))
        page.goto(site[1].url("network/"), wait_until="networkidle")
        scripts = sorted(u.rsplit("/", 1)[1].split("?")[0] for u in loaded if ".js" in u)
        assert scripts == ["network.js", "sitegen.js"], "no drawing library, no data file fetched"
        script = (site[0] / "static" / "network.js").read_bytes()
        assert len(gzip.compress(script)) < 5_000
        assert not (site[0] / "static" / "cytoscape.min.js").exists()


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
