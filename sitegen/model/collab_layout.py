"""Clusters and places for the collaboration graph, worked out by igraph at build time.

The page only draws what is decided here, so it opens at once and shows the same picture
on every visit. igraph runs Louvain and Fruchterman-Reingold in C: at 400 authors and 1,200
ties, a few hundredths of a second, where networkx's pure-Python Louvain alone took a
tenth and its layouts need numpy and scipy. Its random numbers come from a generator
seeded here, so the same graph always gives the same clusters and places.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

SEED = 39
SIZE = 1000  # the drawing's width in the data's units; its height follows the layout
GOLDEN = math.pi * (3 - math.sqrt(5))  # the golden angle, for spreading points evenly around a middle
ITERATIONS = 300
Edge = tuple[int, int, int]


@contextmanager
def _seeded() -> Iterator[Any]:
    """igraph's low-level graph class, drawing its random numbers from a generator seeded with SEED.

    Imported when first needed (a build that draws no graph never loads it); its `Graph`
    class is not used, as making one imports numpy whenever numpy is installed, a tenth of a
    second for nothing here.
    """
    import igraph

    igraph.set_random_number_generator(random.Random(SEED))
    try:
        yield igraph.GraphBase
    finally:
        igraph.set_random_number_generator(random)


def communities(nodes: int, edges: Sequence[Edge]) -> list[int]:
    """Each node's community (Louvain, weighted by papers together); a node without ties is alone."""
    if not edges:
        return list(range(nodes))
    with _seeded() as graph:
        found = graph(nodes, [(i, j) for i, j, _ in edges]).community_multilevel(weights=[w for _, _, w in edges])
    return list(found)


def positions(nodes: int, edges: Sequence[Edge], clusters: Sequence[int]) -> list[tuple[int, int]]:
    """Places for the nodes, as integers from 0 to SIZE across: each cluster laid out apart, then packed.

    Each cluster is laid out on its own (Fruchterman-Reingold over its inner ties) and the
    clusters are set in rows, largest first, so a cluster reads as one group even where
    co-authorship crosses clusters everywhere (ties between clusters are drawn, faintly, over
    the gaps). Authors in no cluster follow, each connected group of them together.
    """
    units = [list(members) for members in _members(clusters).values()]
    loose = [n for n in range(nodes) if clusters[n] < 0]
    units += _components(loose, [e for e in edges if clusters[e[0]] < 0 and clusters[e[1]] < 0])
    units.sort(key=lambda unit: (-len(unit), unit[0]))
    inner: dict[int, list[Edge]] = {}
    unit_of = {n: k for k, unit in enumerate(units) for n in unit}
    for edge in edges:
        if unit_of[edge[0]] == unit_of[edge[1]]:
            inner.setdefault(unit_of[edge[0]], []).append(edge)
    boxes = [_layout(unit, inner.get(k, [])) for k, unit in enumerate(units)]
    return _scaled(_pack(units, boxes), nodes)


def _members(clusters: Sequence[int]) -> dict[int, list[int]]:
    """The nodes of each cluster (number >= 0), in node order."""
    found: dict[int, list[int]] = {}
    for n, c in enumerate(clusters):
        if c >= 0:
            found.setdefault(c, []).append(n)
    return found


def _components(nodes: Sequence[int], edges: Sequence[Edge]) -> list[list[int]]:
    """Connected groups of these nodes over these edges, each in node order."""
    parent = {n: n for n in nodes}

    def root(n: int) -> int:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for i, j, _ in edges:
        a, b = root(i), root(j)
        if a != b:
            parent[max(a, b)] = min(a, b)
    found: dict[int, list[int]] = {}
    for n in nodes:
        found.setdefault(root(n), []).append(n)
    return list(found.values())


def _layout(group: list[int], edges: Sequence[Edge]) -> list[tuple[float, float]]:
    """One group laid out from a sunflower spiral (its first nodes, those with most papers, in the middle)."""
    if len(group) == 1:
        return [(0.0, 0.0)]
    local = {n: k for k, n in enumerate(group)}
    # members tied only to other clusters would drift away: each part is tied to the first node for the layout
    parts = _components(group, edges)
    edges = [*edges, *((group[0], part[0], 1) for part in parts if part[0] != group[0])]
    start = [[math.sqrt(k) * math.cos(k * GOLDEN), math.sqrt(k) * math.sin(k * GOLDEN)] for k in range(len(group))]
    weights = [min(w, 5) for _, _, w in edges]  # no tie pulls more than five papers' worth
    with _seeded() as graph:
        coords = graph(len(group), [(local[i], local[j]) for i, j, _ in edges]).layout_fruchterman_reingold(
            weights=weights, niter=ITERATIONS, seed=start, grid=len(group) > 300)
    return [(float(x), float(y)) for x, y in coords]


def _pack(groups: list[list[int]], boxes: list[list[tuple[float, float]]]) -> dict[int, tuple[float, float]]:
    """Each group scaled to its share of room and set in rows, left to right, largest first.

    A group's side grows with the square root of its size; rows are about as wide as a
    square holding them all, a little wider than high, as screens are; the gap between rows
    leaves room for the clusters' names.
    """
    placed: dict[int, tuple[float, float]] = {}
    width = max(3.6 * math.sqrt(sum(len(g) for g in groups)), 2.0 * math.sqrt(len(groups[0])) if groups else 1.0)
    across, down = max(1.0, 0.04 * width), max(1.0, 0.1 * width)
    x = y = row = 0.0
    for group, coords in zip(groups, boxes, strict=True):
        side = 2.0 * math.sqrt(len(group))
        xs, ys = [c[0] for c in coords], [c[1] for c in coords]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
        scale = side / span if len(group) > 1 else 0.0
        if x > 0 and x + side > width:
            x, y, row = 0.0, y + row + down, 0.0
        for n, (cx, cy) in zip(group, coords, strict=True):
            placed[n] = (x + (cx - min(xs)) * scale, y + (cy - min(ys)) * scale)
        x, row = x + side + across, max(row, (max(ys) - min(ys)) * scale)
    return placed


def _scaled(placed: dict[int, tuple[float, float]], nodes: int) -> list[tuple[int, int]]:
    """The places moved to start at 0 and scaled to SIZE across, as integers."""
    if not placed:
        return []
    xs, ys = [p[0] for p in placed.values()], [p[1] for p in placed.values()]
    left, top = min(xs), min(ys)
    scale = SIZE / max(max(xs) - left, max(ys) - top, 1e-9)
    return [(round((placed[n][0] - left) * scale), round((placed[n][1] - top) * scale)) for n in range(nodes)]
