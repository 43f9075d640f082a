"""The engine on small pipelines: recorded reads, early cutoff, all-or-nothing updates, saved memos.

The property test is the engine's contract: after any sequence of input edits, every
key's value equals what a fresh engine computes, and a key re-ran only if something it
had read came out with another fingerprint.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.pipeline.engine.graph import Context, Engine, Step, StepError
from sitegen.pipeline.engine.memo import ABSENT, key_id
from sitegen.pipeline.engine.store import FILE, DiskMemo


def fp(value: Any) -> str:
    return repr(value)


def same(key: Any, value: Any) -> Any:
    """Saved as it is (msgpack holds the test steps' values)."""
    return value


def unsaved(key: Any, data: bytes, *_: Any) -> Any:
    """Back from its msgpack bytes."""
    return msgspec.msgpack.decode(data)


class World:
    """Inputs the steps read from outside, and a count of every run."""

    def __init__(self, cells: dict[str, int]):
        self.cells = dict(cells)
        self.runs: list[tuple[str, Any]] = []
        self.fail_on: int | None = None

    def steps(self) -> list[Step]:
        def cell(ctx: Context, name: str) -> int:
            self.runs.append(("cell", name))
            return self.cells.get(name, 0)

        def parity(ctx: Context, name: str) -> int:
            self.runs.append(("parity", name))
            return int(ctx.get("cell", name)) % 2

        def total(ctx: Context, names: tuple[str, ...]) -> int:
            self.runs.append(("total", names))
            value = sum(int(ctx.get("cell", n)) for n in names)
            if value == self.fail_on:
                raise ValueError("refused")
            return value

        def choose(ctx: Context, names: tuple[str, str, str]) -> int:
            """Reads one of two cells depending on a third's parity: dependencies no one could declare."""
            self.runs.append(("choose", names))
            test, odd, even = names
            return int(ctx.get("cell", odd if ctx.get("parity", test) else even))

        def page(ctx: Context, names: tuple[str, ...]) -> str:
            self.runs.append(("page", names))
            return "|".join(str(ctx.get("parity", n)) for n in names)

        return [Step("cell", 0, cell, fp, input=True), Step("parity", 1, parity, fp), Step("total", 1, total, fp),
                Step("choose", 2, choose, fp), Step("page", 3, page, fp, keep=False)]


def test_a_read_is_recorded_and_an_unchanged_result_stops_the_wave() -> None:
    world = World({"a": 2, "b": 5})
    engine = Engine(world.steps())
    assert engine.get("page", ("a", "b")) == "0|1"
    world.cells["a"] = 4  # parity unchanged: the page must not run again
    world.runs.clear()
    update = engine.update([("cell", "a")])
    assert world.runs == [("cell", "a"), ("parity", "a")]
    assert update.changed == [("cell", "a")]
    world.cells["a"] = 7
    world.runs.clear()
    update = engine.update([("cell", "a")])
    assert ("page", ("a", "b")) in update.changed
    assert update.values[("page", ("a", "b"))] == "1|1"


def test_dependencies_follow_what_was_read_this_time() -> None:
    world = World({"t": 1, "x": 10, "y": 20})
    engine = Engine(world.steps())
    assert engine.get("choose", ("t", "x", "y")) == 10
    world.cells["y"] = 21  # not read while t is odd
    world.runs.clear()
    engine.update([("cell", "y")])
    assert not [r for r in world.runs if r[0] == "choose"]
    world.cells["t"] = 2
    engine.update([("cell", "t")])
    assert engine.get("choose", ("t", "x", "y")) == 21
    world.cells["x"] = 11  # no longer read
    world.runs.clear()
    engine.update([("cell", "x")])
    assert not [r for r in world.runs if r[0] == "choose"]


def test_a_failed_update_leaves_the_memo_as_it_was() -> None:
    world = World({"a": 1, "b": 2})
    engine = Engine(world.steps())
    assert engine.get("total", ("a", "b")) == 3
    before = {k: (r.fingerprint, r.reads, r.value) for k, r in engine.memo.records.items()}
    world.cells["a"], world.fail_on = 5, 7
    with pytest.raises(ValueError, match="refused"):
        engine.update([("cell", "a")])
    assert {k: (r.fingerprint, r.reads, r.value) for k, r in engine.memo.records.items()} == before
    world.fail_on = None
    engine.update([("cell", "a")])
    assert engine.get("total", ("a", "b")) == 7


def test_steps_read_only_lower_levels() -> None:
    def loop(ctx: Context, arg: None) -> int:
        return int(ctx.get("loop"))

    engine = Engine([Step("loop", 1, loop, fp)])
    with pytest.raises(StepError, match="read only lower levels"):
        engine.get("loop")
    with pytest.raises(StepError, match="no step named"):
        engine.get("nothing")
    with pytest.raises(StepError, match="no input"):
        engine.update([("loop", None)])


def test_a_saved_memo_is_used_only_under_its_stamp(tmp_path: Path) -> None:
    world = World({"a": 3, "b": 4})
    engine = Engine(world.steps())
    engine.get("page", ("a", "b"))
    engine.get("total", ("a", "b"))
    path = tmp_path / "memo"
    saved = DiskMemo(path, "code-1", same, unsaved)
    for key, record in engine.memo.records.items():
        saved.put(key, record)
    saved.write()
    world.runs.clear()
    again = Engine(world.steps(), DiskMemo(path, "code-1", same, unsaved))
    assert again.get("total", ("a", "b")) == 7
    assert world.runs == []  # kept values came from the file
    world.cells["b"] = 6
    update = again.update([("cell", "b")])
    assert ("page", ("a", "b")) not in update.ran  # parity of b unchanged
    assert again.get("total", ("a", "b")) == 9
    assert not DiskMemo(path, "code-2", same, unsaved).valid
    (path / FILE).write_bytes(b"\x00garbage")
    assert not DiskMemo(path, "code-1", same, unsaved).valid


def test_a_memo_records_ids_and_fingerprints_never_values() -> None:
    """What a record keeps of its reads is two integer arrays, whatever the values read (an HTML list item)."""
    world = World({"a": 3, "b": 4})
    engine = Engine(world.steps())
    engine.get("page", ("a", "b"))
    record = engine.memo.records[("page", ("a", "b"))]
    assert record.reads.typecode == record.seen.typecode == "q"
    assert set(record.reads) == {key_id(("parity", "a")), key_id(("parity", "b"))}
    assert all(isinstance(engine.memo.fingerprints[r], int) for r in record.reads)
    assert key_id(("parity", "a")) == key_id(("parity", "a")) != key_id(("parity", "b"))


CELLS = [f"c{i}" for i in range(6)]
keys = st.one_of(
    st.tuples(st.just("parity"), st.sampled_from(CELLS)),
    st.tuples(st.just("total"), st.lists(st.sampled_from(CELLS), min_size=1, max_size=3, unique=True).map(tuple)),
    st.tuples(st.just("choose"), st.lists(st.sampled_from(CELLS), min_size=3, max_size=3).map(tuple)),
    st.tuples(st.just("page"), st.lists(st.sampled_from(CELLS), min_size=1, max_size=3).map(tuple)),
)
edits = st.lists(st.dictionaries(st.sampled_from(CELLS), st.integers(-3, 3), min_size=1, max_size=3), max_size=6)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(CELLS), st.integers(-3, 3)), st.lists(keys, min_size=1, max_size=8), edits)
def test_any_edit_sequence_gives_what_a_fresh_engine_gives(start: dict[str, int], wanted: list[Any],
                                                           sequence: list[dict[str, int]]) -> None:
    world = World(start)
    engine = Engine(world.steps())
    for key in wanted:
        engine.get(*key)
    for edit in sequence:
        reads = {k: list(r.pairs()) for k, r in engine.memo.records.items()}
        world.cells.update(edit)
        world.runs.clear()
        update = engine.update([("cell", name) for name in edit])
        assert len(world.runs) == len(set(world.runs)), "a key ran twice in one update"
        for key in update.ran:
            if key[0] != "cell" and key in reads:  # an old key ran again only because something it read moved
                assert any(engine.memo.fingerprints.get(r) != seen for r, seen in reads[key])
        fresh = Engine(World(world.cells).steps())
        for key in wanted:
            assert engine.get(*key) == fresh.get(*key)
        for key, record in fresh.memo.records.items():  # every memo the wanted keys reach is current
            assert engine.memo.records[key].fingerprint == record.fingerprint


