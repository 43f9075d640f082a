"""The built site opened from disk (file://, as the README suggests) in Chromium: every link lands on a page.

From disk a folder's address shows the folder, so the site's links must reach each folder's
index.html; the search page cannot load its index from disk and must say to serve the site,
not that the index was never built.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import Browser, Route

from tests.conftest import BuiltSite
from tests.support import RecordedPage, open_page

PAGES = ("index.html", "tags/index.html", "tags/compilers/index.html", "authors/vima-gupta/index.html",
         "timeline/index.html", "papers/vtc-dnn-compilation-with-virtual-tensors-for-data-movement/index.html")


def _only_disk(route: Route) -> None:
    if route.request.url.startswith("file:"):
        route.continue_()
    else:
        route.abort("blockedbyclient")


@pytest.fixture
def page(browser: Browser) -> Iterator[RecordedPage]:
    """A page that may read files from disk, and nothing from any network."""
    with open_page(browser, block_external=False) as recorded:
        recorded.context.route("**/*", _only_disk)
        yield recorded


def local_links(page: RecordedPage) -> list[str]:
    """The file:// address of every link of the page that stays on disk (fragments dropped); SVG links too, whose
    `href` is not a string, so each address is resolved from its attribute."""
    hrefs: list[str] = page.eval_on_selector_all(
        "a[href]", "links => links.map(a => new URL(a.getAttribute('href'), document.baseURI).href)")
    return [href.split("#", 1)[0] for href in hrefs if href.startswith("file:")]


def on_disk(url: str) -> Path:
    return Path(unquote(urlsplit(url).path))


@pytest.mark.parametrize("start", PAGES)
def test_every_link_of_a_page_opened_from_disk_reaches_a_file(page: RecordedPage, built_site: BuiltSite,
                                                              start: str) -> None:
    page.goto((built_site.output / start).as_uri(), wait_until="load")
    links = local_links(page)
    assert len(links) > 10
    missing = sorted({url for url in links if not on_disk(url).is_file()})
    assert missing == [], f"{start}: links reaching a folder or nothing: {missing[:5]}"
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(251, 250, 247)"  # the stylesheet loads from disk too (its ?v= is no obstacle)


def test_clicking_through_the_site_from_disk(page: RecordedPage, built_site: BuiltSite) -> None:
    # each page's links are pointed at index.html by its deferred script: click only once it has run, as a
    # reader clicks a page that has shown
    page.goto((built_site.output / "index.html").as_uri(), wait_until="load")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Tags").click()
    page.wait_for_load_state("load")
    assert page.url.endswith("/tags/index.html") and page.locator("h1").inner_text() == "Tags"
    page.locator("main a[href*='tags/compilers/']").first.click()
    page.wait_for_load_state("load")
    assert page.url.endswith("/tags/compilers/index.html")
    page.locator("main article a").first.click()
    page.wait_for_load_state("load")
    assert "/papers/" in page.url and page.url.endswith("/index.html")
    page.locator("a.brand").click()
    page.wait_for_load_state("load")
    assert page.url == (built_site.output / "index.html").as_uri()


def test_the_search_page_from_disk_says_to_serve_the_site(page: RecordedPage, built_site: BuiltSite) -> None:
    # the index is there: disk is the obstacle
    assert (built_site.output / "pagefind" / "sitegen-search.json").is_file()
    page.goto((built_site.output / "index.html").as_uri(), wait_until="load")
    page.locator("#site-search").fill("attention")
    page.locator("#site-search").press("Enter")
    page.wait_for_url("**/search/index.html?q=attention")
    notice = page.locator(".search-unavailable")
    notice.wait_for()
    text = notice.inner_text()
    assert "open it through sitegen serve or a web server" in text and "not built" not in text
    for link in notice.locator("a").all():
        href = link.evaluate("a => a.href")
        assert on_disk(href).is_file(), href
