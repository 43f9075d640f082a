"""Patch the model after entry edits instead of building it again.

An edit to an entry moves its paper in the order, changes the lists of a few
authors, tags, categories and years, and maybe a few cite keys. Building the model
of a 10,000-paper list again for that takes about half a second; patching it takes
milliseconds. The patched Site equals `model.build_site` on the edited content
(tests/model/test_model_patch.py checks this on random edit sequences). Where that is not
cheap to guarantee (a paper added, removed or hidden as a draft, a new name whose
slug would push another name's slug aside), `patch_site` returns None and the caller
builds the model again.
"""

from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TypeVar

from ..content.categories import canonical
from ..content.loader import AuthorProfile, Entry
from . import citations as citation_index
from . import curated_lists as lists
from . import mentions as mention_index
from . import model, signals, timeline
from .cite_keys import assign_cite_keys, cite_base
from .network import Ranking, Ref
from .people import Byline, People
from .saved_papers import updated
from .site import Author, Paper, Site, Tag

K = TypeVar("K", bound=Hashable)


@dataclass
class SitePatch:
    """The patched Site and what changed in it, so only the pages it touches are planned again."""

    site: Site
    papers: set[str]  # slugs whose Paper changed: the edited ones, their old and new neighbours, moved cite keys
    relinked: set[str]  # papers not edited whose cite key changed
    authors: set[str]  # slugs of authors whose papers, co-authors or topics may have changed (still present)
    tags: set[str]  # slugs of tags whose papers or related tags changed
    categories: set[str]
    years: set[str]  # slugs of years whose papers changed
    same_files: bool  # no author, tag, category, year, reading queue or Rising page appeared or vanished: same files
    moved: bool  # the order, the recently-added list or the reading queue changed
    undo: Callable[[], None]  # puts the co-author network shared with the previous Site back as it was


