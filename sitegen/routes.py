"""The render plan: every file the build writes, its kind, template and inputs.

Each page names the inputs it is made from (`entry:<slug>`, `profile:<slug>`,
`notes:<slug>` when only an entry's notes changed, `config`, `list` for anything
that depends on the set, order, dates, authors or tags of papers, `entries` for
pages showing something of every paper), so a
change can select exactly the pages to re-render, and incremental output can be
proved equal to a full build.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Site

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

    @property
    def url(self) -> str:
        """The route as linked: 'papers/x/' for 'papers/x/index.html'."""
        return self.output.removesuffix("index.html")


def plan(site: Site) -> tuple[PageSpec, ...]:
    """Every page of the site, in a stable order."""
    token = {slug: f"entry:{slug}" for slug in site.papers}

    def _entries(_: Site, slugs: tuple[str, ...] | list[str]) -> frozenset[str]:
        return frozenset(map(token.__getitem__, slugs))

    every = frozenset({"list", "config"})
    contents = every | {"entries"}  # shows something of every entry
    pages: list[PageSpec] = []
    size = site.config.page_size
    for n in range(1, site.pages + 1):
        chunk = site.order[(n - 1) * size : n * size]
        out = "index.html" if n == 1 else f"page/{n}/index.html"
        pages.append(PageSpec(out, "home", str(n), "index.html", every | _entries(site, chunk)))
    for slug, paper in site.papers.items():
        near = [s for s in (paper.newer, paper.older) if s]
        deps = every | _entries(site, [slug, *near]) | {f"notes:{slug}"}
        pages.append(PageSpec(f"papers/{slug}/index.html", "paper", slug, "paper.html", deps))
        for ext in ("bib", "ris", "json"):
            # "list": the cite key can change when another paper's title or date does
            pages.append(PageSpec(f"papers/{slug}/cite.{ext}", f"cite-{ext}", slug, "",
                                  _entries(site, [slug]) | {"list"}))
    pages.append(PageSpec("authors/index.html", "authors", "", "authors.html", every))
    for author in site.authors:
        deps = every | _entries(site, author.papers) | {f"profile:{author.slug}"}
        pages.append(PageSpec(f"authors/{author.slug}/index.html", "author", author.slug, "author.html", deps))
        pages.append(PageSpec(f"authors/{author.slug}/feed.xml", "author-feed", author.slug, "feed.xml",
                              every | _entries(site, author.papers[:TOPIC_FEED_SIZE])))
        pages.append(PageSpec(f"authors/{author.slug}/papers.bib", "author-bib", author.slug, "", deps))
    pages.append(PageSpec("tags/index.html", "tags", "", "tags.html", every))
    for tag in site.tags:
        deps = every | _entries(site, tag.papers)
        pages.append(PageSpec(f"tags/{tag.slug}/index.html", "tag", tag.slug, "tag.html", deps))
        pages.append(PageSpec(f"tags/{tag.slug}/feed.xml", "tag-feed", tag.slug, "feed.xml",
                              every | _entries(site, tag.papers[:TOPIC_FEED_SIZE])))
        pages.append(PageSpec(f"tags/{tag.slug}/papers.bib", "tag-bib", tag.slug, "", deps))
    pages.append(PageSpec("categories/index.html", "categories", "", "categories.html", every))
    for cat in site.categories:
        deps = every | _entries(site, cat.papers)
        pages.append(PageSpec(f"categories/{cat.slug}/index.html", "category", cat.slug, "tag.html", deps))
    pages.append(PageSpec("timeline/index.html", "timeline", "", "timeline.html", every))
    for year in site.years:
        pages.append(PageSpec(f"timeline/{year.slug}/index.html", "year", year.slug, "year.html",
                              every | _entries(site, year.papers)))
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
