"""A paper's signals drawn as small SVG charts: one a signal seen on two days or more, each said in words."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET

from sitegen.render import sparkline

from ..model.test_signals import APR, JUN, MAY, hf, record

SVG = "{http://www.w3.org/2000/svg}"


def _svg(chart: sparkline.Chart) -> ET.Element:
    """The chart parsed as XML (it must be well formed), with the SVG namespace an HTML parser gives it."""
    return ET.fromstring(str(chart.svg).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1))


def _points(chart: sparkline.Chart) -> list[tuple[float, float]]:
    circles = _svg(chart).iter(f"{SVG}circle")
    return [(float(c.get("cx", "")), float(c.get("cy", ""))) for c in circles]


def test_a_chart_for_each_signal_seen_on_two_days_in_a_fixed_order() -> None:
    sources = [record(format="author-profile", captured=APR, score=61.5), hf(APR, 12),
               record(format="author-profile", captured=MAY, score=69.4), hf(MAY, 21),
               record(api="s2", id="x", retrieved=MAY, citations=4)]  # citations on one day: no chart
    charts = sparkline.charts(sources)
    assert [(c.signal, c.label) for c in charts] == [("upvotes", "Upvotes"), ("score", "Score")]
    assert sparkline.heading(charts) == "Upvotes and score over time"
    assert sparkline.charts([hf(APR, 12)]) == () and sparkline.charts([]) == ()


def test_the_caption_says_every_point_with_the_year_where_it_changes() -> None:
    [chart] = sparkline.charts([hf(APR, 12), hf(MAY, 1204)])
    assert chart.text == "12 on Apr 17 → 1,204 on May 19, 2026"
    [chart] = sparkline.charts([hf(dt.date(2025, 12, 2), 3), hf(APR, 12), hf(MAY, 21)])
    assert chart.text == "3 on Dec 2, 2025 → 12 on Apr 17 → 21 on May 19, 2026"


def test_a_long_history_says_its_first_and_last_two_points() -> None:
    days = [dt.date(2026, 1, 1) + dt.timedelta(days=7 * n) for n in range(9)]
    [chart] = sparkline.charts([hf(day, n) for n, day in enumerate(days)])
    assert chart.text == "0 on Jan 1 → … → 7 on Feb 19 → 8 on Feb 26, 2026"
    titles = [t.text for t in _svg(chart).iter(f"{SVG}title")]
    assert titles[0] == "Chart of upvotes on 9 days" and len(titles) == 10  # and each point says its own


def test_points_are_placed_by_date_and_value_from_zero() -> None:
    [chart] = sparkline.charts([hf(APR, 10), hf(dt.date(2026, 4, 27), 20), hf(JUN, 40)])
    (x0, y0), (x1, y1), (x2, y2) = _points(chart)
    left, right = sparkline.PAD, sparkline.WIDTH - sparkline.PAD
    assert (x0, x2) == (left, right) and abs((x1 - x0) / (x2 - x0) - 10 / 64) < 0.01  # ten days of 64
    bottom, top = sparkline.HEIGHT - sparkline.PAD, sparkline.PAD
    assert y2 == top and abs((bottom - y0) / (bottom - top) - 0.25) < 0.01  # 10 is a quarter of 40
    assert y0 > y1 > y2


def test_a_flat_history_and_one_of_zeros_are_drawn_level() -> None:
    [flat] = sparkline.charts([hf(APR, 1), hf(MAY, 1)])
    assert {y for _, y in _points(flat)} == {sparkline.PAD}
    [zeros] = sparkline.charts([hf(APR, 0), hf(MAY, 0)])
    assert {y for _, y in _points(zeros)} == {sparkline.HEIGHT - sparkline.PAD}


def test_the_chart_is_named_coloured_by_the_theme_and_the_same_each_time() -> None:
    sources = [hf(APR, 12), hf(MAY, 21)]
    [chart] = sparkline.charts(sources)
    svg = _svg(chart)
    assert svg.get("role") == "img" and svg.get("aria-labelledby") == "spark-upvotes-title"
    assert next(svg.iter(f"{SVG}title")).get("id") == "spark-upvotes-title"
    colours = {e.get("fill") for e in svg.iter() if e.get("fill") not in (None, "none")}
    colours |= {e.get("stroke") for e in svg.iter() if e.get("stroke")}
    assert colours == {"currentColor"}  # the theme's colour, light or dark
    assert sparkline.charts(list(reversed(sources))) == (chart,)


def test_between_says_two_days_as_a_sentence_does() -> None:
    assert sparkline.between(APR, MAY) == "Apr 17 and May 19, 2026"
    assert sparkline.between(dt.date(2025, 12, 2), MAY) == "Dec 2, 2025 and May 19, 2026"
