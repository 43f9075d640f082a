"""Context builders for the HTML page kinds: what each template is given."""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections import defaultdict
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..content import categories, mathtext, mentions
from ..content.loader import AuthorProfile
from ..model import curated_lists, layout, related, routes
from ..model.routes import PageSpec
from ..model.site import Author, Paper, Site, Tag
from ..model.timeline import MONTH_NAMES
from . import ego_svg, feeds, network, paper_links, provenance, sparkline
from .outputs import sitemap
from .words import counted

if TYPE_CHECKING:
    from .page_tools import PageTools

HOME_TAGS = 16  # the most used topics, offered beside the list on wide screens
NAV = (("", "Papers"), ("authors/", "Authors"), (layout.NETWORK, "Network"), ("tags/", "Tags"),
       ("timeline/", "Timeline"), ("recent/", "Recently added"), ("search/", "Search"))
QUEUE_NAV = (layout.QUEUE, "Reading queue")  # in the menu, before Search, while the queue has a page
RISING_NAV = (layout.RISING, "Rising")  # in the menu, after Timeline, while the Rising page has papers
# The link of NAV marked as the current section on each kind of page (`section` in templates)
SECTIONS = {"home": "", "authors": "authors/", "author": "authors/", "network": layout.NETWORK,
            "citation-network": layout.NETWORK, "tags": "tags/",
            "tag": "tags/", "categories": "tags/", "category": "tags/", "timeline": "timeline/", "year": "timeline/",
            "recent": "recent/", "queue": layout.QUEUE, "rising": layout.RISING, "search": "search/"}
QUEUE_GROUPS = (("reading", "Reading now"), ("to-read", "To read"))  # the queue page's sections


def nav(site: Site) -> tuple[tuple[str, str], ...]:
    """The menu of every page: (route, label), with the Rising page and the reading queue while they have pages."""
    rising = (RISING_NAV,) if site.has_rising else ()  # beside the timeline: on a phone, on the menu's first line
    queue = (QUEUE_NAV,) if site.queued else ()
    return (*NAV[:5], *rising, *NAV[5:-1], *queue, NAV[-1])


def page_context(r: PageTools, spec: PageSpec, root: str) -> dict[str, Any]:
    """Dispatch on the page kind."""
    builder = BUILDERS[spec.kind]
    return builder(r, r.site, spec, root)


