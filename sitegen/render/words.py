"""Counts in words, so no page says "1 papers" or "1 authors"."""

from __future__ import annotations


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """'1 paper', '2 papers'; `plural` for nouns that do not just take an 's' ('category', 'categories')."""
    return f"{count} {singular if count == 1 else plural or singular + 's'}"
