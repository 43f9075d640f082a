"""The collaboration graph: which authors the network page draws, their ties, clusters and the clusters' tags.

A large list cannot be drawn whole (8,000 authors and 900,000 co-author pairs at 10,000
papers), so the graph shows at most `MAX_NODES` authors: every author while there are no
more, else those with the most papers (at least two), and each with only their strongest
ties among them (`MAX_TIES`). The page says which. The clusters and positions come from
`collab_layout`; everything here is plain counting, deterministic and independent of the
order of the papers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, combinations
from typing import TYPE_CHECKING, NamedTuple

from . import collab_layout
from .network import Ref, sort_name

if TYPE_CHECKING:
    from .site import Site

MAX_NODES = 400  # authors drawn: a phone's screen still shows the clusters, and the page stays small
MIN_PAPERS = 2  # when not everyone is drawn, nobody with a single paper is
MAX_TIES = 4  # each author's strongest ties among those drawn (an edge kept for either end)
MIN_CLUSTER = 3  # smaller groups are drawn grey and listed together
LABEL_TAGS = 3  # the tags naming a cluster


class Coauthorship(NamedTuple):
    """What the graph is made of: every author with their paper count, each paper's authors and tags.

    Papers are in slug order, so a change of dates or titles leaves it equal and the graph is
    not worked out again (its step's fingerprint is this value's).
    """

    authors: tuple[tuple[str, str, int], ...]  # (name, slug, papers), as the model lists them
    papers: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]  # (authors, tags) of each paper
    tags: tuple[tuple[str, str], ...]  # (name, slug) of every tag


class Node(NamedTuple):
    """An author drawn: where, in which cluster (-1: none), with how many papers on the list."""

    name: str
    slug: str
    papers: int
    cluster: int
    x: int
    y: int


class Cluster(NamedTuple):
    """A group of authors who write together, named by the tags most their own."""

    tags: tuple[Ref, ...]  # with the number of the group's papers carrying each
    members: tuple[int, ...]  # node numbers, most papers first
    x: int  # where its label goes: above the middle of its members
    y: int
    width: int  # how wide its members spread: its label must fit


@dataclass(frozen=True)
class Collaboration:
    """The graph as the page and its data show it, with what was left out."""

    nodes: tuple[Node, ...]  # most papers first
    edges: tuple[tuple[int, int, int], ...]  # (node, node, papers together), strongest first
    clusters: tuple[Cluster, ...]  # largest first
    loose: tuple[int, ...]  # nodes in no cluster of at least MIN_CLUSTER authors
    authors: int  # authors on the whole list
    min_papers: int  # the fewest papers of an author drawn (1 when everyone is)
    ties: int  # co-author pairs among the authors drawn, before each kept only their strongest

    @property
    def everyone(self) -> bool:
        """Whether every author of the list is drawn."""
        return len(self.nodes) == self.authors


def coauthorship(site: Site) -> Coauthorship:
    """The graph's input from a model: its authors, and each paper's authors and tags in slug order."""
    network = site.network
    names_of = network.names_of if network is not None else {}
    tags_of = network.tags_of if network is not None else {}
    slugs = sorted(names_of)
    return Coauthorship(tuple((a.name, a.slug, len(a.papers)) for a in site.authors),
                        tuple((names_of[s], tags_of[s]) for s in slugs),
                        tuple((t.name, t.slug) for t in site.tags))


def select(authors: Sequence[tuple[str, str, int]], limit: int = MAX_NODES) -> tuple[list[tuple[str, str, int]], int]:
    """The authors drawn, most papers first (ties A-Z by family name), and the fewest papers among them.

    Everyone while there are at most `limit`; else all with at least t papers, t the smallest
    number (and at least MIN_PAPERS) that keeps them within the limit: a cut through a tie
    would draw some of the authors with t papers and not others, for no reason a reader sees.
    """
    ranked = sorted(authors, key=lambda a: (-a[2], sort_name(a[0]), a[0]))
    if len(ranked) <= limit:
        return ranked, min((a[2] for a in ranked), default=1)
    least = max(MIN_PAPERS, ranked[limit][2] + 1)
    shown = [a for a in ranked if a[2] >= least]
    return shown, least


def count_ties(papers: Iterable[tuple[int, ...]]) -> Counter[tuple[int, int]]:
    """Papers written together by each pair of the numbered authors, from each paper's numbers."""
    return Counter(chain.from_iterable(combinations(sorted(numbers), 2) for numbers in papers if len(numbers) > 1))


