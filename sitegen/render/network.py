"""The co-author network's page and its data file: what the template is given, and the JSON the script draws.

The page lists every author drawn, by cluster, as links: that list is the page without
JavaScript and the graph's text equivalent. The data holds what the drawing needs and no
more (places worked out at build time, names, slugs, clusters), as arrays rather than
objects: at 400 authors and 1,200 ties, 40 KB.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..model import collab, layout
from ..model.collab import Collaboration
from ..model.routes import NETWORK_DATA, PageSpec
from .outputs.data import encode_json
from .words import counted

if TYPE_CHECKING:
    from ..model.site import Site
    from .page_tools import PageTools

LABEL_TAGS = 2  # the tags a cluster's label shows in the drawing (the list shows all of collab.LABEL_TAGS)


def of(site: Site) -> Collaboration:
    """The graph: the engine's `collaboration` step, read through the recorded site, or worked out from a model."""
    found = getattr(site, "collaboration", None)
    return found if isinstance(found, Collaboration) else collab.collaboration(collab.coauthorship(site))


def page_context(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    """The network page: the summary of what is drawn and how it was chosen, and the clusters to list."""
    graph = of(site)
    return {"title": "Co-author network",
            "description": f"Who writes with whom among the authors of {site.config.title}, in clusters by topic.",
            "graph": graph, "chosen": chosen(graph), "drawn": drawn(graph), "feed_url": "feed.xml",
            "data_url": f"{layout.NETWORK}{NETWORK_DATA}"}


def chosen(graph: Collaboration) -> str:
    """Which authors are drawn, said as the page says it."""
    if not graph.authors:
        return "No paper on the list names its authors yet."
    if graph.everyone:
        return f"Every author of the list: {counted(graph.authors, 'author')}."
    return (f"{len(graph.nodes):,} of the {graph.authors:,} authors: those with at least {graph.min_papers:,} "
            f"papers on the list.")


def drawn(graph: Collaboration) -> str:
    """How the ties and clusters were chosen, said as the page says it."""
    if not graph.edges:
        return "None of them wrote a paper with another." if graph.nodes else ""
    if len(graph.edges) == graph.ties:
        ties = f"Each is linked to every co-author drawn: {counted(graph.ties, 'pair')} who wrote together."
    else:
        ties = (f"Each is linked to the co-authors they wrote most papers with (their {collab.MAX_TIES} strongest "
                f"ties at least): {len(graph.edges):,} of the {graph.ties:,} pairs who wrote together.")
    if not graph.clusters:
        return ties
    return (f"{ties} Colours mark {counted(len(graph.clusters), 'cluster')} of authors who write together, "
            f"each named by the tags most its own.")


def graph_json(site: Site) -> bytes:
    """The data the page's script draws: nodes [x, y, cluster, papers, name, slug], ties [a, b, papers],
    clusters [label, x, y, width]."""
    graph = of(site)
    return encode_json({
        "nodes": [[n.x, n.y, n.cluster, n.papers, n.name, n.slug] for n in graph.nodes],
        "edges": [list(edge) for edge in graph.edges],
        "clusters": [[label(c.tags), c.x, c.y, c.width] for c in graph.clusters],
    }) + b"\n"


def label(tags: tuple[collab.Ref, ...]) -> str:
    """A cluster's name in the drawing: its first tags."""
    return " · ".join(t.name for t in tags[:LABEL_TAGS])
