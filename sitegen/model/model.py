"""Build the Site: papers in order, authors, tags, categories, timeline, and every route.

Pages read the model through the engine; the output paths are layout.py's, the files routes.py's.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path

from ..common.errors import BuildFailed, Report
from ..content import categories
from ..content.config import SiteConfig
from ..content.loader import Content, Entry
from ..content.slugs import slugify, unique_slug
from . import citations, collisions, curated_lists, layout, mentions, people, signals
from .citations import Citations
from .cite_keys import assign_cite_keys, cite_bases
from .mentions import Mentions
from .network import Network, Ranking, Ref, sort_name
from .people import Byline, People
from .site import Author, Paper, Site, Tag
from .timeline import site_years

RELATED_TAGS = 8


def newest_first(entries: Iterable[Entry]) -> list[Entry]:
    """Sort by publication date, newest first; undated last; ties by title then slug."""
    entries = list(entries)
    dated = sorted((e for e in entries if e.date), key=lambda e: (e.title.casefold(), e.slug))
    dated.sort(key=lambda e: e.date or dt.date.min, reverse=True)
    undated = sorted((e for e in entries if not e.date), key=lambda e: (e.title.casefold(), e.slug))
    return dated + undated


def order_key(entry: Entry) -> tuple[bool, int, str, str]:
    """The place of an entry in `newest_first` as one comparable key (for inserting into the order)."""
    return entry.date is None, -entry.date.toordinal() if entry.date else 0, entry.title.casefold(), entry.slug


def author_sort_key(name: str) -> tuple[str, str]:
    """Authors are listed A-Z by family name."""
    return sort_name(name), name


def tag_sort_key(name: str) -> tuple[str, str]:
    """Tags are listed A-Z ignoring case; names differing only in case keep a fixed order."""
    return name.casefold(), name


def build_site(config: SiteConfig, content: Content, drafts: bool = False, report: Report | None = None,
               root: Path | None = None) -> Site:
    """Assemble the Site from validated content; deterministic, and it reads nothing but to show a problem.

    Raises BuildFailed when two things would share a page (see `collisions`); warnings go
    to `report`. With the site's `root`, messages name the line of the file that caused them.
    """
    entries = newest_first(e for e in content.entries if drafts or not e.draft)
    who = people.resolve(content.profiles, root)
    unlisted = who.unlisted(entries)
    credited, written, persons = who.credits(entries, unlisted)  # slug -> people; a name written otherwise -> person
    author_slugs = name_slugs(sorted(persons))
    tag_slugs = name_slugs(sorted({t for e in entries for t in e.tags}, key=tag_sort_key))
    bases = cite_bases(entries)
    keys = assign_cite_keys(bases)
    chronological = [e.slug for e in reversed(entries)]
    position = {slug: i for i, slug in enumerate(chronological)}
    # One Byline per name, shared by every paper that links it: 140,000 author links at 10,000 papers.
    author_refs = {name: Byline(name, slug) for name, slug in author_slugs.items()}
    author_refs.update((name, who.byline(name, author_slugs)) for name in written)
    network = Network.from_rows(credited, {e.slug: e.tags for e in entries}, author_slugs, tag_slugs)
    tag_refs = {name: Ref(name, slug) for name, slug in tag_slugs.items()}
    by_arxiv = mentions.arxiv_slugs(entries)
    noted, unknown_mentions = mentions.site_mentions(entries, {e.slug: e for e in entries}, by_arxiv)
    cited = citations.site_citations(entries)
    papers: dict[str, Paper] = {}
    for e in entries:
        i = position[e.slug]
        papers[e.slug] = make_paper(e, author_refs, tag_refs, keys[e.slug], unlisted[e.slug],
                                    newer=chronological[i + 1] if i + 1 < len(chronological) else None,
                                    older=chronological[i - 1] if i > 0 else None, mentions=noted.get(e.slug),
                                    citations=cited.get(e.slug))
    order = tuple(e.slug for e in entries)
    authors = _authors(entries, network, author_slugs, who)
    tags = _tags(entries, tag_slugs)
    redirects, problems = who.redirects(author_slugs, root)
    upvotes = signals.upvote_histories(entries)
    site = Site(
        config=config, papers=papers, order=order, recent=curated_lists.listed(entries, curated_lists.recent_key),
        queue=curated_lists.listed(entries, curated_lists.queue_key),
        picks=curated_lists.listed(entries, curated_lists.pick_key),
        home=curated_lists.listed(entries, curated_lists.home_key) if config.home_order == "added" else order,
        authors=authors, tags=tags, categories=site_categories(entries), years=site_years(entries),
        pages=page_count(config, len(order)), author_index={a.slug: a for a in authors},
        tag_index={t.slug: t for t in tags}, redirects=redirects, cite_bases=bases, network=network, people=who,
        upvotes=upvotes, rising=signals.rising(upvotes), mentions=noted, arxiv_slugs=by_arxiv,
        citations=cited,
    )
    report = report if report is not None else Report()
    report.extend([*who.problems, *problems, *unknown_mentions])
    report.extend(collisions.category_spellings(entries, root))
    report.extend(collisions.clashes(site, entries, root))
    if report.has_errors:
        raise BuildFailed(report.items)
    return site


def page_count(config: SiteConfig, papers: int) -> int:
    """Pages of the paginated home list (one even when empty)."""
    return max(1, -(-papers // config.page_size))


def make_paper(e: Entry, author_refs: Mapping[str, Byline], tag_refs: Mapping[str, Ref], cite_key: str,
               unlisted: tuple[str, ...], newer: str | None, older: str | None,
               mentions: Mentions | None = None, citations: Citations | None = None) -> Paper:
    return Paper(
        entry=e,
        route=layout.paper(e.slug),
        authors=tuple(map(author_refs.__getitem__, e.authors)),
        tags=tuple(map(tag_refs.__getitem__, e.tags)),
        category=category_ref(e.category) if e.category else None,
        cite_key=cite_key,
        newer=newer,
        older=older,
        unlisted_authors=tuple(map(author_refs.__getitem__, unlisted)),
        mentions=mentions,
        citations=citations,
    )


def category_ref(written: str) -> Ref:
    """The link to a category, in arXiv's spelling whatever the case it is written in."""
    name = categories.canonical(written)
    return Ref(name, slugify(name))


