"""A paper's page in Chromium, on a phone (390×844) and a desktop (1280×900), light and dark: the links to the
paper on the first screen, the side panel beside the text on a desktop and after it on a phone, its related papers
with why, the Copy BibTeX button, the provenance closed, the chart of upvotes, axe-core and the Nu Html Checker.

`python -m tests.screenshots` saves what the list pages look like (see CONTRIBUTING.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from playwright.sync_api import Browser, Locator

from sitegen.pipeline.build import build
from tests.support import (
    RecordedPage,
    SiteURL,
    describe_violations,
    describe_vnu,
    open_page,
    run_axe,
    run_vnu,
    serve_directory,
)

from .site_factory import copy_site, curate, sight

VTC = "vtc-dnn-compilation-with-virtual-tensors-for-data-movement"  # curated: to read, 3 stars; given notes here;
# seen on two days with 5 and 12 upvotes (SIGHTINGS)
NOTES = ("# Why it matters\n\nVirtual tensors skip **copies**. The saving is\n$$\nO(n^2)\n$$\nper layer.\n\n"
         "## Open questions\n\n- AMD GPUs?\n\n## To do\n\n- [ ] rerun Table 2\n- [x] read the appendix\n")
SCREENS = {"phone": (390, 844), "desktop": (1280, 900)}
SCHEMES = ("light", "dark")
BOX = """(el) => { const b = el.getBoundingClientRect();
                   return {top: b.top, bottom: b.bottom, left: b.left, right: b.right}; }"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SiteURL]]:
    """The bundled list with a few papers curated, seen on more days and VTC given notes, built and served under
    /reading-list/."""
    root = copy_site(tmp_path_factory.mktemp("paper") / "site")
    curate(root, notes={VTC: NOTES})
    sight(root)
    output = root.parent / "public"
    build(root, output, "https://example.github.io/reading-list/", search=False)
    with serve_directory(output, "/reading-list/") as base_url:
        yield output, base_url


@pytest.fixture
def screen(browser: Browser, request: pytest.FixtureRequest) -> Iterator[RecordedPage]:
    width, height = SCREENS[request.param[0]]
    with open_page(browser, viewport={"width": width, "height": height}, color_scheme=request.param[1],
                   permissions=["clipboard-read", "clipboard-write"]) as page:
        yield page


def _box(page: RecordedPage | Locator, selector: str) -> SimpleNamespace:
    """The element's box in the viewport: top, bottom, left, right."""
    return SimpleNamespace(**page.locator(selector).first.evaluate(BOX))


@pytest.mark.parametrize("screen", [(s, c) for s in SCREENS for c in SCHEMES], indirect=True,
                         ids=lambda p: "-".join(p))
def test_paper_page_layout_on_phone_and_desktop(screen: RecordedPage, site: tuple[Path, SiteURL]) -> None:
    page, (width, height) = screen, (screen.viewport_size["width"], screen.viewport_size["height"])
    page.goto(site[1].url(f"papers/{VTC}/"), wait_until="load")
    title, links = _box(page, ".paper-header h1"), _box(page, ".paper-links")
    assert title.bottom <= links.top and links.bottom <= height, "the links row is under the title, on the first screen"
    main, panel = _box(page, ".paper-main"), _box(page, ".paper-panel")
    if width >= 1000:
        assert panel.left >= main.right and panel.top < main.bottom and panel.top < height, "beside the text"
    else:
        assert panel.top >= main.bottom and panel.left < main.right, "after the text"
    headings = page.locator(".paper-panel h2").all_text_contents()
    assert headings == ["Tags", "Cite", "Related papers"]
    # the curator's verdict right under the title, on the first screen
    verdict = _box(page, ".paper-header .verdict")
    assert title.bottom <= verdict.top <= title.bottom + 24 and verdict.bottom <= height
    assert page.locator(".verdict .status").inner_text() == "To read"
    assert page.locator(".paper-panel .status").count() == 0
    # five related papers, each with why in small text on a line of its own under its title
    items = page.locator(".paper-panel .related li")
    assert items.count() == 5
    for i in range(5):
        link, why = _box(items.nth(i), "a"), _box(items.nth(i), ".why")
        assert why.top >= link.bottom - 1 and why.left <= link.left + 1, "the reasons under the title"
        assert items.nth(i).locator(".why").is_visible()
    assert items.nth(0).locator(".why").inner_text().startswith("same author · shares"), "VTC's profile co-authors"
    # the notes lead the text, their headings under the page's own; the provenance is closed
    assert _box(page, ".notes").bottom <= _box(page, ".abstract").top
    assert page.locator(".notes h3").inner_text() == "Why it matters" and page.locator(".notes h1").count() == 0
    assert page.locator(".notes h4").all_text_contents() == ["Open questions", "To do"]
    assert page.locator(".notes .math-block math[display=block]").count() == 1  # `$$` inside a paragraph
    boxes = page.locator(".notes input[type=checkbox]")
    assert boxes.count() == 2 and all(boxes.nth(i).is_disabled() for i in range(2))
    assert [boxes.nth(i).is_checked() for i in range(2)] == [False, True]
    assert page.get_by_label("read the appendix").is_checked()  # each box named by its item
    details = page.locator("details.provenance")
    assert details.evaluate("(el) => el.open") is False and not details.locator("p").is_visible()
    assert ".txt" not in page.locator("main").inner_text()
    violations = run_axe(page)
    assert violations == [], describe_violations(violations)
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), "no sideways scrolling"
    page.assert_clean()


