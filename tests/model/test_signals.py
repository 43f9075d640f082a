"""Signals over time: which records carry which signal, a day's value, and the papers rising between captures."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.model import signals
from sitegen.model.signals import Rise

APR, MAY, JUN = dt.date(2026, 4, 17), dt.date(2026, 5, 19), dt.date(2026, 6, 20)


def record(**fields: Any) -> tuple[tuple[str, Any], ...]:
    """A source record as an entry holds it: its fields as sorted pairs."""
    return tuple(sorted(fields.items()))


def hf(day: Any, upvotes: Any, **more: Any) -> tuple[tuple[str, Any], ...]:
    return record(file=f"hf-{day}.txt", format="hf-daily-papers", captured=day, line=1, upvotes=upvotes, **more)


def test_a_dumps_signals_are_read_day_by_day_oldest_first() -> None:
    found = signals.histories([hf(MAY, 21), hf(APR, 12),
                               record(format="author-profile", captured=APR, score=61.5),
                               record(format="author-profile", captured="2026-05-19", score=69)])
    assert found == {"upvotes": ((APR, 12), (MAY, 21)), "score": ((APR, 61.5), (MAY, 69))}


def test_a_day_seen_twice_keeps_its_largest_value_whatever_the_order() -> None:
    assert signals.upvotes_of([hf(APR, 12), hf(APR, 15), hf(APR, 3)]) == ((APR, 15),)
    assert signals.upvotes_of([hf(APR, 3), hf(APR, 15)]) == signals.upvotes_of([hf(APR, 15), hf(APR, 3)])


def test_an_apis_score_is_how_sure_its_match_was_and_no_signal_but_its_citations_are() -> None:
    found = signals.histories([
        record(api="arxiv", id="1810.04805", retrieved=APR, match="arxiv-id", score=100.0),
        record(api="s2", id="abc", retrieved=APR, score=97.5, citations=120),
        record(api="s2", id="abc", retrieved=MAY, score=97.5, citations=151),
    ])
    assert found == {"citations": ((APR, 120), (MAY, 151))}


def test_values_that_are_no_signal_are_left_out() -> None:
    """True is no count, a negative count or a fraction of an upvote is a mistake, and a day must be a day."""
    found = signals.histories([hf(APR, True), hf(MAY, -3), hf(JUN, 2.5), hf("soon", 7), hf(None, 8),
                               record(format="hf-daily-papers", upvotes=9),  # no day at all
                               record(captured=APR, upvotes=4),  # neither a dump's record nor an API's
                               record(format="author-profile", captured=APR, score=False)])
    assert found == {}


def test_a_day_may_be_written_as_text_or_with_a_time() -> None:
    found = signals.upvotes_of([hf("2026-04-17", 1), hf("2026-05-19T08:30:00", 2),
                                hf(dt.datetime(2026, 6, 20, 9, 0), 3)])
    assert found == ((APR, 1), (MAY, 2), (JUN, 3))


def test_rising_compares_the_last_two_days_any_paper_was_seen_on() -> None:
    upvotes = {
        "old-star": ((dt.date(2026, 3, 1), 1), (APR, 90)),  # gained before, not seen on the latest day
        "steady": ((APR, 5), (MAY, 5)),
        "riser": ((APR, 3), (MAY, 10)),
        "big": ((dt.date(2026, 3, 1), 0), (APR, 40), (MAY, 52)),
        "new": ((MAY, 30),),  # first seen on the latest day: nothing to compare
        "faller": ((APR, 9), (MAY, 4)),
    }
    rising = signals.rising(upvotes)
    assert rising.captures == (APR, MAY)
    assert rising.papers == (Rise("big", 40, 52), Rise("riser", 3, 10))
    assert (rising.gained, rising.compared) == (2, 4)
    assert [r.gain for r in rising.papers] == [12, 7]


def test_equal_gains_rank_the_most_upvotes_first_then_by_slug() -> None:
    upvotes = {"b": ((APR, 1), (MAY, 6)), "a": ((APR, 1), (MAY, 6)), "c": ((APR, 5), (MAY, 10))}
    assert [r.slug for r in signals.rising(upvotes).papers] == ["c", "a", "b"]


def test_rising_lists_at_most_its_size_and_counts_the_rest() -> None:
    upvotes = {f"p{n:03}": ((APR, 0), (MAY, n)) for n in range(1, 151)}
    rising = signals.rising(upvotes)
    assert len(rising.papers) == signals.RISING_SIZE and rising.gained == rising.compared == 150
    assert rising.papers[0] == Rise("p150", 0, 150) and rising.papers[-1].after == 51


def test_one_capture_or_none_is_nothing_to_compare() -> None:
    assert signals.rising({}) == signals.Rising()
    one = signals.rising({"a": ((APR, 3),), "b": ((APR, 4),)})
    assert one == signals.Rising(captures=(APR,)) and not one.papers


def test_a_day_only_a_later_capture_saw_moves_the_comparison_on() -> None:
    """A third capture seeing one paper makes the last two days May and June: April's gains are history."""
    upvotes = {"a": ((APR, 1), (MAY, 20)), "b": ((MAY, 2), (JUN, 3))}
    assert signals.rising(upvotes).papers == (Rise("b", 2, 3),)