def name_slugs(names: list[str]) -> dict[str, str]:
    taken: set[str] = set()
    result: dict[str, str] = {}
    for name in names:
        result[name] = unique_slug(slugify(name), taken, name)
        taken.add(result[name])
    return result


def _authors(entries: list[Entry], network: Network, slugs: dict[str, str], who: People) -> tuple[Author, ...]:
    papers_of: dict[str, list[str]] = defaultdict(list)
    for e in entries:
        for a in network.names_of[e.slug]:
            papers_of[a].append(e.slug)
    return tuple(
        Author(name=name, slug=slugs[name], papers=tuple(papers_of[name]), profile=who.profile(name), network=network)
        for name in sorted(papers_of, key=author_sort_key)
    )


def _tags(entries: list[Entry], slugs: dict[str, str]) -> tuple[Tag, ...]:
    ranking = Ranking(slugs)
    papers_of: dict[str, list[str]] = defaultdict(list)
    for e in entries:
        for t in e.tags:
            papers_of[t].append(e.slug)
    # Tags seen together, as (tag, other) pairs counted in one pass: a Counter update per tag
    # and paper was a sixth of building the model at 10,000 papers.
    co: dict[str, Counter[str]] = defaultdict(Counter)
    pairs = Counter((t, o) for e in entries if len(e.tags) > 1 for t in e.tags for o in e.tags if o != t)
    for (t, o), n in pairs.items():
        co[t][o] = n
    return tuple(make_tag(t, slugs[t], tuple(papers_of[t]), ranking.top(co[t], RELATED_TAGS))
                 for t in sorted(papers_of, key=tag_sort_key))


def make_tag(name: str, slug: str, papers: tuple[str, ...], related: tuple[Ref, ...]) -> Tag:
    return Tag(name=name, slug=slug, papers=papers, related=related, is_category=categories.expand(name) == name,
               title=categories.display_name(name))


def make_category(name: str, papers: tuple[str, ...]) -> Tag:
    return Tag(name=name, slug=slugify(name), papers=papers, related=(), is_category=True,
               title=categories.display_name(name))


def site_categories(entries: list[Entry]) -> tuple[Tag, ...]:
    """The arXiv categories of these entries (newest first), A-Z, each under arXiv's spelling."""
    papers_of: dict[str, list[str]] = defaultdict(list)
    for e in entries:
        if e.category:
            papers_of[categories.canonical(e.category)].append(e.slug)
    return tuple(make_category(c, tuple(papers_of[c])) for c in sorted(papers_of))
