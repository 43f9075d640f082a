"""BibTeX cite keys: stable, unique, like 'hu2026vtc', clashes told apart by a, b, c in slug order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..content.slugs import slugify

if TYPE_CHECKING:
    from ..content.loader import Entry


def cite_keys(entries: Iterable[Entry]) -> dict[str, str]:
    """Unique, stable BibTeX keys like 'hu2026vtc'; clashes get a, b, c … in slug order."""
    return assign_cite_keys(cite_bases(entries))


def cite_bases(entries: Iterable[Entry]) -> dict[str, str]:
    """Each entry's key before clashes are told apart, in slug order."""
    return {e.slug: cite_base(e) for e in sorted(entries, key=lambda e: e.slug)}


def cite_base(e: Entry) -> str:
    family = slugify(e.authors[0].split()[-1]).replace("-", "") if e.authors else ""
    word = next((slugify(w).replace("-", "") for w in e.title.split() if len(slugify(w)) > 2), "paper")
    year = e.date.year if e.date else "nd"
    return f"{family}{year}{word}" if family else f"{word}{year}"


def assign_cite_keys(bases: dict[str, str]) -> dict[str, str]:
    """Keys from bases in slug order: a base shared by several entries gets a, b, c … in that order."""
    counts = Counter(bases.values())
    seen: Counter[str] = Counter()
    keys = {}
    for slug, key in bases.items():
        if counts[key] > 1:
            keys[slug] = key + _suffix(seen[key])
            seen[key] += 1
        else:
            keys[slug] = key
    return keys


def _suffix(n: int) -> str:
    """a, b, … z, then aa, ab …: the usual way to tell apart same-author same-year keys."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[n] if n < 26 else _suffix(n // 26 - 1) + letters[n % 26]
