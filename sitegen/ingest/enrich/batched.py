"""Title lookups for many entries at once, where a source allows it.

Asked one title at a time, under the services' published pacing (Hugging Face 500 calls in
5 minutes, arXiv one request every 3 s), 10,000 entries took hours. Two sources answer for
many papers in one request:

* **Hugging Face's Daily Papers, by month.** An entry imported from a Daily Papers listing
  is on the month's list (its paper's date, and the next month too near the month's end:
  a paper is listed a few days after it appears). One listing is a few hundred papers in
  pages of 100, asked once per run and kept in `content/lookups/` like every answer.
* **arXiv's query language**, which ORs phrases: `ti:"…" OR ti:"…"` finds the papers of
  `TITLES` titles in one request. When arXiv found as many papers as it was asked to send,
  some may be missing, and each of those titles is searched alone.

A listing holds hundreds of papers; each entry is given as candidates only those whose
title could pass the matcher's title check (`match.TITLE_MIN`), which every other
candidate fails: the decision is the one a search for its title alone would give.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

from rapidfuzz import fuzz, process

from .match import TITLE_MIN, normalize
from .record import Record

TITLES = 10  # titles per arXiv request: a URL of about 1,500 characters
DAILY_FORMAT = "hf-daily-papers"  # the importer's name for a Daily Papers listing, in an entry's `sources`
LATE_DAYS = 20  # a paper from this day of its month on may be listed in the next month
T = TypeVar("T")


class Looked(Protocol):
    """What a batch needs of an entry being looked up (run.Target)."""

    meta: dict[str, Any]
    candidates: list[Record]


def listed_months(meta: dict[str, Any]) -> tuple[str, ...]:
    """The months (`2025-03`) whose Daily Papers list may hold the entry's paper: none unless the entry came
    from a Daily Papers listing and has a date."""
    sources = meta.get("sources")
    listed = isinstance(sources, list) and any(isinstance(s, dict) and s.get("format") == DAILY_FORMAT
                                               for s in sources)
    date = meta.get("date")
    if not listed or not isinstance(date, dt.date):
        return ()
    months = [f"{date.year:04d}-{date.month:02d}"]
    if date.day >= LATE_DAYS:
        following = date.replace(day=1) + dt.timedelta(days=32)
        months.append(f"{following.year:04d}-{following.month:02d}")
    return tuple(months)


def near_titles(title: str, pool: Sequence[Record], normalized: Sequence[str]) -> list[Record]:
    """The records of `pool` whose title could pass the matcher's title check against `title`."""
    hits = process.extract(normalize(title), normalized, scorer=fuzz.ratio, score_cutoff=TITLE_MIN - 1,
                           limit=None)
    return [pool[index] for _, _, index in sorted(hits, key=lambda hit: hit[2])]


def from_listings(targets: Iterable[Looked], listing: Callable[[str], list[Record] | None]) -> None:
    """Give each target the papers of its months' Daily Papers lists whose titles are near its own
    (`listing(month)` is the month's list, None when the source could not be asked)."""
    pools: dict[str, tuple[list[Record], list[str]] | None] = {}
    for target in targets:
        for month in listed_months(target.meta):
            if month not in pools:
                records = listing(month)
                pools[month] = None if records is None else (records, [normalize(r.title) for r in records])
            pool = pools[month]
            if pool is not None:
                share([target], *pool)


def title_groups(targets: Sequence[T]) -> list[list[T]]:
    """Targets in groups of `TITLES`, one arXiv request each."""
    return [list(targets[i:i + TITLES]) for i in range(0, len(targets), TITLES)]


def share(group: Sequence[Looked], records: Sequence[Record], normalized: Sequence[str] | None = None) -> None:
    """Give each target of a group the papers of the group's answer whose titles are near its own (`normalized`:
    the records' titles as compared, when a listing shared by many groups has them already)."""
    normalized = normalized if normalized is not None else [normalize(r.title) for r in records]
    for target in group:
        target.candidates += [r for r in near_titles(str(target.meta.get("title", "")), records, normalized)
                              if r not in target.candidates]
