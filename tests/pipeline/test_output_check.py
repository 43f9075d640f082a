"""The output check: whatever changed by hand is noticed; folders whose mtime held are not listed."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.common.fsutil import StagedFiles, staged_name
from sitegen.pipeline import output_check, persisted
from sitegen.pipeline.build import build
from sitegen.pipeline.output_check import OutputsCheck, folder_mtimes, folders_of, outputs_intact
from sitegen.pipeline.persisted import Table

from ..site_factory import copy_site

PAPERS = 8
HOUR_NS = 3600 * 10**9


def _built(tmp_path: Path) -> tuple[Path, Path]:
    root, output = copy_site(tmp_path / "site", papers=PAPERS), tmp_path / "public"
    build(root, output, search=False)
    return root, output


def _saved(root: Path, output: Path | None = None) -> Table:
    """The table of outputs the last build of `root` into tmp_path/public saved beside its memo."""
    output = output if output is not None else root.parent / "public"
    saved = Table.load(persisted.open_memo(root, None, False)[0])
    assert saved is not None
    return saved


def _aged(root: Path, output: Path) -> Table:
    """The saved table with every folder an hour old and remembered so: none is racy any more."""
    saved = _saved(root, output)
    expected = saved.expected()
    assert expected is not None
    earlier = time.time_ns() - HOUR_NS
    for folder in expected.folders:
        os.utime(output / folder, ns=(earlier, earlier))
    saved.folders = folder_mtimes(output, expected.folders)
    assert set(saved.folders.values()) == {earlier}
    return saved


def _listings(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The folders the check lists, as it lists them."""
    listed: list[str] = []
    real = os.listdir

    def listdir(path: str) -> list[str]:
        listed.append(os.path.relpath(path))
        return real(path)

    monkeypatch.setattr(output_check.os, "listdir", listdir)
    return listed


def test_folders_of_are_every_folder_up_to_the_output_sorted() -> None:
    assert folders_of(["a/b/c.html", "a/b/d.html", "a/e/f.html", "g.html", "h/i.html"]) == \
        [".", "a", "a/b", "a/e", "h"]
    assert folders_of([]) == ["."]


def test_a_folder_changed_within_the_last_second_is_remembered_as_racy(tmp_path: Path) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    earlier = time.time_ns() - HOUR_NS
    os.utime(tmp_path / "old", ns=(earlier, earlier))
    assert folder_mtimes(tmp_path, ["old", "new", "gone"]) == {"old": earlier, "new": 0}


def test_the_table_remembers_every_folder_of_a_build(tmp_path: Path) -> None:
    root, output = _built(tmp_path)
    expected = _saved(root).expected()
    assert expected is not None
    on_disk = {p.relative_to(output).as_posix() for p in output.rglob("*") if p.is_dir()} | {"."}
    assert set(expected.folders) == on_disk
    assert set(expected.folders.values()) == {0}, "a build that just ended leaves every folder racy"


@pytest.mark.parametrize("tamper", [
    "edited in place", "removed", "added at the top", "added in a paper's folder", "a folder added",
    "a file turned folder", "a symlink added", "a folder removed"])
def test_every_change_by_hand_fails_the_check_also_where_folder_mtimes_held(
        tmp_path: Path, tamper: str, monkeypatch: pytest.MonkeyPatch) -> None:
    root, output = _built(tmp_path)
    saved = _aged(root, output)
    listed = _listings(monkeypatch)
    assert outputs_intact(saved, output) and listed == [], "folders whose mtime held are not listed"
    paper = next(p for p in (output / "papers").iterdir() if p.is_dir())
    page = paper / "index.html"
    if tamper == "edited in place":  # the same size, the folder untouched
        time.sleep(0.05)  # past the clock tick the build wrote the page in: its mtime then moves
        with open(page, "r+b") as f:
            first = f.read(1)
            f.seek(0)
            f.write(b"X" if first != b"X" else b"Y")
    elif tamper == "removed":
        (paper / "cite.ris").unlink()
    elif tamper == "added at the top":
        (output / "stray.html").write_text("by hand")
    elif tamper == "added in a paper's folder":
        (paper / "notes.txt").write_text("by hand")
    elif tamper == "a folder added":
        (output / "papers" / "by-hand").mkdir()
        (output / "papers" / "by-hand" / "index.html").write_text("by hand")
    elif tamper == "a file turned folder":
        (paper / "cite.json").unlink()
        (paper / "cite.json").mkdir()
    elif tamper == "a symlink added":
        (output / "tags" / "link").symlink_to(paper)
    else:
        for file in paper.iterdir():
            file.unlink()
        paper.rmdir()
    listed.clear()
    assert not outputs_intact(saved, output)
    assert len(listed) <= 1, "at most the folder that changed is listed"


