"""A new memo written by the render workers that made its records: whole once merged, never left behind,
and never trusted when a part is damaged."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import msgspec
import pytest

from sitegen.content.cache import CACHE_DIR
from sitegen.pipeline import parallel
from sitegen.pipeline.build import build
from sitegen.pipeline.engine.memo import key_id
from sitegen.pipeline.engine.parts import PREFIX, Part
from sitegen.pipeline.engine.rows import FILE
from sitegen.pipeline.engine.store import DiskMemo, MemoDamaged
from sitegen.pipeline.persisted import ENGINE, run_build

from ...site_factory import copy_site, tree_bytes


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Even a small site is rendered by two forked workers, in many small chunks."""
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(parallel, "CHUNK", 7)


def _memo_folder(root: Path) -> Path:
    return root / CACHE_DIR / ENGINE


def _parts(root: Path) -> list[str]:
    folder = _memo_folder(root)
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(PREFIX)) if folder.is_dir() else []


def _rows(root: Path) -> set[tuple[Any, ...]]:
    """The memo's rows, but the value of `static` (each static file's path, which names the site's folder)."""
    db = sqlite3.connect(_memo_folder(root) / FILE)
    try:
        return {(*row[:5], None if row[1] == "static" else row[5])
                for row in db.execute("SELECT id, step, argument, fingerprint, reads, value FROM memo")}
    finally:
        db.close()


@pytest.mark.usefixtures("forked")
def test_a_cold_build_across_workers_saves_the_records_one_process_saves(tmp_path: Path) -> None:
    """Every row the workers wrote is in the memo file once merged, as one process would have written it,
    and no part is left beside it."""
    alone = copy_site(tmp_path / "alone", papers=8)
    shared = copy_site(tmp_path / "shared", papers=8)
    build(alone, tmp_path / "alone-out", search=False, jobs=1)
    build(shared, tmp_path / "shared-out", search=False, jobs=2)
    assert _parts(shared) == []
    assert _rows(shared) == _rows(alone)
    assert tree_bytes(tmp_path / "shared-out") == tree_bytes(tmp_path / "alone-out")


@pytest.mark.usefixtures("forked")
def test_an_edit_after_a_cold_build_across_workers_reads_their_rows(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=8)
    build(root, tmp_path / "public", search=False, jobs=2)
    entry = sorted((root / "content" / "papers").glob("*.md"))[3]
    text = entry.read_text(encoding="utf-8")
    start = text.index("\ntitle:") + 1
    end = text.index("\n", start)
    entry.write_text(text[:start] + 'title: "A title edited after the workers wrote the memo"' + text[end:],
                     encoding="utf-8")
    result = build(root, tmp_path / "public", search=False, jobs=2)
    assert 0 < result.written < 60  # in place, from the memo the workers wrote
    clean = copy_site(tmp_path / "clean", papers=8)
    (clean / "content" / "papers" / entry.name).write_text(entry.read_text(encoding="utf-8"), encoding="utf-8")
    build(clean, tmp_path / "clean-out", search=False, jobs=2, use_cache=False)
    assert tree_bytes(tmp_path / "public") == tree_bytes(tmp_path / "clean-out")


@pytest.mark.usefixtures("forked")
def test_a_record_a_worker_made_is_read_from_its_part_before_the_memo_is_written(tmp_path: Path) -> None:
    """After rendering, the parent reads what the workers made (the search index reads the papers) from
    their parts: the records cross as ids and fingerprints only."""
    root = copy_site(tmp_path / "site", papers=8)
    found: list[Any] = []

    def finishing(stage: Any, engine: Any) -> None:
        memo = engine.engine.memo
        assert isinstance(memo, DiskMemo) and _parts(root)
        pages = [("page", row) for row in engine.engine.get("plan")]
        assert not any(key in memo.records for key in pages)  # not sent: in the parts
        found.extend(memo.get(key) for key in pages)

    run_build(root, tmp_path / "public", None, False, 2, finishing=finishing)
    assert found and all(record is not None for record in found)
    assert _parts(root) == []