def strongest(ties: Counter[tuple[int, int]], nodes: int, per_node: int = MAX_TIES) -> list[tuple[int, int, int]]:
    """The ties kept: strongest first, each while one of its two authors has fewer than `per_node` kept.

    Equal ties in the order of their authors' numbers, whatever order they were counted in;
    each ranked by one integer (count, then the pair), so the sort compares plain ints.
    """
    size = nodes * nodes
    kept: list[tuple[int, int, int]] = []
    degree = [0] * nodes
    for code in sorted([i * nodes + j - count * size for (i, j), count in ties.items()]):
        negative, pair = divmod(code, size)
        i, j = divmod(pair, nodes)
        if degree[i] < per_node or degree[j] < per_node:
            kept.append((i, j, -negative))
            degree[i] += 1
            degree[j] += 1
    return kept


def cluster_tags(members: Sequence[int], papers: Sequence[tuple[tuple[int, ...], tuple[str, ...]]],
                 membership: Sequence[int], overall: Counter[str], slugs: dict[str, str]) -> dict[int, tuple[Ref, ...]]:
    """Each cluster's tags: those most its own, by papers with the tag in the cluster squared over papers in all.

    A tag common everywhere names no cluster; one found only in a cluster's papers, often, does.
    """
    found: dict[int, list[str]] = {c: [] for c in members}
    for numbers, tags in papers:
        for c in {membership[n] for n in numbers}:
            if c in found:
                found[c] += tags
    named: dict[int, tuple[Ref, ...]] = {}
    for c, every in found.items():
        counter = Counter(every)
        ranked = sorted(counter, key=lambda t: (-counter[t] * counter[t] / overall[t], t.casefold(), t))
        named[c] = tuple(Ref(t, slugs.get(t, ""), counter[t]) for t in ranked[:LABEL_TAGS])
    return named


def collaboration(data: Coauthorship, limit: int = MAX_NODES) -> Collaboration:
    """The graph of these authors and papers: who is drawn, the ties kept, the clusters and their places."""
    shown, least = select(data.authors, limit)
    number = {name: i for i, (name, _, _) in enumerate(shown)}
    get = number.get
    papers = [(numbers, tags) for names, tags in data.papers
              if (numbers := tuple(n for n in map(get, names) if n is not None))]
    ties = count_ties(numbers for numbers, _ in papers)
    edges = strongest(ties, len(shown))
    nodes, clusters, loose = arranged(shown, edges, papers, dict(data.tags))
    return Collaboration(nodes, tuple(edges), clusters, loose, len(data.authors), least, len(ties))


def arranged(shown: Sequence[tuple[str, str, int]], edges: Sequence[tuple[int, int, int]],
             papers: Sequence[tuple[tuple[int, ...], tuple[str, ...]]], tag_slugs: dict[str, str]
             ) -> tuple[tuple[Node, ...], tuple[Cluster, ...], tuple[int, ...]]:
    """The drawn nodes (name, slug, size) clustered, named by their papers' tags and placed: the nodes, the
    clusters and the nodes in none. Shared by the co-author graph and the citation graph."""
    membership = collab_layout.communities(len(shown), edges)
    groups = clusters_of(membership, len(shown))
    numbered = [-1] * len(shown)
    for c, members in enumerate(groups):
        for n in members:
            numbered[n] = c
    positions = collab_layout.positions(len(shown), edges, numbered)
    overall = Counter(chain.from_iterable(tags for _, tags in papers))
    named = cluster_tags(range(len(groups)), papers, numbered, overall, tag_slugs)
    nodes = tuple(Node(name, slug, size, numbered[i], *positions[i]) for i, (name, slug, size) in enumerate(shown))
    clusters = tuple(Cluster(named[c], members, *top(positions, members)) for c, members in enumerate(groups))
    loose = tuple(i for i in range(len(shown)) if numbered[i] < 0)
    return nodes, clusters, loose


def clusters_of(membership: Sequence[int], nodes: int) -> list[tuple[int, ...]]:
    """Clusters of at least MIN_CLUSTER nodes, largest first (then by their first node), members in node order."""
    found: dict[int, list[int]] = {}
    for n in range(nodes):
        found.setdefault(membership[n], []).append(n)
    groups = [tuple(members) for members in found.values() if len(members) >= MIN_CLUSTER]
    return sorted(groups, key=lambda g: (-len(g), g[0]))


def top(positions: Sequence[tuple[int, int]], members: Sequence[int]) -> tuple[int, int, int]:
    """Where a cluster's label goes (the middle of its members across, their top), and their width."""
    xs, ys = [positions[n][0] for n in members], [positions[n][1] for n in members]
    return (min(xs) + max(xs)) // 2, min(ys), max(xs) - min(xs)
