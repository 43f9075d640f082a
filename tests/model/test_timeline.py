"""The timeline's years and their months: each year's row of the chart counts its papers month by month."""

from __future__ import annotations

from collections import Counter

from sitegen.common.errors import Report
from sitegen.content.loader import load_content
from sitegen.model import timeline

from ..html_tools import REPO, committed_entries, entry_date


def test_a_years_counts_are_its_papers_month_by_month_january_first() -> None:
    report = Report()
    entries = list(load_content(REPO, report).entries)
    years = timeline.site_years(entries)
    by_month = Counter((d.year, d.month) for m in committed_entries().values() if (d := entry_date(m)))
    for year in years:
        assert len(year.counts) == 12
        if year.year:
            assert year.counts == tuple(by_month[year.year, month] for month in range(1, 13)), year.label
            assert sum(year.counts) == len(year.papers)
        else:
            assert year.counts == (0,) * 12 and year.papers  # the undated papers have no month
    assert [y.year for y in years] == [*sorted((y.year for y in years if y.year), reverse=True), 0]


def test_month_names_are_the_calendars() -> None:
    year = timeline.make_year(2024, [])
    assert year.counts == (0,) * 12 and year.months == () and year.slug == "2024"
    assert timeline.MONTH_NAMES[0] == "January" and timeline.MONTH_NAMES[11] == "December"
