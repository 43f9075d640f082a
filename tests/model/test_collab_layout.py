"""Clusters and places of the collaboration graph: found by igraph, the same on every run, clusters apart."""

from __future__ import annotations

from itertools import combinations

from sitegen.model import collab_layout


def two_cliques() -> list[tuple[int, int, int]]:
    """Nodes 0-4 all tied to one another, 5-9 likewise, and one tie between the two groups."""
    edges = [(i, j, 2) for group in (range(5), range(5, 10)) for i, j in combinations(group, 2)]
    return [*edges, (0, 5, 1)]


def test_louvain_finds_the_two_groups_every_time() -> None:
    found = collab_layout.communities(10, two_cliques())
    assert len(set(found[:5])) == len(set(found[5:])) == 1 and found[0] != found[5]
    assert all(collab_layout.communities(10, two_cliques()) == found for _ in range(3))
    assert collab_layout.communities(3, []) == [0, 1, 2]  # without ties, each alone


def box(places: list[tuple[int, int]], nodes: range) -> tuple[int, int, int, int]:
    xs, ys = [places[n][0] for n in nodes], [places[n][1] for n in nodes]
    return min(xs), min(ys), max(xs), max(ys)


def test_places_are_the_same_every_time_and_keep_clusters_apart() -> None:
    clusters = [0] * 5 + [1] * 5 + [-1, -1]  # and two authors in no cluster, without ties
    places = collab_layout.positions(12, two_cliques(), clusters)
    assert places == collab_layout.positions(12, two_cliques(), clusters)
    assert all(isinstance(c, int) and c >= 0 for p in places for c in p)
    assert max(x for x, _ in places) == collab_layout.SIZE or max(y for _, y in places) == collab_layout.SIZE
    a, b = box(places, range(5)), box(places, range(5, 10))
    assert a[2] < b[0] or b[2] < a[0] or a[3] < b[1] or b[3] < a[1], "the two clusters' boxes do not overlap"
    assert len(set(places)) == 12, "no two authors on one spot"


def test_a_member_tied_only_outside_its_cluster_is_drawn_with_it() -> None:
    edges = [e for e in [*two_cliques(), (4, 9, 1)] if e[:2] != (0, 5)]
    clusters = [0, 0, 0, 0, 1, 1, 1, 1, 1, 0]  # 4 and 9 swapped: each tied only to the other cluster
    places = collab_layout.positions(10, edges, clusters)

    def distance(n: int, group: range) -> float:
        left, top, right, bottom = box(places, group)
        return abs(places[n][0] - (left + right) / 2) + abs(places[n][1] - (top + bottom) / 2)

    assert distance(9, range(4)) < distance(9, range(5, 9))
    assert distance(4, range(5, 9)) < distance(4, range(4))


def test_nothing_to_place() -> None:
    assert collab_layout.positions(0, [], []) == []
    assert collab_layout.positions(1, [], [-1]) == [(0, 0)]
