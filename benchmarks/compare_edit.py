"""Compare the front-matter edit in a new process between two checkouts of sitegen, run alternately.

Usage: python -m benchmarks.compare_edit OLD_CHECKOUT OLD_SITE NEW_CHECKOUT NEW_SITE [rounds]

A change worth a tenth of a second is lost in this machine's noise between one run of the
runner and the next, so each checkout builds its own copy of a built corpus (their caches
may not be readable by the other version): both settle after a body edit, then each round
makes the same title edit on both, in an order that alternates. Prints the medians and
their ratio; both entries are restored and rebuilt afterwards.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from . import run


def command(checkout: Path, site: Path) -> list[str]:
    """`sitegen build` with the package imported from `checkout`, not the installed one.

    The program is what the checkout's console script calls: `cli.run` where it has one
    (which leaves without tearing the interpreter down), else `cli.main`.
    """
    code = (f"import sys; sys.path.insert(0, {str(checkout)!r}); from sitegen import cli; "
            "sys.exit(getattr(cli, 'run', cli.main)())")
    return [sys.executable, "-c", code, "build", "--root", str(site), "--no-search"]


def compare(sides: dict[str, tuple[Path, Path]], rounds: int) -> dict[str, list[run.Sample]]:
    """Title edits timed on each side, `rounds` each; the sides' entries restored afterwards."""
    entries = {name: run.pick_entry(site) for name, (_, site) in sides.items()}
    originals = {name: entry.read_text(encoding="utf-8") for name, entry in entries.items()}
    samples: dict[str, list[run.Sample]] = {name: [] for name in sides}
    names = list(sides)
    try:
        for name, (checkout, site) in sides.items():  # the same starting point: a body edit, settled
            entries[name].write_text(run.body_edit(originals[name], 1), encoding="utf-8")
            run.measure(command(checkout, site))
        for i in range(rounds):
            for name in names if i % 2 == 0 else names[::-1]:
                checkout, site = sides[name]
                edited = run.title_edit(run.body_edit(originals[name], 1), i + 1)
                entries[name].write_text(edited, encoding="utf-8")
                samples[name].append(run.measure(command(checkout, site)))
    finally:
        for name, (checkout, site) in sides.items():
            entries[name].write_text(originals[name], encoding="utf-8")
            run.measure(command(checkout, site))
    return samples


def main(argv: list[str]) -> int:
    old_checkout, old_site, new_checkout, new_site = (Path(a).absolute() for a in argv[:4])
    rounds = int(argv[4]) if len(argv) > 4 else 8
    samples = compare({"old": (old_checkout, old_site), "new": (new_checkout, new_site)}, rounds)
    medians = {name: statistics.median(s.wall for s in runs) for name, runs in samples.items()}
    for name, runs in samples.items():
        print(f"{name}: title edit, new process: wall {medians[name]:.3f} s, "
              f"CPU {statistics.median(s.cpu for s in runs):.2f} s; walls {[round(s.wall, 2) for s in runs]}")
    print(f"new / old: {medians['new'] / medians['old']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
