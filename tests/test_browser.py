"""The built site in headless Chromium: clean loads, axe-core, no sideways scrolling, screenshots.

Screenshots land in tests/artifacts/ as <page>-<width>-<light|dark>.png (390 px phone, 1280 px desktop).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support import (
    RecordedPage,
    SiteURL,
    describe_violations,
    run_axe,
    screenshot,
    serve_directory,
    sideways_overflow,
)

from .conftest import BuiltSite

PAGES = {
    "home": "",
    "paper": "papers/vtc-dnn-compilation-with-virtual-tensors-for-data-movement/",
    "author": "authors/ahan-gupta/",
    "tag": "tags/compilers/",
    "timeline": "timeline/",
    "recent": "recent/",
    "authors": "authors/",
    "tags": "tags/",
    "categories": "categories/",
    "category": "categories/cs-lg/",
    "year": "timeline/2026/",
    "search": "search/?q=attention",
    "404": "404.html",
}
WIDTHS = (390, 1280)
SCHEMES = ("light", "dark")
# axe on the phone layout in light colours and the desktop layout in dark colours: both layouts and both palettes
# (contrast does not depend on the width, scrolling regions and the like do not depend on the palette)
AXE_RUNS = {("light", 390), ("dark", 1280)}


@pytest.fixture(scope="module")
def served(built_site: BuiltSite) -> Iterator[SiteURL]:
    """The project-path build served as GitHub Pages would: under /reading-list/."""
    with serve_directory(built_site.output, built_site.base_path) as base_url:
        yield base_url




@pytest.mark.parametrize("name", PAGES)
def test_page_loads_cleanly_passes_axe_and_fits_phones(page: RecordedPage, served: SiteURL, name: str) -> None:
    response = page.goto(served.url(PAGES[name]), wait_until="load")
    assert response is not None and response.status == 200
    assert page.title().endswith("Systems for Machine Learning — a reading list")
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            if (scheme, width) in AXE_RUNS:
                violations = run_axe(page)
                assert violations == [], f"{name} at {width} px, {scheme}: " + describe_violations(violations)
            assert sideways_overflow(page) == [], f"{name} at {width} px scrolls sideways"
            screenshot(page, f"{name}-{width}-{scheme}")
    page.assert_clean()


def test_dark_scheme_really_changes_the_colours(page: RecordedPage, served: SiteURL) -> None:
    page.goto(served.url(""), wait_until="load")
    colours = {}
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        colours[scheme] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert colours["light"] != colours["dark"]
    page.assert_clean()


def test_skip_link_and_focus_are_visible(page: RecordedPage, served: SiteURL) -> None:
    page.goto(served.url(PAGES["paper"]), wait_until="load")
    page.keyboard.press("Tab")
    focused = page.evaluate("""() => {
        const el = document.activeElement, box = el.getBoundingClientRect(), style = getComputedStyle(el);
        return {text: el.textContent.trim(), left: box.left, outline: style.outlineStyle};
    }""")
    assert focused["text"] == "Skip to content" and focused["left"] >= 0 and focused["outline"] != "none"
    page.keyboard.press("Enter")
    assert page.evaluate("() => location.hash") == "#main"
    page.assert_clean()


def test_slash_focuses_the_search_box(page: RecordedPage, served: SiteURL) -> None:
    page.goto(served.url(PAGES["tag"]), wait_until="load")
    page.keyboard.press("/")
    assert page.evaluate("() => document.activeElement.id") == "site-search"
    page.assert_clean()
