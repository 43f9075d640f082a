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
from collections.abc import Sequence
from typing import NamedTuple

from markupsafe import Markup

from ..model import collab_layout
from ..model.collab import Collaboration
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


def layout(graph: Collaboration) -> tuple[list[Dot], list[labels.Label | None], list[labels.Label | None]]:
    """The dots, the authors' names (None: not named) and the clusters' names."""
    placed = dots(graph)
    clusters = cluster_names(graph, placed)
    names = labels.name_dots(placed, [n.name for n in graph.nodes], NAME, [c.box for c in clusters if c])
    return placed, names, clusters


def drawing(graph: Collaboration, root: str) -> Markup:
    """The SVG of the whole network (empty when nobody is drawn)."""
    if not graph.nodes:
        return Markup("")
    placed, names, clusters = layout(graph)
    boxes = [labels.dot_box(*d) for d in placed] + [b.box for b in (*names, *clusters) if b]
    left, top = min(b.left for b in boxes) - PAD, min(b.top for b in boxes) - PAD
    width, height = max(b.right for b in boxes) + PAD - left, max(b.bottom for b in boxes) + PAD - top
    title = f"Co-author network: {counted(len(graph.nodes), 'author')}, {counted(len(graph.edges), 'tie')}"
    return Markup(
        f'<svg id="network-drawing" class="net-drawing" viewBox="{left:.0f} {top:.0f} {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" role="group" aria-labelledby="network-drawing-title" tabindex="-1">'
        f'<title id="network-drawing-title">{title}</title>'
        f'{_ties(graph, placed)}{_clusters(graph, clusters)}{_people(graph, placed, names, root)}</svg>')


def _colour(cluster: int) -> str:
    return f"g{cluster % COLOURS}" if cluster >= 0 else "gn"


def _ties(graph: Collaboration, placed: Sequence[Dot]) -> str:
    """The ties, in the order of graph.edges (the script finds an author's ties by it): thicker for more papers
    together, faint between clusters."""
    cluster = [n.cluster for n in graph.nodes]
    paths = []
    for a, b, together in graph.edges:
        across = " x" if cluster[a] != cluster[b] or cluster[a] < 0 else ""
        paths.append(f'<path class="w{min(together, 3)}{across}" d="M{placed[a].x:g} {placed[a].y:g}'
                     f'L{placed[b].x:g} {placed[b].y:g}"/>')
    return f'<g class="net-ties" aria-hidden="true">{"".join(paths)}</g>'


def _clusters(graph: Collaboration, names: Sequence[labels.Label | None]) -> str:
    texts = [f'<text class="{_colour(k)}" x="{n.x:g}" y="{n.y:g}">{escape(n.text)}</text>'
             for k, n in enumerate(names) if n is not None]
    return f'<g class="net-clusters" aria-hidden="true">{"".join(texts)}</g>'


def _people(graph: Collaboration, placed: Sequence[Dot], names: Sequence[labels.Label | None], root: str) -> str:
    """Each author as a link to their page, named for assistive technology and as a tooltip; their label if any."""
    links = []
    for i, (node, dot, name) in enumerate(zip(graph.nodes, placed, names, strict=True)):
        text = "" if name is None else (
            f'<text x="{name.x:g}" y="{name.y:g}"{_anchor(name.anchor)} aria-hidden="true">{escape(name.text)}</text>')
        # slugs are made by slugify, letters, digits and hyphens only: nothing to escape
        links.append(f'<a href="{root}authors/{node.slug}/" class="{_colour(node.cluster)}" data-i="{i}">'
                     f'<title>{escape(node.name)}, {counted(node.papers, "paper")}</title>'
                     f'<circle cx="{dot.x:g}" cy="{dot.y:g}" r="{dot.r:g}"/>{text}</a>')
    return f'<g class="net-people">{"".join(links)}</g>'


def _anchor(anchor: str) -> str:
    return "" if anchor == "start" else f' text-anchor="{anchor}"'
