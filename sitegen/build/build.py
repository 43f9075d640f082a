"""`sitegen build`: config -> loader -> model -> render -> writer, all or nothing."""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..common.errors import BuildFailed, Report, SitegenError
from ..content import config as site_config
from ..content.cache import CACHE_DIR, CacheDamaged, EntryCache
from ..content.files import FileStat
from ..model import model, routes
from ..render.fragments import fingerprint
from . import model_cache
from .entry_table import changed_entries, entry_stats

if TYPE_CHECKING:  # the full build's machinery is imported when used: a notes edit has no need of it
    from jinja2 import Environment

    from ..publish.search import SearchIndex
    from ..render.fragments import FragmentStores
    from .incremental import SiteState
    from .output_check import OutputsCheck
    from .parallel import Progress


# Rows of rewritten or added files a build may add to the saved table of outputs before it
# writes the table afresh (a title edit at 10,000 papers adds about 90)
MAX_PATCHED_ROWS = 2000


@dataclass
class BuildResult:
    """What a build produced, for the summary line and for tests."""

    output: Path
    pages_by_kind: Counter[str] = field(default_factory=Counter)
    written: int = 0
    unchanged: int = 0
    removed: int = 0
    seconds: float = 0.0
    warnings: Report = field(default_factory=Report)
    search: SearchIndex | None = None


def build(root: Path, output: Path | None = None, base_url: str | None = None, drafts: bool = False,
          progress: Progress | None = None, search: bool = True, jobs: int | None = None,
          use_cache: bool = True) -> BuildResult:
    """Build the site into `output` (default root/public); raise BuildFailed on any error.

    With the cache (`.sitegen-cache/`), a build whose templates, assets and settings are
    unchanged since the last one re-renders only what changed entries appear on, in
    place; anything else is a full build staged beside the output and swapped in. A
    failure to write (a full disk, a read-only folder) names the output folder when the
    system names no file; what was staged is gone and the previous output stands.
    """
    target = output if output is not None else root / "public"
    try:
        return _build(root, output, base_url, drafts, progress, search, jobs, use_cache)
    except OSError as exc:
        if exc.filename is None:
            raise OSError(exc.errno, exc.strerror, str(target)) from exc
        raise


def _build(root: Path, output: Path | None, base_url: str | None, drafts: bool, progress: Progress | None,
           search: bool, jobs: int | None, use_cache: bool) -> BuildResult:
    """`build`, its failures as they come."""
    from ..publish.writer import recover
    from . import buildstate
    from .output_check import OutputsCheck

    started = time.perf_counter()
    output = output if output is not None else root / "public"
    # A killed build's journal is finished and its leftovers removed; what it had begun (the
    # search index, the build state) is then made whole by a full build.
    recovered = recover(output)
    root = root.absolute()  # a relative --root: changed files are matched against the root as given
    cache = EntryCache(root) if use_cache else None
    if cache is not None:
        inputs = buildstate.input_fingerprint(root, output, base_url, drafts, search)
        saved = buildstate.load(root)
        quick = None
        if saved and saved.inputs == inputs and output.is_dir() and not recovered:
            changed, table, unreadable = changed_entries(root, saved.entries)
            # an entry that cannot be read is reported by the full build's loader, with every other problem
            quick = None if unreadable else _patch_notes(root, output, base_url, search, saved, cache, inputs,
                                                         changed, table)
            if quick is None and not unreadable:
                # Forked once the edit is known to be no notes edit (which checks its own pages):
                # its 83,000 stat calls at 10,000 papers take longer than all this process does
                # before it writes. With nothing changed there is nothing to do meanwhile.
                intact = OutputsCheck(saved, output, beside=bool(changed))
                try:
                    quick = _incremental(root, output, base_url, drafts, search, saved, cache, inputs, changed,
                                         table, intact)
                finally:
                    intact.cancel()  # its answer was taken, or is not wanted: no child outlives the build
        if quick is not None:
            quick.seconds = time.perf_counter() - started
            return quick
        cache = EntryCache(root)  # start clean: the quick path may have looked entries up
    stores = _stores(root, inputs) if cache is not None else None
    read: dict[str, FileStat] = {}
    result, state, staged = _full(root, output, base_url, drafts, progress, search, jobs, cache, stores,
                                  inputs if cache is not None else None, read)
    if cache is not None and state is not None:
        buildstate.save(root, state, inputs, entry_stats(cache.keys, read), staged=staged)
    result.seconds = time.perf_counter() - started
    return result


