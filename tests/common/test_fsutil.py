"""Atomic writes give files the mode a plain write would; files staged together land together or not at all."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from sitegen.common.fsutil import StagedFiles, write_atomic


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


def _write_together(files: dict[Path, bytes], durable: bool = True) -> None:
    staged = StagedFiles(durable)
    for path, data in files.items():
        staged.add(path, data)
    staged.commit()


@pytest.mark.parametrize("durable", [True, False])
def test_files_written_together_all_land_and_leave_no_temporaries(tmp_path: Path, durable: bool) -> None:
    files = {tmp_path / f"section-{i % 3}" / f"page-{i}.html": f"<p>{i}</p>".encode() * (i + 1) for i in range(40)}
    _write_together(files, durable)
    assert {path: path.read_bytes() for path in files} == files
    assert not [p for p in tmp_path.rglob("*.tmp")]


@pytest.mark.parametrize("durable", [True, False])
def test_staged_files_replace_nothing_until_committed_and_nothing_when_discarded(tmp_path: Path,
                                                                                durable: bool) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(b"old")
    staged = StagedFiles(durable)
    staged.add(page, b"first")
    staged.add(page, b"second")  # handed in again: the later bytes win, the earlier temporary goes
    staged.add(tmp_path / "new.html", b"new")
    assert page.read_bytes() == b"old" and not (tmp_path / "new.html").exists() and len(staged) == 2
    staged.discard()
    assert page.read_bytes() == b"old" and not (tmp_path / "new.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]
    staged = StagedFiles(durable)
    staged.add(page, b"first")
    staged.add(page, b"second")
    staged.commit()
    assert page.read_bytes() == b"second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["page.html"]


def test_a_failed_file_among_many_raises_and_none_is_replaced(tmp_path: Path) -> None:
    (tmp_path / "blocker").write_text("a file where a folder should be")
    for i in range(6):
        (tmp_path / f"page-{i}.html").write_bytes(b"old")
    files = {tmp_path / f"page-{i}.html": b"new" for i in range(6)} | {tmp_path / "blocker" / "page.html": b"x"}
    files |= {tmp_path / "new" / "page.html": b"new"}
    for durable in (True, False):
        with pytest.raises(OSError):
            _write_together(files, durable)
        assert all((tmp_path / f"page-{i}.html").read_bytes() == b"old" for i in range(6))
        assert not (tmp_path / "new" / "page.html").exists()
        assert not [p for p in tmp_path.rglob("*.tmp")]
