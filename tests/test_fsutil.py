"""Atomic writes give files the mode a plain write would."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from sitegen.fsutil import write_atomic, write_files


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_file_gets_the_mode_a_plain_write_gives(tmp_path: Path) -> None:
    write_atomic(tmp_path / "page.html", "<p>hi</p>")
    plain = tmp_path / "plain.html"
    plain.write_text("x")
    assert _mode(tmp_path / "page.html") == _mode(plain)
    umask = os.umask(0)
    os.umask(umask)
    if not umask & stat.S_IROTH:  # a web server running as another user can read it
        assert _mode(tmp_path / "page.html") & stat.S_IROTH


def test_a_rewritten_file_keeps_its_own_mode(tmp_path: Path) -> None:
    entry = tmp_path / "entry.md"
    entry.write_text("old")
    entry.chmod(0o640)
    write_atomic(entry, "new")
    assert entry.read_text() == "new"
    assert _mode(entry) == 0o640


def test_no_temporary_file_is_left_beside_the_target(tmp_path: Path) -> None:
    write_atomic(tmp_path / "a" / "b.json", b"{}", durable=False)
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["b.json"]


def test_files_written_together_all_land_and_leave_no_temporaries(tmp_path: Path) -> None:
    files = {tmp_path / f"section-{i % 3}" / f"page-{i}.html": f"<p>{i}</p>".encode() * (i + 1) for i in range(40)}
    write_files(files)
    assert {path: path.read_bytes() for path in files} == files
    assert not [p for p in tmp_path.rglob("*.tmp")]


def test_a_failed_file_among_many_raises_after_the_others_are_written(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("a file where a folder should be")
    files = {tmp_path / f"page-{i}.html": b"ok" for i in range(6)} | {tmp_path / "blocker" / "page.html": b"x"}
    with pytest.raises(OSError):
        write_files(files)
    assert all((tmp_path / f"page-{i}.html").read_bytes() == b"ok" for i in range(6))
    assert not [p for p in tmp_path.rglob("*.tmp")]
