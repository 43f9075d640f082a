"""One page per person: a profile's `aliases` merge the names a paper writes into one author page.

Built as a curator meets it: an author file naming the person's other spellings, papers
naming them either way, and the site read back from its pages.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.pipeline.build import build
from tests.support import RecordedPage, describe_violations, run_axe, screenshot, serve_directory

from .html_tools import by_class, main_of, parse_html, text_of

BASE = "https://example.org/list/"
PROFILE = "name: Ahan Gupta\naliases: [A. Gupta, Ahan K. Gupta]\nh_index: 12\ncitations: 18\n"
PAPERS = {
    "one.md": "---\ntitle: Paper One\nauthors: [Ahan Gupta, Bo Li]\ndate: 2024-03-01\n---\n",
    "two.md": "---\ntitle: Paper Two\nauthors: [A. Gupta, Bo Li, Cy Ng]\ndate: 2024-02-01\n---\n",
    "three.md": "---\ntitle: Paper Three\nauthors: [Ahan K. Gupta]\ndate: 2024-01-01\n---\n",
}


def write_site(root: Path, papers: dict[str, str] = PAPERS, profiles: dict[str, str] | None = None) -> Path:
    """A small site: site.yaml, the papers and the author files given."""
    (root / "content" / "papers").mkdir(parents=True)
    (root / "content" / "authors").mkdir()
    (root / "site.yaml").write_text(f"title: T\nbase_url: {BASE}\n", encoding="utf-8")
    for name, text in papers.items():
        (root / "content" / "papers" / name).write_text(text, encoding="utf-8")
    for name, text in (profiles if profiles is not None else {"ahan-gupta.yaml": PROFILE}).items():
        (root / "content" / "authors" / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_site(tmp_path_factory.mktemp("people"))
    build(root, root / "public", BASE, search=False, use_cache=False)
    return root / "public"


def titles(page: Path) -> list[str]:
    doc = parse_html(page.read_text(encoding="utf-8"))
    return [text_of(h) for h in by_class(main_of(doc), "item-title")]


def test_an_alias_is_no_second_author_page_with_copied_figures(site: Path) -> None:
    """The bug: 'A. Gupta' had a page of his own, showing Ahan Gupta's h-index and citations."""
    assert titles(site / "authors/ahan-gupta/index.html") == ["Paper One", "Paper Two", "Paper Three"]
    for variant in ("a-gupta", "ahan-k-gupta"):
        text = (site / "authors" / variant / "index.html").read_text(encoding="utf-8")
        assert "h-index" not in text and "Paper Two" not in text


def test_a_byline_keeps_the_name_as_written_and_links_the_persons_page(site: Path) -> None:
    doc = parse_html((site / "papers/two/index.html").read_text(encoding="utf-8"))
    byline = next(by_class(doc, "paper-authors"))
    assert [(text_of(a), a.get("href"), a.get("data-pagefind-filter")) for a in byline.iter("a")] == [
        ("A. Gupta", "../../authors/ahan-gupta/", "author:Ahan Gupta"),  # one filter value for the person
        ("Bo Li", "../../authors/bo-li/", "author"), ("Cy Ng", "../../authors/cy-ng/", "author")]


def test_the_person_counts_once_among_co_authors_and_on_the_authors_page(site: Path) -> None:
    coauthors = parse_html((site / "authors/bo-li/index.html").read_text(encoding="utf-8"))
    section = next(s for s in coauthors.iter("section") if s.get("aria-labelledby") == "coauthors-heading")
    assert [text_of(li) for li in section.iter("li")] == ["Ahan Gupta 2", "Cy Ng 1"]
    index = main_of(parse_html((site / "authors/index.html").read_text(encoding="utf-8")))
    assert [text_of(a) for a in index.iter("a") if "authors/" in a.get("href", "")] == [
        "Ahan Gupta", "Bo Li", "Cy Ng"]
    feed = (site / "authors/ahan-gupta/feed.xml").read_text(encoding="utf-8")
    assert all(f"Paper {n}" in feed for n in ("One", "Two", "Three"))
    page = parse_html((site / "authors/ahan-gupta/index.html").read_text(encoding="utf-8"))
    (bundle,) = [s for s in page.iter("span") if s.get("class") == "cite-bundle"]
    assert len(bundle.get("data-papers", "").split()) == 3  # what "Cite them" joins (test_topic_citations)


def test_visiting_another_spelling_lands_on_the_persons_page(page: RecordedPage, site: Path) -> None:
    with serve_directory(site, "/list/") as base:
        page.goto(base.url("authors/a-gupta/"), wait_until="load")
        page.wait_for_url(base.url("authors/ahan-gupta/"))
        assert page.locator("h1").inner_text() == "Ahan Gupta"
        assert page.locator(".item-title").all_inner_texts() == ["Paper One", "Paper Two", "Paper Three"]
        page.assert_clean()
        # The redirect page itself, as a reader whose browser does not follow it sees it: the person's page
        # answers "204 No Content", so the browser stays
        page.route("**/authors/ahan-gupta/", lambda route: route.fulfill(status=204))
        page.goto(base.url("authors/ahan-k-gupta/"), wait_until="load")
        page.wait_for_timeout(200)
        assert page.url == base.url("authors/ahan-k-gupta/")
        for scheme, width in (("light", 390), ("dark", 1280)):
            page.emulate_media(color_scheme=scheme)
            page.set_viewport_size({"width": width, "height": 800})
            violations = run_axe(page)
            assert violations == [], describe_violations(violations)
            screenshot(page, f"author-redirect-{width}-{scheme}")
        page.unroute("**/authors/ahan-gupta/")
        page.get_by_role("link", name="all papers by Ahan Gupta").click()
        page.wait_for_url(base.url("authors/ahan-gupta/"))
