"""The `sitegen` program (`cli.run`): exit codes and output survive leaving without interpreter teardown."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sitegen.console import StageLines

from .site_factory import copy_site, tree_bytes

PROGRAM = [sys.executable, "-c", "import sys; sys.argv[0] = 'sitegen'; from sitegen.cli import run; run()"]


def _sitegen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*PROGRAM, *args], capture_output=True, text=True, timeout=120)


def test_a_build_exits_zero_with_its_summary_and_every_file_written(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=5)
    done = _sitegen("build", "--root", str(root), "--no-search")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("built ") and "into" in done.stdout
    assert (root / "public" / "index.html").read_text(encoding="utf-8").rstrip().endswith("</html>")
    assert (root / ".sitegen-cache" / "engine" / "memo.sqlite").is_file()  # the memo saved before leaving
    again = _sitegen("build", "--root", str(root), "--no-search")
    assert again.returncode == 0 and "0 written" in again.stdout  # the state saved is whole


def test_a_build_without_cache_keeps_nothing_beside_the_site_it_writes(tmp_path: Path) -> None:
    """`--no-cache` (a throwaway checkout): the same site as a cached build, and no `.sitegen-cache/` at all,
    its render workers sending back no records."""
    root = copy_site(tmp_path / "site", papers=12)
    kept = _sitegen("build", "--root", str(root), "--no-search", "--jobs", "2", "--output", str(tmp_path / "kept"))
    assert kept.returncode == 0, kept.stderr
    cache = root / ".sitegen-cache"
    assert cache.is_dir()
    cache.rename(tmp_path / "moved-cache")  # a fresh checkout, as CI and the Pages workflow have
    done = _sitegen("build", "--root", str(root), "--no-search", "--jobs", "2", "--no-cache")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("built ")
    assert not cache.exists()
    assert tree_bytes(root / "public") == tree_bytes(tmp_path / "kept")


def test_a_failed_build_exits_one_and_its_error_is_printed(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=5)
    entry = sorted((root / "content" / "papers").glob("*.md"))[0]
    entry.write_text(entry.read_text(encoding="utf-8").replace("title:", "title: [unclosed", 1), encoding="utf-8")
    done = _sitegen("build", "--root", str(root), "--no-search")
    assert done.returncode == 1
    assert f"content/papers/{entry.name}:" in done.stderr and "failed" in done.stderr


def test_usage_errors_and_help_keep_their_exit_codes() -> None:
    assert _sitegen("no-such-command").returncode == 2
    shown = _sitegen("--help")
    assert shown.returncode == 0 and "build" in shown.stdout


def test_a_root_that_does_not_exist_is_an_error_and_nothing_is_created(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-site"
    for command in ("build", "check", "serve", "import", "new", "deploy"):
        args = [command, "--root", str(missing)] + (["A title"] if command == "new" else [])
        done = _sitegen(*args)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert str(missing) in done.stderr and "does not exist" in done.stderr, command
    assert not missing.exists()


def test_a_build_logged_to_a_file_says_each_stage_with_its_time(tmp_path: Path) -> None:
    """Not on a terminal (a log, CI): one plain line as each stage ends, in order, on stderr."""
    root = copy_site(tmp_path / "site", papers=12)
    done = _sitegen("build", "--root", str(root), "--no-search")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert [line.split(":")[0] for line in lines] == ["parse", "model", "render", "write"], done.stderr
    assert all(line.endswith(" s") and float(line.split(": ")[1][:-2]) >= 0 for line in lines)
    again = _sitegen("build", "--root", str(root), "--no-search")  # an update in place: no stages to tell
    assert again.returncode == 0 and again.stderr == ""


def test_a_long_stage_says_how_far_it_got_now_and_then(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(StageLines, "PERIOD", 0.0)
    lines = StageLines()
    lines.stage("render")
    lines(1_200, 10_000)
    lines(10_000, 10_000)  # done: the stage's own line says it
    lines.stage("write")
    lines.end()
    said = capsys.readouterr().err.splitlines()
    assert said[0].startswith("render: 1,200 of 10,000 files, ") and said[0].endswith(" s so far")
    assert [s.split(":")[0] for s in said[1:]] == ["render", "write"] and len(said) == 3


def test_the_short_flags_people_reach_for_from_hugo_and_mkdocs() -> None:
    """`-V` for the version, `serve -p` for the port (checked before anything is served)."""
    from importlib.metadata import version

    from click.testing import CliRunner

    from sitegen.cli import main

    shown = CliRunner().invoke(main, ["-V"])
    assert shown.exit_code == 0 and shown.output.strip().endswith(f", version {version('sitegen-papers')}")
    refused = CliRunner().invoke(main, ["serve", "-p", "70000"])
    assert refused.exit_code == 2 and "'-p' / '--port'" in refused.output and "70000" in refused.output