def patch_site(site: Site, edited: Mapping[str, Entry], profiles: Iterable[AuthorProfile],
               drafts: bool) -> SitePatch | None:
    """The Site with these entries (slug -> new entry) swapped in; None when a full build is needed.

    `profiles` are those the site was built with, which its `people` resolved: an edit of an
    author file builds the model again.
    """
    papers, network = site.papers, site.network
    if network is None or not edited:
        return None
    if any(slug not in papers or e.slug != slug or (e.draft and not drafts) for slug, e in edited.items()):
        return None
    old = {slug: papers[slug].entry for slug in edited}
    if not citation_index.unchanged(edited, old):  # rare (enrich writes them): the graph is made again
        return None
    who = site.people
    unlisted = who.unlisted(edited.values())
    names_after = {slug: who.credit(e.authors, unlisted[slug]) for slug, e in edited.items()}

    def entry(slug: str) -> Entry:
        return edited[slug] if slug in edited else papers[slug].entry

    def place(slug: str) -> tuple[bool, int, str, str]:  # the order is sorted by this key (see `_reorder`)
        return model.order_key(entry(slug))

    order = _reorder(site.order, edited, place)

    # Who is on which list after the edit. The network's rankings hold every name's slug.
    author_slugs, tag_slugs = network.authors.slugs, network.tags.slugs
    author_lists = _regroup({n for slug in edited for n in (*network.names_of[slug], *names_after[slug])},
                            lambda n: site.author_index[author_slugs[n]].papers if n in author_slugs else (),
                            names_after, edited, place)
    tags_after = {slug: e.tags for slug, e in edited.items()}
    tag_lists = _regroup({t for slug in edited for t in (*old[slug].tags, *tags_after[slug])},
                         lambda t: site.tag_index[tag_slugs[t]].papers if t in tag_slugs else (),
                         tags_after, edited, place)
    categories = {c.name: c for c in site.categories}
    # grouped under arXiv's spelling, as the model groups them: an entry writing `cs.lg` is on `cs.LG`'s page
    category_lists = _regroup({canonical(c) for slug in edited for c in (old[slug].category, edited[slug].category)
                               if c},
                              lambda c: categories[c].papers if c in categories else (),
                              {slug: (canonical(e.category),) if e.category else () for slug, e in edited.items()},
                              edited, place)
    years = {y.year: y for y in site.years}
    year_lists = _regroup({_year(e) for slug in edited for e in (old[slug], edited[slug])},
                          lambda y: years[y].papers if y in years else (),
                          {slug: (_year(e),) for slug, e in edited.items()}, edited, place)

    new_author_slugs = _slugs_kept(author_slugs, author_lists, sorted)
    new_tag_slugs = _slugs_kept(tag_slugs, tag_lists, lambda names: sorted(names, key=model.tag_sort_key))
    if new_author_slugs is None or new_tag_slugs is None:
        return None
    same_files = all(_same_groups(lists, before) for lists, before in (
        (author_lists, author_slugs), (tag_lists, tag_slugs), (category_lists, categories)))
    same_files = same_files and _same_groups(year_lists, years)

    keys, bases, relinked = _cite_keys(site, edited)
    neighbours = {s for slug in edited for s in (papers[slug].newer, papers[slug].older) if s}
    for slug in edited:
        i = bisect.bisect_left(order, place(slug), key=place)
        neighbours |= {order[j] for j in (i - 1, i + 1) if 0 <= j < len(order)}
    noted = mention_index.patched(site.mentions, site.arxiv_slugs, edited, old, papers, order)
    if noted is None:
        return None
    mentions, by_arxiv, mentioned = noted
    changed_papers: dict[str, Paper] = {}
    author_refs = _Bylines(new_author_slugs, who)
    tag_refs = _Refs(new_tag_slugs)
    for slug in set(edited) | neighbours | set(keys) | mentioned:
        i = bisect.bisect_left(order, place(slug), key=place)
        newer = order[i - 1] if i > 0 else None
        older = order[i + 1] if i + 1 < len(order) else None
        before = papers[slug]
        key = keys.get(slug, before.cite_key)
        if slug in edited:
            paper = model.make_paper(edited[slug], author_refs, tag_refs, key, unlisted[slug], newer, older,
                                     mentions.get(slug), site.citations.get(slug))
        else:
            paper = replace(before, cite_key=key, newer=newer, older=older, mentions=mentions.get(slug))
        if paper != before:
            changed_papers[slug] = paper
    # Papers not yet made are made when read: none is made here.
    new_papers = updated(papers, changed_papers, None if tuple(order) == site.order else order)
    # Each list the curator's marks make moves only when an edited paper is or was on it
    recent, queue, picks = (
        lists.reinserted(before, order, edited, entry, key)
        if any(key(e, 0) is not None or key(old[slug], 0) is not None for slug, e in edited.items()) else before
        for before, key in ((site.recent, lists.recent_key), (site.queue, lists.queue_key),
                            (site.picks, lists.pick_key)))
    home = lists.reinserted(site.home, order, edited, entry, lists.home_key) \
        if site.config.home_order == "added" else tuple(order)

    # Authors on an edited paper whose rows (names, tags) are as before keep their co-authors and topics.
    same_rows = {slug for slug, e in edited.items()
                 if network.names_of[slug] == names_after[slug] and network.tags_of[slug] == e.tags}
    previous = {name: site.author_index[author_slugs[name]] for name in author_lists if name in author_slugs}
    undo = _update_network(site, edited, names_after, previous.values(), new_author_slugs != author_slugs,
                           new_tag_slugs != tag_slugs, new_author_slugs, new_tag_slugs)
    authors, changed_authors = _authors(site, previous, author_lists, new_author_slugs, edited, same_rows)
    retagged = {slug for slug, e in edited.items() if old[slug].tags != e.tags}
    tags, changed_tags = _tags(site, tag_lists, new_tag_slugs, entry, retagged)
    # A category or year whose list is as before is as before (a year's months: if no date moved).
    category_lists = {c: papers_ for c, papers_ in category_lists.items()
                      if c not in categories or categories[c].papers != papers_}
    redated = {slug for slug, e in edited.items()
               if (old[slug].date, old[slug].date_precision) != (e.date, e.date_precision)}
    year_lists = {y: papers_ for y, papers_ in year_lists.items()
                  if y not in years or years[y].papers != papers_ or redated.intersection(papers_)}
    new_categories = tuple(sorted(
        [c for name, c in categories.items() if name not in category_lists]
        + [model.make_category(name, papers_) for name, papers_ in category_lists.items() if papers_],
        key=lambda c: c.name))
    new_years = tuple(sorted(
        [y for number, y in years.items() if number not in year_lists]
        + [timeline.make_year(number, [entry(s) for s in papers_])
           for number, papers_ in year_lists.items() if papers_],
        key=lambda y: timeline.year_sort_key(y.year)))
    # other spellings' addresses follow the people with a page (a patch that adds or drops one is not kept)
    redirects = site.redirects if new_author_slugs is author_slugs else who.redirects(new_author_slugs, None)[0]
    upvotes, rising = _rising(site, edited)
    patched = replace(
        site, papers=new_papers, order=tuple(order), recent=recent, queue=queue, picks=picks, home=home,
        mentions=mentions, arxiv_slugs=by_arxiv, authors=authors, tags=tags, categories=new_categories, years=new_years,
        redirects=redirects, upvotes=upvotes, rising=rising,
        author_index=site.author_index if authors is site.authors else {a.slug: a for a in authors},
        tag_index={t.slug: t for t in tags}, cite_bases=bases,
    )
    return SitePatch(patched, set(changed_papers), relinked, changed_authors, changed_tags,
                     {c for c, papers_ in category_lists.items() if papers_},
                     {y.slug for y in new_years if y.year in year_lists},
                     # the reading queue's page and feed come and go, and so does the Rising page
                     same_files and bool(queue) == bool(site.queue) and patched.has_rising == site.has_rising,
                     patched.order != site.order or patched.recent != site.recent or queue != site.queue
                     or picks != site.picks or home != site.home, undo)


