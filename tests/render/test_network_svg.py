"""The network drawn at build time: every author a link, names that never cover one another, valid SVG."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from itertools import combinations

from sitegen.model.collab import Cluster, Collaboration, Node
from sitegen.model.network import Ref
from sitegen.render import network_labels, network_svg
from sitegen.render.network_labels import Box

SVG = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    return ET.fromstring(str(markup).replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


def crowded(count: int, seed: int = 5) -> Collaboration:
    """`count` authors packed close together, in two clusters, with ties between neighbours."""
    rng = random.Random(seed)
    nodes = tuple(Node(f"Given{k} Family{k}", f"author-{k}", max(1, 20 - k), k % 2, rng.randrange(0, 1001),
                       rng.randrange(0, 601)) for k in range(count))
    edges = tuple((k, k + 1, 1 + k % 3) for k in range(count - 1))
    clusters = tuple(Cluster((Ref("gpu", "gpu", 3), Ref("compilers", "compilers", 2)), tuple(range(c, count, 2)),
                             500, 0, 900) for c in (0, 1))
    return Collaboration(nodes, edges, clusters, (), count, 1, len(edges))


def test_no_two_names_overlap_nor_cover_another_authors_dot() -> None:
    graph = crowded(120)
    dots, names, clusters = network_svg.layout(graph)
    shown = [(n, label.box) for n, label in enumerate(names) if label is not None]
    assert 10 < len(shown) < 120, "a crowded drawing names some authors, not all"
    boxes = [box for _, box in shown] + [c.box for c in clusters if c is not None]
    assert not [pair for pair in combinations(boxes, 2) if pair[0].overlaps(pair[1])]
    for n, box in shown:
        assert not [k for k, d in enumerate(dots) if k != n and box.overlaps(network_labels.dot_box(*d))]


def test_the_authors_with_most_papers_are_named_first_and_a_long_name_falls_back_to_initials() -> None:
    dots = [(100.0, 100.0, 8.0), (100.0, 130.0, 4.0), (400.0, 100.0, 4.0)]
    names = ["Ann Lee", "Bo Ng", "Maximiliana Wolkenstein-Hohenberg"]
    # posts around the third dot: the full name fits in none of its four places, its initials to the right
    posts = [Box(600, 90, 610, 110), Box(385, 95, 390, 105), Box(290, 110, 300, 115), Box(290, 85, 300, 88)]
    placed = network_labels.name_dots(dots, names, 12, posts)
    assert [p.text if p else None for p in placed] == ["Ann Lee", "Bo Ng", "M. Wolkenstein-Hohenberg"]
    assert placed[0] is not None and placed[0].anchor == "start", "right of the dot, where there is room"
    boxed = network_labels.name_dots([(0.0, 0.0, 4.0), (30.0, 0.0, 4.0)], ["Ann Lee", "Bo Ng"], 12,
                                     [Box(-100, -100, 100, -5), Box(-100, 5, 100, 100)])
    assert boxed[1] is None, "no room anywhere: left unnamed"


def test_every_author_is_a_link_named_for_assistive_technology() -> None:
    graph = crowded(30)
    svg = parse(network_svg.drawing(graph, "../"))
    assert svg.get("role") == "group" and svg.findtext(f"{SVG}title") == "Co-author network: 30 authors, 29 ties"
    assert svg.get("aria-labelledby") == svg.find(f"{SVG}title").get("id")  # type: ignore[union-attr]
    links = svg.findall(f".//{SVG}a")
    assert [a.get("href") for a in links] == [f"../authors/author-{k}/" for k in range(30)]
    assert links[0].findtext(f"{SVG}title") == "Given0 Family0, 20 papers"
    assert all(a.get("tabindex") is None for a in links), "every author reachable without the script"
    assert len(svg.findall(f".//{SVG}path")) == 29 and svg.find(f".//{SVG}g").get("aria-hidden") == "true"  # type: ignore[union-attr]
    x, y, width, height = map(float, svg.get("viewBox", "").split())
    for c in svg.iter(f"{SVG}circle"):
        assert x <= float(c.get("cx", 0)) <= x + width and y <= float(c.get("cy", 0)) <= y + height


def test_names_are_text_never_markup() -> None:
    graph = crowded(2)
    evil = graph.nodes[0]._replace(name='Eve <script>alert(1)</script> "&amp;')
    markup = str(network_svg.drawing(Collaboration((evil, graph.nodes[1]), (), (), (0, 1), 2, 1, 0), ""))
    assert "<script>" not in markup and "&lt;script&gt;" in markup
    parse(markup)


def test_nobody_drawn_no_drawing() -> None:
    assert network_svg.drawing(Collaboration((), (), (), (), 0, 1, 0), "") == ""
