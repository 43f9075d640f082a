"""The small co-author drawing on an author's page: valid SVG, its links, escaping, and closer for stronger ties."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from sitegen.model.network import Ref
from sitegen.render import ego_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(markup: str) -> ET.Element:
    return ET.fromstring(str(markup).replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))


def test_no_co_authors_no_drawing() -> None:
    assert ego_svg.ego_network("Ann Lee", (), "../../") == ""


def test_the_closest_co_authors_are_drawn_linked_and_hidden_from_assistive_technology() -> None:
    coauthors = [Ref(f"Given Family{k}", f"given-family{k}", 12 - k) for k in range(11)]
    svg = parse(ego_svg.ego_network("Ann Lee", coauthors, "../../"))
    assert svg.get("aria-hidden") == "true" and svg.get("viewBox") == "0 0 400 220"
    links = svg.findall(f".//{SVG}a")
    assert [a.get("href") for a in links] == [f"../../authors/given-family{k}/" for k in range(ego_svg.SIZE)]
    assert all(a.get("tabindex") == "-1" for a in links)  # the list beside it is in the tab order instead
    assert [a.findtext(f"{SVG}text") for a in links][:2] == ["Family0", "Family1"]
    assert links[0].findtext(f"{SVG}title") == "Given Family0: 12 papers together"
    cx, cy = ego_svg.MIDDLE
    far = [math.hypot((float(c.get("cx", 0)) - cx) / ego_svg.ROOM[0], (float(c.get("cy", 0)) - cy) / ego_svg.ROOM[1])
           for c in (a.find(f"{SVG}circle") for a in links) if c is not None]
    assert far == sorted(far) and far[0] < far[-1], "a stronger tie is drawn closer to the middle"
    widths = [float(line.get("stroke-width", 0)) for line in svg.iter(f"{SVG}path")]
    assert widths == sorted(widths, reverse=True)


def test_names_are_text_never_markup_and_long_ones_are_cut() -> None:
    coauthors = [Ref('Eve <script>alert(1)</script> "&amp;', "eve", 1),
                 Ref("Bo Wolfeschlegelsteinhausenberger", "bo", 1)]
    markup = ego_svg.ego_network("<b>Me</b>", coauthors, "")
    assert "<script>" not in markup and "<b>" not in markup
    svg = parse(markup)
    assert [t.text for t in svg.iter(f"{SVG}text")] == ['"&amp;', "Wolfeschlege…"]
    assert svg.find(f"{SVG}circle/{SVG}title") is not None and svg.find(f"{SVG}circle/{SVG}title").text == "<b>Me</b>"