def test_upvote_histories_of_entries_keep_those_with_upvotes() -> None:
    class E:
        def __init__(self, slug: str, sources: tuple[Any, ...]):
            self.slug, self.sources = slug, sources

    found = signals.upvote_histories([E("a", (hf(APR, 1), hf(MAY, 4))), E("b", ()),
                                      E("c", (record(format="author-profile", captured=APR, score=3),))])
    assert found == {"a": ((APR, 1), (MAY, 4))}


HISTORIES = st.dictionaries(
    st.text("abcdef", min_size=1, max_size=3),
    st.dictionaries(st.sampled_from([APR, MAY, JUN, dt.date(2026, 3, 1)]), st.integers(0, 30), min_size=1)
    .map(lambda days: tuple(sorted(days.items()))),
    max_size=12)


@settings(deadline=None)  # a loaded machine may take a second over one example
@given(upvotes=HISTORIES, seed=st.integers(0, 1000))
def test_rising_is_the_same_whatever_order_the_papers_come_in(upvotes: dict[str, signals.History],
                                                              seed: int) -> None:
    """The patched model holds its histories in another order than a built one: the ranking must not care."""
    shuffled = list(upvotes.items())
    random.Random(seed).shuffle(shuffled)
    assert signals.rising(dict(shuffled)) == signals.rising(upvotes)


@settings(deadline=None)
@given(upvotes=HISTORIES)
def test_rising_ranks_exactly_the_papers_that_gained_between_the_last_two_days(
        upvotes: dict[str, signals.History]) -> None:
    days = sorted({day for history in upvotes.values() for day, _ in history})
    rising = signals.rising(upvotes, size=1000)
    if len(days) < 2:
        assert rising.papers == ()
        return
    before, after = days[-2], days[-1]
    seen = {slug: (dict(h)[before], dict(h)[after]) for slug, h in upvotes.items() if {before, after} <= dict(h).keys()}
    assert rising.compared == len(seen)
    assert {(r.slug, r.before, r.after) for r in rising.papers} == {(s, b, a) for s, (b, a) in seen.items() if a > b}
    keys = [(-r.gain, -r.after, r.slug) for r in rising.papers]
    assert keys == sorted(keys)


RECORDS = st.lists(st.fixed_dictionaries(
    {}, optional={"format": st.sampled_from(["hf-daily-papers", ""]), "api": st.just("s2"),
                  "captured": st.sampled_from([APR, MAY, "2026-06-20", "later", None]),
                  "upvotes": st.one_of(st.integers(-2, 40), st.booleans(), st.floats(0, 5), st.none())})
    .map(lambda fields: tuple(sorted(fields.items()))), max_size=6)


@settings(deadline=None)
@given(sources=RECORDS)
def test_the_models_own_reading_of_upvotes_is_the_pages(sources: list[tuple[tuple[str, Any], ...]]) -> None:
    """`upvotes_of` (every entry, for the Rising page) reads what `histories` (a paper's chart) reads."""
    assert signals.upvotes_of(sources) == signals.histories(sources).get("upvotes", ())
