"""Re-measure only the "title edit, new process" rows of `benchmarks.run` on a built corpus.

Usage: python -m benchmarks.title_edit benchmarks/work/sitegen-10000 [runs]

The same entry, the same edits (a body edit first, then title edits keeping it) and the
same command as the runner; the entry is restored and rebuilt afterwards.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from . import run


def main(argv: list[str]) -> int:
    site, runs = Path(argv[0]), int(argv[1]) if len(argv) > 1 else 3
    entry = run.pick_entry(site)
    original = entry.read_text(encoding="utf-8")
    command = [*run.sitegen_command(), "build", "--root", str(site), "--no-search"]
    try:
        base = run.body_edit(original, runs)
        entry.write_text(base, encoding="utf-8")
        run.measure(command)
        samples, touched = [], []
        for i in range(runs):
            entry.write_text(run.title_edit(base, i + 1), encoding="utf-8")
            before = run.snapshot(site / "public")
            samples.append(run.measure(command))
            touched.append(run.touched(before, run.snapshot(site / "public")))
    finally:
        entry.write_text(original, encoding="utf-8")
        run.measure(command)
    walls = [round(s.wall, 3) for s in samples]
    print(f"title edit, new process: wall {statistics.median(walls):.3f} s, "
          f"CPU {statistics.median(s.cpu for s in samples):.2f} s, "
          f"peak RSS {statistics.median(s.rss_mb for s in samples):.0f} MB; walls {walls}, files touched {touched}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