def _home(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    n = int(spec.key)
    size = site.config.page_size
    slugs = site.home[(n - 1) * size : n * size]
    return {
        "title": site.config.title if n == 1 else f"{site.config.title} — page {n}",
        "description": site.config.description,
        "items": r.items(slugs, root, level=2),
        "page_number": n, "page_count": site.pages, "total": len(site.order),
        "by_added": site.config.home_order == "added",
        # where to start: the curator's pinned and best rated papers, above the first page's list
        "picks": [site.papers[slug] for slug in site.picks[:curated_lists.PICKS_SHOWN]] if n == 1 else [],
        "first_index": (n - 1) * size + 1,
        "prev_url": None if n == 1 else ("" if n == 2 else f"page/{n - 1}/"),
        "next_url": f"page/{n + 1}/" if n < site.pages else None,
        "feed_url": "feed.xml",
        "top_tags": sorted((t for t in site.tags if not t.is_category),
                           key=lambda t: (-len(t.papers), t.name.casefold()))[:HOME_TAGS],
        "years": site.years,
    }


def _paper(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    paper = site.papers[spec.key]
    e = paper.entry
    from .outputs import citations

    noted = paper.mentions  # what its notes name, and whose notes name it
    named = dict(noted.out) if noted else {}

    def mentioned(target: str) -> tuple[str, str] | None:
        other = site.papers.get(named.get(target) or "")
        return (f"{root}{other.route}", other.entry.title_html) if other is not None else None

    return {
        "title": e.title,
        "description": mathtext.plain_text(e.abstract, limit=250),  # no TeX where only text is shown
        "paper": paper,
        "notes_html": mentions.linked(e.notes_html, mentioned) if e.mentions else e.notes_html,
        "mentioned_in": [site.papers[slug] for slug in noted.into] if noted else [],
        **_citations(site, paper),
        "newer": site.papers[paper.newer] if paper.newer else None,
        "older": site.papers[paper.older] if paper.older else None,
        "bibtex": citations.bibtex([paper], site.config, r.bib_entries),
        "coins": r.coins(paper),
        "json_ld": r.json_ld(paper),
        "category_name": categories.display_name(paper.category.name) if paper.category else "",
        "feed_url": "feed.xml",
        # the row of buttons to the paper, or title searches where nothing identifies it
        "paper_buttons": paper_links.buttons(e),
        "paper_searches": () if paper_links.has_identity(e) else paper_links.searches(e.title),
        "pdf_url": paper_links.pdf_url(e),
        "cited_doi": paper_links.cited_doi(e),
        "venue_kind": paper_links.venue_kind(e.venue),
        "extra": e.extra,  # the entry's own fields, as its `extra:` holds them
        **_paper_panel(site, paper),
        **signal_charts(paper),
    }


def _citations(site: Site, paper: Paper) -> dict[str, Any]:
    """The papers on the list it cites and that cite it, newest first (read through `site`: the engine records
    them, so a cited paper's new title reaches this page)."""
    cited = paper.citations

    def newest_first(slugs: tuple[str, ...]) -> list[Paper]:
        return sorted((site.papers[slug] for slug in slugs), key=lambda p: (p.entry.date or dt.date.min, p.slug),
                      reverse=True)

    return {"cites_on_list": newest_first(cited.cites) if cited else [],
            "cited_by_on_list": newest_first(cited.cited_by) if cited else []}


def _paper_panel(site: Site, paper: Paper) -> dict[str, Any]:
    """The related papers with why each is there and the provenance sentences: read through `site`, so the engine
    records them."""
    shown = tuple((other, related.reasons(paper, other, found)) for other, found in related.panel(site, paper))
    return {"related": shown, "provenance": provenance.sentences(paper.entry.sources)}


def signal_charts(paper: Paper) -> dict[str, Any]:
    """The paper's signals over time (`sparkline`): its own records only, so nothing more is read."""
    charts = sparkline.charts(paper.entry.sources) if paper.entry.sources else ()
    return {"signal_charts": charts, "signal_heading": sparkline.heading(charts) if charts else ""}


def _authors(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    letters: dict[str, list[Author]] = defaultdict(list)
    for author in site.authors:
        family = author.name.split()[-1] if author.name.split() else "#"
        initial = family[0].upper()
        letters[initial if initial.isalpha() and initial.isascii() else "#"].append(author)
    return {"title": "Authors",
            "description": f"{counted(len(site.authors), 'author')} of the papers on {site.config.title}.",
            "letters": sorted(letters.items()), "feed_url": "feed.xml"}


def _author(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    author = site.author_index[spec.key]
    return {"title": author.name, "description": f"Papers by {author.name} on {site.config.title}.",
            "author": author, "items": r.items(author.papers, root),
            "ego_network": ego_svg.ego_network(author.name, author.coauthors, root),
            "profile_category": categories.display_name(author.profile.category)
            if author.profile and author.profile.category else "",
            "profile_links": profile_links(author.name, author.profile),
            "feed_url": f"authors/{author.slug}/feed.xml", "cite_name": author.slug, "cite_papers": author.papers,
            **NO_CITATION_FILES}


def _redirect(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    """The address of a person's other spelling: their page, to go on to (the key is theirs)."""
    author = site.author_index[spec.key]
    return {"title": author.name, "description": f"Papers by {author.name} on {site.config.title}.",
            "author": author, "target_url": site.config.absolute(layout.author(author.slug)), "feed_url": "feed.xml"}


# (profile field, link label, address of the profile with the field's value as its last segment)
PROFILE_SITES = (("semantic_scholar", "Semantic Scholar", "https://www.semanticscholar.org/author/"),
                 ("huggingface", "Hugging Face", "https://huggingface.co/"),
                 ("orcid", "ORCID", "https://orcid.org/"))


def profile_links(name: str, profile: AuthorProfile | None) -> tuple[tuple[str, str, str], ...]:
    """(field, label, URL) of the author's profiles elsewhere, only when the profile file is this person's.

    The model may lend a page the profile of a name that only slugs alike ('Ahan Gupta' for
    'Ahán Gupta'); figures shown there are a nuisance, a link to the other person's
    Semantic Scholar page states a falsehood.
    """
    if profile is None or _person(name) not in {_person(n) for n in (profile.name, *profile.aliases)}:
        return ()
    return tuple((field, label, base + quote(value, safe=""))
                 for field, label, base in PROFILE_SITES if (value := getattr(profile, field)))


def _person(name: str) -> str:
    """A name but for Unicode composition and spacing, as the importer tells people apart."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def _tags(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    topics = sorted((t for t in site.tags if not t.is_category), key=lambda t: (-len(t.papers), t.name.casefold()))
    largest = max((len(t.papers) for t in site.tags), default=1)
    return {"title": "Tags", "description": f"{counted(len(site.tags), 'topic')} of the papers on {site.config.title}.",
            "topics": topics, "categories": site.categories, "largest": largest, "feed_url": "feed.xml",
            "labels": {t.name: t.label for t in site.config.tag_details if t.label}}


def _tag(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    if spec.kind == "category":
        tag: Tag = next(c for c in site.categories if c.slug == spec.key)
        related_tag = site.tag_index.get(tag.slug)
        feed = f"tags/{tag.slug}/feed.xml" if related_tag else "feed.xml"
    else:
        tag = site.tag_index[spec.key]
        feed = f"tags/{tag.slug}/feed.xml"
    details = None if tag.is_category else site.config.tag(tag.name)  # its label, description, keywords
    heading = f"{tag.name} — {tag.title}" if tag.is_category and tag.title != tag.name else tag.name
    heading = details.label if details and details.label else heading
    by_citations = site.config.tag_order == "cited"
    papers = cited_first(site, tag.papers) if by_citations else tag.papers
    return {"title": heading, "by_citations": by_citations,
            "description": details.description if details and details.description else
            f"Papers tagged {tag.name} on {site.config.title}.",
            "tag": tag, "tag_details": details, "items": r.items(papers, root), "feed_url": feed,
            "cite_name": tag.slug, "cite_papers": tag.papers, **NO_CITATION_FILES}


def cited_first(site: Site, slugs: tuple[str, ...]) -> tuple[str, ...]:
    """Papers the list cites most first; equals keep the site's order (a stable sort)."""
    def cited_by(slug: str) -> int:
        citations = site.papers[slug].citations
        return len(citations.cited_by) if citations else 0
    return tuple(sorted(slugs, key=lambda slug: -cited_by(slug)))


# Themes written when authors and tags had citation files of their own link them from `citation_files`: empty now
# (the papers are cited through `cite_papers`, see partials/cite-bundle.html), so such a theme still builds.
NO_CITATION_FILES: dict[str, Any] = {"citation_files": (), "bib_url": None}


def _categories(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    return {"title": "arXiv categories", "description": f"Papers by arXiv category on {site.config.title}.",
            "categories": site.categories, "feed_url": "feed.xml"}


def _timeline(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    """The years, each a row of months in the chart (bars to the scale of the busiest month of all)."""
    busiest = max((n for y in site.years for n in y.counts), default=0) or 1
    return {"title": "Timeline", "description": f"Papers on {site.config.title} by year and month of publication.",
            "years": site.years, "busiest": busiest, "month_names": MONTH_NAMES, "total": len(site.order),
            "feed_url": "feed.xml"}


def _year(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    year = next(y for y in site.years if y.slug == spec.key)
    months = [(m, r.items(m.papers, root)) for m in year.months]
    undated = r.items(year.papers, root, level=2) if not year.year else []  # no month headings: h1 > h2
    placed = {slug for m in year.months for slug in m.papers}
    unplaced = [slug for slug in year.papers if slug not in placed] if year.year else []  # `date: 2025` alone
    index = [y.slug for y in site.years]
    i = index.index(year.slug)
    return {"title": f"Papers of {year.label}" if year.year else "Undated papers",
            "description": f"{counted(len(year.papers), 'paper')} from {year.label} on {site.config.title}.",
            "year": year, "months": months, "undated": undated,
            "month_unknown": r.items(unplaced, root) if unplaced else "", "month_unknown_count": len(unplaced),
            "newer": site.years[i - 1] if i > 0 else None,
            "older": site.years[i + 1] if i + 1 < len(site.years) else None, "feed_url": "feed.xml"}


def _recent(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    """The newest additions by day (the last day shown may be cut short), and how many there are in all."""
    shown, added_count, total = spec.shape  # routes.list_specs chose them
    groups: dict[dt.date, list[str]] = defaultdict(list)
    for slug in shown:
        added = site.papers[slug].entry.added
        if added:
            groups[added].append(slug)
    return {"title": "Recently added", "description": f"Papers most recently added to {site.config.title}.",
            "groups": [(day, r.items(slugs, root)) for day, slugs in groups.items()],  # day: a date, newest first
            "shown": len(shown), "added": added_count, "total": total,
            "feed_url": "recent/feed.xml"}


def _queue(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    """The papers being read, then those to read, each group newest first."""
    groups = [(status, label, [s for s in site.queue if site.papers[s].entry.status == status])
              for status, label in QUEUE_GROUPS]
    return {"title": "Reading queue", "description": f"Papers being read or waiting to be read on {site.config.title}.",
            "groups": [(status, label, r.items(slugs, root)) for status, label, slugs in groups if slugs],
            "total": len(site.queue), "feed_url": f"{layout.QUEUE}feed.xml"}


def _rising(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    """The papers that gained most upvotes between the last two captures, each with its gain."""
    rising = site.rising
    between = sparkline.between(*rising.captures)
    return {"title": "Rising",
            "description": f"Papers on {site.config.title} that gained the most upvotes between {between}.",
            "rising": rising, "between": between, "before": rising.captures[0], "after": rising.captures[1],
            "rows": [(rise, r.item(rise.slug, root, level=2)) for rise in rising.papers], "feed_url": "feed.xml"}


def _simple(title: str) -> Any:
    def build(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
        return {"title": title, "description": site.config.description, "feed_url": "feed.xml"}
    return build


BUILDERS = {
    "home": _home, "paper": _paper, "authors": _authors, "author": _author, "tags": _tags, "tag": _tag,
    "category": _tag, "categories": _categories, "timeline": _timeline, "year": _year, "recent": _recent,
    "queue": _queue, "rising": _rising, routes.REDIRECT: _redirect, "network": network.page_context,
    "citation-network": network.citations_context,
    "search": _simple("Search"), "404": _simple("Page not found"),
    "sitemap": sitemap.context, routes.SITEMAP_INDEX: sitemap.index_context,
    "feeds-opml": lambda r, site, spec, root: feeds.outline_context(site, spec),
}