def _rising(site: Site, edited: Mapping[str, Entry]) -> tuple[Mapping[str, signals.History], signals.Rising]:
    """The upvote histories and the Rising list after the edit: ranked again only when an edit moved a history."""
    moved = {slug: signals.upvotes_of(e.sources) for slug, e in edited.items()}
    moved = {slug: history for slug, history in moved.items() if site.upvotes.get(slug, ()) != history}
    if not moved:
        return site.upvotes, site.rising
    upvotes = {slug: history for slug, history in {**site.upvotes, **moved}.items() if history}
    return upvotes, signals.rising(upvotes)


def _same_groups(lists: Mapping[K, tuple[str, ...]], before: Mapping[K, object]) -> bool:
    """True when no group the edit touched appeared or vanished."""
    return all(bool(papers) == (group in before) for group, papers in lists.items())


def _year(e: Entry) -> int:
    return e.date.year if e.date else 0


Key = Callable[[str], tuple[bool, int, str, str]]


def _reorder(order: tuple[str, ...], edited: Mapping[str, Entry], key: Key) -> list[str]:
    """The newest-first order with the edited papers taken out and put back where they now belong.

    `key` is `model.order_key` of each paper's entry as edited: the order is sorted by it.
    """
    return _put_back([slug for slug in order if slug not in edited], edited, key)


def _put_back(kept: list[str], slugs: Iterable[str], key: Key) -> list[str]:
    """Insert `slugs` into `kept` (sorted by `key`) where they belong."""
    for slug in sorted(slugs):
        kept.insert(bisect.bisect_left(kept, key(slug), key=key), slug)
    return kept


def _regroup(touched: set[K], before: Callable[[K], tuple[str, ...]], member_of: Mapping[str, tuple[K, ...]],
             edited: Mapping[str, Entry], key: Key) -> dict[K, tuple[str, ...]]:
    """The new paper lists of the groups the edited papers left or joined, in the new order.

    The papers not edited keep their order; the edited ones are put back by `key`, so no
    group costs more than its own length (a 10,000-paper order is never indexed).
    """
    joined: dict[K, list[str]] = defaultdict(list)
    for slug, groups in member_of.items():
        for group in groups:
            joined[group].append(slug)
    return {group: tuple(_put_back([s for s in before(group) if s not in edited], joined.get(group, ()), key))
            for group in touched}


def _slugs_kept(slugs: dict[str, str], lists: Mapping[str, tuple[str, ...]],
                order: Callable[[Iterable[str]], list[str]]) -> dict[str, str] | None:
    """Name -> slug after names appeared or vanished; None when that would change another name's slug."""
    gone = {name for name, papers in lists.items() if not papers}
    new = {name for name, papers in lists.items() if papers and name not in slugs}
    if not gone and not new:
        return slugs
    result = model.name_slugs(order(set(slugs) - gone | new))
    if any(result[name] != slug for name, slug in slugs.items() if name not in gone):
        return None
    return result


class _Refs(dict[str, Ref]):
    """Name -> Ref, made on first use (an edit needs a handful of the site's thousands)."""

    def __init__(self, slugs: dict[str, str]):
        super().__init__()
        self.slugs = slugs

    def __missing__(self, name: str) -> Ref:
        ref = self[name] = Ref(name, self.slugs[name])
        return ref


class _Bylines(dict[str, Byline]):
    """Written name -> Byline (linking to its person's page), made on first use."""

    def __init__(self, slugs: dict[str, str], who: People):
        super().__init__()
        self.slugs, self.who = slugs, who

    def __missing__(self, name: str) -> Byline:
        byline = self[name] = self.who.byline(name, self.slugs)
        return byline


