"""Render a whole plan into a staging folder, across forked processes for large sites."""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable

from . import fragments, routes
from .errors import Diagnostic, SitegenError
from .render import Renderer
from .writer import Stage

Progress = Callable[[int, int], None]

PARALLEL_THRESHOLD = 3000  # below this many files forking costs more than it saves
PAGES_PER_PAPER = 6  # files per paper, about (its page, three citation files, its share of author pages)
CHUNK = 250
# Files that each join every paper's piece: a second or more apiece at 10,000 papers. They are
# handed out first and one at a time, so they spread over the workers and none is left running
# alone at the end (last in the plan, they kept one worker busy for 6 s while the other waited).
LARGE = frozenset(fragments.WHOLE_LIST) | {"sitemap", "authors"}

_worker: tuple[Renderer, Stage] | None = None  # set in the parent just before forking


def _render_chunk(specs: list[routes.PageSpec]) -> tuple[int, int, dict[str, str], list[Diagnostic]]:
    """Worker side: render and stage a slice of the plan (state inherited through fork)."""
    assert _worker is not None
    renderer, stage = _worker
    stage.written = stage.unchanged = 0
    stage.digests = {}
    try:
        for spec in specs:
            stage.write(spec.output, renderer.render(spec))
    except SitegenError as exc:  # exceptions with custom fields do not survive pickling
        return 0, 0, {}, exc.diagnostics
    return stage.written, stage.unchanged, stage.digests, []


def render_all(renderer: Renderer, plan: Callable[[], tuple[routes.PageSpec, ...]], stage: Stage,
               jobs: int | None, progress: Progress | None = None) -> tuple[routes.PageSpec, ...]:
    """Render every page of `plan()` into the stage, across `jobs` forked processes for large sites.

    Workers inherit the model and the compiled templates through fork, so nothing is
    pickled but slices of the plan; each paper's list item is rendered once per worker.
    The plan is made after the fork (and returned): workers are sent their slices of it,
    so they need not carry all of it (40 MB at 10,000 papers).
    """
    global _worker
    jobs = jobs or os.cpu_count() or 1
    expected = len(renderer.site.papers) * PAGES_PER_PAPER
    if jobs < 2 or expected < PARALLEL_THRESHOLD or "fork" not in multiprocessing.get_all_start_methods():
        specs = plan()
        total = len(specs)
        for i, spec in enumerate(specs, 1):
            stage.write(spec.output, renderer.render(spec))
            if progress and (i % 100 == 0 or i == total):
                progress(i, total)
        return specs
    _worker = (renderer, stage)
    # Objects that exist at fork time are left out of the workers' collections: scanning them
    # would write to their headers and copy every page of the shared model into each worker.
    gc.freeze()
    try:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            specs = plan()
            total, done = len(specs), 0
            rest = [spec for spec in specs if spec.kind not in LARGE]
            chunks = [[spec] for spec in specs if spec.kind in LARGE]
            chunks += [rest[i : i + CHUNK] for i in range(0, len(rest), CHUNK)]
            for written, unchanged, outputs, problems in pool.imap_unordered(_render_chunk, chunks):
                if problems:
                    raise SitegenError(problems)
                stage.written += written
                stage.unchanged += unchanged
                stage.files.update(outputs)
                stage.digests.update(outputs)
                done += len(outputs)
                if progress:
                    progress(done, total)
    finally:
        _worker = None
        gc.unfreeze()
    return specs
