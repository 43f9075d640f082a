"""The model of the last build, saved so that a new build process need not build it again.

A front-matter edit in a new `sitegen build` process patches the model of the output
as it stands (see `model_patch`). Building that model from 10,000 entries takes a third
of a second: slugging every name, ranking them, grouping 140,000 author links. What
the build saves here is the part of the model that takes that work (the order, the
slugs, the cite keys, every author's and tag's papers); the rest follows cheaply from
the entries, which the build restores from the entry cache anyway.

The saved model is keyed by everything a model is made from: the build's inputs (settings,
profiles, drafts) and every entry file's content hash. A key that does not match, or a
file that cannot be read, is a miss, and the caller builds the model from the entries.
JSON, never pickle; papers are named by their place in the order, not by their slug.

An edit to entries' notes alone leaves the model as it was but for those papers'
fingerprints, yet changes the key; such a build does not rewrite the model (3.4 MB at
10,000 papers) but says in a small file beside it that it holds under the new key too.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from .. import __version__
from ..common.fsutil import write_atomic
from ..common.lazy import LazyDict
from ..content.cache import CACHE_DIR, CachedEntries
from ..content.config import SiteConfig
from ..content.loader import AuthorProfile, Entry
from ..model import model
from ..render.fragments import FingerprintedPapers, fingerprint

FILE = "model.json"
REKEYED = "model-rekeyed.json"  # beside FILE: the other key it holds under after notes edits


class _Saved(msgspec.Struct):
    """model.json. `authors` and `tags` list papers by their index in `order`."""

    version: str
    key: str
    order: list[str]
    recent: list[int]
    queue: list[int]  # the reading queue
    cite_bases: dict[str, str]  # in slug order, as `model.cite_bases` makes it
    cite_keys: list[str]  # in the order of `order`
    marks: list[str]  # each paper's fingerprint (see fragments.fingerprint), in the order of `order`
    unlisted: dict[str, list[str]]  # slug -> profile authors the entry leaves out, where there are any
    author_slugs: dict[str, str]
    tag_slugs: dict[str, str]
    authors: list[tuple[str, list[int]]]  # (name, papers), in the site's order of authors
    profiles: dict[str, str]  # author name -> the source path of their profile, where they have one
    tags: list[tuple[str, list[int], list[tuple[str, str, int]]]]  # (name, papers, related refs)
    categories: list[tuple[str, list[int]]]  # (name, papers)
    years: list[tuple[int, list[int], list[tuple[int, list[int]]]]]  # (year, papers, [(month, papers)])


class _Rekeyed(msgspec.Struct):
    """model-rekeyed.json: the model saved under `base` holds under `key`, with these papers' fingerprints."""

    version: str
    base: str
    key: str
    marks: dict[str, str]  # slug -> fingerprint, of the papers whose notes changed since the model was saved


class SavedPapers(FingerprintedPapers):
    """The papers of a saved model, each made when first read; their cite keys, unlisted
    authors and fingerprints (which the model saves) are read without making them."""

    cite_keys: dict[str, str]
    unlisted: dict[str, tuple[str, ...]]

    def columns(self) -> tuple[dict[str, str], dict[str, tuple[str, ...]], dict[str, str]]:
        """Every paper's cite key, unlisted authors (where it has any) and fingerprint; those made so far as made."""
        made = self._made
        keys = self.cite_keys | {slug: paper.cite_key for slug, paper in made.items()}
        unlisted = self.unlisted | {slug: tuple(r.name for r in paper.unlisted_authors) for slug, paper in made.items()}
        marks = self.marks | {slug: fingerprint(paper) for slug, paper in made.items()}
        return keys, {slug: names for slug, names in unlisted.items() if names}, marks


_DECODER = msgspec.json.Decoder(_Saved)
_REKEYED = msgspec.json.Decoder(_Rekeyed)


