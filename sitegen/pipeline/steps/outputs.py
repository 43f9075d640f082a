"""Output steps: list items, feed entries, citation pieces and pages, each recording what it reads.

A page is rendered by the theme's own renderer, given a site whose every attribute is a
read through the engine (`RecordedSite`): what the page showed is what it depends on,
and nothing lists that by hand. List items, feed entries and citation pieces are steps
of their own, so an edit that leaves a paper's item as it was (a notes edit) stops
there, and pages that list the paper are not rendered again. The site's long lists are
read part by part (views.py), and whole-list files are joined from runs of pieces.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from ...common.errors import SitegenError
from ...model import routes
from ...model.routes import PageSpec
from ...model.site import Paper
from ...render import feeds, template_errors
from ...render.outputs import citations, data, sitemap
from ...render.render import TEMPLATE_FAULTS, Renderer
from ..engine.graph import Context, Step
from . import runs, search_shards, views

PageKey = tuple[str, str, str, str]  # (output, kind, key, template): a plan row
GONE = b"\x00gone"  # what a page of a paper, author, tag or year, or the Rising page, no longer there renders to
PIECES: dict[str, Callable[[Paper, Any], str]] = {"bib": citations.bib_entry, "ris": citations.ris_entry,
                                                  "csl": citations.csl_line, "records": data.paper_line,
                                                  "lastmod": sitemap.lastmod}
# The part of the site a kind of page belongs to: its page exists while that part does
OWNER = {"paper": "paper", "cite-bib": "paper", "cite-ris": "paper", "cite-json": "paper", "author": "author",
         "author-feed": "author",
         "tag": "tag", "tag-feed": "tag",
         "category": "category", "year": "year", routes.REDIRECT: "author"}


# What a page reads of the site's long lists, part by part (views.py)
VIEWS: dict[str, Callable[[Context], Any]] = {"order": views.OrderView, "home": views.HomeView, "tags": views.tag_views,
                                              "years": views.year_views}
FRAME = ("config", "environment", "assets", "queued", "has_rising")  # what (nearly) every page reads


@dataclass(frozen=True)
class Frame:
    """What every page reads of the site around it (settings, templates' environment, asset versions, the
    menu's flags), read by a page as one: a fifth of all reads at 10,000 papers were these five, 80,000 times
    each. Its fingerprint is those of its parts."""

    values: dict[str, Any]
    stamp: str


class _Bound:
    """Something that reads through the context of the step now running (see EngineRenderer.bound)."""

    _ctx: Context


class _Recorded(_Bound, Mapping[str, Any]):
    """A mapping of the site (papers, authors, tags by slug) whose every lookup is a recorded read."""

    def __init__(self, step: str):
        self._step = step

    def __getitem__(self, key: str) -> Any:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        value = self._ctx.get(self._step, key)
        if value is None:
            return default
        return _AuthorView(value, self._ctx) if self._step == "author" else value

    def __iter__(self) -> Iterator[str]:
        order = self._ctx.get("order") if self._step == "paper" else ()
        return iter(order)

    def __len__(self) -> int:
        return len(self._ctx.get("order")) if self._step == "paper" else 0


class _AuthorView:
    """An author as a page sees it: its co-authors and topics read apart (`author_links`), when shown."""

    __slots__ = ("_author", "_ctx")
    LINKS = ("coauthors", "topics", "coauthor_total")

    def __init__(self, author: Any, ctx: Context):
        self._author, self._ctx = author, ctx

    def __getattr__(self, name: str) -> Any:
        if name in _AuthorView.LINKS:
            return self._ctx.get("author_links", self._author.slug)[_AuthorView.LINKS.index(name)]
        return getattr(self._author, name)


class RecordedSite(_Bound):
    """What a template and the page builders see as `site`, each attribute read through the engine."""

    def __init__(self) -> None:
        self.papers = _Recorded("paper")
        self.author_index = _Recorded("author")
        self.tag_index = _Recorded("tag")
        self.related_papers = _Recorded("related")  # a paper's related list, by slug (model/related.py)

    def __getattr__(self, name: str) -> Any:
        if name in ("config",):
            return self._ctx.get("config")
        if name in VIEWS:
            return VIEWS[name](self._ctx)
        if name in ("recent", "queue", "queued", "picks", "pages", "authors", "categories",
                    "rising", "has_rising", "collaboration", "citation_graph"):
            return self._ctx.get(name)
        raise AttributeError(name)


class _Pieces(_Bound, dict[str, str]):
    """A renderer's per-paper citation cache whose entries are the engine's `piece` steps."""

    def __init__(self, store: str, step: str = "piece"):
        super().__init__()
        self._store, self._step = store, step

    def get(self, slug: str, default: Any = None) -> Any:  # type: ignore[override]
        return self._ctx.get(self._step, (self._store, slug))

    def __getitem__(self, slug: str) -> str:
        return str(self._ctx.get(self._step, (self._store, slug)))

    def __contains__(self, slug: object) -> bool:
        return True


class EngineRenderer(_Bound, Renderer):
    """The theme's renderer over a recorded site: items, entries and pieces come from their steps.

    One per engine, bound in turn to the context of each step that renders (making one
    per page cost a tenth of a build); steps run inside one another (a page asks for an
    item not yet made), so binding restores the outer step's context when done.
    """

    def __init__(self, root: Path):
        site = RecordedSite()
        super().__init__(site, None, root, {})  # type: ignore[arg-type]
        self.bib_entries, self._ris = _Pieces("bib"), _Pieces("ris")
        self._csl, self._records = _Pieces("csl"), _Pieces("records")
        self.lastmods = _Pieces("lastmod", "lastmod")  # the sitemap's, of each paper: a notes edit leaves it as it was
        self._bound: list[_Bound] = [self, site, site.papers, site.author_index, site.tag_index, site.related_papers,
                                     self.bib_entries, self._ris, self._csl, self._records, self.lastmods]
        self._outer: list[Context] = []

    def bind(self, ctx: Context) -> None:
        """Read through `ctx` until `unbind`; the environment and asset versions are read as the step's own."""
        outer = getattr(self, "_ctx", None)
        if outer is not None:
            self._outer.append(outer)
        self._rebind(ctx)
        env = ctx.get("environment")
        if env is not self.env:
            self.env, self._templates = env, {}
        self.assets = ctx.get("assets")

    def unbind(self) -> None:
        self._rebind(self._outer.pop() if self._outer else None)

    def _rebind(self, ctx: Context | None) -> None:
        for bound in self._bound:
            bound._ctx = ctx  # type: ignore[assignment]

    def forget_templates(self) -> None:
        """Templates were edited: look each one up again."""
        self._templates = {}

    def item(self, slug: str, root: str, level: int = 3) -> Markup:
        return Markup(self._ctx.get("item", (slug, root, level)))

    def feed_entry(self, slug: str, full_text: bool) -> Markup:
        return Markup(self._ctx.get("feed_entry", (slug, full_text)))

    def newest_date(self, slug: str) -> dt.date:
        return dt.date.fromisoformat(self._ctx.get("newest_date", slug))

    def _joined(self, store: str, piece: Callable[[Paper, Any], str], prefix: bytes, separator: bytes,
                suffix: bytes, empty: bytes) -> bytearray:
        return runs.joined(self._ctx, store, prefix, separator, suffix, empty)


@contextmanager
def _template_faults(renderer: Renderer, template: str, slug: str) -> Iterator[None]:
    """A theme's mistake in a paper's list item or feed entry, as a page's is: a diagnostic at the template's line."""
    try:
        yield
    except SitegenError:
        raise
    except Exception as exc:
        if not isinstance(exc, TEMPLATE_FAULTS) and template_errors.innermost_frame(exc)[0] is None:
            raise  # sitegen's own fault, which a traceback shows best
        where = f"the {'list item' if template.endswith('.html') else 'feed entry'} of {slug}"
        raise SitegenError([template_errors.diagnostic(exc, renderer.env, renderer.root, template, where)]) from None


class Outputs:
    """The steps that render: items, feed entries, citation pieces, pages."""

    def __init__(self, root: Path):
        self.root = root
        self.renderer = EngineRenderer(root)

    def steps(self) -> list[Step]:
        return [
            Step("item", 5, self.item, str),
            Step("feed_entry", 5, self.feed_entry, str),
            # what a feed reads of each paper it shows besides its entry: a notes edit leaves it, and a feed
            # shown again reads 20 of these, not 20 papers with their entries
            Step("newest_date", 5, self.newest_date, str),
            Step("piece", 5, self.piece, str),  # not saved (codecs.py): runs keep them joined on disk (runs.py)
            Step("lastmod", 5, self.piece, str),
            *runs.steps(),
            *search_shards.steps(),
            Step("frame", 5, self.frame, lambda frame: frame.stamp),
            # the memo keeps a digest of the bytes
            Step("page", 7, self.page, lambda data: data, keep=False, rereads=True),
        ]

    # A paper's item, entry or piece is asked for only while the paper is in the site; once it
    # is gone, the step runs once more (it read the paper) and gives nothing, read by no one.
    def item(self, ctx: Context, key: tuple[str, str, int]) -> str:
        if ctx.get("paper", key[0]) is None:
            return ""
        ctx.get("template", "partials/item.html")
        with self._renderer(ctx) as renderer, _template_faults(renderer, "partials/item.html", key[0]):
            renderer._items.clear()  # the base class's cache: the engine's memo is the only one
            return str(Renderer.item(renderer, *key))

    def feed_entry(self, ctx: Context, key: tuple[str, bool]) -> str:
        paper = ctx.get("paper", key[0])
        if paper is None:
            return ""
        ctx.get("template", "partials/feed-entry.xml")
        with self._renderer(ctx) as renderer, _template_faults(renderer, "partials/feed-entry.xml", key[0]):
            renderer._items.clear()
            return str(Renderer.feed_entry(renderer, key[0], key[1]))

    def newest_date(self, ctx: Context, slug: str) -> str:
        paper = ctx.get("paper", slug)
        return (feeds.EPOCH if paper is None else feeds.newest_date(paper)).isoformat()

    def piece(self, ctx: Context, key: tuple[str, str]) -> str:
        store, slug = key
        paper = ctx.get("paper", slug)
        return "" if paper is None else PIECES[store](paper, ctx.get("config"))

    def frame(self, ctx: Context, arg: None) -> Frame:
        values = {name: ctx.get(name) for name in FRAME}
        return Frame(values, ":".join(map(str, ctx.reads.values())))

    def page(self, ctx: Context, key: PageKey) -> bytes:
        ctx.use_frame(ctx.get("frame").values)
        output, kind, part_key, template = key
        owner = OWNER.get(kind)
        if owner is not None and ctx.get(owner, part_key) is None:
            return GONE
        if (kind == "home" and int(part_key) > ctx.get("pages")) or (kind == "rising" and not ctx.get("has_rising")):
            return GONE
        if template:
            ctx.get("template", template)
        spec = PageSpec(output, kind, part_key, template, shape=self._shape(ctx, kind, part_key))
        with self._renderer(ctx) as renderer:
            return bytes(renderer.render(spec))

    @contextmanager
    def _renderer(self, ctx: Context) -> Iterator[EngineRenderer]:
        renderer = self.renderer
        renderer.bind(ctx)
        try:
            yield renderer
        finally:
            renderer.unbind()

    def _shape(self, ctx: Context, kind: str, key: str) -> tuple[Any, ...]:
        """The kinds whose pages take data from their spec: the recent page and the sitemaps."""
        if kind == "recent":
            recent = ctx.get("recent")
            return recent[: routes.RECENT_SIZE], len(recent), len(ctx.get("order"))
        if kind in ("sitemap", routes.SITEMAP_INDEX):
            pages = tuple(row[0] for row in ctx.get("plan")
                          if row[0].endswith("index.html") and row[1] != routes.REDIRECT)
            return routes.sitemap_pages(pages, kind, key)
        return ()
