"""Each paper's related papers: text similarity, shared authors and shared tags in one score, with the reasons.

    score = cosine of title and abstract (`similar`: for the paper's 10 most alike, from MIN_TEXT up)
          + AUTHOR for each author in common (at most 2) + TAG for each tag in common (at most 3)

rounded to 6 places; equal scores newest first, as the site lists papers. A cosine of 0.3
is a close abstract (0.1 a loose one); an author in common says as much (the same group,
the same line of work); a tag is a topic many papers share, so it counts a third of that.
A paper without an abstract still has its title, tags and authors.

Worked out for the whole site at once: each author's and tag's papers as a bit mask of
places in the site's order, added up in bit planes, so the papers sharing exactly so much
are one mask and the newest of them its lowest bits. Counting the papers of each paper's
lists, page by page, took 1.3 ms a paper at 10,000 papers (whose tags hold 600 papers
each); this takes a sixth of that.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import similar
from .network import Ref
from .people import Byline
from .saved_papers import SavedPapers
from .site import Site

if TYPE_CHECKING:
    from .site import Paper

LIMIT = 5  # papers in the list
AUTHOR, AUTHORS_COUNTED = 0.3, 2
TAG, TAGS_COUNTED = 0.1, 3
MIN_TEXT = 0.1  # a cosine below this is no reason to list a paper


@dataclass(frozen=True)
class Related:
    """One paper of another's list and what they have in common: what the page shows, and all it shows of it."""

    slug: str
    authors: int  # authors in common
    tags: int  # tags in common
    similar: bool  # among the paper's most alike texts, from MIN_TEXT up


def lists(site: Site, near: Mapping[str, similar.Neighbours], limit: int = LIMIT,
          only: Container[str] | None = None, part: tuple[int, int] | None = None) -> dict[str, tuple[Related, ...]]:
    """Every paper's list (or those of the papers `only`, or of the papers from one place of the site's order to
    another), given each paper's most alike texts (`similar.nearest`)."""
    places = _Places(site)
    found: dict[str, tuple[Related, ...]] = {}
    order = site.order if part is None else site.order[part[0]:part[1]]
    for slug in order:
        if only is not None and slug not in only:
            continue
        written, unlisted, tagged = links(site.papers, slug)
        authors = sorted({r.slug for r in (*written, *unlisted)} & site.author_index.keys())
        tags = sorted({r.slug for r in tagged} & site.tag_index.keys())
        found[slug] = places.rank(slug, near.get(slug, ()), [site.author_index[a].papers for a in authors],
                                  [site.tag_index[t].papers for t in tags], limit)
    return found


def relisted(site: Site, near: Mapping[str, similar.Neighbours], previous: Mapping[str, tuple[Related, ...]],
             edited: Iterable[str], limit: int = LIMIT, alike: Iterable[str] = ()) -> dict[str, tuple[Related, ...]]:
    """`lists` after the papers `edited` changed their authors, tags or place, and those `alike` their most alike
    texts: only the lists those papers can be on are worked out again (a tag or status edit reaches a few hundred).

    A paper's list can change only if an edited paper was on it, or scores anything with it
    now (shares an author or a tag, or is among its most alike texts); between the others the
    order of the site is as it was. Of the others' texts a list reads only its own paper's
    most alike: a paper `alike` moves its own list alone.
    """
    edited = set(edited)
    reached = set(edited) | set(alike)
    for slug in edited:
        if slug in site.papers:
            written, unlisted, tagged = links(site.papers, slug)
            reached.update(*(site.author_index[r.slug].papers for r in (*written, *unlisted)
                             if r.slug in site.author_index),
                           *(site.tag_index[r.slug].papers for r in tagged if r.slug in site.tag_index))
    reached.update(slug for slug, found in previous.items() if any(r.slug in edited for r in found))
    reached.update(slug for slug, found in near.items() if any(other in edited for other, _ in found))
    fresh = lists(site, near, limit, only=reached)
    return {slug: fresh[slug] if slug in fresh else previous[slug] for slug in site.order}


def links(papers: Mapping[str, Paper], slug: str) -> tuple[tuple[Byline, ...], tuple[Byline, ...], tuple[Ref, ...]]:
    """A paper's authors, unlisted authors and tags, without making a saved model's paper (which would
    restore its entry: a title edit's lists reach thousands of papers)."""
    if isinstance(papers, SavedPapers):
        row = papers.row(slug)
        return row[2], row[8], row[3]
    paper = papers[slug]
    return paper.authors, paper.unlisted_authors, paper.tags


def _score(authors: int, tags: int, text: float) -> float:
    return round(text + AUTHOR * min(authors, AUTHORS_COUNTED) + TAG * min(tags, TAGS_COUNTED), 6)


# (score, authors, tags) of the papers sharing only authors and tags, best first (the last count of each: or more)
LEVELS = sorted(((_score(a, t, 0.0), a, t) for a in range(AUTHORS_COUNTED + 1) for t in range(TAGS_COUNTED + 1)
                 if a or t), key=lambda level: -level[0])


