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

from .model import order_key

if TYPE_CHECKING:
    from .model import Paper, Site

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
