"""A throwaway checkout's build (CI, the Pages workflow), three ways: `python -m benchmarks.publish_path`.

Each way starts from a fresh copy of the corpus with no `public/`, as a runner's checkout does:

- kept: `sitegen build`, which also saves the memo and caches that nobody will read;
- no_cache: `sitegen build --no-cache`, which keeps nothing;
- restored: the `.sitegen-cache/` of an earlier build of the same corpus copied in first (what a workflow
  that caches it would restore), then `sitegen build`; the copy's time is part of the figure, the
  download a real runner would also need is not (see `cache_mb`: what it would download and upload).

The ways take turns, their order alternating; copies are kept until the end (see run.Workspace).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from . import compare_edit, run

REPO = Path(__file__).resolve().parent.parent
WAYS = ("kept", "no_cache", "restored")


def _size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def _one(way: str, corpus: Path, site: Path, saved_cache: Path) -> run.Sample:
    subprocess.run(["cp", "-a", str(corpus.resolve()), str(site)], check=True)
    command = compare_edit.command(REPO, site)  # this checkout's sitegen, whatever is installed
    copied = 0.0
    if way == "no_cache":
        command.append("--no-cache")
    elif way == "restored":
        started = time.perf_counter()
        subprocess.run(["cp", "-a", str(saved_cache), str(site / ".sitegen-cache")], check=True)
        copied = time.perf_counter() - started
    sample = run.measure(command)
    sample.wall += copied
    return sample


def main(size: int, rounds: int, work: Path, out: Path | None) -> int:
    work.mkdir(parents=True, exist_ok=True)
    corpus = work / f"corpus-{size}"
    if not corpus.is_dir():
        subprocess.run([sys.executable, "-m", "benchmarks.generate", str(size), str(corpus)], check=True, cwd=REPO)
    folder = work / f"publish-{size}-{len(list(work.glob(f'publish-{size}-*')))}"
    folder.mkdir()
    seed = folder / "seed"  # the build whose cache the `restored` way starts from
    subprocess.run(["cp", "-a", str(corpus.resolve()), str(seed)], check=True)
    run.measure(compare_edit.command(REPO, seed))
    saved_cache = seed / ".sitegen-cache"
    samples: dict[str, list[run.Sample]] = {way: [] for way in WAYS}
    caches: dict[str, float] = {}
    for i in range(rounds):
        for way in WAYS if i % 2 == 0 else WAYS[::-1]:
            site = folder / f"{way}-{i}"
            sample = _one(way, corpus, site, saved_cache)
            samples[way].append(sample)
            cache = site / ".sitegen-cache"
            caches[way] = _size_mb(cache) if cache.is_dir() else 0.0
            print(f"  {way}: {sample.wall:.2f} s, {sample.rss_mb:.0f} MB", flush=True)
    table: dict[str, Any] = {}
    for way in WAYS:
        table[way] = {"wall": statistics.median(s.wall for s in samples[way]),
                      "rss_mb": statistics.median(s.rss_mb for s in samples[way]),
                      "wall_ratio_to_kept": statistics.median(
                          a.wall / b.wall for a, b in zip(samples[way], samples["kept"], strict=True)),
                      "cache_mb": caches[way]}
    print(f"| {size:,} papers, fresh checkout | wall | peak memory | ratio to kept (median of pairs) | cache left |\n"
          "| --- | ---: | ---: | ---: | ---: |")
    for way, row in table.items():
        print(f"| {way} | {row['wall']:.2f} s | {row['rss_mb']:.0f} MB | {row['wall_ratio_to_kept']:.2f}× | "
              f"{row['cache_mb']:.0f} MB |")
    if out is not None:
        out.write_text(json.dumps({"size": size, "summary": table,
                                   "samples": {w: [vars(s) for s in v] for w, v in samples.items()}},
                                  indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000, help="papers in the corpus")
    parser.add_argument("--runs", type=int, default=3, help="rounds of the three ways")
    parser.add_argument("--work", type=Path, default=REPO / ".bench", help="where corpora and copies go")
    parser.add_argument("--out", type=Path, default=None, help="JSON of every sample")
    args = parser.parse_args()
    sys.exit(main(args.size, args.runs, args.work, args.out))
