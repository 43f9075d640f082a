"""The collaboration graph as steps: what it is made of, taken from the model, and the graph worked out from it.

`coauthorship` reads the model on every change of its structure, but its value holds
only the authors and each paper's authors and tags, in slug order: a new title or date
leaves it equal, and `collaboration` (a few tenths of a second at 10,000 papers) is not
run again. Only the network page and its data read `collaboration`; the citation view, likewise, reads
`citation_graph`, made from `citing`.
"""

from __future__ import annotations

from ...common.digest import digest
from ...model import citation_graph, collab
from ..engine.graph import Context, Step


def steps() -> list[Step]:
    return [
        Step("coauthorship", 4, coauthorship, digest),
        Step("collaboration", 5, collaboration, digest),
        Step("citing", 4, citing, digest),
        Step("citation_graph", 5, citations, digest),
    ]


def coauthorship(ctx: Context, arg: None) -> collab.Coauthorship:
    """The authors and each paper's authors and tags, from the model."""
    return collab.coauthorship(ctx.get("site").site)


def collaboration(ctx: Context, arg: None) -> collab.Collaboration:
    """The graph the network page draws."""
    return collab.collaboration(ctx.get("coauthorship"))


def citing(ctx: Context, arg: None) -> citation_graph.Citing:
    """The papers that cite or are cited on the list, with their titles and tags, from the model."""
    return citation_graph.citing(ctx.get("site").site)


def citations(ctx: Context, arg: None) -> collab.Collaboration:
    """The graph the network page's citation view draws."""
    return citation_graph.citation_graph(ctx.get("citing"))
