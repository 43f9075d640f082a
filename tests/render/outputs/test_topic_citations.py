"""Every author, tag and category page offers its papers as BibTeX, RIS and CSL-JSON beside its feed.

No file per author or tag is published (they were half the bytes of a large site): the page's "Cite them"
buttons fetch each paper's own citation files and join them in the browser, as the whole list's files join them.
Tested in Chromium over HTTP: each download is byte for byte the file the server used to write, and each
format's own reader finds the page's papers in it, in the page's order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import bibtexparser
import pytest
import rispy
from playwright.sync_api import Browser

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import load_content
from sitegen.model import model
from sitegen.model.site import Site
from sitegen.pipeline.build import build
from sitegen.render.outputs import citations
from tests.support import RecordedPage, SiteURL, open_page, serve_directory

from ...site_factory import copy_site

BASE = "https://example.github.io/reading-list/"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, Path, SiteURL]]:
    root = copy_site(tmp_path_factory.mktemp("bundles") / "site")
    output = root.parent / "public"
    build(root, output, BASE, search=False)
    site = model.build_site(site_config.load(root, BASE), load_content(root, Report()), False)
    with serve_directory(output, "/reading-list/") as url:
        yield site, output, url


@pytest.fixture
def page(browser: Browser) -> Iterator[RecordedPage]:
    with open_page(browser) as recorded:
        yield recorded


def _download(page: RecordedPage, label: str) -> tuple[str, str]:
    with page.expect_download() as caught:
        page.locator(".cite-bundle").get_by_role("button", name=label, exact=True).click()
    download = caught.value
    return download.suggested_filename, Path(download.path()).read_text(encoding="utf-8")


PAGES = [("authors/vima-gupta/", "vima-gupta", "author"), ("tags/compilers/", "compilers", "tag"),
         ("categories/cs-lg/", "cs-lg", "category")]


@pytest.mark.parametrize(("route", "slug", "kind"), PAGES)
def test_each_format_downloads_the_pages_papers_as_the_server_wrote_them(
        page: RecordedPage, served: tuple[Site, Path, SiteURL], route: str, slug: str, kind: str) -> None:
    site, output, url = served
    group = {"author": site.author_index, "tag": site.tag_index}.get(kind) or {c.slug: c for c in site.categories}
    slugs = group[slug].papers
    assert len(slugs) >= 2
    page.goto(url.url(route), wait_until="load")
    assert page.locator(".cite-bundle").is_visible()
    config = site.config
    expected = {"BibTeX": (f"{slug}.bib", citations.bibtex_of(slugs, site.papers, config)),
                "RIS": (f"{slug}.ris", citations.ris_of(slugs, site.papers, config)),
                "CSL-JSON": (f"{slug}.json", citations.csl_json_of(slugs, site.papers, config))}
    got = {label: _download(page, label) for label in expected}
    assert got == expected
    keys = [site.papers[s].cite_key for s in slugs]
    library = bibtexparser.parse_string(got["BibTeX"][1])
    assert library.failed_blocks == [] and [e.key for e in library.entries] == keys
    assert [r["id"] for r in rispy.loads(got["RIS"][1])] == keys
    assert [i["id"] for i in json.loads(got["CSL-JSON"][1])] == keys
    assert not list(output.glob("authors/*/papers.*")) and not list(output.glob("tags/*/papers.*"))
    assert page.problems == []


def test_a_paper_whose_file_is_missing_says_so_and_saves_nothing(
        page: RecordedPage, served: tuple[Site, Path, SiteURL]) -> None:
    url = served[2]
    page.route("**/cite.ris", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(url.url("authors/vima-gupta/"), wait_until="load")
    downloads: list[object] = []
    page.on("download", lambda download: downloads.append(download))
    page.locator(".cite-bundle").get_by_role("button", name="RIS", exact=True).click()
    status = page.locator(".cite-status")
    status.filter(has_text="could not gather every citation").wait_for()
    assert downloads == [] and page.locator(".cite-bundle button[data-format=ris]").is_enabled()


def test_without_scripts_nothing_is_offered_that_cannot_work(browser: Browser,
                                                               served: tuple[Site, Path, SiteURL]) -> None:
    """Each paper's page keeps its own citation files; the page shows no buttons it cannot honour."""
    with open_page(browser, java_script_enabled=False) as page:
        page.goto(served[2].url("tags/compilers/"), wait_until="load")
        assert page.locator(".cite-bundle").count() == 1 and not page.locator(".cite-bundle").is_visible()
