"""The render plan: every file the build writes, its kind, template and inputs.

Each page names the inputs it is made from (`entry:<slug>`, `profile:<slug>`,
`notes:<slug>` when only an entry's notes changed, `config`, `entries` for pages
showing something of every paper), so a change can select exactly the pages to
re-render, and incremental output can be proved equal to a full build.

A page showing part of the list's structure (a paper, an author, a tag, a year, a
home page, an index, the sitemap) holds what it shows of it in its `shape` (which
papers in which order, names, counts, related tags), so a new plan differs from the
old exactly for the pages whose structure changed. A paper whose links changed
without an edit to its file (an author's slug, its cite key) counts as an edited
entry (see `paper_look`).

The plan is built in sections (home pages, one paper's files, one author's, one
tag's, the indexes), so an edit that keeps the site's structure can replace the few
specs it touches instead of planning 64,000 files again (`incremental`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from . import layout, related
from .model import Author, Paper, Site, Tag, year_slug

if TYPE_CHECKING:
    from .model_patch import SitePatch

STATIC_PREFIX = "static/"
FEED_SIZE = 50  # the main and recently-added feeds
# Papers on the recently-added page: what is new, not a second copy of the whole list (which,
# at 10,000 papers, was a 10 MB page). The home page and the timeline hold every paper.
RECENT_SIZE = 100
TOPIC_FEED_SIZE = 20  # one feed per tag and per author: thousands of them on a large list
CONFIG = frozenset({"config"})
CONTENTS = frozenset({"config", "entries"})  # shows something of every entry
WHOLE_LIST_FILES = ("reading-list.bib", "reading-list.ris", "reading-list.json", "papers.json")
SOCIAL_CARD = "social-card.png"  # the picture a shared link to any page shows (og:image)
# An author's or a tag's papers for reference managers: (file name, kind suffix: `author-bib`, `tag-ris`, ...)
CITATION_FILES = (("papers.bib", "bib"), ("papers.ris", "ris"), ("papers.json", "json"))


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


def paper_look(paper: Paper) -> tuple[Any, ...]:
    """What a paper's pages and list items show of it besides its entry: links and cite key."""
    return paper.authors, paper.unlisted_authors, paper.tags, paper.category, paper.cite_key


class Tokens:
    """`entry:<slug>` dependency sets; one token string per paper, shared by every spec that holds it."""

    def __init__(self, site: Site | None = None) -> None:
        """With the site, every paper's token is made at once (for a whole plan), else on first use."""
        self._token = {slug: f"entry:{slug}" for slug in site.papers} if site is not None else {}
        self._get = self._token.__getitem__ if site is not None else self._make

    def _make(self, slug: str) -> str:
        return self._token.get(slug) or self._token.setdefault(slug, f"entry:{slug}")

    def __call__(self, slugs: Iterable[str]) -> frozenset[str]:
        return frozenset(map(self._get, slugs))


def notes(slugs: Iterable[str]) -> frozenset[str]:
    """`notes:<slug>` dependencies: of the files showing these papers' notes (pages, full-text feeds, papers.json)."""
    return frozenset(f"notes:{slug}" for slug in slugs)


def plan(site: Site) -> tuple[PageSpec, ...]:
    """Every page of the site, in a stable order."""
    entries = Tokens(site)
    pages: list[PageSpec] = home_specs(site, entries)
    for slug in site.papers:
        pages += paper_specs(site, slug, entries)
    pages.append(authors_index(site))
    for author in site.authors:
        pages += author_specs(site, author, entries)
    pages.append(tags_index(site))
    for tag in site.tags:
        pages += tag_specs(site, tag, entries)
    pages.append(categories_index(site))
    for cat in site.categories:
        pages.append(category_spec(site, cat, entries))
    pages += timeline_specs(site, entries)
    pages += list_specs(site, entries)
    pages.append(PageSpec("search/index.html", "search", "", "search.html", CONFIG))
    pages.append(sitemap_spec(site))
    pages += tail_specs(site)
    return tuple(pages)


def home_summary(site: Site) -> tuple[Any, ...]:
    """What every home page shows besides its own papers: page and paper counts, topics, years."""
    return (site.pages, len(site.order),
            tuple((t.name, t.slug, len(t.papers)) for t in site.tags if not t.is_category),
            tuple((y.slug, len(y.papers)) for y in site.years))


def home_specs(site: Site, entries: Tokens) -> list[PageSpec]:
    """The paginated home: each page's papers, and the topics and years beside them."""
    size = site.config.page_size
    summary = home_summary(site)
    specs = []
    for n in range(1, site.pages + 1):
        chunk = site.order[(n - 1) * size : n * size]
        specs.append(PageSpec(home_page(n), "home", str(n), "index.html", CONFIG | entries(chunk), (chunk, summary)))
    return specs