@pytest.mark.usefixtures("forked")
def test_a_build_that_fails_after_rendering_leaves_no_part(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=8)
    seen: list[list[str]] = []

    def finishing(stage: Any, engine: Any) -> None:
        seen.append(_parts(root))
        raise RuntimeError("the search index could not be made")

    with pytest.raises(RuntimeError):
        run_build(root, tmp_path / "public", None, False, 2, finishing=finishing)
    assert seen and seen[0]  # the workers had written their parts
    assert _parts(root) == []


@pytest.mark.usefixtures("forked")
def test_a_damaged_part_is_never_trusted(tmp_path: Path) -> None:
    """A part cut short before the parent read it: the memo reads as damaged, and the build starts again
    from nothing and gives the site a clean build gives."""
    root = copy_site(tmp_path / "site", papers=8)
    calls: list[int] = []

    def finishing(stage: Any, engine: Any) -> None:
        calls.append(1)
        if len(calls) == 1:
            for name in _parts(root):
                path = _memo_folder(root) / name
                path.write_bytes(path.read_bytes()[:20000])
            memo = engine.engine.memo
            for row in engine.engine.get("plan"):
                memo.get(("page", row))

    run_build(root, tmp_path / "public", None, False, 2, finishing=finishing)
    assert len(calls) == 2  # built again
    assert _parts(root) == []
    build(copy_site(tmp_path / "clean", papers=8), tmp_path / "clean-out", search=False, jobs=2, use_cache=False)
    assert tree_bytes(tmp_path / "public") == tree_bytes(tmp_path / "clean-out")


@pytest.mark.parametrize("damage", ["not a database", "no such row"])
def test_a_part_that_cannot_give_a_record_it_was_said_to_hold_is_a_damaged_memo(tmp_path: Path, damage: str) -> None:
    folder = tmp_path / "engine"
    memo = DiskMemo(folder, "stamp", lambda k, v: v, lambda k, v, _: msgspec.msgpack.decode(v))
    part = folder / f"{PREFIX}{os.getpid()}.1"
    if damage == "not a database":
        folder.mkdir()
        part.write_bytes(b"not a database " * 1000)
    else:
        Part(folder).path.rename(part)
    key = ("page", "told but not written")
    memo.take_part(part, [(key_id(key), 5, b"")])
    assert memo.get(("page", "never told")) is None  # no id: the parts are not asked
    with pytest.raises(MemoDamaged):
        memo.get(key)
    memo.close()
    assert not part.exists()  # a part not merged goes with the memo that took it


@pytest.mark.usefixtures("forked")
def test_a_cache_folder_that_cannot_hold_a_part_sends_the_records_whole(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=8)
    (root / CACHE_DIR).mkdir()
    _memo_folder(root).write_text("a file where the memo's folder was", encoding="utf-8")
    build(root, tmp_path / "public", search=False, jobs=2)
    build(copy_site(tmp_path / "clean", papers=8), tmp_path / "clean-out", search=False, jobs=2, use_cache=False)
    assert tree_bytes(tmp_path / "public") == tree_bytes(tmp_path / "clean-out")
    assert (_memo_folder(root) / FILE).is_file()
    assert build(root, tmp_path / "public", search=False, jobs=2).written == 0  # the memo it wrote serves


def test_parts_of_builds_no_longer_running_are_removed_and_others_kept(tmp_path: Path) -> None:
    folder = tmp_path / "engine"
    folder.mkdir()
    gone = subprocess.Popen(["true"])
    gone.wait()
    dead = folder / f"{PREFIX}{gone.pid}.1"
    live = folder / f"{PREFIX}{os.getppid()}.2"
    dead.write_bytes(b"rows")
    live.write_bytes(b"rows")
    DiskMemo(folder, "stamp", lambda k, v: v, lambda k, v, _: msgspec.msgpack.decode(v)).close()
    assert not dead.exists()
    assert live.exists()
