"""The network page's account of what it draws, and the data its script reads."""

from __future__ import annotations

import json

from sitegen.model import collab
from sitegen.model.collab import Cluster, Collaboration, Node
from sitegen.model.network import Ref
from sitegen.render import network

NODES = (Node("Ann Lee", "ann-lee", 5, 0, 10, 20), Node("Bo Ng", "bo-ng", 3, 0, 30, 40),
         Node("Cy Oz", "cy-oz", 2, 0, 50, 60), Node("Di Po", "di-po", 2, -1, 70, 80))
GRAPH = Collaboration(NODES, ((0, 1, 3), (0, 2, 2), (1, 2, 1)),
                      (Cluster((Ref("gpu", "gpu", 4), Ref("compilers", "compilers", 2), Ref("mlir", "mlir", 1)),
                               (0, 1, 2), 30, 20, 40),), (3,), 4_321, 2, 1_234)


def test_the_page_says_which_authors_are_drawn_and_how_the_ties_were_chosen() -> None:
    assert network.chosen(GRAPH) == "4 of the 4,321 authors: those with at least 2 papers on the list."
    assert network.drawn(GRAPH) == (f"Each is linked to the co-authors they wrote most papers with (their "
                                    f"{collab.MAX_TIES} strongest ties at least): 3 of the 1,234 pairs who wrote "
                                    f"together. Colours mark 1 cluster of authors who write together, each named by "
                                    f"the tags most its own.")
    whole = Collaboration(NODES, GRAPH.edges, (), (0, 1, 2, 3), 4, 1, 3)
    assert network.drawn(whole) == "Each is linked to every co-author drawn: 3 pairs who wrote together."
    everyone = Collaboration(NODES, (), (), (0, 1, 2, 3), 4, 1, 0)
    assert network.chosen(everyone) == "Every author of the list: 4 authors."
    assert network.drawn(everyone) == "None of them wrote a paper with another."
    nobody = Collaboration((), (), (), (), 0, 1, 0)
    assert network.chosen(nobody) == "No paper on the list names its authors yet." and network.drawn(nobody) == ""


def test_the_data_holds_places_names_ties_and_cluster_labels_as_arrays() -> None:
    class Drawn:  # what the engine's recorded site gives: the graph itself
        collaboration = GRAPH

    data = json.loads(network.graph_json(Drawn()))  # type: ignore[arg-type]
    assert data["nodes"][0] == [10, 20, 0, 5, "Ann Lee", "ann-lee"] and data["nodes"][3][2] == -1
    assert data["edges"] == [[0, 1, 3], [0, 2, 2], [1, 2, 1]]
    assert data["clusters"] == [["gpu · compilers", 30, 20, 40]]