def paper_specs(site: Site, slug: str, entries: Tokens) -> list[PageSpec]:
    """A paper's page (which shows its neighbours' titles, more by its authors and related papers) and its three
    citation files."""
    paper = site.papers[slug]
    near = [s for s in (paper.newer, paper.older) if s]
    listed = tuple(tuple(p.slug for p in papers) for papers in related.panel(site, paper))
    deps = CONFIG | entries([slug, *near, *listed[0], *listed[1]]) | {f"notes:{slug}"}
    own = entries([slug])
    return [PageSpec(paper_page(slug), "paper", slug, "paper.html", deps, (paper.newer, paper.older, listed)),
            *(PageSpec(f"{layout.paper(slug)}cite.{ext}", f"cite-{ext}", slug, "", own)
              for ext in ("bib", "ris", "json"))]


def authors_index(site: Site) -> PageSpec:
    shape = tuple((a.name, a.slug, len(a.papers), a.profile is not None) for a in site.authors)
    return PageSpec("authors/index.html", "authors", "", "authors.html", CONFIG, shape)


def author_specs(site: Site, author: Author, entries: Tokens) -> list[PageSpec]:
    """An author's page, feed and citation files (BibTeX, RIS, CSL-JSON)."""
    deps = CONFIG | entries(author.papers) | {f"profile:{author.slug}"}
    shape = (author.name, author.papers, author.profile)
    top = author.papers[:TOPIC_FEED_SIZE]
    route = layout.author(author.slug)
    return [PageSpec(author_page(author.slug), "author", author.slug, "author.html", deps, shape),
            PageSpec(f"{route}feed.xml", "author-feed", author.slug, "feed.xml", CONFIG | entries(top),
                     (author.name, top)),
            *(PageSpec(f"{route}{name}", f"author-{kind}", author.slug, "", deps, shape)
              for name, kind in CITATION_FILES)]


def tags_index(site: Site) -> PageSpec:
    shape = (tuple((t.name, t.slug, len(t.papers), t.is_category) for t in site.tags),
             tuple((c.name, c.slug, c.title, len(c.papers)) for c in site.categories))
    return PageSpec("tags/index.html", "tags", "", "tags.html", CONFIG, shape)


def tag_specs(site: Site, tag: Tag, entries: Tokens) -> list[PageSpec]:
    """A tag's page, feed and citation files (BibTeX, RIS, CSL-JSON)."""
    deps = CONFIG | entries(tag.papers)
    shape = (tag.name, tag.papers, tag.related)
    top = tag.papers[:TOPIC_FEED_SIZE]
    route = layout.tag(tag.slug)
    return [PageSpec(f"{route}index.html", "tag", tag.slug, "tag.html", deps, shape),
            PageSpec(f"{route}feed.xml", "tag-feed", tag.slug, "feed.xml", CONFIG | entries(top), (tag.name, top)),
            *(PageSpec(f"{route}{name}", f"tag-{kind}", tag.slug, "", deps, shape) for name, kind in CITATION_FILES)]


def categories_index(site: Site) -> PageSpec:
    shape = tuple((c.name, c.slug, c.title, len(c.papers)) for c in site.categories)
    return PageSpec("categories/index.html", "categories", "", "categories.html", CONFIG, shape)


def category_spec(site: Site, cat: Tag, entries: Tokens) -> PageSpec:
    shape = (cat.name, cat.title, cat.papers, cat.slug in site.tag_index)
    return PageSpec(category_page(cat.slug), "category", cat.slug, "tag.html",
                    CONFIG | entries(cat.papers), shape)


def timeline_specs(site: Site, entries: Tokens, only: set[str] | None = None) -> list[PageSpec]:
    """The timeline (years and months with their counts) and one page per year (or per year in `only`)."""
    counts = tuple((y.slug, len(y.papers), tuple((m.number, len(m.papers)) for m in y.months)) for y in site.years)
    specs = [PageSpec("timeline/index.html", "timeline", "", "timeline.html", CONFIG, (len(site.order), counts))]
    years = [y.slug for y in site.years]
    for i, year in enumerate(site.years):
        if only is not None and year.slug not in only:
            continue
        shape = (year.months, year.papers, years[i - 1] if i else None, years[i + 1] if i + 1 < len(years) else None)
        specs.append(PageSpec(year_page(year.slug), "year", year.slug, "year.html",
                              CONFIG | entries(year.papers), shape))
    return specs


