"""Readers a change spared are answered for by a hop, not read and rewritten: read back later they are valid
exactly when the hops since lead to the current fingerprint, and a failed update takes its hop back."""

from __future__ import annotations

from array import array
from pathlib import Path
from typing import Any

import pytest

from sitegen.pipeline.engine.graph import Context, Engine, Step
from sitegen.pipeline.engine.hops import Hops
from sitegen.pipeline.engine.memo import ABSENT, Record, key_id
from sitegen.pipeline.engine.store import DiskMemo

from .test_graph import fp
from .test_store import same, unsaved


def _record(reads: list[int], seen: list[int]) -> Record:
    return Record(1, 0, array("q", reads), array("q", seen), ABSENT, None)


@pytest.mark.parametrize(("chain", "seen", "now", "patched"), [
    ([(10, 11)], 10, 11, 11),  # spared once
    ([(10, 11), (11, 12)], 10, 12, 12),  # spared twice
    ([(10, 11), (11, 12)], 11, 12, 12),  # ran again after the first, spared by the second
    ([(10, 11), (12, 13)], 10, 13, 10),  # a change between them spared none: all of them ran again
    ([(10, 11)], 10, 14, 10),  # changed since by a change that spared none
    ([(10, 11), (11, 10), (10, 12)], 10, 12, 12),  # back and forth: from the last time it held 10
    ([(10, 11)], 9, 11, 9),  # a fingerprint no hop starts from
])
def test_a_read_back_record_sees_where_its_hops_lead(chain: list[tuple[int, int]], seen: int, now: int,
                                                      patched: int) -> None:
    hops = Hops()
    for old, new in chain:
        hops.add(7, old, new)
    record = hops.patched(_record([3, 7], [30, seen]), {3: 30, 7: now}.get)
    assert list(record.seen) == [30, patched]
    assert Hops(hops.to_bytes()).patched(_record([3, 7], [30, seen]), {3: 30, 7: now}.get).seen == record.seen


def test_hops_taken_back_in_reverse_order_leave_none() -> None:
    hops = Hops()
    undos = [hops.add(7, 10, 11), hops.add(7, 11, 12), hops.add(8, 1, 2)]
    for undo in reversed(undos):
        undo()
    assert not hops and hops.to_bytes() == b""
    with pytest.raises(ValueError):
        Hops(b"\x00" * 23)


class Table:
    """A table patched from its last value, whose rows' readers a change of another row spares."""

    def __init__(self, cells: dict[str, int]):
        self.cells = dict(cells)
        self.runs: list[Any] = []

    def steps(self) -> list[Step]:
        def cell(ctx: Context, name: str) -> int:
            return self.cells[name]

        def table(ctx: Context, arg: None) -> dict[str, Any]:
            moved = sorted(k[1] for k in ctx.moved)
            self.runs.append("table")
            values = {n: int(ctx.get("cell", n)) * 10 for n in sorted(self.cells)}
            return {**values, "_moved": moved if ctx.previous is not ABSENT else sorted(self.cells)}

        def row(ctx: Context, name: str) -> int:
            self.runs.append(("row", name))
            return int(ctx.get("table")[name])

        def spread(old: Any, new: Any) -> Any:
            return lambda reader: reader[0] != "row" or reader[1] in new["_moved"]

        return [Step("cell", 0, cell, fp, input=True), Step("table", 1, table, fp, spread=spread),
                Step("row", 2, row, fp)]


def _opened(folder: Path, world: Table) -> tuple[Engine, DiskMemo]:
    memo = DiskMemo(folder, "stamp-1", same, unsaved)
    return Engine(world.steps(), memo), memo


def test_readers_a_change_spared_are_not_rewritten_and_read_back_as_seeing_it(tmp_path: Path) -> None:
    world = Table({"a": 1, "b": 2, "c": 3})
    engine, memo = _opened(tmp_path, world)
    for name in "abc":
        engine.get("row", name)
    memo.write()
    memo.close()

    engine, memo = _opened(tmp_path, world)
    world.cells["b"] = 5
    engine.update([("cell", "b")])
    assert ("row", "a") not in memo.records and ("row", "c") not in memo.records  # spared, never read
    assert memo._db is not None
    written: list[str] = []
    memo._db.set_trace_callback(written.append)
    memo.write()
    rewritten = [q for q in written if q.startswith("INSERT OR REPLACE INTO memo")]
    assert rewritten  # the cell, the table, row b
    memo.close()

    engine, memo = _opened(tmp_path, world)
    table = memo.fingerprints[key_id(("table", None))]
    spared = memo.get(("row", "a"))
    assert spared is not None
    assert dict(zip(spared.reads, spared.seen, strict=True))[key_id(("table", None))] == table
    assert engine._verified(spared)  # what it read is as it saw it: a step that asks what moved sees nothing
    world.runs.clear()
    world.cells["c"] = 7
    engine.update([("cell", "c")])
    assert world.runs == ["table", ("row", "c")]
    assert [engine.get("row", n) for n in "abc"] == [10, 50, 70]
    memo.write()
    memo.close()
    clean = Engine(world.steps())
    assert [clean.get("row", n) for n in "abc"] == [10, 50, 70]


def test_a_failed_transaction_takes_its_hop_back(tmp_path: Path) -> None:
    world = Table({"a": 1, "b": 2})
    engine, memo = _opened(tmp_path, world)
    engine.get("row", "a")
    engine.get("row", "b")
    memo.write()
    memo.close()
    engine, memo = _opened(tmp_path, world)
    world.cells["b"] = 4
    with pytest.raises(RuntimeError), engine.transaction():
        engine.update([("cell", "b")])
        assert memo.hops
        raise RuntimeError("what came after the update failed")
    assert not memo.hops
