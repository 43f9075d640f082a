"""Failures as the command line reports them: `path[:line]: error[CODE]`, a hint, exit status 1, never a traceback."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main

from .site_factory import copy_site, tree_bytes

PAPERS = 3


def sitegen(*args: str | Path, env: dict[str, str] | None = None,
            prelude: str = "") -> subprocess.CompletedProcess[str]:
    """The real command line in a child process, after `prelude` (code that injects a fault)."""
    code = f"{prelude}\nfrom sitegen.cli import run\nrun()"
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True,
                          timeout=120, check=False, env=os.environ | (env or {}))


def _no_traceback(run: subprocess.CompletedProcess[str]) -> None:
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("command", [["build", "--no-search"], ["check"], ["serve", "--port", "0"]])
def test_a_folder_without_site_yaml_is_refused(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "content" / "papers").mkdir(parents=True)
    run = sitegen(*command, "--root", tmp_path)
    _no_traceback(run)
    assert "site.yaml: error[E006]: no site.yaml in" in run.stderr
    assert "hint: run 'sitegen init DIR'" in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content"]


def test_site_yaml_that_is_not_utf8_or_not_a_file(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", PAPERS)
    (root / "site.yaml").write_bytes(b"title: Caf\xe9\n")
    run = sitegen("build", "--root", root, "--no-search")
    _no_traceback(run)
    assert "site.yaml:1: error[E007]: site.yaml is not valid UTF-8 text" in run.stderr
    (root / "site.yaml").unlink()
    (root / "site.yaml").mkdir()
    run = sitegen("check", "--root", root)
    _no_traceback(run)
    assert "site.yaml: error[E007]: cannot read site.yaml: it is a folder" in run.stderr
    assert not (root / "public").exists()


def test_a_bad_base_url_is_reported_against_the_flag(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", PAPERS)
    run = sitegen("build", "--root", root, "--no-search", "--base-url", "ftp://example.org/x")
    _no_traceback(run)
    assert "--base-url: error[E005]: --base-url (or $SITEGEN_BASE_URL) must be an absolute http(s) URL" in run.stderr
    assert "site.yaml:" not in run.stderr


def test_check_loads_the_theme_as_a_build_does(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", PAPERS)
    template = root / "themes" / "default" / "templates" / "paper.html"
    template.write_text(template.read_text(encoding="utf-8") + "\n{% if %}\n", encoding="utf-8")
    run = sitegen("check", "--root", root)
    _no_traceback(run)
    assert "themes/default/templates/paper.html:" in run.stderr and "error[E401]" in run.stderr
    config = root / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("theme: default", "theme: missing"),
                      encoding="utf-8")
    run = sitegen("check", "--root", root)
    _no_traceback(run)
    assert "error[E402]: theme 'missing' not found" in run.stderr


def _on_a_terminal(args: list[str], env: dict[str, str]) -> bytes:
    """What the command prints on a pseudo-terminal (where colours are on unless NO_COLOR says otherwise)."""
    ours, theirs = pty.openpty()
    child = subprocess.Popen([sys.executable, "-c", "from sitegen.cli import run; run()", *args],
                             stdin=theirs, stdout=theirs, stderr=theirs, env=os.environ | env, close_fds=True)
    os.close(theirs)
    out = b""
    while True:
        ready, _, _ = select.select([ours], [], [], 60)
        if not ready:
            break
        try:
            chunk = os.read(ours, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    child.wait(timeout=60)
    os.close(ours)
    return out


def test_diagnostics_honour_no_color(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", PAPERS)
    entry = sorted((root / "content" / "papers").glob("*.md"))[0]
    entry.write_text(entry.read_text(encoding="utf-8").replace("\ntitle:", "\ntitel:", 1), encoding="utf-8")
    env = {"TERM": "xterm", "NO_COLOR": ""}
    coloured = _on_a_terminal(["check", "--root", str(root)], env)
    assert b"error[" in coloured and b"\x1b[" in coloured
    plain = _on_a_terminal(["check", "--root", str(root)], env | {"NO_COLOR": "1"})
    assert b"error[" in plain and b"\x1b[" not in plain


NO_SPACE = """
import errno, sitegen.publish.writer
def full(fd, data):
    raise OSError(errno.ENOSPC, "No space left on device")
sitegen.publish.writer.write_all = full
"""

READ_ONLY = """
import errno, os, tempfile
def read_only(*args, dir=None, **kwargs):
    raise OSError(errno.EROFS, "Read-only file system", os.path.join(dir, "x"))
tempfile.mkstemp = read_only
"""


def _leftovers(root: Path) -> list[str]:
    beside = [p.name for p in root.iterdir() if p.name.startswith(".public.")]
    return beside + [p.name for p in (root / "public").rglob("*.tmp")]


def test_a_full_disk_during_a_full_build_keeps_the_previous_site(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", PAPERS)
    assert sitegen("build", "--root", root, "--no-search").returncode == 0
    before = tree_bytes(root / "public")
    config = root / "site.yaml"  # a full build, rewriting every page
    config.write_text(config.read_text(encoding="utf-8").replace("title:", "title: Renamed", 1), encoding="utf-8")
    run = sitegen("build", "--root", root, "--no-search", prelude=NO_SPACE)
    _no_traceback(run)
    assert f"{root / 'public'}: error[E900]: No space left on device" in run.stderr
    assert "hint: the disk is full" in run.stderr
    assert tree_bytes(root / "public") == before and _leftovers(root) == []


def test_a_read_only_output_during_an_update_in_place_keeps_the_previous_site(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", PAPERS)
    assert sitegen("build", "--root", root, "--no-search").returncode == 0
    before = tree_bytes(root / "public")
    entry = sorted((root / "content" / "papers").glob("*.md"))[0]
    entry.write_text(entry.read_text(encoding="utf-8").replace("\ntitle: ", "\ntitle: New ", 1), encoding="utf-8")
    run = sitegen("build", "--root", root, "--no-search", prelude=READ_ONLY)
    _no_traceback(run)
    assert "error[E900]: Read-only file system" in run.stderr and "hint: the folder is on a read-only" in run.stderr
    assert tree_bytes(root / "public") == before and _leftovers(root) == []


def test_an_unexpected_failure_is_said_as_a_bug_not_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               ) -> None:
    root = copy_site(tmp_path / "site", PAPERS)

    def broken(*args: object, **kwargs: object) -> None:
        raise ValueError("something no one expected")

    monkeypatch.setattr("sitegen.pipeline.build.build", broken)
    result = CliRunner().invoke(main, ["build", "--root", str(root), "--no-search"])
    assert result.exit_code == 1
    assert ".: error[E999]: internal error: ValueError: something no one expected" in result.output
    assert "SITEGEN_DEBUG=1" in result.output and "Traceback" not in result.output


def test_a_control_character_in_site_yaml_is_an_error(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", PAPERS)
    config = root / "site.yaml"
    text = config.read_text(encoding="utf-8").replace("curator: The sitegen curators", 'curator: "Ada\\a Lovelace"')
    config.write_text(text, encoding="utf-8")
    run = sitegen("build", "--root", root, "--no-search")
    _no_traceback(run)
    assert "error[E008]: 'curator' holds the control character U+0007" in run.stderr
    assert not (root / "public").exists()