def _stores(root: Path, inputs: dict[str, Any]) -> FragmentStores:
    from ..render.fragments import FOLDER, FragmentStores, stamp

    return FragmentStores(root / CACHE_DIR / FOLDER, stamp(inputs))


def _patch_notes(root: Path, output: Path, base_url: str | None, search: bool, saved: Any, cache: EntryCache,
                 inputs: dict[str, Any], changed: list[Path], table: dict[str, list[Any]]) -> BuildResult | None:
    """Entries whose notes alone changed: their pages rewritten without the model (see notes_patch)."""
    if not changed:
        return None
    from . import buildstate, notes_patch  # the renderer and Jinja: a rebuild with no edit needs neither

    cfg = site_config.load(root, base_url)
    patched = notes_patch.patch(root, output, cfg, changed, saved.entries, table, saved.signature, cache)
    if patched is None:
        return None
    cache.save_added()
    # the next front-matter edit then patches the saved model rather than building it from every entry
    model_cache.rekey(root, model_cache.rows_key(inputs, saved.entries), model_cache.rows_key(inputs, table),
                      patched.marks)
    buildstate.save_patch(root, output, saved, table, patched.outputs)
    result = BuildResult(output, written=len(patched.written), unchanged=saved.count - len(patched.written))
    result.pages_by_kind["rendered"] = len(patched.written) + len(patched.unchanged)
    if search and patched.written:
        from ..publish.search import refresh as refresh_index

        result.search = refresh_index(output)
    return result