def test_a_step_may_update_its_last_result_and_spare_readers_it_left_alone() -> None:
    """The model delta's shape: a table step patched from its previous value, readers of untouched rows spared."""
    cells = {"a": 1, "b": 2}
    runs: list[Any] = []
    undone: list[str] = []

    def cell(ctx: Context, name: str) -> int:
        return cells[name]

    def table(ctx: Context, arg: None) -> dict[str, int]:
        moved = {k[1] for k in ctx.moved}
        runs.append(("table", frozenset(moved)))
        if ctx.previous is not ABSENT:
            ctx.undo.append(lambda: undone.append("table"))
            ctx.carry()
            return {**ctx.previous, **{n: int(ctx.get("cell", n)) * 10 for n in moved}, "_moved": sorted(moved)}
        return {n: int(ctx.get("cell", n)) * 10 for n in sorted(cells)}

    def row(ctx: Context, name: str) -> int:
        runs.append(("row", name))
        return int(ctx.get("table")[name])

    def spread(old: Any, new: Any) -> Any:
        return lambda reader: reader[0] != "row" or reader[1] in new.get("_moved", ())

    def reread(ctx: Context, arg: None) -> dict[str, int]:
        table_ = dict(ctx.get("table"))
        for n in sorted(cells):
            ctx.get("cell", n)
        if table_.get("a") == 50:
            raise ValueError("no fifty")
        return table_

    steps = [Step("cell", 0, cell, fp, input=True), Step("table", 1, table, fp, spread=spread),
             Step("row", 2, row, fp), Step("check", 3, reread, fp)]
    engine = Engine(steps)
    assert (engine.get("row", "a"), engine.get("row", "b")) == (10, 20)
    runs.clear()
    cells["b"] = 3
    engine.update([("cell", "b")])
    assert runs == [("table", frozenset({"b"})), ("row", "b")]
    assert engine.get("row", "b") == 30
    engine.get("check")
    cells["a"] = 5
    with pytest.raises(ValueError, match="no fifty"):
        engine.update([("cell", "a")])
    assert undone == ["table"]
    assert engine.get("row", "a") == 10


def test_a_deferred_key_is_dropped_and_runs_when_asked_for() -> None:
    world = World({"a": 1, "b": 2})
    engine = Engine(world.steps())
    engine.get("page", ("a", "b"))
    engine.get("choose", ("a", "a", "b"))
    world.cells["a"] = 2
    world.runs.clear()
    update = engine.update([("cell", "a")], defer=lambda key: key[0] in ("page", "choose"))
    assert update.deferred == [("choose", ("a", "a", "b")), ("page", ("a", "b"))]
    assert not [r for r in world.runs if r[0] in ("page", "choose")]
    assert ("page", ("a", "b")) not in engine.memo.records
    assert engine.get("page", ("a", "b")) == "0|0"
    assert engine.get("choose", ("a", "a", "b")) == 2
