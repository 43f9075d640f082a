"""The memo on disk: fingerprints loaded whole, rows read only when asked for and written only when changed,
and never read under another stamp or when damaged."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgspec
import pytest

from sitegen.pipeline.engine.graph import Engine
from sitegen.pipeline.engine.memo import ABSENT, key_id
from sitegen.pipeline.engine.rows import RECORD_COLUMNS
from sitegen.pipeline.engine.store import FILE, DiskMemo, MemoDamaged

from .test_graph import World


def same(key: Any, value: Any) -> Any:
    """Saved as it is (msgpack holds the test steps' values)."""
    return value


def unsaved(key: Any, data: bytes, *_: Any) -> Any:
    """Back from its msgpack bytes."""
    return msgspec.msgpack.decode(data)


def _built(folder: Path, world: World) -> Engine:
    engine = Engine(world.steps(), DiskMemo(folder, "stamp-1", same, unsaved))
    for names in (("a", "b"), ("b", "c"), ("c", "a")):
        engine.get("page", names)
        engine.get("total", names)
    assert isinstance(engine.memo, DiskMemo)
    engine.memo.write()
    engine.memo.close()
    return engine


def test_a_saved_memo_is_read_a_row_at_a_time_and_updates_like_the_one_in_memory(tmp_path: Path) -> None:
    world = World({"a": 1, "b": 2, "c": 3})
    _built(tmp_path, world)
    memo = DiskMemo(tmp_path, "stamp-1", same, unsaved)
    assert memo.valid and not memo.records and len(memo.fingerprints) == 3 + 3 + 3 + 3  # cells, parities, ...
    engine = Engine(world.steps(), memo)
    world.runs.clear()
    assert engine.get("total", ("a", "b")) == 3 and world.runs == []  # from the file, nothing ran
    assert set(memo.records) == {("total", ("a", "b"))}  # one row read: its reads are checked by fingerprint
    world.cells["b"] = 4  # parity unchanged: no page runs
    update = engine.update([("cell", "b")])
    assert {k[0] for k in update.ran} == {"cell", "parity", "total"}
    assert engine.get("total", ("b", "c")) == 7
    memo.write()
    memo.close()
    again = Engine(world.steps(), DiskMemo(tmp_path, "stamp-1", same, unsaved))
    assert again.get("total", ("a", "b")) == 5 and again.get("page", ("a", "b")) == "1|0"


def test_only_the_rows_that_changed_are_written(tmp_path: Path) -> None:
    world = World({"a": 1, "b": 2, "c": 3})
    _built(tmp_path, world)
    memo = DiskMemo(tmp_path, "stamp-1", same, unsaved)
    engine = Engine(world.steps(), memo)
    world.cells["a"] = 3  # parity unchanged; the totals that read it change
    update = engine.update([("cell", "a")])
    assert len(update.ran) == 4  # the cell, its parity, two totals
    assert memo._db is not None
    before = memo._db.total_changes
    memo.write()
    # the cell, its parity (which saw another fingerprint of the cell), two totals, and the fingerprint table
    assert memo._db.total_changes - before == 4 + 1
    engine.update([("cell", "b"), ("cell", "c")])  # named, yet as they were: they run, and come out as saved
    before = memo._db.total_changes
    memo.write()
    assert memo._db.total_changes == before


def test_a_memo_under_another_stamp_reads_as_empty(tmp_path: Path) -> None:
    _built(tmp_path, World({"a": 1, "b": 2, "c": 3}))
    assert not DiskMemo(tmp_path, "stamp-2", same, unsaved).valid
    assert DiskMemo(tmp_path, "stamp-1", same, unsaved).valid


@pytest.mark.parametrize("column", ["value", "reads", "fingerprint", "argument"])
def test_a_row_changed_behind_its_checksum_is_never_trusted(tmp_path: Path, column: str) -> None:
    _built(tmp_path, World({"a": 1, "b": 2, "c": 3}))
    key = ("total", ("a", "b"))
    with sqlite3.connect(tmp_path / FILE) as db:
        forged = {"value": b"\x0c", "reads": b"\x00" * 16, "fingerprint": 7, "argument": b"\x92\xa1c\xa1b"}[column]
        db.execute(f"UPDATE memo SET {column} = ? WHERE id = ?", (forged, key_id(key)))
    memo = DiskMemo(tmp_path, "stamp-1", same, unsaved)
    with pytest.raises(MemoDamaged):
        memo.get(key)
        memo.keys_of([key_id(key)])


@pytest.mark.parametrize("damage", ["garbage", "empty", "folder", "truncated"])
def test_a_damaged_file_reads_as_empty_and_is_made_anew(tmp_path: Path, damage: str) -> None:
    world = World({"a": 1, "b": 2, "c": 3})
    _built(tmp_path, world)
    path = tmp_path / FILE
    data = path.read_bytes()
    path.unlink()
    if damage == "folder":
        path.mkdir()
        (path / "inside").write_text("x")
    else:
        path.write_bytes({"garbage": b"not a database" * 100, "empty": b"", "truncated": data[:100]}[damage])
    memo = DiskMemo(tmp_path, "stamp-1", same, unsaved)
    assert not memo.valid and memo.get(("total", ("a", "b"))) is None
    engine = Engine(world.steps(), memo)
    assert engine.get("total", ("a", "b")) == 3
    memo.write()
    assert DiskMemo(tmp_path, "stamp-1", same, unsaved).valid


def test_values_cross_only_through_the_codec(tmp_path: Path) -> None:
    world = World({"a": 1, "b": 2, "c": 3})
    memo = DiskMemo(tmp_path, "stamp-1", lambda k, v: ABSENT if k[0] == "total" else v, unsaved)
    engine = Engine(world.steps(), memo)
    engine.get("total", ("a", "b"))
    assert isinstance(engine.memo, DiskMemo)
    engine.memo.write()
    memo = DiskMemo(tmp_path, "stamp-1", same, unsaved)
    record = memo.get(("total", ("a", "b")))
    assert record is not None and record.value is ABSENT and record.saved is None  # not saved: runs again when read
    world.runs.clear()
    assert Engine(world.steps(), memo).get("total", ("a", "b")) == 3 and world.runs == [("total", ("a", "b"))]


def _meta(folder: Path, name: str) -> bytes:
    db = sqlite3.connect(folder / FILE)
    try:
        row = db.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        return b"" if row is None else bytes(row[0])
    finally:
        db.close()


def test_an_update_saves_the_fingerprints_it_moved_and_the_table_whole_only_when_they_are_many(
        tmp_path: Path) -> None:
    cells = {name: i for i, name in enumerate("abcdefghijklmnopqrstuvwxyz")}
    world = World(cells)
    engine = Engine(world.steps(), DiskMemo(tmp_path, "stamp-1", same, unsaved))
    pairs = [(a, b) for a in cells for b in cells if a < b]
    for names in pairs:
        engine.get("total", names)
    assert isinstance(engine.memo, DiskMemo)
    engine.memo.write()
    engine.memo.close()
    whole = _meta(tmp_path, "fingerprints")

    memo = DiskMemo(tmp_path, "stamp-1", same, unsaved)
    engine = Engine(world.steps(), memo)
    world.cells["a"] = 100  # its cell and the 25 totals that read it: fewer than an eighth of the 376 records
    engine.update([("cell", "a")])
    memo.write()
    memo.close()
    assert _meta(tmp_path, "fingerprints") == whole  # not written again
    assert len(_meta(tmp_path, "fingerprint-changes")) == 16 * 26
    again = Engine(world.steps(), DiskMemo(tmp_path, "stamp-1", same, unsaved))
    world.runs.clear()
    assert again.get("total", ("a", "b")) == 101 and again.get("total", ("b", "c")) == 3
    assert world.runs == []  # verified against the fingerprints the changes hold

    memo = DiskMemo(tmp_path, "stamp-1", same, unsaved)
    engine = Engine(world.steps(), memo)
    for name in "bcdefg":  # with those before, more than an eighth: the table saved whole, the changes emptied
        world.cells[name] += 100
    engine.update([("cell", name) for name in "bcdefg"])
    memo.write()
    memo.close()
    assert _meta(tmp_path, "fingerprints") != whole and _meta(tmp_path, "fingerprint-changes") == b""
    world.runs.clear()
    again = Engine(world.steps(), DiskMemo(tmp_path, "stamp-1", same, unsaved))
    assert again.get("total", ("b", "g")) == 1 + 6 + 200 and world.runs == []


def test_a_large_value_read_once_is_read_but_not_kept_decoded(tmp_path: Path) -> None:
    """`ctx.get(..., keep=False)` (a whole-list file reading its runs): the read is recorded as any other, and
    a value decoded from the memo's saved form is not held decoded afterwards."""
    from sitegen.pipeline.engine.graph import Context, Step

    def total(ctx: Context, n: int) -> int:
        return len(ctx.get("big", n, keep=False))

    steps = [Step("big", 1, lambda ctx, n: "x" * n, str), Step("total", 2, total, str)]
    engine = Engine(steps, DiskMemo(tmp_path, "stamp-1", same, unsaved))
    assert engine.get("total", 5) == 5
    assert isinstance(engine.memo, DiskMemo)
    assert engine.memo.records[("big", 5)].value == "x" * 5  # made here: kept, as every made value is
    engine.memo.write()
    engine.memo.close()
    memo = DiskMemo(tmp_path, "stamp-1", same, unsaved)
    again = Engine(steps, memo)
    again.forget([("total", 5)])
    assert again.get("total", 5) == 5
    big = memo.records[("big", 5)]
    assert big.value is ABSENT and big.saved is not None  # decoded for the read, not kept
    record = memo.get(("total", 5))
    assert record is not None and big.id in record.reads


def _page_of_many(folder: Path, world: World, rereads: bool) -> tuple[Engine, DiskMemo]:
    """A page reading the parity of 30 cells, built and saved, then the memo opened again."""
    steps = [replace(step, rereads=rereads) if step.name == "page" else step for step in world.steps()]
    names = tuple(world.cells)
    built = Engine(steps, DiskMemo(folder, "stamp-1", same, unsaved))
    built.get("page", names)
    assert isinstance(built.memo, DiskMemo)
    built.memo.write()
    built.memo.close()
    memo = DiskMemo(folder, "stamp-1", same, unsaved)
    return Engine(steps, memo), memo


@pytest.mark.parametrize("rereads", [True, False])
def test_a_page_run_again_fetches_what_it_read_last_time_in_one_query(tmp_path: Path, rereads: bool) -> None:
    world = World({f"c{i:02}": i for i in range(30)})
    engine, memo = _page_of_many(tmp_path, world, rereads)
    assert memo._db is not None
    queries: list[str] = []
    memo._db.set_trace_callback(queries.append)
    world.cells["c07"] = 8  # its parity flips: the page runs again and reads all 30
    update = engine.update([("cell", "c07")])
    assert ("page", tuple(world.cells)) in update.ran
    one_by_one = [q for q in queries if "FROM memo WHERE id = " in q]
    fetched = [q for q in queries if q.startswith(f"SELECT id, {RECORD_COLUMNS} FROM memo WHERE id IN")]
    if rereads:
        assert len(fetched) == 1 and len(one_by_one) <= 3  # the cell, its parity, the page's own row
    else:
        assert not fetched and len(one_by_one) >= 30
    assert update.values[("page", tuple(world.cells))] == "|".join(str(world.cells[n] % 2) for n in world.cells)


def test_a_row_missing_from_what_a_page_read_last_time_is_a_damaged_memo(tmp_path: Path) -> None:
    world = World({f"c{i:02}": i for i in range(30)})
    engine, _ = _page_of_many(tmp_path, world, True)
    with sqlite3.connect(tmp_path / FILE) as db:
        db.execute("DELETE FROM memo WHERE id = ?", (key_id(("parity", "c20")),))
    world.cells["c07"] = 8
    with pytest.raises(MemoDamaged):
        engine.update([("cell", "c07")])
