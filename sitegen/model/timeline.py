"""The timeline: the papers by year of publication, and each year's papers by month."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..content.dates import YEAR

if TYPE_CHECKING:
    from ..content.loader import Entry

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")


@dataclass(frozen=True)
class Month:
    number: int
    name: str
    papers: tuple[str, ...]


@dataclass(frozen=True)
class Year:
    """A publication year of the timeline; year 0 is the 'undated' group."""

    year: int
    papers: tuple[str, ...]
    months: tuple[Month, ...]

    @property
    def label(self) -> str:
        return str(self.year) if self.year else "Undated"

    @property
    def slug(self) -> str:
        return year_slug(self.year)

    @property
    def counts(self) -> tuple[int, ...]:
        """Papers a month, January to December: this year's row of the timeline's chart."""
        papers = {m.number: len(m.papers) for m in self.months}
        return tuple(papers.get(number, 0) for number in range(1, 13))


def year_slug(year: int | None) -> str:
    """A year's timeline slug; year 0 (or none) is the undated group."""
    return str(year) if year else "undated"


def site_years(entries: list[Entry]) -> tuple[Year, ...]:
    """The timeline of these entries (newest first): newest year first, the undated last."""
    by_year: dict[int, list[Entry]] = defaultdict(list)
    for e in entries:
        by_year[e.date.year if e.date else 0].append(e)
    return tuple(make_year(year, by_year[year]) for year in sorted(by_year, key=year_sort_key))


def year_sort_key(year: int) -> tuple[bool, int]:
    """Newest year first, the undated group (year 0) last."""
    return year == 0, -year


def make_year(year: int, own: list[Entry]) -> Year:
    """A year of the timeline from its entries, newest first."""
    months: dict[int, list[str]] = defaultdict(list)
    for e in own:
        if e.date and e.date_precision != YEAR:  # a year alone is in no month: its page lists it apart
            months[e.date.month].append(e.slug)
    return Year(year, tuple(e.slug for e in own),
                tuple(Month(m, MONTH_NAMES[m - 1], tuple(months[m])) for m in sorted(months, reverse=True)))