# The theme's accent, which the chart is drawn in (currentColor), in light and dark colours
ACCENT = {"light": "rgb(31, 95, 191)", "dark": "rgb(138, 180, 248)"}


@pytest.mark.parametrize("screen", [(s, c) for s in SCREENS for c in SCHEMES], indirect=True,
                         ids=lambda p: "-".join(p))
def test_a_paper_seen_on_two_days_charts_its_upvotes_and_says_them_in_words(
        screen: RecordedPage, site: tuple[Path, SiteURL], request: pytest.FixtureRequest) -> None:
    page, scheme = screen, request.node.callspec.params["screen"][1]
    page.goto(site[1].url(f"papers/{VTC}/"), wait_until="load")
    assert page.locator("#signals-heading").inner_text() == "Upvotes over time"
    chart = page.get_by_role("img", name="Chart of upvotes on 2 days")
    assert chart.count() == 1 and chart.is_visible()
    caption = page.locator(".signals figcaption")
    assert caption.is_visible() and caption.inner_text() == "Upvotes: 5 on Apr 17 → 12 on May 19, 2026"
    box, width = _box(page, "svg.spark"), screen.viewport_size["width"]
    assert box.right - box.left >= 200 and box.right <= width and 30 <= box.bottom - box.top <= 80
    assert _box(page, ".abstract").bottom <= box.top and box.bottom <= _box(page, "details.provenance").top
    assert chart.evaluate("el => getComputedStyle(el).color") == ACCENT[scheme]
    # the line rises from the first point to the last, drawn to its full width
    first, last = (page.locator("svg.spark circle").nth(n).evaluate(BOX) for n in (0, 1))
    assert last["top"] < first["top"] and last["left"] - first["left"] > 0.9 * (box.right - box.left)
    page.assert_clean()


@pytest.mark.parametrize("screen", [("desktop", "light")], indirect=True, ids=["desktop-light"])
def test_copy_bibtex_copies_the_entry_shown(screen: RecordedPage, site: tuple[Path, SiteURL]) -> None:
    screen.goto(site[1].url(f"papers/{VTC}/"), wait_until="load")
    button = screen.locator(".paper-panel").get_by_role("button", name="Copy BibTeX")  # in the Cite block
    assert button.is_visible()
    button.click()
    screen.wait_for_function("() => document.querySelector('button[data-copy]').textContent === 'Copied'")
    copied = screen.evaluate("() => navigator.clipboard.readText()")
    shown = screen.locator("pre.bibtex").text_content()
    assert copied == shown and copied.startswith("@misc{hu2026vtc,")
    screen.assert_clean()


def test_without_scripts_the_bibtex_is_there_to_select(browser: Browser, site: tuple[Path, SiteURL]) -> None:
    with open_page(browser, java_script_enabled=False) as page:
        page.goto(site[1].url(f"papers/{VTC}/"), wait_until="load")
        bibtex = page.locator(".paper-panel pre.bibtex")
        assert bibtex.is_visible() and not page.locator("button[data-copy]").is_visible()
        assert bibtex.inner_text().startswith("@misc{hu2026vtc,")


def test_paper_page_with_notes_panel_and_provenance_is_valid_html(site: tuple[Path, SiteURL]) -> None:
    output = site[0]
    page = output / "papers" / VTC / "index.html"
    html = page.read_text("utf-8")
    assert all(part in html for part in ('<section class="notes', '<aside class="paper-panel"', "<details",
                                         '<svg class="spark"'))
    errors = run_vnu([page])
    assert not errors, describe_vnu(errors, output)
