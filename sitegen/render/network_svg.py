"""The co-author network drawn at build time: one inline SVG, from the places igraph worked out.

The page needs no library and no data file to show it, shows it at once and the same on
every visit, and works without JavaScript: every author is an `<a href>` to their page, so
one click (or Enter) opens it. Names are placed by `network_labels` so that none covers
another; the clusters' names are set above their members first. Colours are the theme's
(classes styled in style.css), so the drawing follows the light and dark schemes. The page's
small script only adds hover, focus and the finder on top.

Units are CSS pixels at the drawing's natural width (about the room it has beside the panel
on a desktop), so the names' font size here is the size they are read at.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

from markupsafe import Markup

from ..model import citation_graph, collab_layout
from ..model.collab import Collaboration, Node
from ..model.network import Ref
from . import network_labels as labels
from .escaping import text as escape
from .words import counted

LABEL_TAGS = 2  # the tags a cluster's name shows in the drawing (the list shows all of collab.LABEL_TAGS)
COLOURS = 8  # cluster colours of the theme: --graph-0 … --graph-7
SPAN = 680  # the drawing's width, in px, of the layout's collab_layout.SIZE
PAD = 6
NAME, CLUSTER = 12, 13  # font sizes of an author's name and of a cluster's (style.css sets the same)
DOT, GROW = 4.0, 7.0  # a dot's radius: DOT, and up to GROW more for the author with most papers


class Kind(NamedTuple):
    """What the drawing shows: co-authors (each a person) or citations (each a paper, ties with arrows)."""

    folder: str  # where each node's page is
    title: str  # the drawing's accessible name: its nodes and ties counted, as "{nodes}" and "{ties}"
    node: str  # a node counted ("author", "paper")
    tie: str  # a tie counted ("tie", "citation")
    tip: Callable[[Node], str]  # a node's tooltip
    label: Callable[[str], str]  # the name a node is drawn with, from its name
    shorter: Callable[[str], str]  # a shorter one, where that does not fit
    arrows: bool  # whether a tie points from its first node to its second


AUTHORS = Kind("authors/", "Co-author network: {nodes}, {ties}", "author", "tie",
               lambda n: f"{n.name}, {counted(n.papers, 'paper')}", str, labels.short, arrows=False)


def _shortest(title: str) -> str:
    words = title.split()
    return words[0] if len(words) < 2 or len(words[0]) > 12 else " ".join(words[:2]).rstrip(":,;") + "…"


PAPERS = Kind("papers/", "Citation network: {nodes}, {ties}", "paper", "citation",
              lambda n: f"{n.name}, cited by {counted(n.papers, 'paper')} on this list" if n.papers else n.name,
              citation_graph.short, _shortest, arrows=True)


class Dot(NamedTuple):
    """An author where the drawing puts them."""

    x: float
    y: float
    r: float


def label(tags: Sequence[Ref]) -> str:
    """A cluster's name in the drawing: its first tags."""
    return " · ".join(t.name for t in tags[:LABEL_TAGS])


def dots(graph: Collaboration) -> list[Dot]:
    """Each author's dot: placed by the layout, scaled to SPAN across, sized by the square root of their papers."""
    most = max((n.papers for n in graph.nodes), default=1)
    scale = SPAN / collab_layout.SIZE
    return [Dot(round(PAD + n.x * scale, 1), round(PAD + n.y * scale, 1),
                round(DOT + GROW * math.sqrt(n.papers / most) if most > 1 else DOT + 2, 1)) for n in graph.nodes]


def cluster_names(graph: Collaboration, placed: Sequence[Dot]) -> list[labels.Label | None]:
    """Each cluster's name, centred above its members, left out where it would cover another cluster's."""
    scale = SPAN / collab_layout.SIZE
    index = labels.Boxes()
    found: list[labels.Label | None] = []
    for c in graph.clusters:
        text = label(c.tags)
        top = min(placed[n].y - placed[n].r for n in c.members) - labels.GAP - labels.DESCENT * CLUSTER
        x = PAD + c.x * scale
        box = labels.text_box(text, x, top, CLUSTER, "middle")
        if not index.free(box, -2):
            found.append(None)
            continue
        index.add(box)
        found.append(labels.Label(text, x, top, "middle", box))
    return found


def layout(graph: Collaboration, kind: Kind = AUTHORS) -> tuple[list[Dot], list[labels.Label | None],
                                                               list[labels.Label | None]]:
    """The dots, the nodes' names (None: not named) and the clusters' names."""
    placed = dots(graph)
    clusters = cluster_names(graph, placed)
    names = labels.name_dots(placed, [kind.label(n.name) for n in graph.nodes], NAME, [c.box for c in clusters if c],
                             kind.shorter)
    return placed, names, clusters


