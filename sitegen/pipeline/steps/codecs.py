"""How each step's value is saved in the memo on disk (msgpack through msgspec), or that it is not.

A value not saved (the Jinja environment, an author with its co-author network,
a row, which is its entry again, an entry, which the entry cache holds, a paper's citation
piece, which its run holds joined) is made again when a step reads it. The model is saved
without its entries (saved_model.py). Profiles are stored with their sources' dates tagged, as the entry cache
stores entries; a paper is stored without its entry, which it takes back from the entry's
step when decoded.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from ...common.errors import Diagnostic
from ...content.cache import restored, storable
from ...content.config import SiteConfig
from ...content.loader import AuthorProfile, Entry
from ...model import likeness
from ...model.citations import Citations
from ...model.collab import Collaboration
from ...model.mentions import Mentions
from ...model.model import Ref
from ...model.people import Byline
from ...model.related import Related
from ...model.signals import Rising
from ...model.similar import Neighbours
from ...model.site import Author, Paper, Tag
from ...model.timeline import Year
from ..engine.memo import ABSENT, Key
from . import saved_model
from .related import Neighbourhood
from .sources import Loaded

# step -> the type its saved value decodes to (steps not named here are not saved)
TYPES: dict[str, Any] = {
    "file": str, "folder": tuple[str, ...], "template_file": str, "template_names": tuple[str, ...],
    "template": str, "config": SiteConfig, "assets": dict[str, str], "static": dict[str, str],
    "profile": tuple[AuthorProfile | None, tuple[Diagnostic, ...]],
    "paper": tuple[str, str, tuple[Byline, ...], tuple[Ref, ...], Ref | None, str, str | None, str | None,
                   tuple[Byline, ...], Mentions | None, Citations | None] | None,
    "author": tuple[str, str, tuple[str, ...], AuthorProfile | None] | None,
    "author_links": tuple[tuple[Ref, ...], tuple[Ref, ...], int],
    "tag": Tag | None, "category": Tag | None, "year": Year | None,
    "order": tuple[str, ...], "recent": tuple[str, ...], "queue": tuple[str, ...], "queued": bool,
    "picks": tuple[str, ...], "home": tuple[str, ...], "home_slice": tuple[str, ...],
    "rising": Rising, "has_rising": bool,
    "count": int, "order_slice": tuple[str, ...], "tag_counts": tuple[tuple[str, str, bool, int], ...],
    "year_counts": tuple[tuple[str, str, int, int, tuple[int, ...], tuple[tuple[int, str, int], ...]], ...],
    "slugs": tuple[str, ...], "pages": int, "redirects": tuple[tuple[str, str], ...],
    "tags": tuple[Tag, ...], "categories": tuple[Tag, ...], "years": tuple[Year, ...],
    "plan": tuple[tuple[str, str, str, str], ...], "item": str, "feed_entry": str, "newest_date": str, "lastmod": str,
    "piece_run": str, "run_starts": tuple[str, ...], "run_papers": tuple[str, ...],
    "search_record": str, "search_slugs": tuple[str, ...], "search_shard": str,
    "site": saved_model.Saved,  # the model but for its papers' entries (saved_model.py)
    "collaboration": Collaboration,  # saved, so the network page needs no model after a template edit
    "citation_graph": Collaboration,
    # the texts' neighbours, costly to make again, and every paper's related list, made from the model
    # (saved as the nearest, each text's words, the words' frequencies, the texts' vectors, which file gave each)
    "neighbours": tuple[dict[str, Neighbours], dict[str, str], dict[str, int],
                        list[tuple[tuple[str, float], ...]] | None, dict[str, str]],
    "related_lists": dict[str, tuple[Related, ...]],
    "text": tuple[str, tuple[tuple[str, int], ...]] | None,  # what the neighbours are made from: 10,000 read
    # after a title edit
}


def encode(key: Key, value: Any) -> Any:
    """A value as the memo saves it, or ABSENT for a step whose values are made again instead."""
    step = key[0]
    if step not in TYPES:
        return ABSENT
    if step == "profile":
        found = value.value
        return [storable(found) if isinstance(found, Entry) else found, value.problems]
    if step == "paper" and value is not None:
        return (value.entry.source_path, value.route, value.authors, value.tags, value.category, value.cite_key,
                value.newer, value.older, value.unlisted_authors, value.mentions, value.citations)
    if step == "static":
        return {name: str(path) for name, path in value.items()}
    if step == "site":
        return saved_model.saved(value)
    if step == "author":  # its fields; the co-author network is the model's (see author_links)
        return None if value is None else (value.name, value.slug, value.papers, value.profile)
    if step == "neighbours":  # words as strings, and the index as its vectors (likeness.saved)
        return (*likeness.saved(value.likeness), value.sources)
    return value


_DECODERS: dict[str, msgspec.msgpack.Decoder[Any]] = {}


def decode(key: Key, data: bytes, value_of: Callable[[Key], Any]) -> Any:
    """A saved value (its msgpack bytes) back as its step made it (`value_of` gives another key's value from the
    memo). Decoded straight to the step's type: three times as quick as to plain lists, then converted (10,000
    texts' words: 0.09 against 0.3 s)."""
    step = key[0]
    decoder = _DECODERS.get(step)
    if decoder is None:
        decoder = _DECODERS[step] = msgspec.msgpack.Decoder(TYPES[step], strict=False)
    value = decoder.decode(data)
    if step == "profile":
        found, problems = value
        return Loaded(restored(found) if isinstance(found, Entry) else found, problems)
    if step == "paper" and value is not None:
        loaded = value_of(("entry", value[0]))  # what the paper read: current while the paper's record is
        if not isinstance(loaded, Loaded) or not isinstance(loaded.value, Entry):
            raise ValueError(f"no entry for {key!r}")
        return Paper(loaded.value, *value[1:])
    if step == "static":
        return {name: Path(path) for name, path in value.items()}
    if step == "author":
        return None if value is None else Author(*value)
    if step == "site":
        return saved_model.restored(value, value_of)
    if step == "neighbours":
        near, words, frequency, vectors, sources = value
        return Neighbourhood(likeness.restored(near, words, frequency, vectors), sources)
    return value
