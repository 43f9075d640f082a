"""Paired builds against another commit: `python -m benchmarks.run --baseline REV [--sizes N] [--runs K]`.

The commit REV is checked out in a git worktree of its own (WORK/baseline-<rev>/, kept for
the next run) and imported from there, the checkout in hand from here, each by its own
`sitegen build` process (`compare_edit.command`), so both run on the same interpreter and
libraries. For each size, each side gets its own copy of the same corpus (with its own
theme, as its tests build), and then, in rounds whose order alternates:

- cold: a new copy of the corpus built with nothing cached (the copies are kept until the
  end: deleting thousands of files slows the next build's file creation on this disk);
- noop, notes, title, new: on the side's last cold copy, a rebuild with nothing changed,
  with a sentence appended to one entry's notes, with its title changed, and with a new entry.

Each figure is reported as both sides' medians (wall seconds, peak RSS of the largest
process) and the median of the per-pair ratios (this / baseline), with every sample in the
JSON written to --out.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from . import compare_edit, run

REPO = Path(__file__).resolve().parent.parent
KINDS = ("cold", "noop", "notes", "title", "new")
NEW_ENTRY = """---
title: "A paper added while the list was built: paired benchmark entry {n}"
date: 2025-01-0{n}
authors: [Ada Lovelace, Alan Turing]
tags: [compilers]
abstract: "An entry the benchmark adds to measure a new entry's rebuild."
---
Added by the benchmark.
"""


def worktree(rev: str, work: Path) -> Path:
    """A checkout of `rev` under `work` (made once, then reused)."""
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--verify", f"{rev}^{{commit}}"], check=True,
                            capture_output=True, text=True).stdout.strip()
    folder = work / f"baseline-{commit[:12]}"
    if not (folder / "sitegen").is_dir():
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--force", "--detach", str(folder), commit],
                       check=True, capture_output=True)
    return folder


def _copy(corpus: Path, checkout: Path, site: Path) -> None:
    subprocess.run(["cp", "-a", str(corpus.resolve()), str(site)], check=True)
    subprocess.run(["rm", "-rf", str(site / "themes")], check=True)
    subprocess.run(["cp", "-a", str(checkout / "themes"), str(site / "themes")], check=True)


def _edits(site: Path, entry: Path, kind: str, n: int, original: str) -> None:
    if kind == "notes":  # the notes alone: the title stays as the last round's title edit left it
        edited = run.body_edit(original, n)
        entry.write_text(run.title_edit(edited, n - 1) if n > 1 else edited, encoding="utf-8")
    elif kind == "title":
        entry.write_text(run.title_edit(run.body_edit(original, n), n), encoding="utf-8")
    elif kind == "new":
        (site / "content" / "papers" / f"zz-paired-benchmark-entry-{n}.md").write_text(NEW_ENTRY.format(n=n % 9 + 1),
                                                                                      encoding="utf-8")


def compare(sides: dict[str, Path], corpus: Path, work: Path, rounds: int) -> dict[str, dict[str, list[run.Sample]]]:
    """Every kind of build of each side, `rounds` times, in turns."""
    samples: dict[str, dict[str, list[run.Sample]]] = {name: {k: [] for k in KINDS} for name in sides}
    names = list(sides)
    last: dict[str, Path] = {}
    for i in range(rounds):
        for name in names if i % 2 == 0 else names[::-1]:
            site = work / f"{name}-{i}"
            _copy(corpus, sides[name], site)
            samples[name]["cold"].append(_shown(name, "cold", run.measure(compare_edit.command(sides[name], site))))
            last[name] = site
    # picked once: the new entries each round adds move the middle of the folder
    entries = {name: run.pick_entry(site) for name, site in last.items()}
    originals = {name: entry.read_text(encoding="utf-8") for name, entry in entries.items()}
    for i in range(rounds):
        for kind in KINDS[1:]:
            for name in names if i % 2 == 0 else names[::-1]:
                _edits(last[name], entries[name], kind, i + 1, originals[name])
                sample = run.measure(compare_edit.command(sides[name], last[name]))
                samples[name][kind].append(_shown(name, kind, sample))
    return samples


def _shown(name: str, kind: str, sample: run.Sample) -> run.Sample:
    print(f"  {name} {kind}: {sample.wall:.2f} s, {sample.rss_mb:.0f} MB", flush=True)
    return sample


def summary(samples: dict[str, dict[str, list[run.Sample]]]) -> dict[str, Any]:
    """Each kind: both sides' medians and the median of per-pair ratios (this / baseline)."""
    out: dict[str, Any] = {}
    for kind in KINDS:
        this, base = samples["this"][kind], samples["baseline"][kind]
        out[kind] = {
            "this_wall": statistics.median(s.wall for s in this),
            "baseline_wall": statistics.median(s.wall for s in base),
            "this_rss_mb": statistics.median(s.rss_mb for s in this),
            "baseline_rss_mb": statistics.median(s.rss_mb for s in base),
            "wall_ratio": statistics.median(a.wall / b.wall for a, b in zip(this, base, strict=True)),
            "rss_ratio": statistics.median(a.rss_mb / b.rss_mb for a, b in zip(this, base, strict=True)),
        }
    return out


def main(rev: str, sizes: list[int], rounds: int, work: Path, out: Path | None) -> int:
    work.mkdir(parents=True, exist_ok=True)
    baseline = worktree(rev, work)
    results: dict[str, Any] = {"baseline": rev, "sizes": {}}
    for n in sizes:
        corpus = work / f"corpus-{n}"
        if not corpus.is_dir():
            subprocess.run([sys.executable, "-m", "benchmarks.generate", str(n), str(corpus)], check=True, cwd=REPO)
        folder = work / f"paired-{n}-{len(list(work.glob(f'paired-{n}-*')))}"
        folder.mkdir()
        print(f"{n} papers: this checkout against {rev}, {rounds} rounds", flush=True)
        samples = compare({"this": REPO, "baseline": baseline}, corpus, folder, rounds)
        table = summary(samples)
        results["sizes"][n] = {"summary": table, "samples": {side: {k: [vars(s) for s in v] for k, v in kinds.items()}
                                                             for side, kinds in samples.items()}}
        print(f"| {n:,} papers | this | {rev} | ratio (median of pairs) |\n| --- | ---: | ---: | ---: |")
        for kind, row in table.items():
            print(f"| {kind} | {row['this_wall']:.2f} s, {row['this_rss_mb']:.0f} MB | {row['baseline_wall']:.2f} s, "
                  f"{row['baseline_rss_mb']:.0f} MB | {row['wall_ratio']:.2f}× time, {row['rss_ratio']:.2f}× memory |")
    if out is not None:
        out.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    return 0
