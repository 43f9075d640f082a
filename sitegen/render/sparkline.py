"""A paper's signals over time as small inline SVG charts, drawn when the page is built (no script).

One chart a signal seen on two or more days (`signals.histories`): a line through one
point a day, placed by date, over an area down to zero, so a count that barely moved
looks flat. The chart is in `currentColor`, so the theme colours it in light and dark.
Each has a sentence beside it that says every point ("12 on Apr 17 → 21 on May 19,
2026"): the chart itself is named for what it shows, and its points carry their values
as tooltips.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from ..model import signals
from ..model.timeline import MONTH_NAMES

WIDTH, HEIGHT, PAD = 240, 48, 5  # the drawing's units: CSS scales it to the column, its aspect kept
SAID = 6  # points a caption says one by one; a longer history says its first and last two


@dataclass(frozen=True)
class Chart:
    """One signal's chart: its name, its points, the drawing, and the sentence that says it."""

    signal: str
    label: str
    points: signals.History
    svg: Markup
    text: str


def charts(sources: Sequence[Iterable[tuple[str, Any]]]) -> tuple[Chart, ...]:
    """A chart for each signal these records saw on two days or more, in `signals.SIGNALS` order."""
    if len(sources) < 2:  # nearly every paper: a chart needs two records at least
        return ()
    found = signals.histories(sources)
    return tuple(chart(name, label, found[name]) for name, label in signals.SIGNALS if len(found.get(name, ())) > 1)


def heading(shown: Iterable[Chart]) -> str:
    """'Upvotes over time', 'Upvotes and score over time': what a page's charts show, as its heading."""
    names = [c.label.lower() for c in shown]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{listed[:1].upper()}{listed[1:]} over time"


def chart(signal: str, label: str, points: signals.History) -> Chart:
    """The chart of one signal's points (two or more, oldest first)."""
    return Chart(signal, label, points, Markup(_svg(signal, label, points)), said(points))


def said(points: signals.History) -> str:
    """'12 on Apr 17 → 21 on May 19, 2026': the year written where it changes and at the end."""
    year = points[-1][0].year
    parts = [f"{number(value)} on {_day(when, when.year != year or n == len(points) - 1)}"
             for n, (when, value) in enumerate(points)]
    if len(parts) > SAID:
        parts = [parts[0], "…", *parts[-2:]]
    return " → ".join(parts)


def number(value: signals.Value) -> str:
    """A count with thousands separated ('1,204'), a score as written ('69.4')."""
    return f"{value:,}" if isinstance(value, int) else f"{value:,g}"


def between(first: dt.date, last: dt.date) -> str:
    """'Apr 17 and May 19, 2026' (or 'Dec 2, 2025 and Jan 5, 2026'): two days as a sentence says them."""
    return f"{_day(first, first.year != last.year)} and {_day(last, True)}"


def _day(when: dt.date, with_year: bool) -> str:
    """'Apr 17, 2026' as the site writes a day ('%b' through a table: strftime took a tenth of drawing a chart)."""
    month = MONTH_NAMES[when.month - 1][:3]
    return f"{month} {when.day}, {when.year}" if with_year else f"{month} {when.day}"


def _svg(signal: str, label: str, points: signals.History) -> str:
    first, last = points[0][0].toordinal(), points[-1][0].toordinal()
    values = [value for _, value in points]
    low, high = min(0, *values), max(values)
    span_x, span_y = (last - first) or 1, (high - low) or 1
    base = HEIGHT - PAD - (0 - low) / span_y * (HEIGHT - 2 * PAD)
    xy = [(PAD + (when.toordinal() - first) / span_x * (WIDTH - 2 * PAD),
           HEIGHT - PAD - (value - low) / span_y * (HEIGHT - 2 * PAD)) for when, value in points]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    ident = f"spark-{escape(signal)}"
    days = len(points)
    parts = [
        f'<svg class="spark" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" '
        f'aria-labelledby="{ident}-title">',
        f'<title id="{ident}-title">Chart of {escape(label.lower())} on {days} days</title>',
        f'<path class="spark-area" d="M{xy[0][0]:.1f},{base:.1f} L{line.replace(" ", " L")} '
        f'L{xy[-1][0]:.1f},{base:.1f} Z" fill="currentColor" fill-opacity="0.12"/>',
        f'<line class="spark-base" x1="{PAD}" y1="{base:.1f}" x2="{WIDTH - PAD}" y2="{base:.1f}" '
        'stroke="currentColor" stroke-opacity="0.3" stroke-width="1" vector-effect="non-scaling-stroke"/>',
        f'<polyline class="spark-line" points="{line}" fill="none" stroke="currentColor" stroke-width="2" '
        'stroke-linejoin="round" stroke-linecap="round" vector-effect="non-scaling-stroke"/>',
    ]
    for n, ((when, value), (x, y)) in enumerate(zip(points, xy, strict=True)):
        latest = ' class="spark-last"' if n == days - 1 else ""
        parts.append(f'<circle{latest} cx="{x:.1f}" cy="{y:.1f}" r="{3.5 if latest else 2.5}" fill="currentColor">'
                     f'<title>{number(value)} on {_day(when, True)}</title></circle>')
    parts.append("</svg>")
    return "".join(parts)