def test_an_empty_folder_added_is_passed_over(tmp_path: Path) -> None:
    """As a full build would leave it: a file-less folder holds nothing to remove or rewrite."""
    root, output = _built(tmp_path)
    (output / "papers" / "empty").mkdir()
    assert outputs_intact(_saved(root), output)


def test_the_forked_check_answers_as_the_check_here_does_and_is_reaped(tmp_path: Path) -> None:
    root, output = _built(tmp_path)
    for tamper in (None, "index.html", "stray.html"):
        if tamper:
            (output / tamper).write_text("by hand")
        saved = _saved(root)
        check = OutputsCheck(saved, output)
        assert check.pid  # this platform forks
        assert check.result() is outputs_intact(saved, output) is (tamper is None)
        with pytest.raises(ChildProcessError):
            os.waitpid(check.pid, os.WNOHANG)  # already waited for: no zombie left
        here = OutputsCheck(saved, output, beside=False)
        assert here.pid == 0 and here.result() is (tamper is None)


@pytest.mark.parametrize("age", [_saved, _aged], ids=["racy folders", "aged folders"])
def test_the_check_passes_over_only_the_temporaries_staged_under_its_marker(
        tmp_path: Path, age: Callable[..., Table]) -> None:
    """A front-matter edit stages its files while the check runs: the check must not take them for
    files added by hand, nor take anything else for them."""
    root, output = _built(tmp_path)
    saved = age(root, output) if age is _aged else age(root)
    marker = OutputsCheck(saved, output, beside=False).marker
    staging = StagedFiles(durable=False, marker=marker)
    staging.add(output / "index.html", b"staged")
    staging.add(output / "authors" / "someone-new" / "deeper" / "index.html", b"in new folders")
    names = [p.name for p in output.rglob("*.tmp")]
    assert len(names) == 2 and all(staged_name(name, marker) for name in names)
    assert outputs_intact(saved, output, marker)
    assert not outputs_intact(saved, output)  # anyone else's temporaries are files added
    assert not outputs_intact(saved, output, "staged-000000000000")
    (output / "authors" / "someone-new" / "by-hand.html").write_text("by hand")  # beside staged ones
    assert not outputs_intact(saved, output, marker)
    (output / "authors" / "someone-new" / "by-hand.html").unlink()
    (output / f".stray.{marker}.txt").write_text("by hand")  # the marker alone is not enough
    assert not outputs_intact(saved, output, marker)
    staging.discard()


def test_an_edit_remembers_the_folders_it_wrote_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After an edit in place, its folders are read again: the next check passes, listing only those."""
    root, output = _built(tmp_path)
    saved = _aged(root, output)
    memo = persisted.open_memo(root, None, False)[0]
    saved.save(memo)  # aged
    memo.write()
    memo.close()
    entry = sorted((root / "content" / "papers").glob("*.md"))[3]
    entry.write_text(entry.read_text(encoding="utf-8").replace("title: ", "title: Edited ", 1), encoding="utf-8")
    result = build(root, output, search=False)
    assert "rendered" in result.pages_by_kind, "an edit in place, not a full build"
    after = _saved(root, output)
    rewritten = sorted(out for out, row in after.outputs.items() if saved.outputs.get(out) != row)
    expected = after.expected()
    parents = {out.rpartition("/")[0] or "." for out in rewritten}
    assert parents and all(expected.folders[f] == 0 for f in parents), "just renamed into: racy"
    assert "papers" not in parents and expected.folders["papers"] > 0, "read again, as it was"
    listed = _listings(monkeypatch)
    assert outputs_intact(after, output)
    assert listed and set(listed) <= {os.path.relpath(output / f) for f in folders_of(rewritten)}
    assert len(expected.folders) > 2 * len(listed)
