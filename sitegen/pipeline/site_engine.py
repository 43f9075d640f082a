"""The site on the engine: one entry point for a build, a rebuild and the preview.

`SiteEngine.build()` is an update over an empty memo, staged and swapped in whole;
`SiteEngine.update(changed)` names the changed files' inputs to the engine, which
re-runs what read them and stops where a result comes out unchanged; the pages that
ran and whose bytes differ from what the output holds are renamed in together, and the
pages no longer in the plan are removed. Policies differ only in their settings (asset
versions, template watching, durable writes), never in how a page is made.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..common.forked import Forked
from ..common.fsutil import StagedFiles, prune_empty
from ..content.cache import EntryCache
from ..model.routes import STATIC_PREFIX, PageSpec
from ..publish.writer import Stage, journal_for, staged, stale_count
from .changes import InputMap, deferral, warnings
from .engine.graph import Engine, Update
from .engine.memo import ABSENT, Key, Memo
from .engine_change import EngineChange
from .last_output import LastOutput
from .page_renderer import prefetch
from .steps import codecs
from .steps.outputs import GONE, Outputs, PageKey
from .steps.sources import Sources
from .steps.structure import Structure

if TYPE_CHECKING:
    from ..common.progress import Progress
    from ..publish.search import Shard
    from ..publish.search_records import Record


class ReverseEdges:
    """The memo's reverse edges made in a thread, for a long-lived engine's first update to find ready.

    A cold build records reads without following any back; the first update would make the
    edges of 1.5 million reads at 10,000 papers (seconds) between a save and its reload.
    """

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None

    def start(self, memo: Memo) -> None:
        self._thread = threading.Thread(target=memo.readers_of, args=(0,), daemon=True, name="sitegen-memo-index")
        self._thread.start()

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None


def _coded(memo: Memo | None) -> Memo:
    """The memo to run over, told how values are saved (a memo on disk is opened without: persisted.open_memo)."""
    if memo is None:
        return Memo(codecs.encode, codecs.decode)
    if memo.encode is None:
        memo.use_codec(codecs.encode, codecs.decode)
    return memo


class SiteEngine:
    """A site's memo and the output folder it keeps up to date."""

    def __init__(self, root: Path, output: Path, base_url: str | None = None, drafts: bool = False,
                 asset_versions: bool = True, watch_templates: bool = False, durable: bool = True,
                 on_request: frozenset[str] = frozenset(), write_later: bool = False, memo: Memo | None = None,
                 throwaway: bool = False):
        self.root, self.output, self.durable = root.absolute(), output, durable
        # A build nothing will follow (a throwaway checkout: CI, the Pages workflow): it reads and writes no
        # cache, and its render workers send back nothing but their files' digests.
        self.throwaway = throwaway
        # The preview's policy: kinds of file written only when asked for (the whole-list
        # downloads), and, after an entry edit, every page but the edited papers' own left
        # pending until the browser has been told to reload.
        self.on_request, self.write_later = on_request, write_later
        self.pending: dict[str, PageKey] = {}
        self.jobs: int | None = None  # render processes of a full build (None: one per core)
        self._edges = ReverseEdges()  # made in a thread after a full build, for the preview's first update
        self._unapplied: set[Path] = set()  # the files of an update that failed, applied with the next one
        self.cache = EntryCache(self.root, stored=not throwaway)
        sources = Sources(self.root, base_url, drafts, self.cache, watch_templates, asset_versions,
                          keep_compiled=not throwaway)
        self.outputs = Outputs(self.root)
        memo = _coded(memo)
        structure = Structure(self.root, drafts, self.cache)
        self.engine = Engine(sources.steps() + structure.steps() + self.outputs.steps(), memo)
        # Asked before anything is renamed into the output: raises when the output is not as the
        # last build left it (a new `sitegen build` checks it in another process meanwhile); the
        # files it stages carry `staging_marker`, which that check passes over.
        self.before_writing: Callable[[], None] = lambda: None
        self.staging_marker = ""
        # Called with a full build's stage before it is swapped in (`sitegen build` indexes it for search there)
        self.finishing: Callable[[Stage, SiteEngine], object] = lambda stage, engine: None
        self.last = LastOutput(self.engine)  # the output as the last build left it
        self.inputs = InputMap(self.root, self.engine)

    # -- the whole site -------------------------------------------------------------
    def build(self, jobs: int | None = None, progress: Progress | None = None) -> EngineChange:
        """Render every output into a staging folder and swap it in for the output.

        Large sites are rendered across forked workers, each running the engine it inherited.
        """
        from ..common.progress import stage as begin
        from .page_renderer import PageRenderer
        from .parallel import render_all  # forking machinery an edit has no need of

        change = EngineChange(full=True)
        with self.engine.transaction():
            begin(progress, "parse")
            prefetch(self.engine, self.root, self.cache, jobs)
            saver = Forked(partial(_save_entries, self.cache))  # beside the rendering, always waited for
            try:
                begin(progress, "model")
                _before_forking(self.engine)
                rows = self.engine.get("plan")
                plan = {row[0]: row for row in rows}
                static: dict[str, Path] = self.engine.get("static")
                renderer = PageRenderer(self.engine, len(self.engine.get("order")), self.engine.memo.encode,
                                        remember=not self.throwaway)
                with staged(self.output) as stage:
                    begin(progress, "render")
                    render_all(renderer, lambda: tuple(PageSpec(*row) for row in rows), stage, jobs, progress)  # type: ignore[arg-type]
                    for name, path in static.items():
                        stage.copy(f"{STATIC_PREFIX}{name}", path)
                    change.removed_count = stale_count(self.output, stage.files)
                    self.finishing(stage, self)
                    begin(progress, "write")
            finally:
                saver.result()
        self.pending = {}
        if self.write_later and not self.throwaway:  # the preview's policy: only a long-lived engine updates next
            self._edges.start(self.engine.memo)
        change.rendered = len(plan)
        change.kinds.update(row[1] for row in rows)
        change.kinds["static"] += len(static)
        change.written = sorted(stage.digests)
        change.stage = stage
        change.warnings = warnings({key: record.value for key, record in self.engine.memo.records.items()})
        self.last.plan, self.last.static = plan, static
        return change

    full = build  # what the preview calls it

    # -- after edits --------------------------------------------------------------
    def update(self, changed: Iterable[Path], inputs: Iterable[Key] = (), everything: bool = False) -> EngineChange:
        """Bring the output up to date after these files changed (created, edited or deleted).

        `inputs`: input keys known to have moved besides (a theme file outside the root).
        All or nothing: a failure leaves the memo, the output and what is pending as they were.
        Settings and theme folders reach every page: their update renders the site again,
        staged and swapped in, as a build does; so does `everything` (an output not as left).
        """
        self._edges.wait()
        # the files of a failed update are still changed: the memo was left as it was before them
        changed = sorted({path if path.is_absolute() else self.root / path for path in changed} | self._unapplied)
        self._unapplied = set(changed)
        keys, every = self.inputs.inputs(changed)
        keys |= {k for k in inputs if self.engine.memo.get(k) is not None}
        every = every or everything
        if not keys and not everything:
            self._unapplied = set()
            return EngineChange()
        self.last.read()  # the output as left, decoded before the update can remake the plan
        environment = self.engine.memo.records.get(("environment", None))
        if environment is not None and environment.value is not ABSENT and any(k[0] == "template_file" for k in keys):
            environment.value.cache.clear()  # compiled before the edit; each template read is recorded
            self.outputs.renderer.forget_templates()
        with self.engine.transaction():
            if every:
                self.engine.update(sorted(keys, key=repr), defer=lambda key: key[0] == "page")
                change = self.build(self.jobs)
            else:
                change = self._update(keys, changed)
        self._unapplied = set()
        return change

    def _update(self, keys: set[Key], changed: list[Path]) -> EngineChange:
        defer = deferral(self.on_request, self.write_later, keys, changed)
        update = self.engine.update(sorted(keys, key=repr), defer)
        # an edit that moves no page (a notes edit) leaves the plan as it was: its 56,000 files at 10,000
        # papers are then not compared one by one (a third of the preview's notes edit)
        same = not self.last.plan_moved()
        plan = self.last.plan if same else {row[0]: row for row in self.engine.get("plan")}
        static: dict[str, Path] = self.engine.get("static")
        moved = set(update.changed)  # a page that ran and came out as it was is not written again
        fresh: dict[str, bytes] = {key[1][0]: data for key, data in update.values.items()  # type: ignore[index]
                                   if key[0] == "page" and key in moved}
        pending = dict(self.pending)
        for _, row in update.deferred:
            pending[row[0]] = row  # type: ignore[index,assignment]
        before = self.last.plan
        for out, key in () if same else plan.items():
            if before.get(out) != key:  # new to the plan, or made another way (an author's page now a redirect)
                if defer is not None and defer(("page", key)):
                    pending[out] = key
                else:
                    fresh[out] = self.engine.get("page", key)
        gone = set() if same else set(before) - set(plan)
        if not same:  # gone, or made another way
            self.engine.forget(("page", row) for out, row in before.items() if plan.get(out) != row)
        for out in gone:
            pending.pop(out, None)
        change = self._write(fresh, gone, plan, static, update)
        self.pending = pending
        change.deferred = len(self.waiting())
        return change

    def settled(self) -> None:
        """This engine, once the thread making the memo's reverse edges is done: anything that asks the engine for
        more than an update or a flush (the search shards) adds records, and must not while the thread reads them."""
        self._edges.wait()

    def waiting(self) -> list[str]:
        """Pending outputs to write now, not when asked for: what an edit left for after the reload."""
        return sorted(out for out, key in self.pending.items() if key[1] not in self.on_request)

    def flush(self, outputs: Iterable[str] | None = None) -> EngineChange:
        """Write the pending files among `outputs` (default: all of them), as the site now stands."""
        wanted = sorted(self.pending if outputs is None else {out for out in outputs if out in self.pending})
        if not wanted:
            return EngineChange()
        self._edges.wait()
        with self.engine.transaction():
            fresh = {out: self.engine.get("page", self.pending[out]) for out in wanted}
            change = self._write(fresh, set(), self.last.plan, self.last.static, None)
        for out in wanted:
            del self.pending[out]
        change.rendered = len(wanted)
        return change

    def _write(self, fresh: dict[str, bytes], gone: set[str], plan: dict[str, PageKey], static: dict[str, Path],
               update: Update | None) -> EngineChange:
        """Rename in the pages whose bytes changed and the static files, remove what left the plan."""
        change = EngineChange(rendered=len(fresh))
        files = StagedFiles(self.durable, self.staging_marker, journal_for(self.output) if self.durable else None)
        outgoing = {out: data for out, data in fresh.items() if out in plan and data is not GONE}
        if static is not self.last.static:  # those whose bytes changed (a stylesheet edit is swapped without a reload)
            outgoing |= {out: data for name, path in static.items()
                         if _differs(self.output / (out := f"{STATIC_PREFIX}{name}"), data := path.read_bytes())}
            gone |= {f"{STATIC_PREFIX}{name}" for name in set(self.last.static) - set(static)}
        try:
            for out, data in sorted(outgoing.items()):
                (self.output / out).parent.mkdir(parents=True, exist_ok=True)
                files.add(self.output / out, data)
            if outgoing or gone:
                self.before_writing()
        except BaseException:
            files.discard()  # the temporaries and the journal: nothing was renamed in
            raise
        files.commit(self.output / out for out in sorted(gone))
        for out in sorted(gone):
            prune_empty(self.output / out, self.output)
        for out in outgoing:
            st = os.stat(self.output / out)
            change.stats[out] = (st.st_size, st.st_mtime_ns)
        self.last.plan, self.last.static = plan, static
        change.written, change.removed = sorted(outgoing), sorted(gone)
        change.warnings = warnings(update.values) if update is not None else []
        return change



