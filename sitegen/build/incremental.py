"""Keep a built site in memory and bring its output up to date after file changes.

A change re-reads only the files that changed, rebuilds the (cheap) model, and
re-renders only the pages whose inputs changed: pages carry their inputs in the
render plan (`routes.PageSpec.deps`), and a page also re-renders when its spec
itself changed (new page, other neighbours, other template). Output bytes are
compared with what is already written, so untouched files keep their mtimes.
Everything is rendered before anything is written (a full rebuild renders into a
staging folder swapped in at the end): a failure leaves the output and this state
as they were.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import uuid
from collections.abc import Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import jinja2
import msgspec
from jinja2 import meta

from ..common.digest import of as output_digest
from ..common.errors import BuildFailed, Report, relpath
from ..common.forked import ForkedBytes
from ..common.fsutil import StagedFiles, prune_empty
from ..common.lazy import copied
from ..content import config as site_config
from ..content.cache import EntryCache
from ..content.loader import (
    AuthorProfile,
    Content,
    Entry,
    content_files,
    load_entries,
    load_entry,
    load_profile,
    same_front_matter,
)
from ..model import model, routes
from ..model.model_patch import patch_site
from ..publish.writer import journal_for
from ..render.fragments import MANY, WHOLE_LIST, FragmentStores, Previous, Spliced
from ..render.render import Rendered, Renderer, asset_hashes, make_environment
from ..render.theme import static_files

CONFIG_NAMES = {site_config.CONFIG_FILE}
# From this many papers a front-matter edit in a new `sitegen build` renders the pages that list
# the edited papers in a forked child while this process joins the whole-list files (at 10,000
# papers each side is about a quarter of a second; forking a small site costs more than it saves)
RENDER_BESIDE_PAPERS = 2000


@dataclass
class Change:
    """What an update did: files written and removed, whether only CSS changed."""

    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    rendered: int = 0
    css_only: bool = False
    full: bool = False
    deferred: int = 0  # outputs left pending to be written right after the reload (`SiteState.waiting`)
    papers: set[str] | None = None  # slugs whose Paper changed, when a patched model says (None: unknown)


class OutputsChanged(Exception):
    """The output folder no longer holds what the state remembers: nothing may be written in place."""


def _relinked(before: model.Site | None, after: model.Site) -> set[str]:
    """`entry:` tokens of papers whose links or cite key changed though their files did not."""
    if before is None:  # nothing to compare with: every paper may have changed
        return {f"entry:{slug}" for slug in after.papers}
    old = before.papers
    return {f"entry:{slug}" for slug, paper in after.papers.items()
            if slug in old and routes.paper_look(old[slug]) != routes.paper_look(paper)}


def list_signature(content: Content, drafts: bool, site: model.Site | None = None) -> str:
    """A digest of what listings, neighbours and indexes depend on besides each entry's own text.

    It also covers all that `notes_patch` records of each paper (its file, links, cite key
    and neighbours), so records saved under a signature hold while it does. A `site` built
    from this content that holds every entry (no draft hidden) already knows the cite-key
    bases and the order, which are most of the work. Two digests, "rows.order": the entries'
    rows, and the profiles, cite keys and order, which `resigned` works out again alone.
    """
    by_slug = sorted(content.entries, key=lambda e: e.slug)
    rows = [_signature_row(e, drafts) for e in by_slug]
    if site is not None and len(site.papers) == len(site.cite_bases) == len(by_slug):
        bases, order = dict(sorted(site.cite_bases.items())), list(site.order)
    else:
        bases = model.cite_bases(by_slug)
        order = [e.slug for e in model.newest_first(content.entries)]  # titles break ties between dates
    # msgspec's JSON, not repr: at 10,000 entries repr took 90 ms of a front-matter rebuild
    return f"{hashlib.sha256(msgspec.json.encode(rows)).hexdigest()}.{_order_digest(content.profiles, bases, order)}"


def _order_digest(profiles: Iterable[AuthorProfile], bases: dict[str, str], order: list[str]) -> str:
    keys = model.assign_cite_keys(bases)  # a title edit can rename another's key
    return hashlib.sha256(msgspec.json.encode((sorted((p.slug, repr(p)) for p in profiles), keys, order))).hexdigest()


def resigned(signature: str, profiles: Iterable[AuthorProfile], site: model.Site, entries: int) -> str | None:
    """The list signature of `site`, made of `entries` entries whose rows are those `signature` covers
    (see `same_rows`); None where the site does not hold every entry (a draft hidden).

    A title edit that changes its first word changes the paper's cite-key base: working the
    signature out over every entry meant decoding all 10,000 entries, 0.24 s of the edit.
    """
    rows, dot, _ = signature.partition(".")
    if not dot or not len(site.papers) == len(site.cite_bases) == entries:
        return None
    return f"{rows}.{_order_digest(profiles, dict(sorted(site.cite_bases.items())), list(site.order))}"


def _signature_row(e: Entry, drafts: bool) -> tuple[Any, ...]:
    """What `list_signature` covers of one entry besides its cite-key base."""
    return (e.slug, e.source_path, e.date, e.added, e.authors, e.tags, e.category, e.draft and not drafts, e.sources,
            e.status)  # the status puts a paper in the reading queue or takes it out


def same_rows(edits: Iterable[tuple[Entry, Entry]], drafts: bool) -> bool:
    """Whether entry edits, (old, new) pairs that add, remove and rename nothing, leave every entry's
    row of `list_signature` as it was."""
    return all(_signature_row(old, drafts) == _signature_row(new, drafts) for old, new in edits)


def same_signature(edits: Iterable[tuple[Entry, Entry]], drafts: bool, order_before: tuple[str, ...],
                   order_after: tuple[str, ...]) -> bool:
    """Whether entry edits, (old, new) pairs that add, remove and rename nothing, leave `list_signature`
    as it was: the same rows and cite-key bases for the edited entries and the same order.

    A title edit of a 10,000-paper list mostly does; working the signature out over every
    entry takes 45 ms.
    """
    edits = list(edits)
    return order_before == order_after and same_rows(edits, drafts) and all(
        model.cite_base(old) == model.cite_base(new) for old, new in edits)


class SiteState:
    """A site held in memory together with the output directory it keeps up to date."""

    def __init__(self, root: Path, output: Path, base_url: str | None = None, drafts: bool = False,
                 asset_versions: bool = True, durable: bool = True, scratch: Path | None = None,
                 on_request: frozenset[str] = frozenset(), write_later: bool = False):
        self.root, self.output, self.base_url = root, output, base_url
        # Kinds of file an update leaves to `flush` (the preview's whole-list downloads, written
        # when someone asks for them), and the outputs now waiting there.
        self.on_request = on_request
        # The preview's: an entry edit renders the edited papers' own pages at once and leaves the
        # other pages it changes pending too, for `flush` right after the browser is told to reload.
        self.write_later = write_later
        self.pending: dict[str, routes.PageSpec] = {}
        self._latest: Renderer | None = None  # renders what is pending, from the site as it now stands
        self.durable = durable  # fsync each rewritten file (not for the preview's throwaway output)
        self.drafts, self.asset_versions = drafts, asset_versions
        self.entries: MutableMapping[str, Entry] = {}  # restored by `sitegen build`: decoded when read
        self.profiles: dict[str, AuthorProfile] = {}
        self.hashes: MutableMapping[str, str] = {}  # output path -> digest of what it holds
        self.plan: dict[str, routes.PageSpec] | None = {}  # None: not known yet (state restored from disk)
        self._by_token: dict[str, list[str]] | None = None
        self.static: dict[str, Path] = {}
        self.stores: FragmentStores | None = None  # on-disk fragments, for a state restored by `sitegen build`
        self.scratch = scratch  # the preview's folder for the fragments its parallel initial build saves
        self._signature: str | None = None
        self._caches: dict[str, dict[Any, Any]] | None = None  # the last renderer's per-paper caches
        # For a state restored by `sitegen build`: the key of the model the last build saved for
        # the entries held (see model_cache), read instead of building that model again.
        self.model_key: str | None = None
        self.model_base: str | None = None  # the key the site held was loaded under, if it was
        # After an update that changed no listing (the list signature, order and cite keys kept):
        # the slugs of the papers that alone changed, as `while_rendering` is called; else None.
        self.papers_alone: set[str] | None = None
        # Render an update's pages in a forked child beside the whole-list files, from
        # RENDER_BESIDE_PAPERS papers on: for a state that ends with its process (`sitegen build`),
        # since the child's renderer caches are lost with it.
        self.render_beside = False
        # Asked before the first file is written: False raises OutputsChanged. `sitegen build`
        # checks the output folder in another process while this one renders.
        self.before_writing: Callable[[], bool] | None = None
        # When set, the check above passes over temporaries whose names carry this marker: an
        # update then stages its files while the check runs, and asks it only before renaming them in.
        self.staging_marker = ""
        # Work for this process while a forked child renders an edit's pages (`sitegen build`
        # saves the new model then); it is given the model the edit made.
        self.while_rendering: Callable[[model.Site], None] | None = None

    @property
    def signature(self) -> str:
        """The list signature of the entries held (worked out when asked: a patched edit has no need of it)."""
        if self._signature is None:
            self._signature = list_signature(self._content(self.entries, self.profiles, Report()), self.drafts,
                                             getattr(self, "site", None))
        return self._signature

    @signature.setter
    def signature(self, value: str) -> None:
        self._signature = value

    # -- loading -----------------------------------------------------------------
    def _paths(self) -> site_config.Paths:
        return site_config.Paths(self.root)

    def _load_all(self, report: Report) -> tuple[dict[str, Entry], dict[str, AuthorProfile]]:
        paths = self._paths()
        # as `sitegen build` loads them: from the entry cache, the rest parsed across processes
        cache = EntryCache(self.root)
        loaded = load_entries(content_files(paths.papers, ".md"), self.root, report, cache, None)
        cache.save()
        entries = {e.source_path: e for e in loaded}
        profiles = {relpath(p, self.root): a for p in content_files(paths.authors, ".yaml")
                    if (a := load_profile(p, self.root, report))}
        return entries, profiles

    def _content(self, entries: Mapping[str, Entry], profiles: dict[str, AuthorProfile],
                 report: Report) -> Content:
        from ..content.loader import _check_unique

        ordered = [entries[k] for k in sorted(entries)]
        _check_unique(ordered, report)
        return Content(tuple(ordered), tuple(profiles[k] for k in sorted(profiles)))

    @classmethod
    def remember(cls, root: Path, output: Path, base_url: str | None, drafts: bool, cfg: site_config.SiteConfig,
                 env: jinja2.Environment, static: dict[str, Path], site: model.Site, content: Content,
                 specs: tuple[routes.PageSpec, ...], digests: dict[str, str], signature: str) -> SiteState:
        """The state of a finished full build (from `sitegen build`), for later in-place updates."""
        state = cls(root, output, base_url, drafts)
        state.cfg, state.env, state.static, state.site = cfg, env, static, site
        state.entries = {e.source_path: e for e in content.entries}
        state.profiles = {p.source_path: p for p in content.profiles}
        state.plan = {s.output: s for s in specs}
        state.signature = signature
        state.hashes = dict(digests)
        return state

    # -- full build ---------------------------------------------------------------
    def full(self) -> Change:
        """Load everything and (re)write the whole output in place."""
        report = Report()
        cfg = site_config.load(self.root, self.base_url)
        entries, profiles = self._load_all(report)
        content = self._content(entries, profiles, report)
        if report.has_errors:
            raise BuildFailed(report.items)
        env = make_environment(self.root, cfg, watch_templates=True)  # a preview outlives template edits
        static = static_files(self.root, cfg.theme)
        site = model.build_site(cfg, content, self.drafts, report=report, root=self.root)
        if self.scratch is not None:  # forked workers render the whole-list files: keep their pieces
            self.stores = FragmentStores(self.scratch, uuid.uuid4().hex, layouts=False)
        renderer = self._renderer(site, env, static)
        # Staged like `sitegen build`: rendered in parallel for large sites, never all held in memory,
        # swapped in only when complete, with unchanged files kept (hard links, same mtime).
        from ..publish.writer import staged
        from .parallel import render_all  # forking machinery an edit in a new process has no need of

        with staged(self.output) as stage:
            plan = render_all(renderer, lambda: routes.plan(site), stage, None)
            for name, path in static.items():
                stage.copy(f"{routes.STATIC_PREFIX}{name}", path)
        change = Change(written=sorted(out for out, sha in stage.digests.items() if self.hashes.get(out) != sha),
                        removed=sorted(set(self.hashes) - set(stage.digests)), full=True, rendered=len(plan))
        self.hashes = dict(stage.digests)
        self.pending, self._latest = {}, renderer
        self.cfg, self.env, self.site, self.static = cfg, env, site, static
        self.entries, self.profiles, self.plan, self._by_token = entries, profiles, {s.output: s for s in plan}, None
        self.signature = list_signature(content, self.drafts, site)
        self._caches = renderer.caches()
        self._outputs_by_token()  # now, not on the first edit, which should show at once
        return change

    def _renderer(self, site: model.Site, env: jinja2.Environment, static: dict[str, Path]) -> Renderer:
        versions = asset_hashes(static) if self.asset_versions else {n: "dev" for n in static}
        renderer = Renderer(site, env, self.root, versions, self.stores)
        renderer.keep_encoded = True  # whole-list files are joined again at every front-matter edit
        return renderer

    # -- incremental --------------------------------------------------------------
    def update(self, changed: Iterable[Path]) -> Change:
        """Bring the output up to date after these files changed (created, edited or deleted)."""
        self.papers_alone = None
        paths = self._paths()
        kinds = {self._kind(Path(p), paths) for p in changed}
        kinds.discard("ignored")
        if not kinds:
            return Change()
        if "config" in kinds or "theme-structure" in kinds:
            return self.full()
        if "template" in kinds and self.scratch is not None:
            self.stores = None  # pieces saved by the initial build show the old templates
        report = Report()
        entries, profiles = copied(self.entries), dict(self.profiles)
        tokens: set[str] = set()
        for path in sorted({Path(p) for p in changed}):
            tokens |= self._reload(path, paths, entries, profiles, report)
        if kinds == {"entry"} and not report.has_errors and any(t.startswith("entry:") for t in tokens):
            patched = self._patch(entries, tokens, [self._key(Path(p)) for p in changed
                                                    if self._kind(Path(p), paths) == "entry"])
            if patched is not None:
                return patched
        # Notes are no part of the signature, and cannot add, remove or rename a paper: the
        # 10,000-entry content (sorted, checked for clashes) is needed only if the model is rebuilt.
        notes_only = all(t.startswith("notes:") for t in tokens)
        content = None if notes_only else self._content(entries, profiles, report)
        if report.has_errors:
            raise BuildFailed(report.items)
        signature = self.signature if content is None else list_signature(content, self.drafts)
        if signature != self.signature:
            tokens.add("list")
        previous_plan, previous_site = self._previous(signature, report)  # plan None: the same as the new one
        site = self._patched(entries, tokens) if "list" not in tokens else None
        # A patched site has the previous structure, so the previous plan still holds.
        reuse = site is not None and self.plan is not None
        if site is None:
            content = content or self._content(entries, profiles, report)
            site = model.build_site(self.cfg, content, self.drafts, report=report, root=self.root)
            if "list" in tokens:  # links and cite keys are part of the signature: unchanged, none moved
                tokens |= _relinked(previous_site, site)
            if previous_site is not None and bool(previous_site.queue) != bool(site.queue):
                tokens.add("config")  # the reading queue came or went, and with it a link on every page
        if any(t.startswith("entry:") for t in tokens):
            tokens.add("entries")
        static = static_files(self.root, self.cfg.theme) if "static" in kinds else self.static
        if "static" in kinds and self.asset_versions:
            tokens.add("config")  # asset URLs carry content hashes: every page links them
        tokens |= self._template_tokens(changed, paths)
        specs = self.plan if reuse and self.plan is not None else {s.output: s for s in routes.plan(site)}
        templates = self._template_closure(specs.values()) if any(t.startswith("template:") for t in tokens) else {}
        renderer = self._renderer(site, self.env, static)
        self._reuse_caches(renderer, tokens, kinds)
        before = previous_plan if previous_plan is not None else specs
        if reuse:
            selected = {out for t in tokens for out in self._outputs_by_token().get(t, ())}
        else:
            selected = {out for out, spec in specs.items() if before.get(out) != spec or spec.deps & tokens}
        if templates:
            selected |= {out for out, spec in specs.items() if templates.get(spec.template, set()) & tokens}
        outgoing = _Outgoing(self, renderer.digests)
        try:
            later = self.write_later and kinds <= {"entry", "profile"}
            deferred = self._render(renderer, specs, _writing_order(specs, selected), outgoing,
                                    _edited_pages(tokens) if later else None, self._beside(site))
            rendered = outgoing.count
            if "static" in kinds:
                for n, p in static.items():
                    outgoing.add(f"{routes.STATIC_PREFIX}{n}", p.read_bytes())
            stale = set(before) - set(specs) if before is not specs else set()  # 64,000 names: not when unchanged
            stale |= {f"{routes.STATIC_PREFIX}{n}" for n in set(self.static) - set(static)}
            change = self._apply(outgoing, stale)
        except BaseException:
            outgoing.discard()
            self._caches = self._latest = None  # their caches may hold pieces of the failed edit
            raise
        change.rendered = rendered
        change.css_only = bool(change.written) and all(w.endswith(".css") for w in change.written)
        self._defer(renderer, deferred, stale)
        change.deferred = self._later(deferred)
        self.site, self.static, self.entries, self.profiles = site, static, entries, profiles
        if specs is not self.plan:
            self.plan, self._by_token = specs, None
        self.signature = signature
        return change

    def _patch(self, entries: MutableMapping[str, Entry], tokens: set[str], keys: list[str]) -> Change | None:
        """Entry edits that keep the site's files: the model and plan patched in place of being rebuilt.

        None when the patch cannot be had (a paper added or removed, a name's slug would
        move, an author or tag appears or vanishes); the caller then rebuilds both.
        """
        slugs = {t.split(":", 1)[1] for t in tokens}
        fresh = {e.slug: e for key in keys if (e := entries.get(key)) is not None}
        if set(fresh) != slugs or len(fresh) != len(set(keys)):  # a file removed or renamed, or two slugs alike
            return None
        site = self._current_site()
        # Each paper still comes from the same file: no other file can hold its slug.
        if site is None or any(s not in site.papers or site.papers[s].entry.source_path != e.source_path
                               for s, e in fresh.items()):
            return None
        patch = patch_site(site, fresh, self.profiles.values(), self.drafts)
        if patch is None or not patch.same_files:
            if patch is not None:
                patch.undo()
            return None
        outgoing: _Outgoing | None = None
        try:
            tokens = tokens | {f"entry:{slug}" for slug in patch.relinked} | {"entries"}
            plan, stores = self.plan, None
            if plan is None:  # restored by `sitegen build`: plan only the sections showing these papers
                around = routes.scope(site, patch.site, patch, set(fresh) | patch.relinked)
                plan = routes.scoped_specs(site, around)
                changed = list(routes.scoped_specs(patch.site, around).values())
                stores = self.stores  # and the output holds all the state says, nothing pending: other
                # papers' pieces of the whole-list files are there
            else:
                changed = routes.respecs(patch.site, patch, site)
            replaced = {s.output: s for s in changed if plan[s.output] != s}
            if self._by_token is not None:
                selected = {out for t in tokens for out in self._by_token.get(t, ())} | set(replaced)
            else:  # one scan costs less than indexing the specs
                selected = {out for out, spec in plan.items() if not spec.deps.isdisjoint(tokens)} | set(replaced)
            new_plan = plan | replaced
            renderer = self._renderer(patch.site, self.env, self.static)
            self._reuse_caches(renderer, tokens, {"entry"})
            if stores is not None:
                stores.previous = Previous(self.output, self.hashes, set(fresh) | patch.papers)
            outgoing = _Outgoing(self, renderer.digests)
            beside = self._beside(patch.site)
            signature: list[str] = []  # the entries' new list signature, worked out while the child renders
            known = None  # the signature, where every entry's row of it is as it was (the same files, none renamed)
            if self._signature is not None and len(entries) == len(self.entries) and fresh.keys() <= site.papers.keys():
                edits = [(site.papers[s].entry, e) for s, e in fresh.items()]
                known = self._signature if same_rows(edits, self.drafts) else None
            if known is not None and same_signature(edits, self.drafts, site.order, patch.site.order):
                signature.append(known)
                self.papers_alone = set(fresh)

            def resign() -> None:
                if not signature and known is not None:
                    again = resigned(known, self.profiles.values(), patch.site, len(entries))
                    if again is not None:
                        signature.append(again)

            def meanwhile() -> None:
                resign()
                if not signature:
                    signature.append(list_signature(self._content(entries, self.profiles, Report()), self.drafts,
                                                    patch.site))
                if self.while_rendering is not None:
                    self.while_rendering(patch.site)

            try:
                deferred = self._render(renderer, new_plan, _writing_order(new_plan, selected), outgoing,
                                        _edited_pages(tokens) if self.write_later else None, beside,
                                        meanwhile if beside else None)
                resign()  # else worked out over every entry when asked for
            finally:
                if stores is not None:
                    stores.previous = None
                    stores.close()
                    renderer.forget_previous()
            change = self._apply(outgoing, set())
        except BaseException:
            self.papers_alone = None
            if outgoing is not None:
                outgoing.discard()
            patch.undo()
            self._caches = self._latest = None  # their caches may hold pieces of the failed edit
            raise
        self._defer(renderer, deferred, set())
        change.deferred = self._later(deferred)
        if self._by_token is not None:
            _reindex(self._by_token, plan, replaced)
        self.site, self.entries, self._signature = patch.site, entries, signature[0] if signature else None
        if self.plan is not None:
            self.plan = new_plan
        change.rendered, change.papers = outgoing.count, patch.papers
        return change

    def _beside(self, site: model.Site) -> bool:
        return self.render_beside and len(site.papers) >= RENDER_BESIDE_PAPERS

    def _current_site(self) -> model.Site | None:
        """The model of the output as it stands, built from the entries held if not known."""
        if getattr(self, "site", None) is None:
            site = self._saved_model()
            if site is None:
                report = Report()
                content = self._content(self.entries, self.profiles, report)
                if report.has_errors:
                    return None
                site = model.build_site(self.cfg, content, self.drafts, report=report, root=self.root)
            self.site = site
            self.plan, self._by_token = None, None
        return self.site

    def _saved_model(self) -> model.Site | None:
        """The model the last build saved for the entries held, once (they are about to change)."""
        key, self.model_key = self.model_key, None
        if key is None:
            return None
        from . import model_cache

        site = model_cache.load(self.root, key, self.cfg, self.entries,
                                tuple(self.profiles[k] for k in sorted(self.profiles)))
        self.model_base = key if site is not None else None
        return site

    def _outputs_by_token(self) -> dict[str, list[str]]:
        """Input token -> the outputs made from it, so a small change finds its pages without a scan."""
        if self._by_token is None:
            index: dict[str, list[str]] = {}
            for out, spec in (self.plan or {}).items():
                for token in spec.deps:
                    index.setdefault(token, []).append(out)
            self._by_token = index
        return self._by_token

    def _previous(self, signature: str, report: Report) -> tuple[dict[str, routes.PageSpec] | None,
                                                                 model.Site | None]:
        """The plan and model of the output as it stands; the plan is None when it equals the new one.

        A state restored from disk does not carry them: with an unchanged list signature
        the plan is the same by construction (it depends only on what the signature
        covers and on the settings), else both are re-derived from the previous
        entries, which the state holds.
        """
        if self.plan is not None:
            return self.plan, getattr(self, "site", None)
        if signature == self.signature:
            return None, None
        previous = getattr(self, "site", None) or self._saved_model() or \
            model.build_site(self.cfg, self._content(self.entries, self.profiles, report), self.drafts)
        return {s.output: s for s in routes.plan(previous)}, previous

    def _patched(self, entries: MutableMapping[str, Entry], tokens: set[str]) -> model.Site | None:
        """The previous Site with edited entries swapped in, when nothing structural changed.

        Equal list signatures mean the same papers, order, authors, tags, dates and cite keys,
        so every listing, index and neighbour link is as before; only the papers' own text
        differs. Rebuilding the model for a 10,000-paper list costs far more than this.
        """
        site = getattr(self, "site", None)
        if site is None:
            return None
        changed = {t.split(":", 1)[1] for t in tokens if t.startswith(("entry:", "notes:"))}
        fresh = {e.slug: e for e in entries.values() if e.slug in changed}
        if set(fresh) != changed or any(slug not in site.papers for slug in changed):
            return None
        papers = dict(site.papers)
        for slug, entry in fresh.items():
            papers[slug] = replace(papers[slug], entry=entry)
        return replace(site, papers=papers)

    def _reuse_caches(self, renderer: Renderer, tokens: set[str], kinds: set[str]) -> None:
        """Carry the previous renderer's per-paper caches over, minus what this change touched.

        A paper's list item, citations and records follow from its entry and its links
        (`routes.paper_look`); a paper whose links changed carries an `entry:` token too.
        Its record in papers.json and its full-text feed entry show its notes too.
        """
        previous = self._caches
        if previous and not ("config" in tokens or "template" in kinds):
            renderer.adopt(previous, {t.split(":", 1)[1] for t in tokens if t.startswith(("entry:", "notes:"))})
        self._caches = renderer.caches()

    def _kind(self, path: Path, paths: site_config.Paths) -> str:
        path = path if path.is_absolute() else self.root / path
        rel = _relative(path, self.root)
        if rel is None or any(part.startswith(".") for part in rel.parts) or path.name.endswith("~") \
                or path.is_dir():  # a folder's own 'modified' event just echoes its files' events
            return "ignored"
        if rel.as_posix() in CONFIG_NAMES:
            return "config"
        if rel.parts[:2] == ("content", "papers") and rel.suffix == ".md" and len(rel.parts) == 3:
            return "entry"
        if rel.parts[:2] == ("content", "authors") and rel.suffix == ".yaml" and len(rel.parts) == 3:
            return "profile"
        if rel.parts[0] == "themes" and len(rel.parts) > 3 and rel.parts[2] == "templates":
            return "template"
        if rel.parts[0] == "themes" and len(rel.parts) > 3 and rel.parts[2] == "static":
            return "static"
        if rel.parts[0] == "themes" and len(rel.parts) <= 3:
            return "theme-structure"
        return "ignored"

    def _key(self, path: Path) -> str:
        """An input's key in `entries` and `profiles`: its path as shown."""
        return relpath(path if path.is_absolute() else self.root / path, self.root)

    def _reload(self, path: Path, paths: site_config.Paths, entries: MutableMapping[str, Entry],
                profiles: dict[str, AuthorProfile], report: Report) -> set[str]:
        full = path if path.is_absolute() else self.root / path
        key = self._key(path)
        kind = self._kind(full, paths)
        if kind == "entry":
            old = entries.pop(key, None)
            new = load_entry(full, self.root, report, previous=old) if full.exists() else None
            if new:
                entries[key] = new
            if old and new and same_front_matter(old, new):
                return {f"notes:{new.slug}"}  # only the paper's own page shows its notes
            return {f"entry:{e.slug}" for e in (old, new) if e}
        if kind == "profile":
            old_p = profiles.pop(key, None)
            new_p = load_profile(full, self.root, report) if full.exists() else None
            if new_p:
                profiles[key] = new_p
            return {f"profile:{p.slug}" for p in (old_p, new_p) if p} | {"list"}
        return set()

    def _template_tokens(self, changed: Iterable[Path], paths: site_config.Paths) -> set[str]:
        tokens = set()
        for p in changed:
            full = Path(p) if Path(p).is_absolute() else self.root / p
            if self._kind(full, paths) == "template":
                rel = _relative(full, self.root)
                if rel is not None:
                    tokens.add("template:" + "/".join(rel.parts[3:]))
        return tokens

    def _template_closure(self, specs: Iterable[routes.PageSpec]) -> dict[str, set[str]]:
        """Template name -> tokens of every template it extends or includes, itself included."""
        closure: dict[str, set[str]] = {}

        def visit(name: str, seen: set[str]) -> set[str]:
            if name in seen:
                return set()
            seen.add(name)
            found = {f"template:{name}"}
            loader = self.env.loader
            assert loader is not None
            try:
                source = loader.get_source(self.env, name)[0]
                refs = meta.find_referenced_templates(self.env.parse(source))
            except jinja2.TemplateError:
                return found
            for ref in refs:
                if ref:
                    found |= visit(ref, seen)
            return found

        for spec in specs:
            if spec.template and spec.template not in closure:
                closure[spec.template] = visit(spec.template, set())
                if spec.template != "partials/item.html":
                    closure[spec.template].add("template:partials/item.html")
        return closure

    # -- rendering and writing ----------------------------------------------------
    def _render(self, renderer: Renderer, specs: dict[str, routes.PageSpec], selected: Iterable[str],
                outgoing: _Outgoing, first: set[str] | None = None, beside: bool = False,
                meanwhile: Callable[[], None] | None = None) -> dict[str, routes.PageSpec]:
        """Render the selected outputs into `outgoing`, but for those left pending (returned): kinds
        written when asked for, and, given `first`, every output not in it.

        `beside`: the pages render in a forked child while this process joins the files made
        of every paper's or many papers' stored pieces (whole lists, bibliographies), whose
        stores it loads once (for a renderer nothing outlives: the child's caches are lost),
        and then does `meanwhile`, which otherwise waited for the update to finish.
        """
        deferred: dict[str, routes.PageSpec] = {}
        rendering: list[routes.PageSpec] = []
        for out in selected:
            spec = specs[out]
            if spec.kind in self.on_request or (first is not None and out not in first):
                deferred[out] = spec
            else:
                rendering.append(spec)
        there = [spec for spec in rendering if spec.kind not in MANY] if beside else []
        here = [spec for spec in rendering if spec.kind in MANY] if there else rendering
        job = ForkedBytes(partial(_rendered, renderer, there)) if there else None
        try:
            for spec in here:
                outgoing.add(spec.output, renderer.render_file(spec))
            if meanwhile is not None:
                meanwhile()
        finally:
            answer = job.result() if job is not None else None  # the child is always waited for
        if job is not None:
            if answer is None:  # the child failed: render its pages here, where an error is reported as usual
                for spec in there:
                    outgoing.add(spec.output, renderer.render(spec))
            else:
                for out, data, digest in marshal.loads(answer):
                    outgoing.known[out] = digest
                    outgoing.add(out, data)
        return deferred

    def _defer(self, renderer: Renderer, deferred: dict[str, routes.PageSpec], removed: set[str]) -> None:
        """After a successful update: what waits for `flush`, and the renderer of the site now held."""
        self.pending.update(deferred)
        for out in removed:
            self.pending.pop(out, None)
        self._latest = renderer

    def _later(self, deferred: dict[str, routes.PageSpec]) -> int:
        return sum(1 for spec in deferred.values() if spec.kind not in self.on_request)

    def waiting(self) -> list[str]:
        """Pending outputs to write now, not when asked for: what an edit left for after the reload."""
        return sorted(out for out, spec in self.pending.items() if spec.kind not in self.on_request)

    def flush(self, outputs: Iterable[str] | None = None) -> Change:
        """Write the pending files among `outputs` (default: all of them), as the site now stands."""
        wanted = sorted(self.pending if outputs is None else {out for out in outputs if out in self.pending})
        if not wanted:
            return Change()
        renderer = self._latest or self._renderer(self.site, self.env, self.static)  # fresh caches after a failure
        self._latest = renderer
        outgoing = _Outgoing(self, renderer.digests)
        try:
            for out in wanted:
                outgoing.add(out, renderer.render(self.pending[out]))
            change = self._apply(outgoing, set())
        except BaseException:
            outgoing.discard()
            raise
        for out in wanted:
            del self.pending[out]
        change.rendered = len(wanted)
        return change

    def check_output(self) -> None:
        """Raise OutputsChanged unless the output may be written to (see `before_writing`)."""
        if self.before_writing is not None and not self.before_writing():
            raise OutputsChanged(str(self.output))

    def _apply(self, outgoing: _Outgoing, stale: set[str]) -> Change:
        """Rename the staged files in (those whose bytes changed) and remove the stale ones."""
        self.check_output()
        change = Change()
        outgoing.staged.commit(self.output / out for out in sorted(stale))
        for out, digest in sorted(outgoing.digests.items()):
            self.hashes[out] = digest
            change.written.append(out)
        for out in sorted(stale):
            self.hashes.pop(out, None)
            change.removed.append(out)
            prune_empty(self.output / out, self.output)
        return change


