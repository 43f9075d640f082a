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
from collections.abc import Callable, Sequence
from functools import lru_cache

from markupsafe import Markup

from ..model.network import Ref
from .escaping import text as escape

SIZE = 8  # co-authors drawn; the list beside the drawing has them all
WIDTH, HEIGHT = 400, 220
MIDDLE = (WIDTH // 2, HEIGHT // 2)
NEAR, FAR = 0.62, 1.0  # ring radius, as a share of the room, of the strongest tie and of the weakest
ROOM = (96, 76)  # the ring's half-width and half-height at FAR (labels take the rest)
LONGEST = 13  # characters of a family name before it is cut


def ego_network(name: str, coauthors: Sequence[Ref], root: str) -> Markup:
    """The SVG of an author and their closest co-authors (empty when they have none)."""
    shown = coauthors[:SIZE]
    if not shown:
        return Markup("")
    strongest, weakest = shown[0].count, shown[-1].count  # the page lists them strongest first
    spread = (strongest - weakest) or 1
    cx, cy = MIDDLE
    ties, nodes = [], []
    for c, (across, down, label) in zip(shown, _ring(len(shown)), strict=True):
        share = FAR - (FAR - NEAR) * (c.count - weakest) / spread
        x, y = round(cx + across * share), round(cy + down * share)
        ties.append(f'<path d="M{cx} {cy}L{x} {y}" stroke-width="{1 + 3 * c.count / strongest:.1f}"/>')
        # slugs are made by slugify, letters, digits and hyphens only: nothing to escape
        nodes.append(f'<a href="{root}authors/{c.slug}/" tabindex="-1"><title>{escape(c.name)}: {c.count} '
                     f'paper{"" if c.count == 1 else "s"} together</title><circle cx="{x}" cy="{y}" r="6"/>'
                     f'{label(x, y, _family(c.name))}</a>')
    return Markup(f'<svg class="ego-graph" viewBox="0 0 {WIDTH} {HEIGHT}" aria-hidden="true" focusable="false">'
                  f'<g class="ego-ties">{"".join(ties)}</g><circle class="ego-self" cx="{cx}" cy="{cy}" r="11">'
                  f'<title>{escape(name)}</title></circle><g class="ego-others">{"".join(nodes)}</g></svg>')


def _family(name: str) -> str:
    """A co-author's family name as their dot's label, escaped, cut when long."""
    family = name.rsplit(None, 1)[-1] if name.strip() else name
    return escape(family if len(family) <= LONGEST else family[: LONGEST - 1] + "…")


@lru_cache(maxsize=SIZE)
def _ring(count: int) -> list[tuple[float, float, Callable[[int, int, str], str]]]:
    """For each of `count` places around the ring, from the top clockwise: its offset at FAR, and its label,
    away from the middle (worked out once per number of co-authors)."""
    places = []
    for k in range(count):
        angle = -math.pi / 2 + 2 * math.pi * k / count
        across, down = math.cos(angle), math.sin(angle)
        if across > 0.25:
            label = _label("start", 10, 4)
        elif across < -0.25:
            label = _label("end", -10, 4)
        else:
            label = _label("middle", 0, 20 if down > 0 else -11)
        places.append((ROOM[0] * across, ROOM[1] * down, label))
    return places


def _label(anchor: str, dx: int, dy: int) -> Callable[[int, int, str], str]:
    """A label's text element, placed `dx`, `dy` from its dot."""
    return lambda x, y, text: f'<text x="{x + dx}" y="{y + dy}" text-anchor="{anchor}">{text}</text>'
