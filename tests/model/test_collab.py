"""The collaboration graph: who is drawn, which ties are kept, the clusters and their tags, and determinism."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import load_content
from sitegen.model import collab, collab_layout, model
from sitegen.model.collab import Coauthorship

from ..site_factory import copy_site

GROUP_A = ("Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra")
GROUP_B = ("Barbara Liskov", "Leslie Lamport", "Frances Allen", "Donald Knuth")


def coauthorship(papers: list[tuple[tuple[str, ...], tuple[str, ...]]]) -> Coauthorship:
    """The graph's input for these (authors, tags) papers, as `collab.coauthorship` makes it from a model."""
    counts = Counter(name for names, _ in papers for name in names)
    tags = sorted({t for _, ts in papers for t in ts})
    return Coauthorship(tuple((name, name.lower().replace(" ", "-"), n) for name, n in sorted(counts.items())),
                        tuple(papers), tuple((t, t) for t in tags))


def two_groups() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Two groups who write among themselves on their own topics, and one paper across."""
    papers = [(pair, ("compilers", "gpu")) for pair in combinations(GROUP_A, 2)] * 2
    papers += [(pair, ("consensus", "clocks")) for pair in combinations(GROUP_B, 2)] * 2
    return [*papers, ((GROUP_A[0], GROUP_B[0]), ("compilers",))]


def test_everyone_is_drawn_while_there_are_no_more_than_the_limit() -> None:
    authors = [("Ann Zed", "ann-zed", 1), ("Bo Young", "bo-young", 3), ("Cy Young", "cy-young", 3)]
    shown, least = collab.select(authors, limit=3)
    assert [a[0] for a in shown] == ["Bo Young", "Cy Young", "Ann Zed"]  # most papers first, then A-Z by family
    assert least == 1


def test_past_the_limit_the_cut_falls_at_a_paper_count_never_through_a_tie() -> None:
    authors = [(f"Author {i}", f"a-{i}", count) for i, count in enumerate([9, 7, 5, 5, 5, 2, 1, 1])]
    shown, least = collab.select(authors, limit=4)  # the fourth place is one of three with 5 papers
    assert [a[2] for a in shown] == [9, 7] and least == 6
    shown, least = collab.select(authors, limit=6)
    assert [a[2] for a in shown] == [9, 7, 5, 5, 5, 2] and least == 2
    shown, least = collab.select(authors, limit=7)  # never an author with one paper once not everyone is drawn
    assert least == collab.MIN_PAPERS and all(a[2] >= 2 for a in shown)


def test_ties_count_papers_written_together_and_each_author_keeps_the_strongest() -> None:
    ties = collab.count_ties([(0, 1, 2), (1, 0), (2,), (3, 2)])
    assert ties == {(0, 1): 2, (0, 2): 1, (1, 2): 1, (2, 3): 1}
    star = Counter({(0, k): 10 - k for k in range(1, 9)})  # node 0 wrote with eight others, less and less
    kept = collab.strongest(star, 9, per_node=2)
    assert kept == [(0, k, 10 - k) for k in range(1, 9)]  # each leaf's only tie is its strongest: all kept
    dense = Counter({pair: 1 for pair in combinations(range(6), 2)})
    dense[(0, 1)] = 5
    kept = collab.strongest(dense, 6, per_node=1)
    assert kept[0] == (0, 1, 5) and all(Counter(n for e in kept for n in e[:2])[n] >= 1 for n in range(6))


def test_two_groups_make_two_clusters_named_by_their_own_tags() -> None:
    graph = collab.collaboration(coauthorship(two_groups()))
    assert graph.everyone and len(graph.nodes) == 8 and not graph.loose
    members = [{graph.nodes[n].name for n in c.members} for c in graph.clusters]
    assert sorted(members, key=sorted) == sorted([set(GROUP_A), set(GROUP_B)], key=sorted)
    names = {frozenset(graph.nodes[n].name for n in c.members): [t.name for t in c.tags] for c in graph.clusters}
    assert names[frozenset(GROUP_A)][:2] == ["compilers", "gpu"]
    assert names[frozenset(GROUP_B)][:2] == ["clocks", "consensus"]
    first = [(n.name, n.papers) for n in graph.nodes[:2]]
    assert first == [("Barbara Liskov", 7), ("Ada Lovelace", 7)]  # A-Z by family name
    by_name = {n.name: i for i, n in enumerate(graph.nodes)}
    across = tuple(sorted((by_name["Ada Lovelace"], by_name["Barbara Liskov"])))
    assert any(e[:2] == across and e[2] == 1 for e in graph.edges)


def test_authors_in_no_cluster_are_listed_apart() -> None:
    papers = [*two_groups(), (("Solo Writer",), ("essays",)), (("Pair One", "Pair Two"), ("essays",))]
    graph = collab.collaboration(coauthorship(papers))
    assert sorted(graph.nodes[n].name for n in graph.loose) == ["Pair One", "Pair Two", "Solo Writer"]
    assert all(graph.nodes[n].cluster == -1 for n in graph.loose)


def test_the_graph_is_the_same_whatever_the_order_of_the_papers() -> None:
    papers = two_groups()
    first = collab.collaboration(coauthorship(papers))
    random.Random(4).shuffle(papers)
    assert collab.collaboration(coauthorship(papers)) == first


def test_a_large_list_is_filtered_to_the_limit_with_its_ties_capped() -> None:
    """2,000 authors with a long tail: at most MAX_NODES drawn, every tie kept is among them, counts are true."""
    rng = random.Random(7)
    names = [f"Writer {i:04d}" for i in range(2000)]
    weights = [1 / (r + 1) ** 0.7 for r in range(len(names))]
    papers = [(tuple(dict.fromkeys(rng.choices(names, weights, k=rng.randint(1, 8)))), (f"t{rng.randint(0, 30)}",))
              for _ in range(3000)]
    data = coauthorship(papers)
    graph = collab.collaboration(data)
    assert not graph.everyone and len(graph.nodes) <= collab.MAX_NODES and graph.authors == len(data.authors)
    assert all(n.papers >= graph.min_papers >= collab.MIN_PAPERS for n in graph.nodes)
    assert sum(1 for a in data.authors if a[2] >= graph.min_papers) == len(graph.nodes)  # no one left out at the cut
    assert len(graph.edges) <= collab.MAX_TIES * len(graph.nodes) < graph.ties
    drawn = {n.name: i for i, n in enumerate(graph.nodes)}
    together = Counter(tuple(sorted(p)) for names_, _ in papers
                       for p in combinations([drawn[n] for n in names_ if n in drawn], 2))
    assert all(together[(i, j)] == w for i, j, w in graph.edges)
    assert all(0 <= n.x <= collab_layout.SIZE and n.y >= 0 for n in graph.nodes)


names = st.sampled_from([f"{g} {f}" for g in ("Ana", "Bo", "Cy") for f in ("Li", "Ng", "Oz", "Po")])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.lists(names, min_size=1, max_size=5, unique=True).map(tuple),
                          st.lists(st.sampled_from(["a", "b", "c"]), max_size=2, unique=True).map(tuple)),
                max_size=25),
       st.integers(min_value=2, max_value=12))
def test_any_graph_is_whole_and_consistent(papers: list[tuple[tuple[str, ...], tuple[str, ...]]], limit: int) -> None:
    data = coauthorship(papers)
    graph = collab.collaboration(data, limit=limit)
    assert len(graph.nodes) <= max(limit, 0) or graph.everyone
    placed = sorted([*graph.loose, *(n for c in graph.clusters for n in c.members)])
    assert placed == list(range(len(graph.nodes)))  # each author drawn in one cluster or among the loose
    assert all(len(c.members) >= collab.MIN_CLUSTER for c in graph.clusters)
    assert all(0 <= i < j < len(graph.nodes) and w >= 1 for i, j, w in graph.edges)
    assert graph == collab.collaboration(coauthorship(list(reversed(papers))), limit=limit)


def test_the_bundled_list_gives_its_graph_from_the_model(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site")
    site = model.build_site(site_config.load(root), load_content(root, Report()))
    data = collab.coauthorship(site)
    assert len(data.authors) == len(site.authors) and len(data.papers) == len(site.papers)
    graph = collab.collaboration(data)
    assert graph.everyone and {n.slug for n in graph.nodes} == {a.slug for a in site.authors}
    ahan = next(n for n in graph.nodes if n.name == "Ahan Gupta")
    assert ahan.papers == len(site.author_index["ahan-gupta"].papers) and ahan.cluster >= 0
