"""The network page's citation view and the paper pages' citations, in Chromium and the Nu Html Checker.

The golden site (tests/golden/site) cites within itself as the papers do: BERT, ORQA, MultiModel and
Tensor2Tensor cite the Transformer, the sparsely-gated mixture of experts and one another.
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
PAPERS = "#network-drawing .net-people a"
# (citing, cited) as the golden entries' cites: say, by slug
CITATIONS = {("bert-pre-training", "lukasz-attention"), ("latent-retrieval", "bert-pre-training"),
             ("latent-retrieval", "lukasz-attention"), ("one-model", "outrageously-large-networks"),
             ("one-model", "lukasz-attention"), ("tensor2tensor", "lukasz-attention"),
             ("tensor2tensor", "one-model"), ("tensor2tensor", "outrageously-large-networks")}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, SiteURL]]:
    root = tmp_path_factory.mktemp("citations") / "site"
    shutil.copytree(GOLDEN, root)
    output = root.parent / "public"
    build(root, output, "https://example.github.io/reading-list/", search=False)
    with serve_directory(output, "/reading-list/") as base_url:
        yield output, base_url


@pytest.mark.parametrize(("width", "height", "scheme"), SCREENS, ids=lambda v: str(v))
def test_the_citation_view_draws_every_citation_as_an_arrow_axe_clean(
        browser: Browser, site: tuple[Path, SiteURL], width: int, height: int, scheme: str) -> None:
    with open_page(browser, viewport={"width": width, "height": height}, color_scheme=scheme) as page:
        page.goto(site[1].url("network/citations/"), wait_until="load")
        assert page.locator(".net-views a[aria-current=page]").inner_text() == "Citations"
        assert page.locator(".site-nav a[aria-current=page]").inner_text() == "Network"
        papers = page.locator(PAPERS)
        slugs = [href.rstrip("/").rsplit("/", 1)[1] for href in
                 (papers.nth(i).get_attribute("href") or "" for i in range(papers.count()))]
        assert sorted(slugs) == sorted({s for pair in CITATIONS for s in pair})
        assert slugs[0] == "lukasz-attention", "the paper the list cites most first"
        ties = page.locator("#network-drawing .net-ties path")
        assert ties.count() == len(CITATIONS)
        assert all(ties.nth(i).get_attribute("marker-end") == "url(#net-arrow)" for i in range(ties.count()))
        title = page.locator("#network-drawing > title").text_content()
        assert title == "Citation network: 6 papers, 8 citations"
        listed = page.locator(".clusters li")
        assert listed.count() == 6
        if width >= 600:
            box = page.locator("#network-drawing").bounding_box()
            assert box is not None and box["y"] + box["height"] <= height, "the whole drawing above the fold"
        else:
            assert not page.locator("#network-drawing").is_visible() and listed.first.is_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, "no sideways scrolling"
        violations = run_axe(page)
        assert violations == [], describe_violations(violations)
        screenshot(page, f"citations-{width}-{scheme}", full_page=False)
        page.assert_clean()


def test_one_click_on_a_paper_opens_its_page_which_says_who_cites_it(page: RecordedPage,
                                                                      site: tuple[Path, SiteURL]) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(site[1].url("network/citations/"), wait_until="load")
    page.locator(f'{PAPERS}[href$="papers/bert-pre-training/"] circle').click()
    page.wait_for_url("**/papers/bert-pre-training/")
    cited_by = page.locator("section[aria-labelledby=cited-by-heading] a")
    assert [a.get_attribute("href") for a in cited_by.all()] == ["../../papers/latent-retrieval/"]
    cites = page.locator("section[aria-labelledby=cites-heading] a")
    assert [a.get_attribute("href") for a in cites.all()] == ["../../papers/lukasz-attention/"]
    violations = run_axe(page)
    assert violations == [], describe_violations(violations)
    page.assert_clean()


def test_the_switch_leads_from_one_view_to_the_other(page: RecordedPage, site: tuple[Path, SiteURL]) -> None:
    page.goto(site[1].url("network/"), wait_until="load")
    assert page.locator(".net-views a[aria-current=page]").inner_text() == "Co-authors"
    page.get_by_role("link", name="Citations", exact=True).click()
    page.wait_for_url("**/network/citations/")
    page.get_by_role("link", name="Co-authors", exact=True).click()
    page.wait_for_url("**/network/")
    page.assert_clean()


def test_the_citation_view_and_a_cited_paper_are_valid_html(site: tuple[Path, SiteURL]) -> None:
    pages = [site[0] / "network" / "citations" / "index.html",
             site[0] / "papers" / "lukasz-attention" / "index.html"]
    errors = run_vnu(pages)
    assert not errors, describe_vnu(errors, site[0])


def test_a_list_without_citations_says_how_to_get_them(tmp_path: Path) -> None:
    root = tmp_path / "site"
    shutil.copytree(GOLDEN, root)
    for path in (root / "content" / "papers").glob("*.md"):
        path.write_text("".join(line for line in path.read_text().splitlines(keepends=True)
                                if not line.startswith("cites:")))
    build(root, tmp_path / "public", "https://example.org/", search=False)
    text = (tmp_path / "public" / "network" / "citations" / "index.html").read_text()
    assert "No paper on this list has its references recorded yet" in text and "<svg" not in text
