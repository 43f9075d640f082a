"""Related papers as steps: each paper's text, the texts' neighbours, every list once per model, each paper's list.

* `text` (level 2, per entry file): the words of the title and abstract a paper is compared
  by, counted, with a fingerprint of them alone, so an edit of the notes, tags or date (or of
  a title's case) stops there; saved, so a title edit in a new process counts one text's words.
* `neighbours` (level 3): every paper's most alike texts (`model/similar.py`), worked out
  again only when a title or abstract changed, or a paper came or went; when texts changed
  in place, from the last result, summing again only the rows they reach (`model/likeness.py`),
  so a title edit reads one text, not 10,000, and sums a few rows, not every cosine.
* `related_lists` (level 4): every paper's list (`model/related.py`), from the model and the
  neighbours: bit masks over the whole site make all 10,000 lists in less time than
  counting a few hundred of them one by one.
* `related` (level 5, per paper): the list its page shows. Its fingerprint is the list
  itself, so a page is rendered again only when its list changed; `related_lists` tells the
  engine whose lists moved (`spread`), so the rest are not even run.

The neighbours and the lists are saved in the memo on disk: a page rendered again in a
new process reads its list without the model being built, and the next change of the
lists is compared with them. A cold build makes the lists before the render workers fork
(`SiteEngine.build`): each worker would otherwise make them again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import xxhash

from ...common.digest import digest
from ...common.forked import in_two
from ...model import likeness, related, similar
from ..engine.graph import Context, Step
from ..engine.memo import Key
from .sources import Loaded

Text = tuple[str, similar.Counts] | None  # a paper's slug, and its text's words counted
SITE, NEIGHBOURS = ("site", None), ("neighbours", None)


@dataclass
class Neighbourhood:
    """The neighbours, with whose text each entry file gave: an edited file's text replaces its paper's."""

    likeness: likeness.Likeness
    sources: dict[str, str]  # entry file -> the slug its text is compared as (the first file of a slug)


class Related:
    """The steps of the related-papers lists."""

    def __init__(self, drafts: bool):
        self.drafts = drafts

    def steps(self) -> list[Step]:
        return [
            Step("text", 2, self.text, _text_fingerprint),
            Step("neighbours", 3, self.neighbours, lambda found: digest(found.likeness.near)),
            Step("related_lists", 4, self.lists, digest, spread=_spread),
            Step("related", 5, lambda ctx, slug: ctx.get("related_lists").get(slug, ()), digest),
        ]

    def text(self, ctx: Context, rel: str) -> Text:
        """What a paper is compared by: none for an entry in error or a draft left out."""
        loaded: Loaded = ctx.get("entry", rel)
        entry = loaded.value
        if entry is None or (entry.draft and not self.drafts):
            return None
        return entry.slug, similar.counted(related.text_of(entry.title, entry.abstract))

    def neighbours(self, ctx: Context, arg: None) -> Neighbourhood:
        listed = ctx.get("folder", "content/papers")
        moved = ctx.moved  # asked first: the last result, 80 MB decoded at 10,000 papers, only if texts alone moved
        if moved and all(name == "text" for name, _ in moved) and isinstance(previous := ctx.previous, Neighbourhood):
            changed = _edited(ctx, previous, moved)
            if changed is not None:
                return Neighbourhood(likeness.updated(previous.likeness, changed), previous.sources)
        words: dict[str, similar.Counts] = {}
        sources: dict[str, str] = {}
        ctx.preload("text", listed)
        for rel in listed:
            found: Text = ctx.get("text", rel)
            if found is not None and found[0] not in words:
                words[found[0]] = found[1]
                sources[rel] = found[0]
        return Neighbourhood(likeness.whole(words, split=_in_two_neighbours), sources)

    def lists(self, ctx: Context, arg: None) -> dict[str, tuple[related.Related, ...]]:
        """Every paper's list; after a patch of the model, or texts worked into the neighbours, only those the
        edited papers and the papers whose most alike texts moved can reach."""
        built, found, previous = ctx.get("site"), ctx.get("neighbours"), ctx.previous
        near, moved = found.likeness.near, ctx.moved
        if isinstance(previous, dict) and moved and moved <= {SITE, NEIGHBOURS}:
            edited = built.edited if SITE in moved else frozenset()
            alike = found.likeness.changed if NEIGHBOURS in moved else frozenset()
            if edited is not None and alike is not None:
                return related.relisted(built.site, near, previous, edited, alike=alike)
        site = built.site
        return in_two(lambda start, end: related.lists(site, near, part=(start, end)), len(site.order),
                      dict[str, tuple[related.Related, ...]])


def _in_two_neighbours(part: Callable[[int, int], dict[str, similar.Neighbours]],
                       count: int) -> dict[str, similar.Neighbours]:
    """The texts' nearest, half of the rows summed in a forked child (a cold build's and a new entry's)."""
    return in_two(part, count, dict[str, similar.Neighbours])


def _edited(ctx: Context, previous: Neighbourhood, moved: frozenset[Key]) -> dict[str, similar.Counts] | None:
    """The texts (`moved`) that changed in place since `previous`, by slug; None if a slug changed hands or a text
    left or joined the comparison: then the neighbours start again."""
    ctx.carry()
    changed: dict[str, similar.Counts] = {}
    for _, rel in moved:
        found: Text = ctx.get("text", rel)
        if found is None or not isinstance(rel, str) or previous.sources.get(rel) != found[0]:
            return None
        changed[found[0]] = found[1]
    return changed


def _text_fingerprint(text: Text) -> str:
    if text is None:
        return "-"
    return xxhash.xxh3_128_hexdigest("\x1f".join([text[0], *(f"{w}\x1e{n}" for w, n in text[1])]).encode())


def _spread(old: Any, new: dict[str, Any]) -> Callable[[Key], bool] | None:
    """A paper's `related` can have changed only if its own list did."""
    if not isinstance(old, dict):
        return None  # not kept: every reader is looked at

    def reached(reader: Key) -> bool:
        return reader[0] != "related" or old.get(reader[1]) != new.get(reader[1])  # type: ignore[call-overload]

    return reached
