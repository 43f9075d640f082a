"""The model as steps: the site's structure, patched by the model delta, and one projection per part.

`site` reads every entry's row (what the structure is made of, not the notes or the
abstract), so a notes edit never reaches it. After a row edit it patches its previous
model (`model_patch`) and tells the engine which papers, authors, tags, categories and
years the patch touched (`spread`): the projections of the rest are not even run. The
projections (`paper`, `author`, `tag`, ...) are what pages read, each with a fingerprint
of what it shows, so a page re-renders only when something it showed changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ...common.digest import digest
from ...common.errors import BuildFailed, Diagnostic, Report
from ...content.cache import EntryCache
from ...content.loader import AuthorProfile, Content, Entry, _check_unique
from ...model import model, routes
from ...model.model import Ref
from ...model.model_patch import SitePatch, patch_site
from ...model.saved_papers import SavedPapers
from ...model.site import Author, Paper, Site, Tag
from ..engine.graph import Context, Step
from ..engine.memo import Key
from . import collab, parts, views
from .parts import Parts
from .related import Related
from .sources import Loaded


@dataclass(frozen=True)
class Body:
    """The model itself, the profiles it used, its warnings, and each entry's key in the entry cache."""

    site: Site
    profiles: tuple[AuthorProfile, ...]
    warnings: tuple[Diagnostic, ...]
    keys: Mapping[str, str] = field(default_factory=dict)  # source path -> the entry cache's key of its entry


class Built:
    """The model (its `Body`), how it was made (a patch, or None when built), its parts (parts.py: its
    fingerprint, and what its readers are narrowed by), and the papers whose place moved since the model before
    it (None: unknown, or papers came or went). A model read back from disk reads its body when first asked
    for it: comparing parts, as every update does, needs none of it."""

    __slots__ = ("_body", "_load", "edited", "parts", "patch")

    def __init__(self, body: Body | None, parts: Parts, patch: SitePatch | None = None,
                 edited: frozenset[str] | None = None, load: Callable[[], Body] | None = None):
        self._body, self._load = body, load
        self.parts, self.patch, self.edited = parts, patch, edited

    @property
    def body(self) -> Body:
        if self._body is None:
            assert self._load is not None, "a model has its body or a way to read it"
            self._body = self._load()
        return self._body

    @property
    def site(self) -> Site:
        return self.body.site

    @property
    def profiles(self) -> tuple[AuthorProfile, ...]:
        return self.body.profiles

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        return self.body.warnings

    @property
    def keys(self) -> Mapping[str, str]:
        return self.body.keys


def parts_of_model(value: Any) -> Parts | None:
    return value.parts if isinstance(value, Built) else None


