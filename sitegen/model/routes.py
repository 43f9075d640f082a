"""The render plan: every file the build writes, its kind, key and template.

Which files there are follows from the site's slugs alone (`rows`); what each page shows,
and so what it depends on, is recorded as it renders (sitegen/pipeline/steps/outputs.py),
never listed here. Two kinds of page take data from their spec (`PageSpec.shape`): the
recently-added page (which papers, how many) and the sitemap (which pages).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from . import layout
from .site import Site

STATIC_PREFIX = "static/"
FEED_SIZE = 50  # the main and recently-added feeds
# Papers on the recently-added page: what is new, not a second copy of the whole list (which,
# at 10,000 papers, was a 10 MB page). The home page and the timeline hold every paper.
RECENT_SIZE = 100
TOPIC_FEED_SIZE = 20  # one feed per tag and per author: thousands of them on a large list
WHOLE_LIST_FILES = ("reading-list.bib", "reading-list.ris", "reading-list.json", "papers.json")
NETWORK_DATA = "graph.json"  # the co-author network's nodes, ties and places, beside its page
SOCIAL_CARD = "social-card.png"  # the picture a shared link to any page shows (og:image)
OUTLINE = "feeds.opml"  # every feed of the site in one OPML file, for a reader to subscribe to all at once
REDIRECT = "author-redirect"  # the kind of a person's other spelling's page: no sitemap, no feed, no search
# The sitemap protocol's most URLs a file: past it, sitemap.xml is an index of sitemap-1.xml, sitemap-2.xml, ...
SITEMAP_LIMIT = 50_000
SITEMAP_INDEX = "sitemap-index"  # its kind


@dataclass(frozen=True)
class PageSpec:
    """One output file: where it goes, how it is made, and, for two kinds, what it lists (see the module)."""

    output: str  # file path inside the output directory, POSIX separators
    kind: str
    key: str = ""
    template: str = ""
    shape: tuple[Any, ...] = ()

    @property
    def url(self) -> str:
        """The route as linked: 'papers/x/' for 'papers/x/index.html'."""
        return self.output.removesuffix("index.html")


def paper_page(slug: str) -> str:
    """The output of a paper's own page."""
    return layout.paper(slug) + "index.html"


def author_page(slug: str) -> str:
    """The output of an author's page."""
    return layout.author(slug) + "index.html"


def tag_page(slug: str) -> str:
    return layout.tag(slug) + "index.html"


def category_page(slug: str) -> str:
    return layout.category(slug) + "index.html"


def year_page(slug: str) -> str:
    return layout.year(slug) + "index.html"


def home_page(number: int) -> str:
    return layout.home(number) + "index.html"


def plan(site: Site) -> tuple[PageSpec, ...]:
    """Every file of the site, in a stable order, as the renderer takes them."""
    return tuple(PageSpec(*row, shape=shape(site, row[1], row[2])) for row in site_rows(site))


def site_rows(site: Site) -> Iterator[Row]:
    """`rows` of a whole model."""
    return rows(site.order, (a.slug for a in site.authors), (t.slug for t in site.tags),
                (c.slug for c in site.categories), (y.slug for y in site.years), site.pages, site.config.domain,
                bool(site.queue), site.has_rising, site.redirects)


def shape(site: Site, kind: str, key: str = "") -> tuple[Any, ...]:
    """What the recently-added page and the sitemaps take from their spec; nothing for any other kind."""
    if kind == "recent":
        return site.recent[:RECENT_SIZE], len(site.recent), len(site.order)
    if kind in ("sitemap", SITEMAP_INDEX):
        return sitemap_pages(tuple(html_pages(site)), kind, key)
    return ()


def sitemap_pages(pages: tuple[str, ...], kind: str, key: str) -> tuple[str, ...]:
    """The pages a sitemap lists: all of them (one sitemap.xml, or the index, which dates each file by its
    pages), or the `key`th run of SITEMAP_LIMIT of them (sitemap-`key`.xml)."""
    if kind == "sitemap" and key:
        start = (int(key) - 1) * SITEMAP_LIMIT
        return pages[start : start + SITEMAP_LIMIT]
    return pages


