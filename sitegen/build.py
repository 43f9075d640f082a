"""`sitegen build`: config -> loader -> model -> render -> writer, all or nothing."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import config as site_config
from . import model, routes
from .errors import BuildFailed, Report
from .loader import load_content
from .render import Renderer, asset_hashes, make_environment, theme_dirs
from .search import SearchIndex
from .search import index as search_index
from .writer import check_output, staged, stale_count

Progress = Callable[[int, int], None]


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


def static_files(root: Path, theme: str) -> dict[str, Path]:
    """Static assets of the theme chain; a theme's file overrides the default theme's."""
    files: dict[str, Path] = {}
    for directory in reversed(theme_dirs(root, theme)):
        static = directory / "static"
        if static.is_dir():
            for path in sorted(static.rglob("*")):
                if path.is_file() and not path.name.startswith("."):
                    files[path.relative_to(static).as_posix()] = path
    return files


def build(root: Path, output: Path | None = None, base_url: str | None = None, drafts: bool = False,
          progress: Progress | None = None, search: bool = True) -> BuildResult:
    """Build the whole site into `output` (default root/public); raise BuildFailed on any error."""
    started = time.perf_counter()
    output = output if output is not None else root / "public"
    cfg = site_config.load(root, base_url)
    report = Report()
    content = load_content(root, report)
    if report.has_errors:
        raise BuildFailed(report.items)
    check_output(output, root)
    site = model.build_site(cfg, content, drafts)
    env = make_environment(root, cfg)
    static = static_files(root, cfg.theme)
    renderer = Renderer(site, env, root, asset_hashes(static))
    specs = routes.plan(site)
    result = BuildResult(output, warnings=report)
    with staged(output) as stage:
        for i, spec in enumerate(specs, 1):
            stage.write(spec.output, renderer.render(spec))
            result.pages_by_kind[spec.kind] += 1
            if progress and (i % 50 == 0 or i == len(specs)):
                progress(i, len(specs))
        for name, path in static.items():
            stage.copy(f"{routes.STATIC_PREFIX}{name}", path)
        result.pages_by_kind["static"] += len(static)
        if search:
            result.search = search_index(stage.path)
            stage.files |= {p.relative_to(stage.path).as_posix() for p in (stage.path / "pagefind").rglob("*")}
        result.removed = stale_count(output, stage.files)
    result.written, result.unchanged = stage.written, stage.unchanged
    result.seconds = time.perf_counter() - started
    return result