class Structure:
    """The `site` step and its projections."""

    def __init__(self, root: Path, drafts: bool, cache: EntryCache | None = None):
        self.root, self.drafts, self.cache = root, drafts, cache

    def steps(self) -> list[Step]:
        def simple(name: str, make: Callable[[Site], Any], fp: Callable[[Any], str] = digest) -> Step:
            return Step(name, 4, lambda ctx, arg: make(ctx.get("site").site), fp)

        return [
            Step("site", 3, self.site, lambda built: parts.fingerprint(built.parts), spread=_spread),
            Step("paper", 4, self.paper, _paper_fingerprint),
            Step("author", 4, self.author, _author_fingerprint),
            Step("author_links", 4, self.author_links, digest),
            Step("tag", 4, lambda ctx, slug: ctx.get("site").site.tag_index.get(slug), digest),
            Step("category", 4, lambda ctx, slug: _category(ctx.get("site").site, slug), digest),
            Step("year", 4, lambda ctx, slug: next((y for y in ctx.get("site").site.years if y.slug == slug), None),
                 digest),
            simple("order", lambda site: site.order),
            simple("recent", lambda site: site.recent),
            simple("queue", lambda site: site.queue),
            simple("picks", lambda site: site.picks),
            simple("home", lambda site: site.home),
            simple("queued", lambda site: bool(site.queue), str),  # what every page's menu shows of it
            simple("rising", lambda site: site.rising),
            simple("has_rising", lambda site: site.has_rising, str),  # likewise
            simple("pages", lambda site: site.pages, str),
            simple("authors", lambda site: site.authors, _authors_fingerprint),
            simple("redirects", lambda site: tuple(tuple(r) for r in site.redirects)),
            simple("tags", lambda site: site.tags),
            simple("categories", lambda site: site.categories),
            simple("years", lambda site: site.years),
            Step("slugs", 4, lambda ctx, kind: tuple(x.slug for x in getattr(ctx.get("site").site, kind)), digest),
            Step("plan", 5, self.plan, digest),
            *views.steps(),
            *collab.steps(),  # the co-author network's page and data
            *Related(self.drafts).steps(),  # each paper page's related papers
        ]

    def site(self, ctx: Context, arg: None) -> Built:
        config = ctx.get("config")
        moved = ctx.moved
        if moved and all(key[0] == "row" for key in moved) and isinstance(ctx.previous, Built):
            patched = self._patched(ctx, ctx.previous)
            if patched is not None:
                return patched
        report = Report()
        entries: list[Entry] = []
        listed = ctx.get("folder", "content/papers")
        for step in ("row", "entry", "file"):  # what each row reads, read from a memo on disk in one query each
            ctx.preload(step, listed)
        for rel in listed:
            row: Loaded = ctx.get("row", rel)
            if row.value is None:
                report.extend(list(row.problems))
            else:
                entries.append(row.value)
        profiles: list[AuthorProfile] = []
        for rel in ctx.get("folder", "content/authors"):
            loaded: Loaded = ctx.get("profile", rel)
            report.extend(list(loaded.problems))
            if loaded.value is not None:
                profiles.append(loaded.value)
        _check_unique(entries, report)
        if report.has_errors:
            raise BuildFailed(report.items)
        site = model.build_site(config, Content(tuple(entries), tuple(profiles)), self.drafts, report=report,
                                root=self.root)
        made = parts.parts_of(site)
        before = parts_of_model(ctx.previous)
        known = self._known()
        body = Body(site, tuple(profiles), tuple(report.items), {rel: known[rel] for rel in listed if rel in known})
        return Built(body, made, None, parts.edited(before, made) if before is not None else None)

    def _patched(self, ctx: Context, previous: Built) -> Built | None:
        """The previous model patched with the moved rows, or None where a patch cannot be exact."""
        fresh: dict[str, Entry] = {}
        papers = previous.site.papers
        for key in ctx.moved:
            entry: Entry | None = ctx.get("row", key[1]).value
            if entry is None or entry.slug not in papers or _source_path(papers, entry.slug) != entry.source_path \
                    or entry.slug in fresh:
                return None  # an error, a paper new to the list or hidden, or a slug now shared
            fresh[entry.slug] = entry
        if not self._made_as_saved(previous, fresh):
            return None
        patch = patch_site(previous.site, fresh, previous.profiles, self.drafts)
        if patch is None:
            return None
        if not patch.same_files:
            patch.undo()
            return None
        ctx.undo.append(patch.undo)
        ctx.carry()
        made = parts.parts_of(patch.site, previous.parts, patch.papers, patch.authors, patch.tags,
                              {c.slug for c in patch.site.categories if c.name in patch.categories}, patch.years)
        keys, known = dict(previous.keys), self._known()
        for entry in fresh.values():
            keys.pop(entry.source_path, None)
            if entry.source_path in known:
                keys[entry.source_path] = known[entry.source_path]
        return Built(Body(patch.site, previous.profiles, (), keys), made, patch, frozenset(patch.papers))

    def _known(self) -> Mapping[str, str]:
        """The entry cache's key of each entry read in this process, by source path."""
        return self.cache.keys if self.cache is not None else {}

    def _made_as_saved(self, previous: Built, fresh: dict[str, Entry]) -> bool:
        """Whether the edited papers of a model read back from disk can be made as the model had them: with
        the entries it was made from, which the entry cache keeps by content (their files now read otherwise)."""
        papers = previous.site.papers
        if not isinstance(papers, SavedPapers):
            return True
        for slug, entry in fresh.items():
            if papers.made(slug) is not None:
                continue
            key = previous.keys.get(entry.source_path)
            before = self.cache.peek(key, entry.source_path, slug) if self.cache is not None and key else None
            if before is None:
                return False
            papers.make(slug, before)
        return True

    def paper(self, ctx: Context, slug: str) -> Paper | None:
        """The paper as the model places it, with its entry as it now reads (notes and all).

        When only its entry moved (the model did not: a notes or abstract edit), the last
        result takes the new entry without the model being read, which a new process would
        otherwise make from every entry.
        """
        previous = ctx.previous
        if isinstance(previous, Paper) and ctx.moved == {("entry", previous.entry.source_path)}:
            ctx.carry()
            entry = ctx.get("entry", previous.entry.source_path).value
            if isinstance(entry, Entry) and entry.slug == slug:
                return replace(previous, entry=entry)
        paper = ctx.get("site").site.papers.get(slug)
        if paper is None:
            return None
        loaded: Loaded = ctx.get("entry", paper.entry.source_path)
        entry = loaded.value
        return paper if entry is None or entry is paper.entry else replace(paper, entry=entry)

    def author(self, ctx: Context, slug: str) -> Author | None:
        """An author's name, papers and profile (what a feed or a list shows; `author_links` the rest)."""
        return ctx.get("site").site.author_index.get(slug)  # type: ignore[no-any-return]

    def author_links(self, ctx: Context, slug: str) -> tuple[tuple[Ref, ...], tuple[Ref, ...], int]:
        """An author's co-authors, topics and co-author count: what only the author's own page shows,
        worked out from the whole model's network (which a feed's update need not make)."""
        author = ctx.get("site").site.author_index.get(slug)
        return (author.coauthors, author.topics, author.coauthor_total) if author is not None else ((), (), 0)

    def plan(self, ctx: Context, arg: None) -> tuple[routes.Row, ...]:
        """Every output file: (output, kind, key, template); what each shows, its page records when rendered.

        Made from the slugs alone, so an edit that renames nothing (a title, the tags of a
        paper whose tags all stay in use) leaves it alone.
        """
        authors, tags, categories, years = (ctx.get("slugs", k) for k in ("authors", "tags", "categories", "years"))
        return tuple(routes.rows(ctx.get("order"), authors, tags, categories, years, ctx.get("pages"),
                                 ctx.get("config").domain, ctx.get("queued"), ctx.get("has_rising"),
                                 ctx.get("redirects")))