def sitemap_rows(pages: int) -> Iterator[Row]:
    """sitemap.xml for up to SITEMAP_LIMIT pages; past it, sitemap.xml is the index of the files that list them."""
    if pages <= SITEMAP_LIMIT:
        yield "sitemap.xml", "sitemap", "", "sitemap.xml"
        return
    files = -(-pages // SITEMAP_LIMIT)
    yield "sitemap.xml", SITEMAP_INDEX, str(files), "sitemap-index.xml"
    yield from ((f"sitemap-{n}.xml", "sitemap", str(n), "sitemap.xml") for n in range(1, files + 1))


def html_pages(site: Site) -> Iterator[str]:
    """The output of every `index.html` page in plan order (kept in step with `plan` by a test), but redirects."""
    yield from (home_page(n) for n in range(1, site.pages + 1))
    yield from (paper_page(slug) for slug in site.papers)
    yield "authors/index.html"
    yield f"{layout.NETWORK}index.html"
    yield f"{layout.CITATIONS}index.html"
    yield from (author_page(a.slug) for a in site.authors)
    yield "tags/index.html"
    yield from (tag_page(t.slug) for t in site.tags)
    yield "categories/index.html"
    yield from (category_page(c.slug) for c in site.categories)
    yield "timeline/index.html"
    yield from (year_page(y.slug) for y in site.years)
    yield "recent/index.html"
    if site.queue:
        yield f"{layout.QUEUE}index.html"
    if site.has_rising:
        yield f"{layout.RISING}index.html"
    yield "search/index.html"


Row = tuple[str, str, str, str]  # (output, kind, key, template)


def rows(order: Iterable[str], authors: Iterable[str], tags: Iterable[str], categories: Iterable[str],
         years: Iterable[str], pages: int, domain: str | None, queue: bool = False,
         rising: bool = False, redirects: Iterable[tuple[str, str]] = ()) -> Iterator[Row]:
    """Every output file of a site with these papers, author, tag, category and year slugs, in plan order
    (`queue`: whether the reading queue has any paper, and so a page and a feed; `rising`: whether the
    Rising page has papers; `redirects`: (slug, the person's slug) of each other spelling's address, a page
    keyed by the person it sends the reader to).

    What a page shows is recorded when it renders (see sitegen/pipeline/steps/outputs.py); this
    says only which files there are and how each is made.
    """
    listed = 0  # the pages the sitemap lists: every index.html but a redirect
    for row in _pages_and_files(order, authors, tags, categories, years, pages, queue, rising, redirects):
        listed += row[0].endswith("index.html") and row[1] != REDIRECT
        yield row
    yield from sitemap_rows(listed)
    yield from (("404.html", "404", "", "404.html"), ("robots.txt", "robots", "", ""),
                (SOCIAL_CARD, "social-card", "", ""), (".nojekyll", "nojekyll", "", ""))
    if domain:
        yield "CNAME", "cname", "", ""


def _pages_and_files(order: Iterable[str], authors: Iterable[str], tags: Iterable[str], categories: Iterable[str],
                     years: Iterable[str], pages: int, queue: bool, rising: bool,
                     redirects: Iterable[tuple[str, str]]) -> Iterator[Row]:
    """`rows` up to the sitemap: the pages and the files beside them."""
    yield from ((home_page(n), "home", str(n), "index.html") for n in range(1, pages + 1))
    for slug in order:
        route = layout.paper(slug)
        yield f"{route}index.html", "paper", slug, "paper.html"
        yield from ((f"{route}cite.{ext}", f"cite-{ext}", slug, "") for ext in ("bib", "ris", "json"))
    yield "authors/index.html", "authors", "", "authors.html"
    yield from ((f"{layout.NETWORK}index.html", "network", "", "network.html"),
                (f"{layout.NETWORK}{NETWORK_DATA}", "network-json", "", ""),
                (f"{layout.CITATIONS}index.html", "citation-network", "", "citation-network.html"))
    for slug in authors:
        route = layout.author(slug)
        yield from ((f"{route}index.html", "author", slug, "author.html"), (f"{route}feed.xml", "author-feed", slug,
                    "feed.xml"))
    yield from ((author_page(slug), REDIRECT, to, "redirect.html") for slug, to in redirects)
    yield "tags/index.html", "tags", "", "tags.html"
    for slug in tags:
        route = layout.tag(slug)
        yield from ((f"{route}index.html", "tag", slug, "tag.html"), (f"{route}feed.xml", "tag-feed", slug,
                    "feed.xml"))
    yield "categories/index.html", "categories", "", "categories.html"
    yield from ((category_page(slug), "category", slug, "tag.html") for slug in categories)
    yield "timeline/index.html", "timeline", "", "timeline.html"
    yield from ((year_page(slug), "year", slug, "year.html") for slug in years)
    yield from (("recent/index.html", "recent", "", "recent.html"), ("recent/feed.xml", "recent-feed", "", "feed.xml"))
    if queue:
        yield from ((f"{layout.QUEUE}index.html", "queue", "", "queue.html"),
                    (f"{layout.QUEUE}feed.xml", "queue-feed", "", "feed.xml"))
    if rising:
        yield f"{layout.RISING}index.html", "rising", "", "rising.html"
    yield "feed.xml", "feed", "", "feed.xml"
    yield OUTLINE, "feeds-opml", "", "feeds.opml"
    yield from ((name, name.replace(".", "-"), "", "") for name in WHOLE_LIST_FILES)
    yield "search/index.html", "search", "", "search.html"