def model_key(inputs: Mapping[str, Any], entries: Mapping[str, str]) -> str:
    """What a model is made from: the build's inputs and each entry file (path -> content hash)."""
    # msgspec sorts the paths: at 10,000 entries, half the time of sorting (path, hash) pairs first
    return hashlib.sha256(msgspec.json.encode([inputs, dict(entries)], order="sorted")).hexdigest()


def rows_key(inputs: Mapping[str, Any], rows: Mapping[str, Sequence[Any]]) -> str:
    """`model_key` of entries as the build state holds them (path -> [content hash, size, mtime_ns])."""
    return model_key(inputs, {path: row[0] for path, row in rows.items()})


def save(root: Path, site: model.Site, key: str) -> None:
    """Save `site` under `key`; a model that cannot be saved only makes the next edit slower."""
    network = site.network
    if network is None:
        return
    at = {slug: i for i, slug in enumerate(site.order)}.__getitem__  # map(at, ...): half the time of a comprehension
    papers = site.papers
    if isinstance(papers, SavedPapers):  # the papers not read since the model was loaded are not made
        cite_keys, unlisted, marks = papers.columns()
    else:
        cite_keys = {slug: paper.cite_key for slug, paper in papers.items()}
        unlisted = {slug: names for slug, paper in papers.items()
                    if (names := tuple(r.name for r in paper.unlisted_authors))}
        marks = {slug: fingerprint(paper) for slug, paper in papers.items()}
    saved = _Saved(
        version=__version__, key=key, order=list(site.order), recent=list(map(at, site.recent)),
        queue=list(map(at, site.queue)),
        cite_bases=site.cite_bases, cite_keys=list(map(cite_keys.__getitem__, site.order)),
        marks=list(map(marks.__getitem__, site.order)),
        unlisted={slug: list(unlisted[slug]) for slug in site.order if slug in unlisted},
        author_slugs=network.authors.slugs, tag_slugs=network.tags.slugs,
        authors=[(a.name, list(map(at, a.papers))) for a in site.authors],
        profiles={a.name: a.profile.source_path for a in site.authors if a.profile is not None},
        tags=[(t.name, list(map(at, t.papers)), [(r.name, r.slug, r.count) for r in t.related]) for t in site.tags],
        categories=[(c.name, list(map(at, c.papers))) for c in site.categories],
        years=[(y.year, list(map(at, y.papers)), [(m.number, list(map(at, m.papers))) for m in y.months])
               for y in site.years],
    )
    with contextlib.suppress(OSError):
        (root / CACHE_DIR / REKEYED).unlink(missing_ok=True)  # it spoke of the model this replaces
        write_atomic(root / CACHE_DIR / FILE, msgspec.json.encode(saved), durable=False)


def rekey(root: Path, old: str, new: str, marks: Mapping[str, str]) -> None:
    """After edits to entries' notes alone: the model that held under `old` holds under `new`,
    with these papers' fingerprints (slug -> fingerprint, which the notes are part of)."""
    current = _rekeyed(root)
    base, merged = (current.base, current.marks | dict(marks)) if current and current.key == old else (old, dict(marks))
    rekeyed = _Rekeyed(version=__version__, base=base, key=new, marks=merged)
    with contextlib.suppress(OSError):
        write_atomic(root / CACHE_DIR / REKEYED, msgspec.json.encode(rekeyed), durable=False)


def _rekeyed(root: Path) -> _Rekeyed | None:
    try:
        rekeyed = _REKEYED.decode((root / CACHE_DIR / REKEYED).read_bytes())
    except (OSError, msgspec.DecodeError):
        return None
    return rekeyed if rekeyed.version == __version__ else None