def _source_path(papers: Mapping[str, Paper], slug: str) -> str:
    """Where a paper's entry is, read without making a saved model's paper (which would take the entry as the
    file now reads, not as the model had it)."""
    return papers.row(slug)[0] if isinstance(papers, SavedPapers) else papers[slug].entry.source_path


def _category(site: Site, slug: str) -> Tag | None:
    return next((c for c in site.categories if c.slug == slug), None)


def _spread(old: Any, new: Built) -> Callable[[Key], bool] | None:
    """Which readers a new model can have changed: those whose part moved (see parts.py)."""
    before = parts_of_model(old)
    return None if before is None else parts.reached(before, new.parts)


def _links(paper: Paper) -> str:
    """What a paper's pages and pieces follow from besides its entry: its route, links and cite key."""
    refs = ["\x1d".join(f"{r.name}\x1e{r.slug}" for r in group) for group in (paper.unlisted_authors, paper.tags)]
    refs.append("\x1d".join("\x1e".join(r) for r in paper.authors))  # and each one's person, when written otherwise
    category = f"{paper.category.name}\x1e{paper.category.slug}" if paper.category else ""
    text = "\x1f".join((paper.entry.digest, paper.route, paper.cite_key, category, *refs))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]


def _paper_fingerprint(paper: Paper | None) -> str:
    if paper is None:
        return "-"
    # the papers on the list its notes name, whose notes name it, it cites and that cite it: all shown on its page
    noted, cited = paper.mentions, paper.citations
    links = "" if noted is None and cited is None else digest((
        noted.out if noted else None, noted.into if noted else None,
        cited.cites if cited else None, cited.cited_by if cited else None))
    return f"{_links(paper)}:{paper.newer}:{paper.older}:{links}"


def _author_row(author: Author) -> tuple[object, ...]:
    """An author's fields as plain data (its co-author network is no field: what it gives is read apart)."""
    return author.name, author.slug, author.papers, author.profile


def _author_fingerprint(author: Author | None) -> str:
    return "-" if author is None else digest(_author_row(author))


def _authors_fingerprint(authors: tuple[Author, ...]) -> str:
    """Every author's fields, encoded in one go (their reprs took half a second at 8,000 authors)."""
    return digest([_author_row(a) for a in authors])

