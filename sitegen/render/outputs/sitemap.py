"""The sitemap's pages, each with the day it last changed (`lastmod`), from the papers it shows.

A paper's page changed last when the paper was added to the list, or published if that is
later (a paper may be listed before its final version); a page listing papers (a home page, an
author, a tag, a category, a year) when the newest of them did; any other page (the indexes,
the timeline, the search page) when the newest paper of the whole list did. No clock is read:
the same entries give the same sitemap. A page whose papers give no date has no `lastmod`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ...model import routes
from ...model.site import Paper, Site

if TYPE_CHECKING:
    from ..page_tools import PageTools


def lastmod(paper: Paper, config: Any = None) -> str:
    """The day a paper's page last changed, as `YYYY-MM-DD` ('' when its entry gives no date)."""
    e = paper.entry
    days = [d for d in (e.date, e.added) if d]
    return max(days).isoformat() if days else ""


def context(r: PageTools, site: Site, spec: routes.PageSpec, root: str) -> dict[str, Any]:
    """The sitemap template's `pages`, (absolute URL, lastmod) in plan order, and their `urls` alone."""
    dates = page_dates(site, _days(r, site))
    newest = max(dates.values(), default="")
    pages = [(site.config.absolute(out.removesuffix("index.html")), dates.get(out, newest)) for out in spec.shape]
    return {"pages": pages, "urls": [url for url, _ in pages]}


def index_context(r: PageTools, site: Site, spec: routes.PageSpec, root: str) -> dict[str, Any]:
    """The sitemap index's `sitemaps`, (absolute URL, lastmod) of each sitemap-N.xml: the newest of its pages."""
    dates = page_dates(site, _days(r, site))
    newest = max(dates.values(), default="")
    pages, size = spec.shape, routes.SITEMAP_LIMIT
    sitemaps = []
    for n, start in enumerate(range(0, len(pages), size), 1):
        days = [dates.get(out, newest) for out in pages[start : start + size]]
        sitemaps.append((site.config.absolute(f"sitemap-{n}.xml"), max(days, default="")))
    return {"sitemaps": sitemaps}


def _days(r: PageTools, site: Site) -> dict[str, str]:
    """Each paper's `lastmod`, through the renderer's cache of them (the engine's per-paper steps)."""
    cache, papers, config = r.lastmods, site.papers, site.config
    days = {}
    for slug in site.order:
        day = cache.get(slug)
        if day is None:
            day = cache[slug] = lastmod(papers[slug], config)
        days[slug] = day
    return days


def page_dates(site: Site, days: Mapping[str, str]) -> dict[str, str]:
    """output -> lastmod of every page that shows a set of papers (the others take the whole list's newest)."""
    def newest(slugs: Iterable[str]) -> str:
        return max((days[s] for s in slugs), default="")

    dates = {routes.paper_page(slug): day for slug, day in days.items()}
    size = site.config.page_size
    for n in range(2, site.pages + 1):  # the first shows the topics and years of them all: the whole list's
        dates[routes.home_page(n)] = newest(site.order[(n - 1) * size : n * size])
    dates.update((routes.author_page(a.slug), newest(a.papers)) for a in site.authors)
    dates.update((routes.tag_page(t.slug), newest(t.papers)) for t in site.tags)
    dates.update((routes.category_page(c.slug), newest(c.papers)) for c in site.categories)
    dates.update((routes.year_page(y.slug), newest(y.papers)) for y in site.years)
    return dates
