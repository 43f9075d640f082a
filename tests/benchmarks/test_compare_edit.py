"""The two-checkout comparison of a front-matter edit, on a tiny corpus: it times both sides and restores them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from benchmarks import compare_edit, run
from benchmarks.generate import generate

REPO = Path(__file__).resolve().parents[2]


def test_both_sides_are_timed_alternately_and_left_as_they_were(tmp_path: Path) -> None:
    sides = {}
    for name in ("old", "new"):
        site = generate(30, tmp_path / name)
        subprocess.run(compare_edit.command(REPO, site), check=True, capture_output=True, timeout=120)
        sides[name] = (REPO, site)
    before = {name: run.pick_entry(site).read_bytes() for name, (_, site) in sides.items()}
    samples = compare_edit.compare(sides, rounds=2)
    assert {name: len(runs) for name, runs in samples.items()} == {"old": 2, "new": 2}
    assert all(s.wall > 0 for runs in samples.values() for s in runs)
    assert {name: run.pick_entry(site).read_bytes() for name, (_, site) in sides.items()} == before
    page = sides["new"][1] / "public" / "papers" / run.pick_entry(sides["new"][1]).stem / "index.html"
    assert "Benchmark title edit" not in page.read_text(encoding="utf-8"), "rebuilt after the entry was restored"


def test_the_command_imports_sitegen_from_the_checkout_given(tmp_path: Path) -> None:
    code = compare_edit.command(tmp_path / "elsewhere", tmp_path)[2]
    probe = code.replace("from sitegen import cli; sys.exit(getattr(cli, 'run', cli.main)())", "print(sys.path[0])")
    assert probe != code
    shown = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    assert shown.strip() == str(tmp_path / "elsewhere")
