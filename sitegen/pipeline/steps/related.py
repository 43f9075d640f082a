"""Related papers as steps: each paper's text, the texts' neighbours, every list once per model, each paper's list.

* `text` (level 2, per entry file): the words of the title and abstract a paper is compared
  by, counted, with a fingerprint of them alone, so an edit of the notes, tags or date (or of
  a title's case) stops there; saved, so a title edit in a new process counts one text's words.
* `neighbours` (level 3): every paper's most alike texts (`model/similar.py`), worked out
  again only when a title or abstract changed, or a paper came or went.
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
from typing import Any

import xxhash

from ...model import related, similar
from ..engine.graph import Context, Step
from ..engine.memo import Key
from .sources import Loaded, digest

Text = tuple[str, tuple[tuple[str, int], ...]] | None  # a paper's slug, and its text's words counted


class Related:
    """The steps of the related-papers lists."""

    def __init__(self, drafts: bool):
        self.drafts = drafts

    def steps(self) -> list[Step]:
        return [
            Step("text", 2, self.text, _text_fingerprint),
            Step("neighbours", 3, self.neighbours, digest),
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

    def neighbours(self, ctx: Context, arg: None) -> dict[str, similar.Neighbours]:
        words: dict[str, dict[str, int]] = {}
        listed = ctx.get("folder", "content/papers")
        ctx.preload("text", listed)
        for rel in listed:
            found: Text = ctx.get("text", rel)
            if found is not None and found[0] not in words:
                words[found[0]] = dict(found[1])
        return similar.nearest_counted(words)

    def lists(self, ctx: Context, arg: None) -> dict[str, tuple[related.Related, ...]]:
        """Every paper's list; after a patch of the model alone, only those the edited papers can reach."""
        built, near, previous = ctx.get("site"), ctx.get("neighbours"), ctx.previous
        if isinstance(previous, dict) and built.edited is not None and ctx.moved == {("site", None)}:
            return related.relisted(built.site, near, previous, built.edited)
        return related.lists(built.site, near)


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
