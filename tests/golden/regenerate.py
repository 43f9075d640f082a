"""Rebuild tests/golden/expected/ from tests/golden/site/ after an intended output change.

    python -m tests.golden.regenerate

Review the diff (`git diff tests/golden/expected`) before committing it.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from sitegen.pipeline.build import build

HERE = Path(__file__).resolve().parent
SITE = HERE / "site"
EXPECTED = HERE / "expected"


def build_golden(destination: Path) -> None:
    """Build the golden site without search and without any cache, into `destination`."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "site"
        shutil.copytree(SITE, work)
        build(work, destination, search=False, use_cache=False, jobs=1)


def main() -> None:
    shutil.rmtree(EXPECTED, ignore_errors=True)
    build_golden(EXPECTED)
    print(f"wrote {sum(1 for p in EXPECTED.rglob('*') if p.is_file())} files to {EXPECTED}")


if __name__ == "__main__":
    main()
