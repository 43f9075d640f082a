"""What a build reads from content/: only regular files, and every edit seen, however its timestamps look."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sitegen.common.errors import BuildFailed
from sitegen.pipeline.build import build

from ..site_factory import copy_site


def sitegen(*args: str | Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The real command line in a child process."""
    return subprocess.run([sys.executable, "-c", "from sitegen.cli import run; run()", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout, check=False)


def _first_paper(root: Path) -> Path:
    return sorted((root / "content" / "papers").glob("*.md"))[0]


def _same_length_edit(text: str) -> str:
    """The title changed by one character, so the file keeps its size."""
    start = text.index("\ntitle: ") + len("\ntitle: ")
    first = text[start]
    return text[:start] + ("Q" if first != "Q" else "Z") + text[start + 1:]


@pytest.mark.parametrize("restore", ["touch -r", "cp -p"])
def test_an_edit_that_keeps_size_and_mtime_is_rebuilt(tmp_path: Path, restore: str) -> None:
    root = copy_site(tmp_path / "site", papers=6)
    build(root, search=False)
    entry = _first_paper(root)
    before = entry.stat()
    text = entry.read_text(encoding="utf-8")
    edited = _same_length_edit(text)
    assert len(edited.encode()) == len(text.encode())
    if restore == "cp -p":  # a copy made elsewhere, then copied over the entry keeping its times
        other = tmp_path / "edited.md"
        other.write_text(edited, encoding="utf-8")
        os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
        shutil.copy2(other, entry)
    else:
        entry.write_text(edited, encoding="utf-8")
    os.utime(entry, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = entry.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    build(root, search=False)
    page = (root / "public" / "papers" / entry.stem / "index.html").read_text(encoding="utf-8")
    title = edited.split("\ntitle: ", 1)[1].split("\n", 1)[0].strip("'\"")
    assert title[:12] in page


@pytest.mark.posix
def test_a_fifo_named_like_an_entry_is_refused_not_waited_on(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    os.mkfifo(root / "content" / "papers" / "pipe.md")
    for command in (["check"], ["build", "--no-search"]):
        run = sitegen(*command, "--root", root, timeout=30)
        assert run.returncode == 1, run.stderr
        assert "content/papers/pipe.md:1: error[E105]: cannot read the file" in run.stderr
        assert "not a regular file" in run.stderr
        assert "Traceback" not in run.stderr
    assert not (root / "public").exists()


@pytest.mark.posix
@pytest.mark.parametrize("kind", ["dangling", "loop", "folder", "fifo"])
def test_a_bad_entry_path_after_a_build_is_an_error_not_a_traceback(tmp_path: Path, kind: str) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    build(root, search=False)
    before = sorted(p.relative_to(root).as_posix() for p in (root / "public").rglob("*"))
    bad = root / "content" / "papers" / "bad.md"
    if kind == "dangling":
        bad.symlink_to(root / "nowhere.md")
    elif kind == "loop":
        bad.symlink_to(bad)
    elif kind == "folder":
        bad.mkdir()
    else:
        os.mkfifo(bad)
    with pytest.raises(BuildFailed) as failed:
        build(root, search=False)
    assert [d.format().split(":")[0] for d in failed.value.diagnostics] == ["content/papers/bad.md"]
    run = sitegen("build", "--root", root, "--no-search", timeout=30)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "content/papers/bad.md:1: error[E105]" in run.stderr
    assert sorted(p.relative_to(root).as_posix() for p in (root / "public").rglob("*")) == before


@pytest.mark.parametrize("folder", ["content/papers", "content/authors"])
def test_a_content_folder_that_is_a_file_is_an_error(tmp_path: Path, folder: str) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    build(root, search=False)
    before = sorted(p.relative_to(root).as_posix() for p in (root / "public").rglob("*"))
    shutil.rmtree(root / folder)
    (root / folder).write_text("not a folder\n")
    for command in (["check"], ["build", "--no-search"]):
        run = sitegen(*command, "--root", root)
        assert run.returncode == 1 and "Traceback" not in run.stderr
        assert f"{folder}: error[E106]: expected a folder, found a file" in run.stderr
    assert sorted(p.relative_to(root).as_posix() for p in (root / "public").rglob("*")) == before


def test_a_rebuild_with_nothing_changed_makes_no_engine_and_one_with_the_output_touched_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No input changed and the output as left: nothing to do, and the engine (its imports alone a fifth of
    such a rebuild) is not made. A file of the output edited by hand is still found and put back."""
    from sitegen.pipeline import site_engine

    root = copy_site(tmp_path / "site", papers=6)
    output = tmp_path / "public"
    build(root, output, search=False)
    made: list[int] = []
    real = site_engine.SiteEngine.__init__

    def counted(self: site_engine.SiteEngine, *args: object, **kwargs: object) -> None:
        made.append(1)
        real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(site_engine.SiteEngine, "__init__", counted)
    before = (output / "index.html").read_bytes()
    assert build(root, output, search=False).written == 0
    assert made == []
    (output / "index.html").write_text("edited by hand", encoding="utf-8")
    result = build(root, output, search=False)
    assert made == [1] and result.written > 0
    assert (output / "index.html").read_bytes() == before
