"""The co-author network's page and its data file: what the template is given, and the JSON kept beside it.

The page draws the network as inline SVG (`network_svg`) and lists every author drawn, by
cluster, with their paper count and the co-authors they are tied to: the list is the
drawing's text equivalent, and the page a phone shows instead of it. The script's data,
inline too, holds what the drawing does not: each author's papers for the panel (their
newest PANEL_PAPERS, as numbers into one table of titles, since co-authors share papers)
and the ties in the drawing's order. `network/graph.json` keeps the graph as data (places,
names, slugs, clusters) for whoever wants to draw it another way.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from ..content import mathtext
from ..model import citation_graph, collab, layout
from ..model.collab import Collaboration
from ..model.network import Ref
from ..model.routes import NETWORK_DATA, PageSpec
from . import network_svg
from .outputs.data import encode_json
from .words import counted

if TYPE_CHECKING:
    from ..model.site import Site
    from .page_tools import PageTools

PANEL_PAPERS = 5  # an author's newest papers the panel lists; their page has all of them


def of(site: Site) -> Collaboration:
    """The graph: the engine's `collaboration` step, read through the recorded site, or worked out from a model."""
    found = getattr(site, "collaboration", None)
    return found if isinstance(found, Collaboration) else collab.collaboration(collab.coauthorship(site))


def page_context(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    """The network page: the drawing, the summary of what is drawn and how it was chosen, the authors to list."""
    graph = of(site)
    return {"title": "Co-author network",
            "description": f"Who writes with whom among the authors of {site.config.title}, in clusters by topic.",
            "graph": graph, "chosen": chosen(graph), "drawn": drawn(graph), "feed_url": "feed.xml",
            "data_url": f"{layout.NETWORK}{NETWORK_DATA}", "drawing": network_svg.drawing(graph, root),
            "ties": ties_of(graph), "script_data": script_data(site, graph)}


def citations_of(site: Site) -> Collaboration:
    """The citation graph: the engine's `citation_graph` step, or worked out from a model."""
    found = getattr(site, "citation_graph", None)
    return found if isinstance(found, Collaboration) else citation_graph.citation_graph(citation_graph.citing(site))


def citations_context(r: PageTools, site: Site, spec: PageSpec, root: str) -> dict[str, Any]:
    """The network page's citation view: the drawing, what is drawn, and the papers by cluster with their links."""
    graph = citations_of(site)
    if not graph.nodes:
        chosen = "No paper on this list has its references recorded yet: `sitegen enrich` fetches them."
    elif graph.everyone:
        chosen = ("Every paper of the list that cites another on it or is cited by one: "
                  f"{counted(graph.authors, 'paper')}.")
    else:
        chosen = f"The {len(graph.nodes):,} of those {graph.authors:,} papers the list cites most."
    drawn = f"{counted(len(graph.edges), 'citation')} among them, each an arrow from the citing paper to the cited one."
    if graph.clusters:
        drawn += f" Colours mark {counted(len(graph.clusters), 'cluster')}, each named by the tags most its own."
    return {"title": "Citation network",
            "description": f"Which papers of {site.config.title} cite which, in clusters by topic.",
            "graph": graph, "chosen": chosen, "drawn": drawn if graph.edges else "", "feed_url": "feed.xml",
            "drawing": network_svg.drawing(graph, root, network_svg.PAPERS), "links": citing_links(graph)}


def citing_links(graph: Collaboration) -> list[tuple[list[Ref], list[Ref]]]:
    """Each paper's citations in the drawing: those it cites and those citing it (as Refs of title and slug)."""
    nodes = graph.nodes
    out: list[list[Ref]] = [[] for _ in nodes]
    into: list[list[Ref]] = [[] for _ in nodes]
    for a, b, _ in graph.edges:
        out[a].append(Ref(nodes[b].name, nodes[b].slug))
        into[b].append(Ref(nodes[a].name, nodes[a].slug))
    return list(zip(out, into, strict=True))


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


def ties_of(graph: Collaboration) -> list[list[Ref]]:
    """Each author's co-authors in the drawing, most papers together first (then in the drawing's order)."""
    found: list[list[tuple[int, int]]] = [[] for _ in graph.nodes]
    for a, b, together in graph.edges:
        found[a].append((-together, b))
        found[b].append((-together, a))
    nodes = graph.nodes
    return [[Ref(nodes[n].name, nodes[n].slug, -count) for count, n in sorted(mine)] for mine in found]


def script_data(site: Site, graph: Collaboration) -> Markup:
    """The panel's papers and the ties, as JSON safe inside a script element.

    papers: [title, slug] once each; people: each author's newest papers as numbers into it;
    ties: [author, author, papers together], in the drawing's order.
    """
    table: dict[str, int] = {}
    papers: list[list[str]] = []
    people = []
    for node in graph.nodes:
        author = site.author_index.get(node.slug)
        mine = []
        for slug in (author.papers if author is not None else ())[:PANEL_PAPERS]:
            if slug not in table:
                table[slug] = len(papers)
                papers.append([mathtext.plain_text(site.papers[slug].entry.title), slug])
            mine.append(table[slug])
        people.append(mine)
    data = json.dumps({"papers": papers, "people": people, "ties": [list(e) for e in graph.edges]},
                      ensure_ascii=False, separators=(",", ":"))
    return Markup(data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def graph_json(site: Site) -> bytes:
    """The graph as data: nodes [x, y, cluster, papers, name, slug], ties [a, b, papers], clusters [label, x, y,
    width]."""
    graph = of(site)
    return encode_json({
        "nodes": [[n.x, n.y, n.cluster, n.papers, n.name, n.slug] for n in graph.nodes],
        "edges": [list(edge) for edge in graph.edges],
        "clusters": [[network_svg.label(c.tags), c.x, c.y, c.width] for c in graph.clusters],
    }) + b"\n"

