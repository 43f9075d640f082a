"""The collaboration graph as steps: what it is made of, taken from the model, and the graph worked out from it.

`coauthorship` reads the model on every change of its structure, but its value holds
only the authors and each paper's authors and tags, in slug order: a new title or date
leaves it equal, and `collaboration` (a few tenths of a second at 10,000 papers) is not
run again. Only the network page and its data read `collaboration`.
"""

from __future__ import annotations

from ...model import collab
from ..engine.graph import Context, Step
from .sources import digest


def steps() -> list[Step]:
    return [
        Step("coauthorship", 4, coauthorship, digest),
        Step("collaboration", 5, collaboration, digest),
    ]


def coauthorship(ctx: Context, arg: None) -> collab.Coauthorship:
    """The authors and each paper's authors and tags, from the model."""
    return collab.coauthorship(ctx.get("site").site)


def collaboration(ctx: Context, arg: None) -> collab.Collaboration:
    """The graph the network page draws."""
    return collab.collaboration(ctx.get("coauthorship"))
