"""How long `sitegen enrich` would take at the services' published pacing, and what it stores.

    python -m benchmarks.enrich_pacing --entries 10000 [--checkout PATH] [--work DIR]

A list of N entries (benchmarks/enrich_services.py: 85% from Daily Papers listings, 15%
from author profiles) is enriched against local services that answer in the recorded
shapes, with no pacing (`--delay 0`); every request is logged in order. The log is then
replayed under the published pacing, one request at a time as enrich sends them: Hugging
Face 500 calls in 5 minutes (one each 0.6 s), arXiv one every 3 s, Semantic Scholar one a
second, each answer taking `--latency` seconds. `--checkout` runs another sitegen (a
worktree of an older commit) on the same list and services, for a before-and-after.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from .enrich_services import Paper, Services, world

PACING = {"hf": 0.6, "arxiv": 3.0, "s2": 1.0}  # seconds between two requests to one service
ROOT = Path(__file__).resolve().parents[1]


def write_list(site: Path, papers: list[Paper]) -> None:
    """The entries a curator's importer would have written: Daily Papers ones with date, count and abstract."""
    folder = site / "content" / "papers"
    folder.mkdir(parents=True)
    (site / "site.yaml").write_text("title: Enrich benchmark\n", encoding="utf-8")
    for n, paper in enumerate(papers):
        fmt = "hf-daily-papers" if paper.daily else "author-profile"
        abstract = f"abstract: {json.dumps(paper.abstract)}\n" if paper.daily else ""
        (folder / f"p{n:05d}.md").write_text(
            f"---\ntitle: {json.dumps(paper.title)}\nauthors: []\nauthor_count: {len(paper.authors)}\n"
            f"date: {paper.date.isoformat()}\n{abstract}sources:\n- file: dump.txt\n  format: {fmt}\n---\n",
            encoding="utf-8")


def paced(log: list[tuple[str, str]], latency: float) -> float:
    """Seconds the logged requests take sent one after another, each service at its published pace."""
    clock = 0.0
    next_slot: dict[str, float] = {}
    for source, _ in log:
        start = max(clock, next_slot.get(source, 0.0))
        next_slot[source] = start + PACING[source]
        clock = start + latency
    return clock


def measure(count: int, checkout: Path, work: Path, latency: float) -> dict[str, object]:
    papers = world(count)
    site = work / f"enrich-{count}-{checkout.name}"
    shutil.rmtree(site, ignore_errors=True)
    write_list(site, papers)
    services = Services(papers)
    env = {**os.environ, "PYTHONPATH": str(checkout), "SITEGEN_HF_API": f"{services.url}/hf/api",
           "SITEGEN_ARXIV_API": f"{services.url}/arxiv/api/query", "SITEGEN_S2_API": f"{services.url}/s2/graph/v1"}
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", "from sitegen.cli import run; run()", "enrich", "--root", str(site),
                           "--delay", "0"], env=env, cwd=site, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    services.close()
    if done.returncode not in (0, 1):
        raise SystemExit(f"enrich failed ({done.returncode}):\n{done.stderr[-2000:]}")
    resolved = sum("\narxiv:" in p.read_text(encoding="utf-8") for p in (site / "content" / "papers").glob("*.md"))
    stored = [p.stat().st_size for p in (site / "content" / "lookups").rglob("*") if p.is_file()]
    return {"entries": count, "checkout": str(checkout), "requests": dict(Counter(s for s, _ in services.log)),
            "paced_seconds": round(paced(services.log, latency)), "unpaced_seconds": round(seconds, 1),
            "resolved": resolved, "lookup_files": len(stored), "lookup_bytes": sum(stored),
            "bytes_per_entry": round(sum(stored) / count)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the sitegen checkout to run (default: this one)")
    parser.add_argument("--work", type=Path, default=ROOT / "benchmarks" / "work")
    parser.add_argument("--latency", type=float, default=0.3, help="seconds each answer takes (default 0.3)")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    result = measure(args.entries, args.checkout.resolve(), args.work, args.latency)
    hours, rest = divmod(int(result["paced_seconds"]), 3600)  # type: ignore[call-overload]
    print(json.dumps(result, indent=1))
    print(f"{args.entries:,} entries: {hours} h {rest // 60} min at the published pacing; "
          f"{result['resolved']:,} resolved; {result['bytes_per_entry']:,} bytes stored per entry")


if __name__ == "__main__":
    main()
