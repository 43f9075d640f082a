"""Full-text search: run Pagefind over the built pages (the `pagefind-bin` wheel ships it).

Only paper pages carry `data-pagefind-body`, so the index holds papers: their title,
authors, abstract and notes, with tag, author, year and category filters and a
date sort. Search is an optional step: without a runnable binary the build says so
and succeeds without it.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ..common.fsutil import exchange

BUNDLE = "pagefind"
# Parts of a paper page that stay out of the full text (their filters and metadata are still read): tag chips and
# link labels would otherwise crowd every excerpt ("kv-cache. llm-serving. Code."), and so would the
# "Authors not recorded" notes and the "Abstract"/"Notes" headings. Tags remain searchable as a filter.
EXCLUDE_SELECTORS = (".paper .tags", ".paper .links", ".paper-authors .muted", ".paper section > h2")


@dataclass(frozen=True)
class SearchIndex:
    """The outcome of the indexing step."""

    ok: bool
    seconds: float = 0.0
    message: str = ""
    files: int = 0
    size: int = 0


def binary() -> Path | None:
    """The Pagefind executable: the wheel's copy, else one on PATH."""
    try:
        import pagefind_bin  # type: ignore[import-not-found]

        candidate = Path(pagefind_bin.__file__).parent / "pagefind"
        if candidate.is_file():
            return candidate
    except ImportError:
        pass
    found = shutil.which("pagefind")
    return Path(found) if found else None


def index(site_dir: Path, output: Path | None = None) -> SearchIndex:
    """Index `site_dir` into `output` (default `site_dir/pagefind/`); never raises for a missing binary."""
    exe = binary()
    if exe is None:
        return SearchIndex(False, message="search index skipped: Pagefind is not installed "
                                          "(pip install 'pagefind[bin]')")
    started = time.perf_counter()
    try:
        target = ["--output-path", str(output)] if output else ["--output-subdir", BUNDLE]
        excludes = [arg for selector in EXCLUDE_SELECTORS for arg in ("--exclude-selectors", selector)]
        run = subprocess.run([str(exe), "--site", str(site_dir), *target, *excludes, "--silent"],
                             capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return SearchIndex(False, message=f"search index skipped: Pagefind could not run here ({exc})")
    if run.returncode != 0:
        detail = (run.stderr or run.stdout).strip().splitlines()[-1:] or ["no output"]
        return SearchIndex(False, message=f"search index skipped: Pagefind failed ({detail[0]})")
    bundle = output or site_dir / BUNDLE
    files = [p for p in bundle.rglob("*") if p.is_file()]
    return SearchIndex(True, time.perf_counter() - started, "", len(files), sum(p.stat().st_size for p in files))


def refresh(site_dir: Path) -> SearchIndex:
    """Rebuild the index of a site that is being served: build beside it, then swap it in."""
    fresh = site_dir / f".{BUNDLE}-new"
    shutil.rmtree(fresh, ignore_errors=True)
    result = index(site_dir, fresh)
    if result.ok:
        current = site_dir / BUNDLE
        if current.is_dir() and exchange(fresh, current):  # never a moment without an index
            shutil.rmtree(fresh, ignore_errors=True)
            return result
        old = site_dir / f".{BUNDLE}-old"
        shutil.rmtree(old, ignore_errors=True)
        if current.exists():
            current.rename(old)
        fresh.rename(current)
        shutil.rmtree(old, ignore_errors=True)
    else:
        shutil.rmtree(fresh, ignore_errors=True)
    return result
