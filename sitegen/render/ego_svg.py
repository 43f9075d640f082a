"""An author's closest co-authors drawn around them: a small SVG made at build time for the author's page.

The author sits in the middle, their closest co-authors (those the page lists first) on a
ring around them, the closer and the thicker the tie the more papers they wrote together.
It is drawn from the co-authors the page shows anyway, with no layout to work out, as one
string of about 2 KB: 8,000 of them at 10,000 papers. Colours are the theme's (classes
styled in style.css), so it follows the light and dark schemes. It repeats the list of
co-authors beside it, which is its text equivalent: it is hidden from assistive technology
and its links are left out of the tab order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup

from ..model.network import Ref
from .escaping import text as escape

SIZE = 8  # co-authors drawn; the list beside the drawing has them all
WIDTH, HEIGHT = 360, 220
MIDDLE = (WIDTH // 2, HEIGHT // 2)
NEAR, FAR = 0.62, 1.0  # ring radius, as a share of the room, of the strongest tie and of the weakest
ROOM = (112, 76)  # the ring's half-width and half-height at FAR (labels take the rest)
LONGEST = 14  # characters of a family name before it is cut


def ego_network(name: str, coauthors: Sequence[Ref], root: str) -> Markup:
    """The SVG of an author and their closest co-authors (empty when they have none)."""
    shown = list(coauthors[:SIZE])
    if not shown:
        return Markup("")
    strongest = max(c.count for c in shown)
    weakest = min(c.count for c in shown)
    cx, cy = MIDDLE
    parts = [f'<svg class="ego-graph" viewBox="0 0 {WIDTH} {HEIGHT}" aria-hidden="true" focusable="false">']
    ties, nodes = [], []
    for k, c in enumerate(shown):
        angle = -math.pi / 2 + 2 * math.pi * k / len(shown)
        share = FAR if strongest == weakest else FAR - (FAR - NEAR) * (c.count - weakest) / (strongest - weakest)
        x, y = round(cx + ROOM[0] * share * math.cos(angle)), round(cy + ROOM[1] * share * math.sin(angle))
        width = 1 + 3 * c.count / strongest
        ties.append(f'<line x1="{cx}" y1="{cy}" x2="{x}" y2="{y}" stroke-width="{width:.1f}"/>')
        nodes.append(f'<a href="{root}authors/{escape(c.slug)}/" tabindex="-1"><title>{escape(c.name)}: '
                     f'{c.count} paper{"" if c.count == 1 else "s"} together</title>'
                     f'<circle cx="{x}" cy="{y}" r="6"/>{_label(c.name, x, y, angle)}</a>')
    parts.append(f'<g class="ego-ties">{"".join(ties)}</g>')
    parts.append(f'<circle class="ego-self" cx="{cx}" cy="{cy}" r="11"><title>{escape(name)}</title></circle>')
    parts.append(f'<g class="ego-others">{"".join(nodes)}</g></svg>')
    return Markup("".join(parts))


def _label(name: str, x: int, y: int, angle: float) -> str:
    """A co-author's family name beside their dot, away from the middle."""
    family = name.split()[-1] if name.split() else name
    if len(family) > LONGEST:
        family = family[: LONGEST - 1] + "…"
    across, down = math.cos(angle), math.sin(angle)
    if across > 0.25:
        anchor, tx, ty = "start", x + 10, y + 4
    elif across < -0.25:
        anchor, tx, ty = "end", x - 10, y + 4
    else:
        anchor, tx, ty = "middle", x, y + (20 if down > 0 else -11)
    return f'<text x="{tx}" y="{ty}" text-anchor="{anchor}">{escape(family)}</text>'