def _cite_keys(site: Site, edited: Mapping[str, Entry]) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """New keys of the papers whose key may have changed, every paper's base, and the papers relinked."""
    bases = site.cite_bases
    new = {slug: cite_base(e) for slug, e in edited.items()}
    moved = {b for slug, b in new.items() if bases[slug] != b} | {bases[s] for s in edited if bases[s] != new[s]}
    if not moved:
        return {}, bases, set()
    bases = dict(bases)  # the same slugs, so still in slug order
    bases.update(new)
    keys = assign_cite_keys({slug: base for slug, base in bases.items() if base in moved})
    relinked = {slug for slug, key in keys.items() if slug not in edited and site.papers[slug].cite_key != key}
    return keys, bases, relinked


def _update_network(site: Site, edited: Mapping[str, Entry], names_after: Mapping[str, tuple[str, ...]],
                    touched: Iterable[Author], authors_renamed: bool, tags_renamed: bool,
                    author_slugs: dict[str, str], tag_slugs: dict[str, str]) -> Callable[[], None]:
    """Point the shared co-author network at the edited entries; return how to undo it.

    Authors not on an edited paper read only their own papers' rows, which the edit
    leaves alone, so they share the network with the previous Site. The previous
    Site's authors on an edited paper work out their co-authors first, from the rows
    as they were.
    """
    network = site.network
    assert network is not None
    for author in touched:
        author.coauthors  # noqa: B018  (worked out and cached from the rows before the edit)
    rows = {slug: (network.names_of[slug], network.tags_of[slug]) for slug in edited}
    rankings = network.authors, network.tags
    for slug, e in edited.items():
        network.names_of[slug], network.tags_of[slug] = names_after[slug], e.tags
    if authors_renamed:
        network.authors = Ranking(author_slugs)
    if tags_renamed:
        network.tags = Ranking(tag_slugs)

    def undo() -> None:
        for slug, (names, tags) in rows.items():
            network.names_of[slug], network.tags_of[slug] = names, tags
        network.authors, network.tags = rankings

    return undo


def _authors(site: Site, previous: Mapping[str, Author], lists: Mapping[str, tuple[str, ...]],
             slugs: dict[str, str], edited: Mapping[str, Entry],
             same_rows: set[str]) -> tuple[tuple[Author, ...], set[str]]:
    """The authors tuple with the touched authors replaced, added or dropped; and the slugs replaced or added."""
    network = site.network
    replaced: dict[str, Author | None] = {}
    for name, papers in lists.items():
        before = previous.get(name)
        if not papers:
            replaced[name] = None
        elif before is not None and before.papers == papers and all(s in same_rows for s in papers if s in edited):
            continue
        else:
            profile = before.profile if before is not None else site.people.profile(name)
            replaced[name] = Author(name=name, slug=slugs[name], papers=papers, profile=profile, network=network)
    if not replaced:
        return site.authors, set()
    kept = [author for a in site.authors if (author := replaced.get(a.name, a)) is not None]
    for name, author in replaced.items():
        if author is not None and name not in previous:
            bisect.insort(kept, author, key=lambda a: model.author_sort_key(a.name))
    return tuple(kept), {author.slug for author in replaced.values() if author is not None}


def _tags(site: Site, lists: Mapping[str, tuple[str, ...]], slugs: dict[str, str],
          entry: Callable[[str], Entry], retagged: set[str]) -> tuple[tuple[Tag, ...], set[str]]:
    """The tags tuple with the touched tags' lists and related tags worked out again.

    A tag with the same papers, none of them retagged, has the same related tags.
    """
    lists = {name: papers for name, papers in lists.items()
             if name not in slugs or (before := site.tag_index.get(slugs[name])) is None
             or before.papers != papers or retagged.intersection(papers)}
    if not lists:
        return site.tags, set()
    ranking = Ranking(slugs)
    fresh: dict[str, Tag] = {}
    for name, papers in lists.items():
        if papers:
            related = Counter(o for s in papers for o in entry(s).tags if o != name)
            fresh[name] = model.make_tag(name, slugs[name], papers, ranking.top(related, model.RELATED_TAGS))
    tags = [fresh.pop(t.name, t) for t in site.tags if t.name not in lists or t.name in fresh]
    tags += fresh.values()  # what is left in `fresh` are new tags
    tags.sort(key=lambda t: model.tag_sort_key(t.name))
    changed = {t.slug for t in tags if t.name in lists and site.tag_index.get(t.slug) != t}
    return tuple(tags), changed


__all__ = ["SitePatch", "patch_site"]
