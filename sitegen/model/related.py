"""A paper page's side panel lists: more papers by its authors, papers sharing its tags.

Both read only through `site` (an author's or a tag's papers, then the papers shown),
so the engine records exactly what a paper page depends on. An author's and a tag's
papers are in the site's order (newest first), which keeps the reads few: of the papers
tied for a place, only the first few of each list can be among the newest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .model import Site, order_key

if TYPE_CHECKING:
    from .model import Paper

LIMIT = 5  # papers in each list


def more_by_authors(site: Site, paper: Paper, limit: int = LIMIT) -> tuple[Paper, ...]:
    """Other papers sharing an author: the most shared authors first, then newest first."""
    refs = {ref.slug: ref for ref in (*paper.authors, *paper.unlisted_authors)}
    lists = [author.papers for slug in sorted(refs) if (author := site.author_index.get(slug))]
    return _ranked(site, lists, {paper.slug}, limit)


def related_by_tags(site: Site, paper: Paper, exclude: Iterable[str] = (), limit: int = LIMIT) -> tuple[Paper, ...]:
    """Other papers sharing its tags: the most shared tags first, then newest first; `exclude` left out."""
    lists = [tag.papers for slug in sorted({t.slug for t in paper.tags}) if (tag := site.tag_index.get(slug))]
    return _ranked(site, lists, {paper.slug, *exclude}, limit)


def _ranked(site: Site, lists: Sequence[Sequence[str]], skip: set[str], limit: int) -> tuple[Paper, ...]:
    """The `limit` papers found in most `lists` (ties newest first), reading only papers that could be chosen."""
    if isinstance(site, Site) and isinstance(site.papers, dict):
        return _ranked_by_bits(site, lists, skip, limit)
    shared = Counter(slug for papers in lists for slug in set(papers) if slug not in skip)
    chosen: list[Paper] = []
    for count in sorted(set(shared.values()), reverse=True):
        wanted = limit - len(chosen)
        if wanted <= 0:
            break
        # a list is newest first: its first `wanted` papers of this count hold its share of the newest
        group = {slug for slug, n in shared.items() if n == count}
        heads = {slug for papers in lists for slug in _first(papers, wanted, group)}
        tied = sorted((site.papers[slug] for slug in heads), key=lambda p: order_key(p.entry))
        chosen.extend(tied[:wanted])
    return tuple(chosen)


class _Places:
    """A site's papers by place in its order (0: the newest), and each list of slugs as a bit mask of places."""

    def __init__(self, site: Site):
        self.papers = site.papers
        self.slugs = list(site.papers)  # the site's order, newest first
        self.place = {slug: i for i, slug in enumerate(self.slugs)}
        self._masks: dict[int, tuple[Sequence[str], int]] = {}

    def mask(self, papers: Sequence[str]) -> int:
        found = self._masks.get(id(papers))
        if found is None or found[0] is not papers:
            place, bits = self.place, 0
            for slug in papers:
                bits |= 1 << place[slug]
            found = self._masks[id(papers)] = (papers, bits)
        return found[1]


_places: list[_Places] = []  # the last site's, kept while it is the site asked about


def _ranked_by_bits(site: Site, lists: Sequence[Sequence[str]], skip: set[str], limit: int) -> tuple[Paper, ...]:
    """`_ranked` for a whole site in memory: the lists as bit masks of places in the order, counted in bit planes.

    The same choice as counting every list's papers (exact, ties newest first), in microseconds
    where counting took 7.6 s for the 10,000 pages of a site whose tags hold 600 papers each.
    """
    if not _places or _places[0].papers is not site.papers:
        _places[:] = [_Places(site)]
    places = _places[0]
    planes: list[int] = []  # planes[b]: the places whose count has bit b set
    for papers in lists:
        carry = places.mask(papers)
        for b, plane in enumerate(planes):
            planes[b], carry = plane ^ carry, plane & carry
            if not carry:
                break
        if carry:
            planes.append(carry)
    everything = (1 << len(places.slugs)) - 1
    allowed = everything
    for slug in skip:
        if slug in places.place:
            allowed &= ~(1 << places.place[slug])
    chosen: list[Paper] = []
    for count in range(len(lists), 0, -1):
        bits = allowed
        for b, plane in enumerate(planes):
            bits &= plane if count >> b & 1 else everything ^ plane
        while bits and len(chosen) < limit:
            low = bits & -bits
            chosen.append(site.papers[places.slugs[low.bit_length() - 1]])
            bits ^= low
        if len(chosen) >= limit:
            break
    return tuple(chosen)


def _first(papers: Sequence[str], n: int, group: set[str]) -> list[str]:
    """The first `n` of `papers` that are in `group`."""
    out: list[str] = []
    for slug in papers:
        if slug in group:
            out.append(slug)
            if len(out) == n:
                break
    return out


def panel(site: Site, paper: Paper) -> tuple[tuple[Paper, ...], tuple[Paper, ...]]:
    """Both lists of a paper's page: more by its authors, then related by tags (those not already listed)."""
    more_by = more_by_authors(site, paper)
    return more_by, related_by_tags(site, paper, exclude=[p.slug for p in more_by])
