"""-q/--quiet and -v/--verbose on every command, through the installed `sitegen` program."""

from __future__ import annotations

import subprocess
import sysconfig
from pathlib import Path

import pytest

from sitegen.cli import main

from ..site_factory import copy_site

SITEGEN = Path(sysconfig.get_path("scripts")) / "sitegen"  # the console script pip installed


def sitegen(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SITEGEN), *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_takes_quiet_and_verbose(command: str) -> None:
    for flags in (["-q"], ["--verbose"]):
        shown = sitegen(*flags, command, "--help") if command != "completion" else sitegen(*flags, "--help")
        assert shown.returncode == 0, shown.stderr
    if command != "completion":  # prints a script; nothing to say more or less about
        shown = sitegen(command, "--help")
        assert "-q, --quiet" in shown.stdout and "-v, --verbose" in shown.stdout, shown.stdout


def test_quiet_builds_and_says_nothing_before_or_after_the_command(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=5)
    for args in (["-q", "build"], ["build", "-q"]):
        done = sitegen(*args, "--root", str(root), "--no-search")
        assert done.returncode == 0 and done.stdout == "" and done.stderr == "", done
    assert (root / "public" / "index.html").is_file()


def test_quiet_still_says_every_error(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    entry = sorted((root / "content" / "papers").glob("*.md"))[0]
    entry.write_text(entry.read_text(encoding="utf-8").replace("title:", "title: [unclosed", 1), encoding="utf-8")
    done = sitegen("check", "-q", "--root", str(root))
    assert done.returncode == 1 and done.stdout == ""
    assert f"content/papers/{entry.name}:" in done.stderr and "error[" in done.stderr
    assert "error(s) in content/" in done.stderr


def test_verbose_says_each_stage_and_the_last_flag_wins(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=5)
    done = sitegen("build", "-q", "-v", "--root", str(root), "--no-search")
    assert done.returncode == 0 and done.stdout.startswith("built ")
    assert [line.split(":")[0] for line in done.stderr.splitlines()] == ["parse", "model", "render", "write"]
    done = sitegen("-v", "build", "-q", "--root", str(root), "--no-search")
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""


def test_verbose_import_names_each_entry_it_writes(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site")
    papers = sorted(p.name for p in (root / "content" / "papers").glob("*.md"))
    for path in (root / "content" / "papers").glob("*.md"):
        path.unlink()
    done = sitegen("import", "-v", "--root", str(root))
    assert done.returncode == 0, done.stderr
    named = sorted(line.split()[1].rsplit("/", 1)[1] for line in done.stdout.splitlines()
                   if line.startswith("  new "))
    assert named == papers
    again = sitegen("import", "-q", "--root", str(root))
    assert again.returncode == 0 and again.stdout == "" and again.stderr == ""