def list_specs(site: Site, entries: Tokens) -> list[PageSpec]:
    """Pages showing the newest or recently added papers, the reading queue, or every paper.

    The full-text feeds and papers.json carry the papers' notes as well.
    """
    recent, newest, shown = site.recent[:FEED_SIZE], site.order[:FEED_SIZE], site.recent[:RECENT_SIZE]
    return [PageSpec("recent/index.html", "recent", "", "recent.html", CONFIG | entries(shown),
                     (shown, len(site.recent), len(site.order))),
            PageSpec("recent/feed.xml", "recent-feed", "", "feed.xml", CONFIG | entries(recent) | notes(recent),
                     (recent,)),
            *queue_specs(site, entries),
            PageSpec("feed.xml", "feed", "", "feed.xml", CONFIG | entries(newest) | notes(newest), (newest,)),
            *(PageSpec(name, name.replace(".", "-"), "", "",
                       CONTENTS | notes(site.order) if name == "papers.json" else CONTENTS, (site.order,))
              for name in WHOLE_LIST_FILES)]


def queue_specs(site: Site, entries: Tokens) -> list[PageSpec]:
    """The reading queue's page and feed, while any paper is being read or waiting to be."""
    if not site.queue:
        return []
    top = site.queue[:FEED_SIZE]
    return [PageSpec(f"{layout.QUEUE}index.html", "queue", "", "queue.html", CONFIG | entries(site.queue),
                     (site.queue,)),
            PageSpec(f"{layout.QUEUE}feed.xml", "queue-feed", "", "feed.xml", CONFIG | entries(top) | notes(top),
                     (top,))]


def sitemap_spec(site: Site) -> PageSpec:
    """The sitemap lists every HTML page but the 404 page, in plan order, each with the day it last changed,
    which any entry's dates may move."""
    return PageSpec("sitemap.xml", "sitemap", "", "sitemap.xml", CONTENTS, tuple(html_pages(site)))


def html_pages(site: Site) -> Iterator[str]:
    """The output of every `index.html` page in plan order (kept in step with `plan` by a test)."""
    yield from (home_page(n) for n in range(1, site.pages + 1))
    yield from (paper_page(slug) for slug in site.papers)
    yield "authors/index.html"
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
    yield "search/index.html"


def respecs(site: Site, patch: SitePatch, previous: Site | None = None) -> list[PageSpec]:
    """The specs of a patched site that may differ from the previous plan's (which has the same files).

    The pages of the papers, authors, tags, categories and years the patch touched, the
    home pages, the indexes, the timeline, the lists and the sitemap: a few thousand specs,
    where planning the whole site makes 64,000 at 10,000 papers. Given the `previous`
    site, the home pages are left out when neither the order nor their summary moved
    (500 specs at 10,000 papers, a seventh of a title edit in the preview).
    """
    entries = Tokens()
    same_home = previous is not None and not patch.moved and home_summary(previous) == home_summary(site)
    specs = [] if same_home else home_specs(site, entries)
    # a paper's page lists papers sharing its authors or tags: theirs may change with the patched ones
    shown = [site.papers[s] for s in patch.papers if s in site.papers]
    authors = set(patch.authors).union(*({r.slug for r in (*p.authors, *p.unlisted_authors)} for p in shown))
    tags = set(patch.tags).union(*({r.slug for r in p.tags} for p in shown))
    papers = set(patch.papers).union(*(site.author_index[a].papers for a in authors if a in site.author_index),
                                     *(site.tag_index[t].papers for t in tags if t in site.tag_index))
    for slug in papers:
        specs += paper_specs(site, slug, entries)
    for slug in patch.authors:
        specs += author_specs(site, site.author_index[slug], entries)
    if patch.authors:
        specs.append(authors_index(site))
    for slug in patch.tags:
        specs += tag_specs(site, site.tag_index[slug], entries)
    if patch.tags or patch.categories:
        specs.append(tags_index(site))
    if patch.categories:
        specs += [category_spec(site, cat, entries) for cat in site.categories if cat.name in patch.categories]
        specs.append(categories_index(site))
    specs += timeline_specs(site, entries, patch.years)  # the same years as before (or no patch), so neighbours hold
    if patch.moved:
        specs += list_specs(site, entries)
        specs.append(sitemap_spec(site))
    return specs


