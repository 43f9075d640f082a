"""The model as the memo on disk keeps it: whole, but for the papers' entries, which the entry cache holds.

A title edit in a new process used to build the model again from every entry (3.6 s at
10,000 papers, 1.6 s of it restoring 10,000 entries from the entry cache) because only
the model's parts were saved. The model is saved here as plain data: each paper's row
(route, links, cite key, neighbours), the authors, tags, categories, years, the network's
rows and who is who, and for each paper the content key of the entry it was made from.
Read back, its papers are made when first read (`SavedPapers`), each with its entry as
it now reads; a patch of the model that needs the entry as it was when the model was made
takes it from the entry cache by that key, and builds the model again if the cache has
lost it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import msgspec

from ...common.errors import Diagnostic
from ...content.config import SiteConfig
from ...content.loader import Entry
from ...content.profiles import AuthorProfile
from ...model.citations import Citations
from ...model.mentions import Mentions
from ...model.network import Network
from ...model.people import People, Redirect
from ...model.saved_papers import SavedPapers, SavedRow, row_of
from ...model.signals import Rising
from ...model.site import Author, Site, Tag
from ...model.timeline import Year
from ..engine.memo import Key
from .sources import Loaded
from .structure import Body, Built


class SavedSite(msgspec.Struct, array_like=True):
    """A `Built` model as plain data (see the module's docstring)."""

    config: SiteConfig
    papers: dict[str, msgspec.Raw]  # slug -> row, in the site's order, as bytes decoded when read (saved_papers.py)
    keys: dict[str, str]  # an entry's source path -> the content key of the entry the model was made from
    order: tuple[str, ...]
    recent: tuple[str, ...]
    queue: tuple[str, ...]
    picks: tuple[str, ...]
    home: tuple[str, ...]
    mentions: dict[str, Mentions]
    citations: dict[str, Citations]
    arxiv_slugs: dict[str, str]
    authors: tuple[tuple[str, str, tuple[str, ...], AuthorProfile | None], ...]
    tags: tuple[Tag, ...]
    categories: tuple[Tag, ...]
    years: tuple[Year, ...]
    pages: int
    rising: Rising
    upvotes: dict[str, tuple[tuple[dt.date, int | float], ...]]
    redirects: tuple[Redirect, ...]
    cite_bases: dict[str, str]
    names_of: dict[str, tuple[str, ...]]
    tags_of: dict[str, tuple[str, ...]]
    author_slugs: dict[str, str]
    tag_slugs: dict[str, str]
    people: People
    profiles: tuple[AuthorProfile, ...]
    warnings: tuple[Diagnostic, ...]


# What the memo saves: the model's parts, and the rest encoded apart, decoded only when the model itself is read
Saved = tuple[dict[str, dict[str, int]], bytes]


def saved(built: Built) -> Saved:
    return built.parts, msgspec.msgpack.encode(_plain(built))


def _plain(built: Built) -> SavedSite:
    site = built.site
    network = site.network
    assert network is not None, "a built model has its network"
    papers = site.papers
    # rows and bytes alike: a Raw is written as the bytes it holds, so both read back as one row's bytes
    rows: dict[str, Any] = {slug: papers.saved_row(slug) if isinstance(papers, SavedPapers) else row_of(papers[slug])
                            for slug in papers}
    return SavedSite(
        site.config, rows, dict(built.keys), site.order, site.recent, site.queue, site.picks, site.home,
        dict(site.mentions), dict(site.citations), dict(site.arxiv_slugs),
        tuple((a.name, a.slug, a.papers, a.profile) for a in site.authors), site.tags, site.categories, site.years,
        site.pages, site.rising, dict(site.upvotes), site.redirects, site.cite_bases, dict(network.names_of),
        dict(network.tags_of), network.authors.slugs, network.tags.slugs, site.people, built.profiles,
        built.warnings)


def restored(saved: Saved, value_of: Callable[[Key], Any]) -> Built:
    """The model back: its parts now, the rest when first read (see `_body`)."""
    parts, body = saved
    return Built(None, parts, load=lambda: _body(msgspec.msgpack.decode(body, type=SavedSite), value_of))


def _body(saved: SavedSite, value_of: Callable[[Key], Any]) -> Body:
    """The model itself, its papers made when read with their entries as they now read (`value_of`)."""

    def entry_of(path: str) -> Entry:
        loaded = value_of(("entry", path))
        if not isinstance(loaded, Loaded) or not isinstance(loaded.value, Entry):
            raise LookupError(f"the saved model's paper {path} has no entry")
        return loaded.value

    rows: dict[str, SavedRow] = dict(saved.papers)
    network = Network.from_rows(saved.names_of, saved.tags_of, saved.author_slugs, saved.tag_slugs)
    authors = tuple(Author(name, slug, papers, profile, network) for name, slug, papers, profile in saved.authors)
    site = Site(
        config=saved.config, papers=SavedPapers(rows, entry_of), order=saved.order, recent=saved.recent,
        queue=saved.queue, picks=saved.picks, home=saved.home, mentions=saved.mentions, citations=saved.citations,
        arxiv_slugs=saved.arxiv_slugs, authors=authors, tags=saved.tags,
        categories=saved.categories, years=saved.years, pages=saved.pages, rising=saved.rising,
        upvotes=saved.upvotes, redirects=saved.redirects,
        author_index={a.slug: a for a in authors}, tag_index={t.slug: t for t in saved.tags},
        cite_bases=saved.cite_bases, network=network, people=saved.people)
    return Body(site, saved.profiles, saved.warnings, saved.keys)
