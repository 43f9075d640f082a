"""Compare cold builds and an abstract edit between two checkouts of sitegen, run alternately on one corpus.

Usage: python -m benchmarks.compare_cold OLD_CHECKOUT NEW_CHECKOUT CORPUS WORK [rounds]

Each cold build gets a fresh copy of CORPUS in WORK (`cp -a`, so no output and no cache)
with the checkout's own theme in place of the corpus's, the two checkouts taking turns,
and which goes first alternating from round to round, so that whatever else the machine
does weighs on both alike. Then each side's last copy has one entry's abstract replaced
and is built again in a new process, `rounds` times, in turns. Prints the medians and the
ratios new / old. The copies stay in WORK until the end (deleting thousands of files slows
the next build's file creation on some file systems), then are removed.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from . import compare_edit, run


def abstract_edit(original: str, n: int) -> str:
    """The entry with its front-matter abstract replaced (other lines untouched)."""
    lines = original.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("abstract:"))
    end = start + 1
    while end < len(lines) and lines[end].startswith((" ", "\t")):  # a folded abstract continues on indented lines
        end += 1
    text = f"Benchmark abstract edit {n}: sparse attention kernels fuse softmax tiles in shared memory."
    lines[start:end] = ["abstract: " + json.dumps(text, ensure_ascii=False)]
    return "\n".join(lines)


def compare(sides: dict[str, Path], corpus: Path, work: Path, rounds: int) -> dict[str, dict[str, list[run.Sample]]]:
    """Cold builds and abstract edits of each side (name -> checkout), `rounds` each, in turns."""
    samples: dict[str, dict[str, list[run.Sample]]] = {name: {"cold": [], "abstract": []} for name in sides}
    names = list(sides)
    last: dict[str, Path] = {}
    try:
        for i in range(rounds):
            for name in names if i % 2 == 0 else names[::-1]:
                site = work / f"{name}-{i}"
                subprocess.run(["cp", "-a", str(corpus), str(site)], check=True)
                shutil.rmtree(site / "themes", ignore_errors=True)  # the checkout's own theme, as its tests build
                shutil.copytree(sides[name] / "themes", site / "themes")
                sample = run.measure(compare_edit.command(sides[name], site))
                samples[name]["cold"].append(_shown(name, "cold", sample))
                last[name] = site
        entries = {name: run.pick_entry(site) for name, site in last.items()}
        originals = {name: entry.read_text(encoding="utf-8") for name, entry in entries.items()}
        for i in range(rounds):
            for name in names if i % 2 == 0 else names[::-1]:
                entries[name].write_text(abstract_edit(originals[name], i + 1), encoding="utf-8")
                sample = run.measure(compare_edit.command(sides[name], last[name]))
                samples[name]["abstract"].append(_shown(name, "abstract", sample))
    finally:
        for site in sorted(work.glob("*-[0-9]*")):  # rm, at several times the speed of shutil.rmtree here
            subprocess.run(["rm", "-rf", str(site)], check=False)
    return samples


def _shown(name: str, kind: str, sample: run.Sample) -> run.Sample:
    """A sample, printed as it is taken: a run of an hour that fails on its last build keeps the rest."""
    print(f"{name} {kind}: wall {sample.wall:.2f} s, CPU {sample.cpu:.2f} s, peak RSS {sample.rss_mb:.0f} MB",
          flush=True)
    return sample


def main(argv: list[str]) -> int:
    old, new, corpus, work = (Path(a).absolute() for a in argv[:4])
    rounds = int(argv[4]) if len(argv) > 4 else 3
    work.mkdir(parents=True, exist_ok=True)
    samples = compare({"old": old, "new": new}, corpus, work, rounds)
    for kind in ("cold", "abstract"):
        medians = {}
        for name, runs in samples.items():
            walls = [s.wall for s in runs[kind]]
            medians[name] = statistics.median(walls)
            cpu = statistics.median(s.cpu for s in runs[kind])
            print(f"{name}: {kind}: wall {medians[name]:.2f} s, CPU {cpu:.2f} s,"
                  f" peak RSS {statistics.median(s.rss_mb for s in runs[kind]):.0f} MB;"
                  f" walls {[round(w, 2) for w in walls]}, CPU {[round(s.cpu, 2) for s in runs[kind]]}")
        pairs = [n / o for o, n in zip([s.wall for s in samples['old'][kind]], [s.wall for s in samples['new'][kind]],
                                       strict=True)]
        print(f"{kind}: new / old: {medians['new'] / medians['old']:.3f} (pairs {[round(p, 3) for p in pairs]})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
