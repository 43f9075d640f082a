"""The memo on disk: shards read only when a key in them is asked for, written back only where changed,
and never read under another stamp or when damaged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sitegen.pipeline.engine.graph import Engine
from sitegen.pipeline.engine.memo import ABSENT
from sitegen.pipeline.engine.store import SHARDS, DiskMemo, shard_of

from .test_graph import World


def same(key: Any, value: Any) -> Any:
    return value


def _built(folder: Path, world: World) -> Engine:
    engine = Engine(world.steps(), DiskMemo(folder, "stamp-1", same, same))
    for names in (("a", "b"), ("b", "c"), ("c", "a")):
        engine.get("page", names)
        engine.get("total", names)
    assert isinstance(engine.memo, DiskMemo)
    engine.memo.write()
    return engine


def test_a_saved_memo_is_read_a_shard_at_a_time_and_updates_like_the_one_in_memory(tmp_path: Path) -> None:
    world = World({"a": 1, "b": 2, "c": 3})
    _built(tmp_path, world)
    memo = DiskMemo(tmp_path, "stamp-1", same, same)
    assert memo.valid and not dict.__len__(memo.records)
    engine = Engine(world.steps(), memo)
    world.runs.clear()
    assert engine.get("total", ("a", "b")) == 3 and world.runs == []  # from the file, nothing ran
    assert len(memo._loaded) == 1
    world.cells["b"] = 4  # parity unchanged: no page runs
    update = engine.update([("cell", "b")])
    assert {k[0] for k in update.ran} == {"cell", "parity", "total"}
    assert engine.get("total", ("b", "c")) == 7
    memo.write()
    again = Engine(world.steps(), DiskMemo(tmp_path, "stamp-1", same, same))
    assert again.get("total", ("a", "b")) == 5 and again.get("page", ("a", "b")) == "1|0"


def test_a_memo_under_another_stamp_or_damaged_reads_as_empty(tmp_path: Path) -> None:
    _built(tmp_path, World({"a": 1, "b": 2, "c": 3}))
    assert not DiskMemo(tmp_path, "stamp-2", same, same).valid
    key = ("total", ("a", "b"))
    (tmp_path / f"records-{shard_of(key):02x}").write_bytes(b"\xc1 not msgpack")
    memo = DiskMemo(tmp_path, "stamp-1", same, same)
    assert memo.records.get(key) is None


def test_values_cross_only_through_the_codec(tmp_path: Path) -> None:
    world = World({"a": 1, "b": 2, "c": 3})
    engine = Engine(world.steps(), DiskMemo(tmp_path, "stamp-1", lambda k, v: ABSENT if k[0] == "total" else v, same))
    engine.get("total", ("a", "b"))
    assert isinstance(engine.memo, DiskMemo)
    engine.memo.write()
    memo = DiskMemo(tmp_path, "stamp-1", same, same)
    assert memo.records[("total", ("a", "b"))].value is ABSENT  # not saved: runs again when read
    world.runs.clear()
    assert Engine(world.steps(), memo).get("total", ("a", "b")) == 3 and world.runs == [("total", ("a", "b"))]
    assert len({shard_of(("probe", n)) for n in range(16 * SHARDS)}) == SHARDS  # every shard can be reached