class _Outgoing:
    """Rendered files on their way to the output, staged beside their targets as they come.

    A file whose bytes are what the output already holds is dropped. The others are written
    to temporaries at once (see fsutil.StagedFiles), so a front-matter edit's 88 MB of
    whole-list files are written and fsynced while the pages after them render; the first
    waits for the output check unless the check passes over them (`staging_marker`).
    `SiteState._apply` checks, then renames them all in; `discard` drops them.
    """

    def __init__(self, state: SiteState, known: dict[str, str]):
        self.state = state
        self.known = known  # digests already worked out (the renderer's, of the whole-list files it joined)
        # a build's output is journaled, so a kill half-way is finished by the next start; the
        # preview's is a scratch folder made anew at each start
        journal = journal_for(state.output) if state.durable else None
        self.staged = StagedFiles(state.durable, state.staging_marker, journal)
        self.digests: dict[str, str] = {}  # output -> digest of what is staged for it (see fragments.identity)
        self.count = 0  # files handed in

    def add(self, out: str, data: Rendered) -> None:
        self.count += 1
        state = self.state
        digest = self.known.pop(out, None)  # a Spliced file's is always known (see Renderer._joined)
        if digest is None:
            digest = output_digest(bytes(data) if isinstance(data, Spliced) else data)
        if state.hashes.get(out) == digest and (state.output / out).exists():
            return
        if not self.staged and not state.staging_marker:
            state.check_output()  # nothing may appear in an output that is not as remembered
        self.digests[out] = digest
        self.staged.add(state.output / out, data)

    def discard(self) -> None:
        self.staged.discard()
        self.digests.clear()