def load(root: Path, key: str, config: SiteConfig, entries: Mapping[str, Entry],
         profiles: tuple[AuthorProfile, ...]) -> model.Site | None:
    """The saved model if it was saved (or rekeyed) under `key`, with these entries (path -> entry) in it; else None.

    It equals `model.build_site` on the same content (tests/build/test_model_cache.py).
    """
    try:
        saved = _DECODER.decode((root / CACHE_DIR / FILE).read_bytes())
    except (OSError, msgspec.DecodeError):
        return None
    if saved.version != __version__:
        return None
    marks: dict[str, str] = {}
    if saved.key != key:
        rekeyed = _rekeyed(root)
        if rekeyed is None or rekeyed.base != saved.key or rekeyed.key != key:
            return None
        marks = rekeyed.marks
    try:
        return _site(saved, config, entries, profiles, marks)
    except (KeyError, IndexError, ValueError):  # a model saved by other code under the same version
        return None


def _site(saved: _Saved, config: SiteConfig, entries: Mapping[str, Entry], profiles: tuple[AuthorProfile, ...],
          marks: dict[str, str]) -> model.Site:
    """The saved model over these entries, these fingerprints replacing the saved ones; papers and their
    rows in the co-author network are made when read."""
    path_of = {slug: path for path, slug in entries.slugs.items()} if isinstance(entries, CachedEntries) else \
        {e.slug: path for path, e in entries.items()}  # restored entries know their slugs undecoded
    order = saved.order
    if not path_of.keys() >= set(order):
        raise KeyError("a paper of the saved model has no entry")
    unlisted = {slug: tuple(names) for slug, names in saved.unlisted.items()}
    author_slugs, tag_slugs = saved.author_slugs, saved.tag_slugs
    author_refs = {name: model.Ref(name, slug) for name, slug in author_slugs.items()}
    tag_refs = {name: model.Ref(name, slug) for name, slug in tag_slugs.items()}
    place = {slug: i for i, slug in enumerate(order)}
    last = len(order) - 1

    def entry(slug: str) -> Entry:
        return entries[path_of[slug]]

    def paper(slug: str) -> model.Paper:
        i = place[slug]
        return model.make_paper(entry(slug), author_refs, tag_refs, saved.cite_keys[i], unlisted.get(slug, ()),
                                newer=order[i - 1] if i > 0 else None, older=order[i + 1] if i < last else None)

    papers = SavedPapers(order, paper)
    papers.cite_keys = dict(zip(order, saved.cite_keys, strict=True))
    papers.marks = dict(zip(order, saved.marks, strict=True))
    if not marks.keys() <= papers.marks.keys():
        raise KeyError("a rekeyed paper is not in the saved model")
    papers.marks.update(marks)
    papers.unlisted = unlisted
    network = model.Network.from_rows(LazyDict(order, lambda s: entry(s).authors + unlisted.get(s, ())),
                                      LazyDict(order, lambda s: entry(s).tags), author_slugs, tag_slugs)
    by_path = {p.source_path: p for p in profiles}  # found by slug when saved: 8,000 names slugged again took 40 ms
    profiled = saved.profiles
    at = order.__getitem__
    authors = tuple(
        model.Author(name=name, slug=author_slugs[name], papers=tuple(map(at, places)),
                     profile=by_path[profiled[name]] if name in profiled else None, network=network)
        for name, places in saved.authors)
    tags = tuple(model.make_tag(name, tag_slugs[name], tuple(map(at, places)),
                                tuple(model.Ref(*ref) for ref in related))
                 for name, places, related in saved.tags)
    categories = tuple(model.make_category(name, tuple(map(at, places))) for name, places in saved.categories)
    years = tuple(model.Year(year, tuple(map(at, places)),
                             tuple(model.Month(month, model.MONTH_NAMES[month - 1], tuple(map(at, within)))
                                   for month, within in months))
                  for year, places, months in saved.years)
    return model.Site(
        config=config, papers=papers, order=tuple(order), recent=tuple(map(at, saved.recent)),
        queue=tuple(map(at, saved.queue)),
        authors=authors, tags=tags, categories=categories, years=years,
        pages=model.page_count(config, len(order)), author_index={a.slug: a for a in authors},
        tag_index={t.slug: t for t in tags}, cite_bases=saved.cite_bases, network=network,
    )
