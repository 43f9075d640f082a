"""Publication dates as papers have them: a day, or only a month or a year.

A paper's date is often known only in part (a BibTeX `year`, a venue's month). An entry
keeps what is known, never an invented day: `date: 2025-03` or `date: 2025`. The model
holds the first day of the period, so sorting and grouping stay plain `datetime.date`
work, beside its precision, which every place that shows or exports the date reads
(`iso`, `human`): a feed, a citation or a page never claims a day nobody gave.
"""

from __future__ import annotations

import datetime as dt
import re

DAY, MONTH, YEAR = "day", "month", "year"
PRECISIONS = (DAY, MONTH, YEAR)
PARTIAL = re.compile(r"^([1-9]\d{3})(?:-(0[1-9]|1[0-2]))?\Z")  # YYYY or YYYY-MM: a full date is YAML's own type
FIRST_YEAR, LAST_YEAR = 1000, 9999
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")


def partial(value: object) -> str | None:
    """`value` as the partial date it writes ('2025-03', '2025'), or None when it is none."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    return value if PARTIAL.match(value) else None


def split(value: object) -> tuple[dt.date | None, str]:
    """A checked `date` value as the model keeps it: the period's first day and its precision."""
    if isinstance(value, dt.date):
        return value, DAY
    written = partial(value)
    if written is None:
        return None, DAY
    year, _, month = written.partition("-")
    return dt.date(int(year), int(month or 1), 1), MONTH if month else YEAR


def iso(date: dt.date | None, precision: str = DAY) -> str:
    """ISO 8601 as far as it is known: 2025-03-04, 2025-03 or 2025 (each a valid HTML `datetime`)."""
    if date is None:
        return ""
    if precision == YEAR:
        return f"{date.year:04d}"
    if precision == MONTH:
        return f"{date.year:04d}-{date.month:02d}"
    return date.isoformat()


def human(date: dt.date | None, precision: str = DAY) -> str:
    """As a reader writes it: Mar 4, 2025; March 2025; 2025."""
    if date is None:
        return ""
    if precision == YEAR:
        return str(date.year)
    if precision == MONTH:
        return f"{MONTHS[date.month - 1]} {date.year}"
    return f"{date:%b} {date.day}, {date.year}"


def slashed(date: dt.date, precision: str = DAY) -> str:
    """Highwire's `citation_publication_date` and RIS's `DA`: 2025/03/04, 2025/03 or 2025."""
    return iso(date, precision).replace("-", "/")