def _rendered(renderer: Renderer, specs: list[routes.PageSpec]) -> bytes:
    """In a forked child: each spec's output, bytes and digest, marshalled for the parent."""
    rendered = []
    for spec in specs:
        data = bytes(renderer.render(spec))
        rendered.append((spec.output, data, output_digest(data)))
    return marshal.dumps(rendered)


def _writing_order(specs: dict[str, routes.PageSpec], selected: set[str]) -> list[str]:
    """The selected outputs, the whole-list files first: the others render while those are written."""
    return sorted(selected, key=lambda out: (specs[out].kind not in WHOLE_LIST, out))


def _edited_pages(tokens: set[str]) -> set[str]:
    """The own pages of the papers and authors an edit touched: what its author is most likely looking at."""
    pages = {routes.paper_page(t.split(":", 1)[1]) for t in tokens if t.startswith(("entry:", "notes:"))}
    return pages | {routes.author_page(t.removeprefix("profile:")) for t in tokens if t.startswith("profile:")}


def _reindex(index: dict[str, list[str]], plan: dict[str, routes.PageSpec],
             replaced: dict[str, routes.PageSpec]) -> None:
    """Keep the token index in step with specs replaced in the plan."""
    for out, spec in replaced.items():
        before = plan[out].deps
        for token in before - spec.deps:
            index[token].remove(out)
        for token in spec.deps - before:
            index.setdefault(token, []).append(out)


def _relative(path: Path, root: Path) -> Path | None:
    try:
        return path.resolve().relative_to(root.resolve())
    except (ValueError, OSError):
        try:
            return Path(os.path.abspath(path)).relative_to(os.path.abspath(root))
        except ValueError:
            return None
