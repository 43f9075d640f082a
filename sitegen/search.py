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

BUNDLE = "pagefind"


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


def index(site_dir: Path) -> SearchIndex:
    """Index `site_dir` into `site_dir/pagefind/`; never raises for a missing or broken binary."""
    exe = binary()
    if exe is None:
        return SearchIndex(False, message="search index skipped: Pagefind is not installed "
                                          "(pip install 'pagefind[bin]')")
    started = time.perf_counter()
    try:
        run = subprocess.run([str(exe), "--site", str(site_dir), "--output-subdir", BUNDLE, "--silent"],
                             capture_output=True, text=True, timeout=600, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return SearchIndex(False, message=f"search index skipped: Pagefind could not run here ({exc})")
    if run.returncode != 0:
        detail = (run.stderr or run.stdout).strip().splitlines()[-1:] or ["no output"]
        return SearchIndex(False, message=f"search index skipped: Pagefind failed ({detail[0]})")
    bundle = site_dir / BUNDLE
    files = [p for p in bundle.rglob("*") if p.is_file()]
    return SearchIndex(True, time.perf_counter() - started, "", len(files), sum(p.stat().st_size for p in files))
