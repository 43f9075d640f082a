"""Full-text search: run Pagefind over the built pages (the `pagefind-bin` wheel ships it).

Only paper pages carry `data-pagefind-body`, so the index holds papers: their title,
authors, abstract and notes, with tag, author, year and category filters and a
date sort. Search is an optional step: without a runnable binary the build says so
and succeeds without it.

Beside Pagefind's files the bundle holds `sitegen-words.json`, the words of the indexed
titles, most frequent first: the search page suggests the nearest of them (or of the
tags, which Pagefind's filters already list) when a query finds nothing, offline.
"""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import time
import zlib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ..common.fsutil import exchange

BUNDLE = "pagefind"
# Parts of a paper page that stay out of the full text (their filters and metadata are still read): tag chips and
# link labels would otherwise crowd every excerpt ("kv-cache. llm-serving. Code."), and so would the
# "Authors not recorded" notes and the "Abstract"/"Notes" headings. Tags remain searchable as a filter.
EXCLUDE_SELECTORS = (".paper .tags", ".paper .links", ".paper-authors .muted", ".paper section > h2")
WORDS_FILE = "sitegen-words.json"
FRAGMENT_SIGNATURE = b"pagefind_dcd"  # what a decompressed Pagefind fragment starts with, before its JSON
# Letters and digits, hyphenated runs kept whole ("layer-parallel") and also split into their parts.
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
MIN_WORD = 3  # shorter words are never suggested (the search page does not search a lone 2-letter word)


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
    write_words(bundle)
    files = [p for p in bundle.rglob("*") if p.is_file()]
    return SearchIndex(True, time.perf_counter() - started, "", len(files), sum(p.stat().st_size for p in files))


def title_words(titles: list[str]) -> list[str]:
    """The distinct lower-case words of `titles`, in how many titles each appears (most first), then A to Z."""
    counts: Counter[str] = Counter()
    for title in titles:
        found: set[str] = set()
        for run in _WORD.findall(title.lower()):
            found.add(run)
            found.update(run.split("-"))
        counts.update(word for word in found if len(word) >= MIN_WORD)
    return sorted(counts, key=lambda word: (-counts[word], word))


def _fragment_title(path: Path) -> str | None:
    """The title in one Pagefind page record; None where the record is not in the format this was written for."""
    try:
        raw = gzip.decompress(path.read_bytes())
        if not raw.startswith(FRAGMENT_SIGNATURE):
            return None
        title = json.loads(raw[len(FRAGMENT_SIGNATURE):]).get("meta", {}).get("title")
    except (OSError, EOFError, zlib.error, ValueError, AttributeError):
        return None
    return title if isinstance(title, str) else None


def write_words(bundle: Path) -> None:
    """Write the bundle's title words, read back from the page records Pagefind just wrote (tests pin the format)."""
    titles = [title for path in sorted((bundle / "fragment").glob("*.pf_fragment"))
              if (title := _fragment_title(path)) is not None]
    text = json.dumps({"words": title_words(titles)}, ensure_ascii=False, separators=(",", ":"))
    (bundle / WORDS_FILE).write_text(text + "\n", encoding="utf-8")


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