def _incremental(root: Path, output: Path, base_url: str | None, drafts: bool, search: bool, saved: Any,
                 cache: EntryCache, inputs: dict[str, object], changed: list[Path],
                 table: dict[str, list[Any]], intact: OutputsCheck) -> BuildResult | None:
    """Bring an intact previous output up to date in place; None when a full build is needed."""
    result = BuildResult(output)
    if not changed:
        if not intact.result():
            return None
        result.unchanged = len(saved.outputs)
        return result
    from . import buildstate, notes_patch
    from .incremental import OutputsChanged

    state = buildstate.restore(root, output, saved, cache, base_url, drafts)
    if state is None:
        return None
    state.stores = _stores(root, inputs)
    state.before_writing = intact.result  # checked beside the restore and rendering, before anything is renamed in
    state.staging_marker = intact.marker
    key = model_cache.rows_key(inputs, table)
    saved_model: list[model.Site] = []

    def save_model(site: model.Site) -> None:
        """The model of the entries as they now are, saved while the edit's pages render in a child.

        Saved before the output is: a model is keyed by the entries it was made from, so one
        saved by an update that then fails is only never asked for. An edit that changed no
        listing leaves the loaded model as it was but for the edited papers' fingerprints:
        it is rekeyed, not written again (35 ms at 10,000 papers).
        """
        alone, base = state.papers_alone, state.model_base
        if alone is not None and base is not None:
            model_cache.rekey(root, base, key, {slug: fingerprint(site.papers[slug]) for slug in alone})
        else:
            model_cache.save(root, site, key)
        saved_model.append(site)

    state.while_rendering = save_model
    try:
        with _collector_paused():
            change = state.update(changed)
    except (OutputsChanged, CacheDamaged):
        return None
    if not intact.result():  # nothing written, and nothing may be remembered either
        return None
    result.written, result.removed = len(change.written), len(change.removed)
    result.unchanged = len(state.hashes) - result.written
    result.pages_by_kind["rendered"] = change.rendered
    if search and any(w.endswith(".html") for w in change.written + change.removed):
        from ..publish.search import refresh as refresh_index

        result.search = refresh_index(output)
    for file in changed:  # the cache already holds every unchanged entry
        path = file.relative_to(root).as_posix()
        entry = state.entries.get(path)
        if entry is not None and path in table:
            cache.put(str(table[path][0]), entry)
    cache.keep(table[path][0] for path in table)
    cache.save()
    if change.removed or len(saved.patched) + len(change.written) > MAX_PATCHED_ROWS:
        buildstate.save(root, state, inputs, table, saved.outputs)  # a new table of outputs
    else:
        buildstate.save_patch(root, output, saved, table, buildstate.rows(state, change.written), state.signature,
                              len(state.hashes))
    if state.signature != saved.signature:  # what the records hold is part of the signature
        notes_patch.save_records(root, state.site, state.signature, change.papers, saved.signature)
    site = getattr(state, "site", None)  # the model of the output as it now stands
    if site is not None and not (saved_model and saved_model[-1] is site):
        save_model(site)
    return result


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while an edit's update runs in this process.

    A front-matter edit at 10,000 papers allocates a few hundred thousand objects and
    leaves a hundred or so in cycles; the one young-generation collection it triggered
    cost 25-33 ms of its second (the lazily made model is mostly young objects).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _full(root: Path, output: Path, base_url: str | None, drafts: bool, progress: Progress | None,
          search: bool, jobs: int | None, cache: EntryCache | None, stores: FragmentStores | None,
          inputs: dict[str, Any] | None, read: dict[str, FileStat],
          ) -> tuple[BuildResult, SiteState | None, dict[str, tuple[int, int]]]:
    """Render everything into a staging folder and swap it in for the output.

    Also gives each staged file's size and mtime, which the swap leaves as they were; `read`
    receives each entry file's as it was read.
    """
    from ..content.loader import load_content

    cfg = site_config.load(root, base_url)
    report = Report()
    made: list[Environment] = []

    def prepare_templates() -> None:
        """While forked processes parse the entries: the render workers then inherit the templates compiled.

        Jinja and the renderer are imported here too, not before the processes that parse
        are forked: those have no need of them, and the import (about 30 ms) now runs beside
        the parsing rather than ahead of it.
        """
        from ..render.render import compile_templates, make_environment

        with suppress(SitegenError):  # raised again below, after any error in the entries
            made.append(compile_templates(make_environment(root, cfg)))

    content = load_content(root, report, cache, jobs, prepare_templates, read)
    from ..common.forked import Forked
    from ..publish.search import index as search_index
    from ..publish.writer import check_output, staged, stale_count
    from ..render.render import Renderer, asset_hashes, make_environment
    from ..render.theme import static_files
    from .incremental import SiteState, list_signature
    from .parallel import render_all

    if report.has_errors:
        raise BuildFailed(report.items)
    check_output(output, root)
    # The entry cache is saved by a forked child while this process builds the model on one
    # core (0.25 s at 10,000 papers), the notes records and the model by another while it
    # renders (0.7 s for the three, which ran alone, before and after the rendering); the render
    # workers, forked after the cache is released, do not carry it.
    savers: list[Forked] = []
    if cache is not None and inputs is not None:
        savers.append(Forked(partial(_save_entry_cache, cache)))
        cache.release()
    try:
        site = model.build_site(cfg, content, drafts, report=report, root=root)
        signature = list_signature(content, drafts, site)
        if cache is not None and inputs is not None:
            key = model_cache.model_key(inputs, cache.keys)
            savers.append(Forked(partial(_save_model, root, site, signature, key)))
        env = made[0] if made else make_environment(root, cfg)
        static = static_files(root, cfg.theme)
        renderer = Renderer(site, env, root, asset_hashes(static), stores)
        result = BuildResult(output, warnings=report)
        with staged(output) as stage:
            specs = render_all(renderer, lambda: routes.plan(site), stage, jobs, progress)
            result.pages_by_kind.update(spec.kind for spec in specs)
            for name, path in static.items():
                stage.copy(f"{routes.STATIC_PREFIX}{name}", path)
            result.pages_by_kind["static"] += len(static)
            if search:
                result.search = search_index(stage.path)
                stage.files |= {p.relative_to(stage.path).as_posix() for p in (stage.path / "pagefind").rglob("*")}
            result.removed = stale_count(output, stage.files)
    finally:
        for saver in savers:
            saver.result()  # each child is always waited for, and its files are written before the state
    result.written, result.unchanged = stage.written, stage.unchanged
    state = SiteState.remember(root, output, base_url, drafts, cfg, env, static, site, content, specs,
                               stage.digests, signature)
    return result, state, stage.stats


def _save_entry_cache(cache: EntryCache) -> bool:
    """The entry cache of a full build (it only makes a later build faster)."""
    cache.save()
    return True


def _save_model(root: Path, site: model.Site, signature: str, key: str) -> bool:
    """The notes records and model of a full build (each only makes a later build faster)."""
    from .notes_patch import save_records

    save_records(root, site, signature)
    model_cache.save(root, site, key)
    return True