def _save_entries(cache: EntryCache) -> bool:
    """The entry cache, for the next process (its own parse of 10,000 entries takes seconds)."""
    cache.save()
    return True


def _differs(path: Path, data: bytes) -> bool:
    """Whether the file at `path` is missing or holds other bytes than `data` (a static file: a few KB)."""
    try:
        return path.read_bytes() != data
    except OSError:
        return True


def _before_forking(engine: Engine) -> None:
    """What each render worker would otherwise make again: every page template compiled, the related lists."""
    from ..render.render import compile_templates

    compile_templates(engine.get("environment"))
    engine.get("related_lists")


def search_shards(engine: SiteEngine, smallest: int) -> list[Shard]:
    """The search index's shards as the engine now has them: each with its records' digest, and no records
    (`shard_records` makes those of a shard that is indexed again). Shards of `smallest` papers, doubled
    past `MOST_SHARDS` (publish/search.py)."""
    from ..publish.search import Shard, size_for

    engine.settled()
    count = engine.engine.get("count")
    size = size_for(count, smallest)
    made = []
    for number in range(-(-count // size)):
        slugs = engine.engine.get("search_slugs", (size, number))
        made.append(Shard(f"s{number}", len(slugs), engine.engine.get("search_shard", (size, number)), None))
    return made


def shard_records(engine: SiteEngine, shard: Shard, smallest: int) -> list[Record]:
    """The records of one of `search_shards`' shards, each paper with its entry as it now reads."""
    from ..publish.search import size_for
    from ..publish.search_records import record

    engine.settled()
    size = size_for(engine.engine.get("count"), smallest)
    language = engine.engine.get("config").language
    slugs = engine.engine.get("search_slugs", (size, int(shard.name[1:])))
    return [record(paper, language) for slug in slugs if (paper := engine.engine.get("paper", slug)) is not None]


def search_records(engine: SiteEngine, smallest: int) -> list[Record]:
    """Every record the search index holds, oldest first (what `search_shards` cut and digest)."""
    return [r for shard in search_shards(engine, smallest) for r in shard_records(engine, shard, smallest)]
