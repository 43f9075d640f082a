"""The stage: files written or kept, and their sizes and mtimes as the swap leaves them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import xxhash

from sitegen.pipeline import parallel, persisted
from sitegen.pipeline.build import build
from sitegen.publish.writer import staged

from ..site_factory import copy_site


def _stat_rows(output: Path) -> dict[str, list[object]]:
    rows: dict[str, list[object]] = {}
    for path in output.rglob("*"):
        if path.is_file() and not path.relative_to(output).as_posix().startswith("pagefind/"):
            st = path.stat()
            rows[path.relative_to(output).as_posix()] = [xxhash.xxh3_128_hexdigest(path.read_bytes()),
                                                          st.st_size, st.st_mtime_ns]
    return rows


def test_the_stage_knows_each_files_size_and_mtime_after_the_swap(tmp_path: Path) -> None:
    output = tmp_path / "public"
    with staged(output) as stage:
        stage.write("a/index.html", b"first")
        stage.write("b.txt", b"kept")
    old = (output / "b.txt").stat()
    os.utime(output / "b.txt", ns=(old.st_atime_ns, old.st_mtime_ns - 10**9))  # kept files keep their mtime
    with staged(output) as stage:
        stage.write("a/index.html", b"second, longer")
        stage.write("b.txt", b"kept")
        stage.write("c/d/e.json", b"{}")
    assert stage.unchanged == 1 and stage.written == 2
    for relative, (size, mtime) in stage.stats.items():
        st = (output / relative).stat()
        assert (size, mtime) == (st.st_size, st.st_mtime_ns), relative
    assert stage.stats["b.txt"][1] == old.st_mtime_ns - 10**9
    assert set(stage.stats) == {"a/index.html", "b.txt", "c/d/e.json"}


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_saved_table_of_outputs_is_what_stat_says_without_statting_a_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, jobs: int) -> None:
    root, output = copy_site(tmp_path / "site", papers=6), tmp_path / "public"
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 1)
    stated: list[str] = []
    real = os.stat

    def stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        stated.append(str(path))
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)
    build(root, output, search=False, jobs=jobs)
    monkeypatch.undo()
    inside = [p for p in stated if Path(p).is_relative_to(output)]
    assert not [p for p in inside if Path(p).is_file()], "the table of outputs is made without statting a file"
    saved = persisted.Table.load(persisted.open_memo(root, None, False)[0])
    assert saved is not None
    actual = _stat_rows(output)
    assert saved.outputs == {out: tuple(row[1:]) for out, row in actual.items()}
    for _ in range(2):  # and the next build finds the output intact: it rewrites nothing
        assert build(root, output, search=False, jobs=jobs).written == 0
