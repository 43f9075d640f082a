"""The render plan: every file the build writes, its kind, template and inputs.

Each page names the inputs it is made from (`entry:<slug>`, `profile:<slug>`,
`notes:<slug>` when only an entry's notes changed, `config`, `list` for pages that
show the whole list, `entries` for pages showing something of every paper), so a
change can select exactly the pages to re-render, and incremental output can be
proved equal to a full build.

A page showing part of the list (a paper, an author, a tag, a year, a home page)
does not depend on `list`: its `shape` holds what it shows of the list's structure
(which papers in which order, the author's name, the tag's related tags), so a new
plan differs from the old exactly for the pages whose structure changed. A paper
whose links changed without an edit to its file (an author's slug, its cite key)
counts as an edited entry (see `paper_look`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .model import Paper, Site

STATIC_PREFIX = "static/"
FEED_SIZE = 50  # the main and recently-added feeds
TOPIC_FEED_SIZE = 20  # one feed per tag and per author: thousands of them on a large list


@dataclass(frozen=True)
class PageSpec:
    """One output file: where it goes, how it is made, and from what."""

    output: str  # file path inside the output directory, POSIX separators
    kind: str
    key: str = ""
    template: str = ""
    deps: frozenset[str] = frozenset()
    shape: tuple[Any, ...] = ()  # what the page shows of the list's structure (see the module docstring)

    @property
    def url(self) -> str:
        """The route as linked: 'papers/x/' for 'papers/x/index.html'."""
        return self.output.removesuffix("index.html")


def paper_look(paper: Paper) -> tuple[Any, ...]:
    """What a paper's pages and list items show of it besides its entry: links and cite key."""
    return paper.authors, paper.unlisted_authors, paper.tags, paper.category, paper.cite_key


def plan(site: Site) -> tuple[PageSpec, ...]:
    """Every page of the site, in a stable order."""
    token = {slug: f"entry:{slug}" for slug in site.papers}

    def _entries(_: Site, slugs: tuple[str, ...] | list[str]) -> frozenset[str]:
        return frozenset(map(token.__getitem__, slugs))

    every = frozenset({"list", "config"})
    config = frozenset({"config"})
    contents = every | {"entries"}  # shows something of every entry
    pages: list[PageSpec] = []
    shape: tuple[Any, ...]
    size = site.config.page_size
    summary = (site.pages, len(site.order),
               tuple((t.name, t.slug, len(t.papers)) for t in site.tags if not t.is_category),
               tuple((y.slug, len(y.papers)) for y in site.years))
    for n in range(1, site.pages + 1):
        chunk = site.order[(n - 1) * size : n * size]
        out = "index.html" if n == 1 else f"page/{n}/index.html"
        pages.append(PageSpec(out, "home", str(n), "index.html", config | _entries(site, chunk), (chunk, summary)))
    for slug, paper in site.papers.items():
        near = [s for s in (paper.newer, paper.older) if s]
        deps = config | _entries(site, [slug, *near]) | {f"notes:{slug}"}
        pages.append(PageSpec(f"papers/{slug}/index.html", "paper", slug, "paper.html", deps,
                              (paper.newer, paper.older)))
        for ext in ("bib", "ris", "json"):
            pages.append(PageSpec(f"papers/{slug}/cite.{ext}", f"cite-{ext}", slug, "", _entries(site, [slug])))
    pages.append(PageSpec("authors/index.html", "authors", "", "authors.html", every))
    for author in site.authors:
        deps = config | _entries(site, author.papers) | {f"profile:{author.slug}"}
        shape = (author.name, author.papers, author.profile)
        pages.append(PageSpec(f"authors/{author.slug}/index.html", "author", author.slug, "author.html", deps,
                              shape))
        top = author.papers[:TOPIC_FEED_SIZE]
        pages.append(PageSpec(f"authors/{author.slug}/feed.xml", "author-feed", author.slug, "feed.xml",
                              config | _entries(site, top), (author.name, top)))
        pages.append(PageSpec(f"authors/{author.slug}/papers.bib", "author-bib", author.slug, "", deps, shape))
    pages.append(PageSpec("tags/index.html", "tags", "", "tags.html", every))
    for tag in site.tags:
        deps = config | _entries(site, tag.papers)
        shape = (tag.name, tag.papers, tag.related)
        pages.append(PageSpec(f"tags/{tag.slug}/index.html", "tag", tag.slug, "tag.html", deps, shape))
        top = tag.papers[:TOPIC_FEED_SIZE]
        pages.append(PageSpec(f"tags/{tag.slug}/feed.xml", "tag-feed", tag.slug, "feed.xml",
                              config | _entries(site, top), (tag.name, top)))
        pages.append(PageSpec(f"tags/{tag.slug}/papers.bib", "tag-bib", tag.slug, "", deps, shape))
    pages.append(PageSpec("categories/index.html", "categories", "", "categories.html", every))
    for cat in site.categories:
        deps = config | _entries(site, cat.papers)
        shape = (cat.name, cat.title, cat.papers, cat.slug in site.tag_index)
        pages.append(PageSpec(f"categories/{cat.slug}/index.html", "category", cat.slug, "tag.html", deps, shape))
    pages.append(PageSpec("timeline/index.html", "timeline", "", "timeline.html", every))
    years = [y.slug for y in site.years]
    for i, year in enumerate(site.years):
        shape = (year.months, year.papers, years[i - 1] if i else None, years[i + 1] if i + 1 < len(years) else None)
        pages.append(PageSpec(f"timeline/{year.slug}/index.html", "year", year.slug, "year.html",
                              config | _entries(site, year.papers), shape))
    pages.append(PageSpec("recent/index.html", "recent", "", "recent.html", contents))
    pages.append(PageSpec("recent/feed.xml", "recent-feed", "", "feed.xml",
                          every | _entries(site, site.recent[:FEED_SIZE])))
    pages.append(PageSpec("search/index.html", "search", "", "search.html", frozenset({"config"})))
    pages.append(PageSpec("feed.xml", "feed", "", "feed.xml", every | _entries(site, site.order[:FEED_SIZE])))
    pages.append(PageSpec("404.html", "404", "", "404.html", frozenset({"config"})))
    pages.append(PageSpec("sitemap.xml", "sitemap", "", "sitemap.xml", every))
    pages.append(PageSpec("robots.txt", "robots", "", "", frozenset({"config"})))
    pages.append(PageSpec(".nojekyll", "nojekyll"))
    if site.config.domain:
        pages.append(PageSpec("CNAME", "cname", "", "", frozenset({"config"})))
    for name in ("reading-list.bib", "reading-list.ris", "reading-list.json", "papers.json"):
        pages.append(PageSpec(name, name.replace(".", "-"), "", "", contents))
    return tuple(pages)