def drawing(graph: Collaboration, root: str, kind: Kind = AUTHORS) -> Markup:
    """The SVG of the whole network (empty when nothing is drawn)."""
    if not graph.nodes:
        return Markup("")
    placed, names, clusters = layout(graph, kind)
    boxes = [labels.dot_box(*d) for d in placed] + [b.box for b in (*names, *clusters) if b]
    left, top = min(b.left for b in boxes) - PAD, min(b.top for b in boxes) - PAD
    width, height = max(b.right for b in boxes) + PAD - left, max(b.bottom for b in boxes) + PAD - top
    title = kind.title.format(nodes=counted(len(graph.nodes), kind.node), ties=counted(len(graph.edges), kind.tie))
    return Markup(
        f'<svg id="network-drawing" class="net-drawing" viewBox="{left:.0f} {top:.0f} {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="group" aria-labelledby="network-drawing-title" tabindex="-1">'
        f'<title id="network-drawing-title">{title}</title>'
        f'{ARROW if kind.arrows else ""}{_ties(graph, placed, kind.arrows)}{_clusters(graph, clusters)}'
        f'{_people(graph, placed, names, root, kind)}</svg>')


# A citation's arrowhead, at the cited paper's dot: the tie's colour (context-stroke is not everywhere yet)
ARROW = ('<defs><marker id="net-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" '
         'orient="auto-start-reverse" markerUnits="userSpaceOnUse"><path d="M0 0L8 4L0 8z" class="net-arrow"/>'
         '</marker></defs>')


def _colour(cluster: int) -> str:
    return f"g{cluster % COLOURS}" if cluster >= 0 else "gn"


def _ties(graph: Collaboration, placed: Sequence[Dot], arrows: bool = False) -> str:
    """The ties, in the order of graph.edges (the script finds an author's ties by it): thicker for more papers
    together, faint between clusters; with `arrows`, each ends at the edge of its second dot, at an arrowhead."""
    cluster = [n.cluster for n in graph.nodes]
    paths = []
    for a, b, together in graph.edges:
        across = " x" if cluster[a] != cluster[b] or cluster[a] < 0 else ""
        (x1, y1), (x2, y2) = (placed[a].x, placed[a].y), (placed[b].x, placed[b].y)
        head = ""
        if arrows:
            length = math.hypot(x2 - x1, y2 - y1) or 1.0
            back = min(placed[b].r + 1.5, length / 2) / length
            x2, y2 = round(x2 - (x2 - x1) * back, 1), round(y2 - (y2 - y1) * back, 1)
            head = ' marker-end="url(#net-arrow)"'
        paths.append(f'<path class="w{min(together, 3)}{across}" d="M{x1:g} {y1:g}L{x2:g} {y2:g}"{head}/>')
    return f'<g class="net-ties" aria-hidden="true">{"".join(paths)}</g>'


def _clusters(graph: Collaboration, names: Sequence[labels.Label | None]) -> str:
    texts = [f'<text class="{_colour(k)}" x="{n.x:g}" y="{n.y:g}">{escape(n.text)}</text>'
             for k, n in enumerate(names) if n is not None]
    return f'<g class="net-clusters" aria-hidden="true">{"".join(texts)}</g>'


def _people(graph: Collaboration, placed: Sequence[Dot], names: Sequence[labels.Label | None], root: str,
            kind: Kind = AUTHORS) -> str:
    """Each node as a link to its page, named for assistive technology and as a tooltip; its label if any."""
    links = []
    for i, (node, dot, name) in enumerate(zip(graph.nodes, placed, names, strict=True)):
        text = "" if name is None else (
            f'<text x="{name.x:g}" y="{name.y:g}"{_anchor(name.anchor)} aria-hidden="true">{escape(name.text)}</text>')
        # slugs are made by slugify, letters, digits and hyphens only: nothing to escape
        links.append(f'<a href="{root}{kind.folder}{node.slug}/" class="{_colour(node.cluster)}" data-i="{i}">'
                     f'<title>{escape(kind.tip(node))}</title>'
                     f'<circle cx="{dot.x:g}" cy="{dot.y:g}" r="{dot.r:g}"/>{text}</a>')
    return f'<g class="net-people">{"".join(links)}</g>'


def _anchor(anchor: str) -> str:
    return "" if anchor == "start" else f' text-anchor="{anchor}"'