def scope(before: Site, after: Site, patch: SitePatch, slugs: set[str]) -> SitePatch:
    """The patch widened to every section that shows one of these papers, before or after the edit.

    `respecs` with it on either site gives every spec whose inputs include an `entry:` token
    of `slugs`, as well as every spec the patch changed: the home pages, the papers and their
    neighbours, their authors (listed or not), tags, categories and years, the lists, indexes
    and sitemap. Planning those few thousand pages twice costs far less than planning 64,000
    for a state restored by a new build process, which has no plan yet.
    """
    papers, authors, tags = set(patch.papers) | slugs, set(patch.authors), set(patch.tags)
    categories, years = set(patch.categories), set(patch.years)
    for site in (before, after):
        for slug in slugs:
            paper = site.papers.get(slug)
            if paper is None:
                continue
            papers.update(s for s in (paper.newer, paper.older) if s)
            authors.update(r.slug for r in (*paper.authors, *paper.unlisted_authors))
            tags.update(r.slug for r in paper.tags)
            if paper.category:
                categories.add(paper.category.name)
            years.add(year_slug(paper.year))
    return replace(patch, papers=papers, authors=authors, tags=tags, categories=categories, years=years, moved=True)


def scoped_specs(site: Site, scope: SitePatch) -> dict[str, PageSpec]:
    """The specs of the sections in `scope` (see `scope`), with the indexes, lists and sitemap."""
    return {spec.output: spec for spec in respecs(site, scope)}


def tail_specs(site: Site) -> list[PageSpec]:
    specs = [PageSpec("404.html", "404", "", "404.html", CONFIG),
             PageSpec("robots.txt", "robots", "", "", CONFIG),
             PageSpec(SOCIAL_CARD, "social-card", "", "", CONFIG),
             PageSpec(".nojekyll", "nojekyll")]
    if site.config.domain:
        specs.append(PageSpec("CNAME", "cname", "", "", CONFIG))
    return specs


Row = tuple[str, str, str, str]  # (output, kind, key, template)


def rows(order: Iterable[str], authors: Iterable[str], tags: Iterable[str], categories: Iterable[str],
         years: Iterable[str], pages: int, domain: str | None, queue: bool = False) -> Iterator[Row]:
    """Every output file of a site with these papers, author, tag, category and year slugs, in plan order
    (`queue`: whether the reading queue has any paper, and so a page and a feed).

    What a page shows is recorded when it renders; this says only which files there are
    and how each is made (`plan` gives the same files with what each depends on).
    """
    yield from ((home_page(n), "home", str(n), "index.html") for n in range(1, pages + 1))
    for slug in order:
        route = layout.paper(slug)
        yield f"{route}index.html", "paper", slug, "paper.html"
        yield from ((f"{route}cite.{ext}", f"cite-{ext}", slug, "") for ext in ("bib", "ris", "json"))
    yield "authors/index.html", "authors", "", "authors.html"
    for slug in authors:
        route = layout.author(slug)
        yield from ((f"{route}index.html", "author", slug, "author.html"), (f"{route}feed.xml", "author-feed", slug,
                    "feed.xml"))
        yield from ((f"{route}{name}", f"author-{kind}", slug, "") for name, kind in CITATION_FILES)
    yield "tags/index.html", "tags", "", "tags.html"
    for slug in tags:
        route = layout.tag(slug)
        yield from ((f"{route}index.html", "tag", slug, "tag.html"), (f"{route}feed.xml", "tag-feed", slug,
                    "feed.xml"))
        yield from ((f"{route}{name}", f"tag-{kind}", slug, "") for name, kind in CITATION_FILES)
    yield "categories/index.html", "categories", "", "categories.html"
    yield from ((category_page(slug), "category", slug, "tag.html") for slug in categories)
    yield "timeline/index.html", "timeline", "", "timeline.html"
    yield from ((year_page(slug), "year", slug, "year.html") for slug in years)
    yield from (("recent/index.html", "recent", "", "recent.html"), ("recent/feed.xml", "recent-feed", "", "feed.xml"))
    if queue:
        yield from ((f"{layout.QUEUE}index.html", "queue", "", "queue.html"),
                    (f"{layout.QUEUE}feed.xml", "queue-feed", "", "feed.xml"))
    yield "feed.xml", "feed", "", "feed.xml"
    yield from ((name, name.replace(".", "-"), "", "") for name in WHOLE_LIST_FILES)
    yield from (("search/index.html", "search", "", "search.html"), ("sitemap.xml", "sitemap", "", "sitemap.xml"),
                ("404.html", "404", "", "404.html"), ("robots.txt", "robots", "", ""),
                (SOCIAL_CARD, "social-card", "", ""), (".nojekyll", "nojekyll", "", ""))
    if domain:
        yield "CNAME", "cname", "", ""
