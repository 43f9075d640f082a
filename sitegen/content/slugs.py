"""Slugs for URLs and file names: lowercase ASCII, bounded, never empty, never a path."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

from slugify import slugify as _slugify

MAX_SLUG = 60
_SAFE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_PLAIN = re.compile(r"[A-Za-z0-9 .\-]+")  # names and words python-slugify only lowercases and joins
_SEPARATORS = re.compile(r"[^a-z0-9]+")


def short_hash(text: str, length: int = 8) -> str:
    """A stable short hex digest, used where text has no ASCII letters to slug."""
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:length]


@lru_cache(maxsize=65536)
def slugify(text: str, max_length: int = MAX_SLUG) -> str:
    """Transliterate to lowercase ASCII words joined by '-' (e.g. 'Łukasz' -> 'lukasz').

    Falls back to a hash of the text when nothing ASCII survives (CJK, symbols),
    so the result is never empty and never holds '/', '.' or '..'.
    """
    plain = text if text.isascii() else _strip_accents(text)
    if len(plain) <= max_length and _PLAIN.fullmatch(plain):
        slug = _SEPARATORS.sub("-", plain.lower()).strip("-")  # the common case, many times faster
        if slug:
            return slug
    text = unicodedata.normalize("NFKC", text).replace("\\&", "&")
    slug = _slugify(text, max_length=max_length, word_boundary=True, save_order=True)
    if not _SAFE.match(slug):
        slug = "p-" + short_hash(text)
    return slug


def _strip_accents(text: str) -> str:
    """'Müller' -> 'Muller': letters that are an ASCII letter plus accents lose the accents,
    as the transliterator does; anything else is left for the transliterator."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def unique_slug(base: str, taken: set[str], seed: str) -> str:
    """`base`, or `base-<hash>` (then `-2`, `-3` …) when another item already owns it."""
    if base not in taken:
        return base
    candidate = f"{base[: MAX_SLUG - 9]}-{short_hash(seed, 8)}"
    n = 2
    while candidate in taken:
        candidate = f"{base[: MAX_SLUG - 12]}-{short_hash(seed, 8)}-{n}"
        n += 1
    return candidate


def is_safe_slug(slug: str) -> bool:
    """True when `slug` is a single lowercase path segment a writer may use."""
    return bool(_SAFE.match(slug)) and len(slug) <= MAX_SLUG + 12