class _Counts:
    """How many of some masks hold each place, as bit planes: `planes[b]` holds the places whose count has bit b."""

    def __init__(self, masks: Sequence[int], everything: int, cap: int):
        planes: list[int] = []
        self.any = 0
        for carry in masks:
            self.any |= carry
            for b, plane in enumerate(planes):
                planes[b], carry = plane ^ carry, plane & carry
                if not carry:
                    break
            if carry:
                planes.append(carry)
        self.planes = planes
        # by_count[n]: the places held by exactly n masks, the last by `cap` or more
        self.by_count = [everything ^ self.any]
        rest = self.any
        for count in range(1, cap):
            exactly = self.exactly(count)
            self.by_count.append(exactly)
            rest ^= exactly
        self.by_count.append(rest)

    def exactly(self, count: int) -> int:
        if count >= 1 << len(self.planes):
            return 0
        bits = self.any
        for b, plane in enumerate(self.planes):
            bits &= plane if count >> b & 1 else self.any ^ plane
        return bits

    def of(self, place: int) -> int:
        return sum((plane >> place & 1) << b for b, plane in enumerate(self.planes))


class _Places:
    """A site's papers by place in its order (0: the newest), and each list of slugs as a bit mask of places."""

    def __init__(self, site: Site):
        self.slugs = list(site.order)
        self.place = {slug: i for i, slug in enumerate(self.slugs)}
        self.everything = (1 << len(self.slugs)) - 1
        self._masks: dict[int, tuple[Sequence[str], int]] = {}

    def mask(self, papers: Sequence[str]) -> int:
        found = self._masks.get(id(papers))
        if found is None or found[0] is not papers:
            bits = bytearray(len(self.slugs) // 8 + 1)
            place = self.place
            for slug in papers:
                i = place[slug]
                bits[i >> 3] |= 1 << (i & 7)
            found = self._masks[id(papers)] = (papers, int.from_bytes(bits, "little"))
        return found[1]

    def rank(self, slug: str, near: similar.Neighbours, author_lists: Sequence[Sequence[str]],
             tag_lists: Sequence[Sequence[str]], limit: int) -> tuple[Related, ...]:
        """The `limit` papers scoring highest for `slug`: its close texts one by one, the rest level by level."""
        authors = _Counts([self.mask(papers) for papers in author_lists], self.everything, AUTHORS_COUNTED)
        tags = _Counts([self.mask(papers) for papers in tag_lists], self.everything, TAGS_COUNTED)
        found: list[tuple[float, int, Related]] = []  # (-score, place, the paper)
        taken = 1 << self.place[slug]
        for other, cosine in near:
            place = self.place.get(other)
            if cosine >= MIN_TEXT and place is not None and other != slug:
                a, t = authors.of(place), tags.of(place)
                found.append((-_score(a, t, cosine), place, Related(other, a, t, True)))
                taken |= 1 << place
        allowed = self.everything ^ taken
        for score, a, t in LEVELS:
            if len(found) >= limit and -sorted(found)[limit - 1][0] > score:
                break  # none sharing only this much can pass the papers found
            bits = authors.by_count[a] & tags.by_count[t] & allowed
            for _ in range(limit):  # the newest of the level: its lowest places
                if not bits:
                    break
                low = bits & -bits
                place = low.bit_length() - 1
                shared_a = a if a < AUTHORS_COUNTED else authors.of(place)
                shared_t = t if t < TAGS_COUNTED else tags.of(place)
                found.append((-score, place, Related(self.slugs[place], shared_a, shared_t, False)))
                bits ^= low
        return tuple(related for _, _, related in sorted(found)[:limit])


# -- a whole site in memory (the engine's steps keep each list apart: build/steps/related.py) ----------------

_cache: list[tuple[Site, dict[str, tuple[Related, ...]]]] = []  # the last site's lists


def for_paper(site: Site, paper: Paper) -> tuple[Related, ...]:
    """A paper's list, from a whole site in memory (every list worked out once per site)."""
    if not _cache or _cache[0][0] is not site:
        texts = {slug: text_of(p.entry.title, p.entry.abstract) for slug, p in site.papers.items()}
        _cache[:] = [(site, lists(site, similar.nearest(texts)))]
    return _cache[0][1].get(paper.slug, ())


def panel(site: Site, paper: Paper) -> tuple[tuple[Paper, Related], ...]:
    """A paper page's list with each paper shown: the engine's recorded site holds each list as a step
    (`related_papers`, build/steps/related.py); a whole site in memory works them out here."""
    found = getattr(site, "related_papers", None)
    shown = found.get(paper.slug, ()) if found is not None else for_paper(site, paper)
    return tuple((site.papers[r.slug], r) for r in shown)


def text_of(title: str, abstract: str) -> str:
    """What a paper's text similarity is worked out from."""
    return f"{title}\n{abstract}"


def reasons(paper: Paper, other: Paper, found: Related) -> tuple[str, ...]:
    """Why `other` is on `paper`'s list, in words: 'same author', 'shares 3 tags', 'similar abstract'."""
    said: list[str] = []
    if found.authors:
        said.append("same author" if found.authors == 1 else f"same {found.authors} authors")
    if found.tags:
        said.append("shares a tag" if found.tags == 1 else f"shares {found.tags} tags")
    if found.similar:
        said.append("similar abstract" if paper.entry.abstract and other.entry.abstract else "similar title")
    return tuple(said)
