"""Render a whole plan into a staging folder, across forked processes for large sites."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import traceback
from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, cast

from ..common import platforms
from ..common.errors import Diagnostic, Location, SitegenError
from ..common.forked import die_with_parent
from ..common.progress import Progress
from ..model import routes
from ..publish.writer import Stage
from ..render.render import Renderer

PARALLEL_THRESHOLD = 3000  # below this many files forking costs more than it saves
PAGES_PER_PAPER = 6  # files per paper, about (its page, three citation files, its share of author pages)
CHUNK = 250
# Files that each join every paper's piece: a second or more apiece at 10,000 papers. They are
# handed out first and one at a time, so they spread over the workers and none is left running
# alone at the end (last in the plan, they kept one worker busy for 6 s while the other waited).
WHOLE_LIST = frozenset(name.replace(".", "-") for name in routes.WHOLE_LIST_FILES)  # their kinds
LARGE = WHOLE_LIST | {"sitemap", routes.SITEMAP_INDEX, "authors"}
# Kinds that render the same per-paper pieces: list items at one link depth, short feed entries,
# BibTeX and RIS entries. A worker renders each piece it needs once, so a family kept on one
# worker renders its pieces once, where spread over two it rendered most of them twice (6 s of
# CPU at 10,000 papers). Kinds in no family (CSL-JSON, the sitemap, ...) fill in around them.
# A paper's page shows its BibTeX entry.
FAMILIES = {"author": "items", "tag": "items", "category": "items", "year": "items", "home": "home",
            "author-feed": "feeds", "tag-feed": "feeds",
            "paper": "bib", "cite-bib": "bib", "reading-list-bib": "bib",
            "cite-ris": "ris", "reading-list-ris": "ris"}
# Rough cost of one file of a kind, in microseconds at 10,000 papers, to share families out evenly;
# a whole-list file costs this much per paper. Misjudged costs only move work to the shared kinds.
COSTS = {"author": 1200, "paper": 800, "author-feed": 400, "home": 2200, "tag": 2400, "year": 4500,
         "cite-bib": 10, "recent": 7500, "reading-list-json": 80, "papers-json": 50,
         "reading-list-bib": 8, "reading-list-ris": 8}
DEFAULT_COST = 100
# How long a worker may take to exit once told to stop before it is terminated.
WORKER_EXIT_SECONDS = 60

_worker: tuple[Renderer, Stage] | None = None  # set in the parent just before forking


_Staged = tuple[int, int, dict[str, str], dict[str, tuple[int, int]], list[Diagnostic], Any]


def _render_chunk(specs: list[routes.PageSpec]) -> _Staged:
    """Worker side: render and stage a slice of the plan (state inherited through fork).

    What else the renderer learnt while rendering (an engine's new memo records) goes back
    with the chunk's files (`harvest`), for the parent to keep (`absorb`).
    """
    assert _worker is not None
    renderer, stage = _worker
    stage.written = stage.unchanged = 0
    stage.digests, stage.stats = {}, {}
    try:
        for spec in specs:
            stage.write(spec.output, renderer.render(spec), renderer.digests.pop(spec.output, None))
    except SitegenError as exc:  # exceptions with custom fields do not survive pickling
        return 0, 0, {}, {}, exc.diagnostics, None
    harvest = getattr(renderer, "harvest", None)
    return stage.written, stage.unchanged, stage.digests, stage.stats, [], harvest() if harvest else None


class Schedule:
    """Hands the plan out in chunks as workers ask, keeping each family of kinds on one worker.

    Large files without a family go first, one at a time, dealt to the workers in turn. Then the worker with the most
    of its own families left takes its own chunks and the others take chunks of kinds in
    no family; once those are gone a worker takes over the tail of the busiest worker's
    families, so no worker idles while work is left.
    A family costing more than a worker's share is split into parts of about that share.
    """

    def __init__(self, specs: Sequence[routes.PageSpec], workers: int, papers: int, chunk: int | None = None):
        # large files are dealt to the workers in turn, the costliest first, not to whichever asks
        # first: a worker's peak memory grows with the whole-list files it joins, and who asked
        # first varied from run to run (272 or 291 MB at 10,000 papers)
        self.large: list[deque[list[routes.PageSpec]]] = [deque() for _ in range(workers)]
        self.free: deque[list[routes.PageSpec]] = deque()
        self.own: list[deque[tuple[int, list[routes.PageSpec]]]] = [deque() for _ in range(workers)]
        self.left = [0] * workers  # cost of each worker's own chunks not yet handed out
        families: dict[str, list[routes.PageSpec]] = defaultdict(list)
        free: list[routes.PageSpec] = []
        large: list[routes.PageSpec] = []
        for spec in specs:
            family = FAMILIES.get(spec.kind)
            if family is not None:
                families[family].append(spec)
            elif spec.kind in LARGE:
                large.append(spec)
            else:
                free.append(spec)
        for i, spec in enumerate(sorted(large, key=lambda s: -_cost(s, papers))):  # stable: plan order among equals
            self.large[i % workers].append([spec])
        size = chunk or CHUNK
        self.free.extend(_chunks(free, size))
        share = sum(_cost(s, papers) for s in specs) / workers
        parts = [part for group in families.values() for part in _split(group, share, papers)]
        for part in sorted(parts, key=lambda p: -sum(_cost(s, papers) for s in p)):
            worker = min(range(workers), key=lambda w: (self.left[w], w))
            for piece in _chunks(part, size):
                cost = sum(_cost(s, papers) for s in piece)
                self.own[worker].append((cost, piece))
                self.left[worker] += cost
        for own in self.own:  # each worker's whole-list files first, while it holds little else: joined last,
            # the reading list's RIS (22 MB, with the 10,000 pieces it made) took a worker from 490 to 613 MB
            whole = [chunk for chunk in own if chunk[1][0].kind in WHOLE_LIST]
            rest = [chunk for chunk in own if chunk[1][0].kind not in WHOLE_LIST]
            own.clear()
            own.extend(whole + rest)

    def next(self, worker: int) -> list[routes.PageSpec] | None:
        """The next chunk for `worker`, or None when everything has been handed out."""
        if self.large[worker]:
            return self.large[worker].popleft()
        if any(self.large):  # another worker's, not begun: large files still go first
            return max(self.large, key=len).pop()
        # The busiest worker keeps to its own; the others take shared chunks while there are any,
        # so the families run down together and the shared chunks, not stolen ones, fill the end
        others = max((left for w, left in enumerate(self.left) if w != worker), default=0)
        if self.own[worker] and (self.left[worker] >= others or not self.free):
            return self._take(worker, last=False)
        if self.free:
            return self.free.popleft()
        busiest = max(range(len(self.own)), key=lambda w: self.left[w])
        return self._take(busiest, last=True) if self.own[busiest] else None

    def _take(self, owner: int, last: bool) -> list[routes.PageSpec]:
        """The owner's next chunk, or its last one for another worker (the owner keeps what it began)."""
        cost, chunk = self.own[owner].pop() if last else self.own[owner].popleft()
        self.left[owner] -= cost
        return chunk


def _cost(spec: routes.PageSpec, papers: int) -> int:
    cost = COSTS.get(spec.kind, DEFAULT_COST)
    return cost * papers if spec.kind in WHOLE_LIST else cost


def _chunks(specs: list[routes.PageSpec], size: int) -> list[list[routes.PageSpec]]:
    """`size` files at a time; a large file alone, ahead of the rest (it goes first)."""
    large = [[spec] for spec in specs if spec.kind in LARGE]
    rest = [spec for spec in specs if spec.kind not in LARGE]
    return large + [rest[i : i + size] for i in range(0, len(rest), size)]


def _split(specs: list[routes.PageSpec], share: float, papers: int) -> list[list[routes.PageSpec]]:
    """A family in parts of at most about `share` cost each, in plan order."""
    parts: list[list[routes.PageSpec]] = [[]]
    total = 0.0
    for spec in specs:
        cost = _cost(spec, papers)
        if parts[-1] and total + cost > share:
            parts.append([])
            total = 0.0
        parts[-1].append(spec)
        total += cost
    return parts


# A chunk goes to a worker as tuples of what rendering reads: pickling each PageSpec with its
# fields and making it again from its pickled
# state cost 0.5 s of CPU at 10,000 papers, in a parent that shares the two cores with its workers.
_Wire = tuple[str, str, str, str, tuple[Any, ...]]


def _to_wire(chunk: list[routes.PageSpec]) -> list[_Wire]:
    return [(spec.output, spec.kind, spec.key, spec.template, spec.shape) for spec in chunk]


def _from_wire(chunk: list[_Wire]) -> list[routes.PageSpec]:
    return [routes.PageSpec(output, kind, key, template, shape=shape) for output, kind, key, template, shape in chunk]


def _serve(conn: Connection, parent: int, inherited: list[Connection]) -> None:
    """Worker side: render each chunk the parent sends until it sends None.

    The parent's ends of the earlier workers' pipes, inherited through fork, are closed, and the
    worker dies with the parent: a killed build leaves no worker waiting for a chunk.
    """
    die_with_parent(parent)
    for end in inherited:
        end.close()
    forked = getattr(_worker[0], "forked", None) if _worker is not None else None
    if forked is not None:
        forked()
    try:
        while (chunk := conn.recv()) is not None:
            try:
                result: object = _render_chunk(_from_wire(chunk))
            except Exception as exc:  # any failure is the parent's to raise
                result = exc
            _send(conn, result)
    except (BrokenPipeError, ConnectionResetError, EOFError):
        return  # the parent stopped listening (another worker's failure came first): it has the error to show


def _send(conn: Connection, result: object) -> None:
    """A chunk's result, or its failure; a failure that cannot be pickled as its text."""
    try:
        conn.send(result)
    except (BrokenPipeError, ConnectionResetError):
        raise
    except Exception:
        if not isinstance(result, BaseException):
            raise
        conn.send(RuntimeError("".join(traceback.format_exception(result))))


def render_all(renderer: Renderer, plan: Callable[[], tuple[routes.PageSpec, ...]], stage: Stage,
               jobs: int | None, progress: Progress | None = None) -> tuple[routes.PageSpec, ...]:
    """Render every page of `plan()` into the stage, across `jobs` forked processes for large sites.

    Workers inherit the model and the compiled templates through fork, so nothing is
    pickled but slices of the plan; each paper's list item is rendered once per worker
    that needs it (see FAMILIES). The plan is made after the fork (and returned): workers
    are sent their slices of it, so they need not carry all of it (40 MB at 10,000 papers).
    """
    global _worker
    jobs = jobs or os.cpu_count() or 1
    papers = len(renderer.site.papers)
    if jobs < 2 or papers * PAGES_PER_PAPER < PARALLEL_THRESHOLD or not platforms.FORK:
        specs = plan()
        total = len(specs)
        for i, spec in enumerate(specs, 1):
            stage.write(spec.output, renderer.render(spec), renderer.digests.pop(spec.output, None))
            if progress and (i % 100 == 0 or i == total):
                progress(i, total)
        return specs
    _worker = (renderer, stage)
    # Objects that exist at fork time are left out of the workers' collections: scanning them
    # would write to their headers and copy every page of the shared model into each worker.
    gc.freeze()
    context = multiprocessing.get_context("fork")
    workers: list[tuple[BaseProcess, Connection]] = []
    try:
        for _ in range(jobs):
            ours, theirs = context.Pipe()
            inherited = [ours, *(conn for _, conn in workers)]
            started = context.Process(target=_serve, args=(theirs, os.getpid(), inherited), daemon=True)
            started.start()
            theirs.close()  # so a worker that dies reads as end-of-file, and later workers do not hold it
            workers.append((started, ours))
        specs = plan()
        _hand_out(Schedule(specs, jobs, papers), workers, stage, len(specs), progress)
    finally:
        _worker = None
        for _, conn in workers:
            with contextlib.suppress(OSError):
                conn.send(None)
            conn.close()
        for worker, _ in workers:
            worker.join(timeout=WORKER_EXIT_SECONDS)
            if worker.is_alive():
                worker.terminate()
                worker.join()
        gc.unfreeze()
    return specs


def _hand_out(schedule: Schedule, workers: list[tuple[BaseProcess, Connection]], stage: Stage, total: int,
              progress: Progress | None) -> None:
    """Keep every worker busy with the schedule's chunks and collect what they staged."""
    by_conn = {conn: index for index, (_, conn) in enumerate(workers)}
    busy = set()
    for index, (_, conn) in enumerate(workers):
        chunk = schedule.next(index)
        if chunk is not None:
            conn.send(_to_wire(chunk))
            busy.add(conn)
    done = 0
    while busy:
        for ready in wait(list(busy)):
            conn = cast(Connection, ready)
            try:
                result = conn.recv()
            except EOFError:
                process = workers[by_conn[conn]][0]
                process.join(timeout=5)
                raise SitegenError.single(
                    Location("."), "E510", f"a render worker exited unexpectedly (exit code {process.exitcode})",
                    "the machine may be out of memory; try again with --jobs 1, and report it if it persists",
                ) from None
            if isinstance(result, BaseException):
                raise result
            written, unchanged, outputs, stats, problems, learnt = result
            if problems:
                raise SitegenError(problems)
            if learnt is not None:
                absorb = getattr(_worker[0] if _worker is not None else None, "absorb", None)
                if absorb is not None:
                    absorb(learnt)
            stage.written += written
            stage.unchanged += unchanged
            stage.files.update(outputs)
            stage.digests.update(outputs)
            stage.stats.update(stats)
            done += len(outputs)
            if progress:
                progress(done, total)
            chunk = schedule.next(by_conn[conn])
            if chunk is None:
                busy.discard(conn)
            else:
                conn.send(_to_wire(chunk))
