"""`sitegen build`: the site's engine brought up to date, the output written all or nothing.

Every build goes through the one engine (`site_engine.SiteEngine`): with the cache, the
memo the last build saved (`persisted.run_build`) says what an edit reaches, and only the
files whose bytes changed are renamed in; without it, or when the output is not as the
last build left it, everything is rendered into a staging folder and swapped in.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..common.errors import Report
from ..publish import output_size

if TYPE_CHECKING:
    from ..common.progress import Progress
    from ..publish.output_size import OutputSize
    from ..publish.search import SearchIndex
    from ..publish.writer import Stage
    from .site_engine import EngineChange, SiteEngine


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
    size: OutputSize | None = None  # the whole output's files and bytes, where known


def build(root: Path, output: Path | None = None, base_url: str | None = None, drafts: bool = False,
          progress: Progress | None = None, search: bool = True, jobs: int | None = None,
          use_cache: bool = True) -> BuildResult:
    """Build the site into `output` (default root/public); raise BuildFailed on any error.

    With the cache (`.sitegen-cache/`), a build whose settings and theme folders are
    unchanged since the last one rewrites in place only the files an edit changed;
    anything else is a full build staged beside the output and swapped in. A failure to
    write (a full disk, a read-only folder) names the output folder when the system names
    no file; what was staged is gone and the previous output stands. Without it
    (`use_cache=False`, `sitegen build --no-cache`), everything is rendered from the sources
    alone and nothing is kept for a next build: the build of a throwaway checkout.
    """
    target = output if output is not None else root / "public"
    try:
        return _build(root, target, base_url, drafts, progress, search, jobs, use_cache)
    except OSError as exc:
        if exc.filename is None:
            raise OSError(exc.errno, exc.strerror, str(target)) from exc
        raise


def _build(root: Path, output: Path, base_url: str | None, drafts: bool, progress: Progress | None,
           search: bool, jobs: int | None, use_cache: bool) -> BuildResult:
    """`build`, its failures as they come."""
    from ..publish.writer import check_output, recover

    started = time.perf_counter()
    # A killed build's journal is finished and its leftovers removed; what it had begun (the
    # search index, the memo) is then made whole by a full build.
    recovered = recover(output)
    root = root.absolute()  # a relative --root: changed files are matched against the root as given
    check_output(output, root)
    indexed: list[SearchIndex] = []

    def finishing(stage: Stage, engine: SiteEngine) -> None:
        """A full build's stage is indexed for search before it is swapped in (the shards whose papers
        are unchanged are taken from the output it replaces)."""
        if search:
            from ..common.progress import stage as begin
            from ..publish.search import BUNDLE, SHARD_SIZE, index_shards
            from .site_engine import search_shards, shard_records

            begin(progress, "search")

            previous = output / BUNDLE
            indexed.append(index_shards(stage.path / BUNDLE, search_shards(engine, SHARD_SIZE),
                                        previous if previous.is_dir() else None,
                                        lambda shard: shard_records(engine, shard, SHARD_SIZE)))
            stage.files |= {p.relative_to(stage.path).as_posix() for p in (stage.path / BUNDLE).rglob("*")}

    def updated(engine: SiteEngine, change: EngineChange) -> None:
        """An update in place that wrote or removed pages refreshes the index (only its changed shards)."""
        if search and change.stage is None and any(w.endswith(".html") for w in change.written + change.removed):
            from ..publish.search import SHARD_SIZE
            from ..publish.search import refresh as refresh_index
            from .site_engine import search_shards, shard_records

            indexed.append(refresh_index(output, search_shards(engine, SHARD_SIZE),
                                         lambda shard: shard_records(engine, shard, SHARD_SIZE)))

    if use_cache:
        from .persisted import run_build

        change, _ = run_build(root, output, base_url, drafts, jobs, progress, finishing, whole=bool(recovered),
                              search=search, after=updated)
    else:
        from .site_engine import SiteEngine

        engine = SiteEngine(root, output, base_url, drafts, throwaway=True)
        engine.finishing = finishing
        change = engine.build(jobs, progress)
    result = _result(output, change)
    if indexed:
        result.search = indexed[0]
    result.size = _size(output, change, search, result.search)
    result.warnings.extend(output_size.warnings(result.size, _shown(root, output)))
    result.seconds = time.perf_counter() - started
    return result


def _size(output: Path, change: EngineChange, search: bool, indexed: SearchIndex | None) -> OutputSize:
    """The whole output's files and bytes: the site's from the sizes the build holds, the search index's from
    what indexing it said, or from its manifest when this build left it alone (its files are not in them)."""
    from ..publish.search import BUNDLE, bundle_size

    stage: Any = change.stage
    sizes = {path: row for path, row in (stage.stats if stage is not None else change.sizes).items()
             if not path.startswith(f"{BUNDLE}/")}
    files, size = 0, 0
    if indexed is not None and indexed.ok:
        files, size = indexed.files, indexed.size
    elif search and indexed is None:
        files, size = bundle_size(output / BUNDLE) or (0, 0)
    return output_size.measured(sizes, files, size)


def _shown(root: Path, output: Path) -> str:
    """The output folder as a warning names it: relative to the site when inside it."""
    try:
        return output.absolute().relative_to(root).as_posix() + "/"
    except ValueError:
        return f"{output}/"


def _result(output: Path, change: EngineChange) -> BuildResult:
    """The summary of what the engine's update or full build did."""
    result = BuildResult(output, warnings=Report(list(change.warnings)))
    stage: Any = change.stage
    if stage is not None:
        result.pages_by_kind.update(change.kinds)
        result.written, result.unchanged, result.removed = stage.written, stage.unchanged, change.removed_count
    else:
        result.pages_by_kind["rendered"] = change.rendered
        result.written, result.removed = len(change.written), len(change.removed)
        result.unchanged = max(change.total - len(change.written), 0)
    return result
