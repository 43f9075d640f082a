"""The citation graph the network page's citation view draws: papers on the list, and which cites which.

The same machinery as the co-author graph (`collab`): at most `MAX_NODES` papers (those the
list cites most, then those citing most), clustered and placed by igraph (`collab_layout`),
each cluster named by the tags most its own. A paper's dot grows with how often the list
cites it. The input holds only the papers in the graph, in slug order, so a new date or
an unrelated edit leaves it equal and the graph is not worked out again.
"""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import TYPE_CHECKING, NamedTuple

from ..content import mathtext
from . import collab
from .collab import Collaboration

if TYPE_CHECKING:
    from .site import Site

MAX_NODES = collab.MAX_NODES
SHORT = 28  # a paper's name in the drawing: the start of its title


class Citing(NamedTuple):
    """What the graph is made of: each paper that cites or is cited on the list, in slug order, and the tags."""

    papers: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...]], ...]  # (slug, title as text, tags, it cites)
    tags: tuple[tuple[str, str], ...]  # (name, slug) of every tag


def citing(site: Site) -> Citing:
    """The graph's input from a model."""
    papers = []
    for slug, cited in sorted(site.citations.items()):
        entry = site.papers[slug].entry
        papers.append((slug, mathtext.plain_text(entry.title), entry.tags, cited.cites))
    return Citing(tuple(papers), tuple((t.name, t.slug) for t in site.tags))


def short(title: str) -> str:
    """A title short enough to name a dot: its first words, up to SHORT characters."""
    if len(title) <= SHORT:
        return title
    cut = title[:SHORT].rsplit(" ", 1)[0].rstrip(" :,;-–—")
    return (cut or title[:SHORT]) + "…"


def citation_graph(data: Citing, limit: int = MAX_NODES) -> Collaboration:
    """The graph of these papers: which are drawn (most cited first), the citations among them, clusters and
    places. Edges run from the citing paper to the cited one; each weighs 1."""
    cited_by = Counter(chain.from_iterable(cites for *_, cites in data.papers))
    ranked = sorted(data.papers, key=lambda p: (-cited_by[p[0]], -len(p[3]), p[0]))
    shown = ranked[:limit]
    number = {slug: i for i, (slug, *_) in enumerate(shown)}
    edges = [(number[slug], number[cited], 1) for slug, _, _, cites in shown for cited in cites if cited in number]
    papers = [((i,), tags) for i, (_, _, tags, _) in enumerate(shown)]
    nodes, clusters, loose = collab.arranged([(title, slug, cited_by[slug]) for slug, title, _, _ in shown], edges,
                                             papers, dict(data.tags))
    return Collaboration(nodes, tuple(edges), clusters, loose, len(data.papers), 0, len(edges))

