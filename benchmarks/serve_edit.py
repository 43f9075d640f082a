"""Re-measure only the `sitegen serve` rows of `benchmarks.run` on a generated corpus.

Usage: python -m benchmarks.serve_edit benchmarks/work/sitegen-10000 [reloads]

The same entry, edits and session as the runner (`run.serve_session`): start-up, then
save → reload for body edits and title edits; the entry is restored afterwards.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from . import run


def main(argv: list[str]) -> int:
    site, reloads = Path(argv[0]).absolute(), int(argv[1]) if len(argv) > 1 else 5
    with tempfile.TemporaryDirectory() as folder:
        result = run.serve_session(site, run.pick_entry(site), reloads, 3600, Path(folder) / "log.txt")
    print(f"serve start-up {result['startup_s']:.1f} s, peak RSS {result['rss_mb']:.0f} MB")
    for key in ("body_reload", "body_page", "title_reload", "title_page", "title_listing"):
        m = result.get(key)
        if m is None:  # the edited paper links no author page
            continue
        print(f"save → {key.replace('_', ' ')}: median {m['median_ms']:.1f} ms (min {m['min_ms']:.1f}, "
              f"max {m['max_ms']:.1f}); samples {m['samples_ms']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
