"""The model's parts as fingerprints: what each projection of it gives, by step and argument.

The `site` step's fingerprint is a digest of its parts, so the same entries give the same
fingerprint in every process (a fresh random one made every reader run again). A new
model compared with the parts of the last one (kept in memory, or saved with the memo)
says which readers it reached (`reached`): after a title edit in a new process the model
is made again from every row, yet only the projections whose part moved are run. A part
changes whenever what its projection gives can change (it may change more often, never less).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

import msgspec
import xxhash

from ...model.site import Author, Paper, Site
from ..engine.memo import Key

Parts = dict[str, dict[str, int]]  # step -> argument ("" for none) -> fingerprint
_encode = msgspec.msgpack.Encoder().encode
_sorted = msgspec.msgpack.Encoder(order="sorted").encode
_MASK = (1 << 63) - 1


def _fp(value: Any) -> int:
    try:
        data = _encode(value)
    except TypeError:
        data = repr(value).encode()
    return xxhash.xxh3_64_intdigest(data) & _MASK


def _placed(paper: Paper) -> int:
    """Where the model places a paper: what the `paper` step takes from the model (its entry it reads itself)."""
    return _fp((paper.route, paper.authors, paper.tags, paper.category, paper.cite_key, paper.newer, paper.older,
                paper.unlisted_authors, paper.mentions, paper.citations))


def _links(author: Author, bylines: dict[str, int]) -> int:
    """What an author's co-authors and topics are made of: each of their papers' authors and tags."""
    return _fp([bylines[slug] for slug in author.papers if slug in bylines])


def _bylines(site: Site, slugs: Iterable[str]) -> dict[str, int]:
    return {slug: _fp((p.authors, p.unlisted_authors, p.tags)) for slug in slugs if (p := site.papers.get(slug))}


def _author(author: Author) -> int:
    return _fp((author.name, author.slug, author.papers, author.profile))


VIEWS: dict[str, Callable[[Site], Any]] = {
    "order": lambda s: s.order, "recent": lambda s: s.recent, "queue": lambda s: s.queue, "picks": lambda s: s.picks,
    "home": lambda s: s.home,
    "queued": lambda s: bool(s.queue), "rising": lambda s: s.rising, "has_rising": lambda s: s.has_rising,
    "pages": lambda s: s.pages, "redirects": lambda s: tuple(tuple(r) for r in s.redirects), "tags": lambda s: s.tags,
    "categories": lambda s: s.categories, "years": lambda s: s.years,
}
KINDS = ("authors", "tags", "categories", "years")  # the arguments of `slugs`


def parts_of(site: Site, previous: Parts | None = None, papers: Iterable[str] = (), authors: Iterable[str] = (),
             tags: Iterable[str] = (), categories: Iterable[str] = (), years: Iterable[str] = ()) -> Parts:
    """Every part of `site`; or, given the parts of the model it was patched from, those of the parts the patch
    touched worked out again and every whole-site view."""
    if previous is None:
        papers, authors = site.order, site.author_index
        tags, categories = site.tag_index, [c.slug for c in site.categories]
        years = [y.slug for y in site.years]
        parts: Parts = {name: {} for name in ("paper", "author", "author_links", "tag", "category", "year")}
    else:
        parts = {name: dict(table) for name, table in previous.items()}
    authors = list(authors)
    parts["paper"].update((slug, _placed(site.papers[slug])) for slug in papers if slug in site.papers)
    wanted = {slug for a in authors if (author := site.author_index.get(a)) for slug in author.papers}
    bylines = _bylines(site, wanted)
    for slug in authors:
        author = site.author_index.get(slug)
        if author is not None:
            parts["author"][slug] = _author(author)
            parts["author_links"][slug] = _links(author, bylines)
    parts["tag"].update((slug, _fp(site.tag_index.get(slug))) for slug in tags)
    by_slug = {c.slug: c for c in site.categories}
    parts["category"].update((slug, _fp(by_slug.get(slug))) for slug in categories)
    years_by_slug = {y.slug: y for y in site.years}
    parts["year"].update((slug, _fp(years_by_slug.get(slug))) for slug in years)
    parts["views"] = {name: _fp(view(site)) for name, view in VIEWS.items()}
    parts["views"]["authors"] = _fp([parts["author"].get(a.slug) for a in site.authors])
    parts["slugs"] = {kind: _fp([x.slug for x in getattr(site, kind)]) for kind in KINDS}
    return parts


def fingerprint(parts: Parts) -> str:
    """The model's fingerprint: a digest of its parts, in sorted order (the same model, the same digest)."""
    return xxhash.xxh3_128_hexdigest(_sorted(parts))


def edited(old: Parts, new: Parts) -> frozenset[str] | None:
    """The papers whose place moved between two models; None when papers came or went."""
    before, after = old.get("paper", {}), new.get("paper", {})
    if before.keys() != after.keys():
        return None
    return frozenset(slug for slug, fp in after.items() if before[slug] != fp)


def reached(old: Parts, new: Parts) -> Callable[[Key], bool]:
    """Which readers of the model a change from `old` to `new` can have changed: those whose part moved,
    and every reader that is not a projection (the co-author graph, the related lists)."""
    def moved(reader: Key) -> bool:
        step, argument = reader
        table, name = ("views", step) if step in new["views"] else (step, _argument(argument))
        if table not in new:
            return True
        return new[table].get(name) != old.get(table, {}).get(name)

    return moved


def _argument(argument: Hashable) -> str:
    return "" if argument is None else str(argument)
