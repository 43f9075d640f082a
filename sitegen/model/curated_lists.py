"""The lists the curator's marks make: recently added, the reading queue, and where to start.

Each is a list of slugs in a key's order, ties in the site's order (newest first). After an
edit, `reinserted` takes the edited papers out and puts back those that belong: the papers
not edited keep their order, so only the edited ones can move, each found by bisection (a
saved model's other entries are read a dozen times, not 10,000). `model_patch` patches each
list so; `model` makes them whole.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..content.loader import Entry

# The reading queue: papers being read, then those waiting to be read (an entry's `status`)
QUEUE_STATUSES = ("reading", "to-read")
PICK_RATINGS = (5, 4)  # after the pinned papers, the best rated: what the home page offers to start with
PICKS_SHOWN = 4  # of them, on the home page


def home_key(entry: Entry, position: int) -> tuple[int, ...]:
    """The home page's order by addition: by date added, newest first, an entry never added by its date of
    publication instead (a hand-written entry without `added` is not sent to the last page); undated last."""
    day = entry.added or entry.date
    return (0, -day.toordinal(), position) if day else (1, 0, position)


def recent_key(entry: Entry, position: int) -> tuple[int, int] | None:
    """By date added, newest first; an entry with no date added is not listed."""
    return (-entry.added.toordinal(), position) if entry.added else None


def queue_key(entry: Entry, position: int) -> tuple[int, int] | None:
    """Papers being read, then those to read; the others are not queued."""
    return (QUEUE_STATUSES.index(entry.status), position) if entry.status in QUEUE_STATUSES else None


def pick_key(entry: Entry, position: int) -> tuple[int, int] | None:
    """Pinned papers first, then those rated 5, then 4; the others are no picks."""
    if entry.pinned:
        return 0, position
    return (1 + PICK_RATINGS.index(entry.rating), position) if entry.rating in PICK_RATINGS else None


Key = Callable[["Entry", int], "tuple[int, ...] | None"]


def listed(entries: Sequence[Entry], key: Key) -> tuple[str, ...]:
    """The slugs of the entries (in the site's order) that `key` lists, in its order."""
    keyed = [(k, e.slug) for i, e in enumerate(entries) if (k := key(e, i)) is not None]
    return tuple(slug for _, slug in sorted(keyed))


def reinserted(before: tuple[str, ...], order: Sequence[str], edited: Mapping[str, Entry],
               entry: Callable[[str], Entry], key: Key) -> tuple[str, ...]:
    """`listed` after an edit, from the list before it: the edited papers taken out and put back."""
    position = {slug: i for i, slug in enumerate(order)}

    def place(slug: str) -> tuple[int, ...]:
        found = key(entry(slug), position[slug])
        assert found is not None, f"{slug} is listed"
        return found

    kept = [slug for slug in before if slug not in edited]
    for slug in sorted(edited):
        if key(edited[slug], position[slug]) is not None:
            kept.insert(bisect.bisect_left(kept, place(slug), key=place), slug)
    return tuple(kept)
