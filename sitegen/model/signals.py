"""A paper's standing over time, from its dated `sources` records, and the papers rising between captures.

Each import records what a dump showed of a paper on the day the dump was captured
("format", "captured" and the signals it showed: "upvotes", a ranking site's "score");
`sitegen enrich` records what an API said on the day it was asked ("api", "retrieved").
A signal recorded on two or more days has a history, which the paper's page draws.

The Rising page compares the list's last two captures: the two latest days on which any
paper's upvotes were recorded. A paper seen on both days gained the difference; the page
lists those that gained, the largest gain first, then the most upvotes, then by slug.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

# The signals a record may carry, in the order a page shows them, with their names as a reader reads them
SIGNALS = (("upvotes", "Upvotes"), ("score", "Score"), ("citations", "Citations"))
NAMES = tuple(name for name, _ in SIGNALS)
# What an API's record says of a paper's standing: its "score" is how sure the match was, not a signal
API_SIGNALS = frozenset({"citations"})
RISING_SIZE = 100  # papers on the Rising page: those that gained most, not every paper seen twice

Value = int | float
History = tuple[tuple[dt.date, Value], ...]  # (day, value), oldest first, one value a day


@dataclass(frozen=True)
class Rise:
    """A paper's upvotes on the two days compared."""

    slug: str
    before: int
    after: int

    @property
    def gain(self) -> int:
        return self.after - self.before


@dataclass(frozen=True)
class Rising:
    """The papers that gained most upvotes between the list's last two captures (`captures`: previous, latest)."""

    captures: tuple[dt.date, ...] = ()
    papers: tuple[Rise, ...] = ()  # at most RISING_SIZE, the largest gain first
    gained: int = 0  # how many papers gained, listed or not
    compared: int = 0  # how many papers were seen on both days


def day(value: Any) -> dt.date | None:
    """A record's day: a date, or text that starts with one ('2026-04-17', '2026-04-17T08:00')."""
    if type(value) is dt.date:  # as YAML reads a day, first (a datetime is a date too, and is cut to one)
        return value
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def _value(signal: str, value: Any) -> Value | None:
    """A signal's value as recorded, when it is one: a count for upvotes and citations, any number for a score."""
    if value is None or isinstance(value, bool):
        return None
    if signal == "score":
        return value if isinstance(value, int | float) else None
    return value if isinstance(value, int) and value >= 0 else None


def histories(sources: Iterable[Iterable[tuple[str, Any]]], wanted: Iterable[str] = NAMES) -> dict[str, History]:
    """Each signal's history in these records (signal -> days and values); a day seen twice keeps its largest value."""
    wanted = tuple(wanted)
    from_apis = tuple(s for s in wanted if s in API_SIGNALS)
    seen: dict[str, dict[dt.date, Value]] = {}
    for pairs in sources:
        record = dict(pairs)
        if record.get("format"):
            allowed, when = wanted, record.get("captured")
        elif record.get("api"):
            allowed, when = from_apis, record.get("retrieved")
        else:
            continue
        found = [(signal, value) for signal in allowed if signal in record
                 and (value := _value(signal, record[signal])) is not None]
        if not found or (when := day(when)) is None:
            continue
        for signal, value in found:
            days = seen.setdefault(signal, {})
            days[when] = max(days.get(when, value), value)
    return {signal: tuple(sorted(days.items())) for signal, days in seen.items()}


def upvotes_of(sources: Iterable[Iterable[tuple[str, Any]]]) -> History:
    """A paper's upvotes day by day (empty when none was recorded): `histories`' upvotes, in one pass of its own,
    since the model reads every entry's (a third of the time `histories` takes)."""
    days: dict[dt.date, int] = {}
    for pairs in sources:
        record = dict(pairs)
        value = record.get("upvotes")
        if value.__class__ is int and value >= 0 and record.get("format"):
            when = day(record.get("captured"))
            if when is not None:
                days[when] = max(days.get(when, value), value)
    return tuple(sorted(days.items()))


def upvote_histories(entries: Iterable[Any]) -> dict[str, History]:
    """Slug -> upvote history of every entry with upvotes recorded on some day: what `rising` is made from."""
    found = {}
    for e in entries:
        if e.sources:
            history = upvotes_of(e.sources)
            if history:
                found[e.slug] = history
    return found


def rising(upvotes: Mapping[str, History], size: int = RISING_SIZE) -> Rising:
    """The papers ranked by their gain between the last two days any paper's upvotes were recorded.

    Whatever order `upvotes` is in, the result is the same: the ranking ends with the slug.
    """
    latest = previous = None  # the last two days any paper was seen on
    for history in upvotes.values():
        for when, _ in history:
            if latest is None or when > latest:
                latest, previous = when, latest
            elif when != latest and (previous is None or when > previous):
                previous = when
    if latest is None or previous is None:
        return Rising(captures=() if latest is None else (latest,))
    rises = []
    for slug, history in upvotes.items():
        if len(history) > 1 and history[-1][0] == latest and history[-2][0] == previous:
            rises.append(Rise(slug, int(history[-2][1]), int(history[-1][1])))
    gained = [r for r in rises if r.gain > 0]
    gained.sort(key=lambda r: (-r.gain, -r.after, r.slug))
    return Rising((previous, latest), tuple(gained[:size]), len(gained), len(rises))
