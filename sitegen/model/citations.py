"""The list's own citation graph: which papers on the list each paper cites, and which cite it.

An entry's `cites:` (written by `sitegen enrich` from Semantic Scholar's references, or by
hand) names papers by arXiv id or DOI; most of them are not on the list. A paper on the list
answers to its own `arxiv:` (any version) and `doi:` (in any case, as DOIs are). Each paper
that cites or is cited on the list has a `Citations` record; both directions are kept by
slug order, so that where a paper sits in time never changes them (the page sorts by date).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..content.field_checks import DOI
from .mentions import arxiv_key

if TYPE_CHECKING:
    from ..content.loader import Entry


@dataclass(frozen=True)
class Citations:
    """One paper's links on the list: the papers it cites, and those citing it (slugs, sorted)."""

    cites: tuple[str, ...] = ()
    cited_by: tuple[str, ...] = ()


def id_key(value: str) -> str | None:
    """An arXiv id or a DOI as the list matches it: an arXiv id without version or prefix, a DOI as `doi:` and
    its lower case; None for anything else."""
    text = value.strip()
    return "doi:" + text.lower() if DOI.match(text) else arxiv_key(text)


def own_keys(entry: Entry) -> tuple[str, ...]:
    """What a paper on the list answers to when another paper cites it."""
    keys = (arxiv_key(entry.arxiv) if entry.arxiv else None, id_key(entry.doi) if entry.doi else None)
    return tuple(k for k in keys if k)


def site_citations(entries: Sequence[Entry]) -> dict[str, Citations]:
    """Every paper's citations on the list (papers with none left out); a paper never cites itself, and one id
    held by two papers belongs to the first in the site's order."""
    owner: dict[str, str] = {}
    for e in entries:
        for key in own_keys(e):
            owner.setdefault(key, e.slug)
    cites: dict[str, set[str]] = {}
    cited_by: dict[str, set[str]] = defaultdict(set)
    for e in entries:
        named = {owner[key] for key in map(id_key, e.cites) if key in owner} - {e.slug}
        if named:
            cites[e.slug] = named
            for slug in named:
                cited_by[slug].add(e.slug)
    return {slug: Citations(tuple(sorted(cites.get(slug, ()))), tuple(sorted(cited_by.get(slug, ()))))
            for slug in sorted({*cites, *cited_by})}


def unchanged(edited: Mapping[str, Entry], old: Mapping[str, Entry]) -> bool:
    """Whether these edits leave every paper's citations as they were: no `cites:`, arXiv id or DOI changed."""
    return all((e.cites, e.arxiv, e.doi) == (old[slug].cites, old[slug].arxiv, old[slug].doi)
               for slug, e in edited.items())


def counts(citations: Mapping[str, Citations]) -> dict[str, int]:
    """How often the list cites each paper it cites."""
    return {slug: len(c.cited_by) for slug, c in citations.items() if c.cited_by}


def edges(citations: Mapping[str, Citations], shown: Iterable[str] | None = None) -> list[tuple[str, str]]:
    """Each citation on the list as (citing, cited), citing papers in slug order; only between `shown` papers
    when given."""
    keep = set(shown) if shown is not None else None
    return [(slug, cited) for slug, c in citations.items() for cited in c.cites
            if keep is None or (slug in keep and cited in keep)]
