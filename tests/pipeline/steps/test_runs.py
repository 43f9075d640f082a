"""Whole-list files are joined from runs cut where the papers say: an insertion or a move joins one or two
runs again, never every run after it, and the file is always the pieces joined in the site's order."""

from __future__ import annotations

from typing import Any

from sitegen.pipeline.engine.graph import Context, Engine, Step
from sitegen.pipeline.steps import runs

SEPARATOR = b",\n"


class World:
    """The site's order as an input, each paper's piece its slug in brackets (made again when asked)."""

    def __init__(self, order: list[str]):
        self.order = order
        self.made: list[str] = []

    def steps(self) -> list[Step]:
        def piece(ctx: Context, key: tuple[str, str]) -> str:
            self.made.append(key[1])
            return f"<{key[1]}>"

        return [
            Step("order", 0, lambda ctx, arg: tuple(self.order), lambda order: "\x1f".join(order), input=True),
            Step("piece", 1, piece, str, keep=False),
            *runs.steps(),
            Step("file", 7, lambda ctx, arg: bytes(runs.joined(ctx, "csl", b"[\n", SEPARATOR, b"\n]\n", b"[]\n")),
                 lambda data: data),
        ]


def _file(engine: Engine) -> Any:
    return engine.get("file")


def _expected(order: list[str]) -> bytes:
    return b"[\n" + SEPARATOR.join(f"<{slug}>".encode() for slug in order) + b"\n]\n" if order else b"[]\n"


def _slugs(n: int) -> list[str]:
    return [f"paper-{i:04d}" for i in range(n)]


def test_the_file_is_every_piece_in_order_through_any_edit() -> None:
    order = _slugs(1000)
    world = World(order)
    engine = Engine(world.steps())
    assert _file(engine) == _expected(order)
    starts = engine.get("run_starts")
    assert 1000 // runs.LONGEST <= len(starts) <= 1000 // 16  # about one run in RUN papers
    lengths = [len(engine.get("run_papers", start)) for start in starts]
    assert sum(lengths) == 1000 and max(lengths) <= runs.LONGEST
    for edit in (lambda o: o.insert(500, "new-paper"), lambda o: o.remove("paper-0000"),
                 lambda o: o.insert(0, "newest"), lambda o: o.append("oldest"), lambda o: o.reverse(),
                 lambda o: o.clear(), lambda o: o.extend(_slugs(7))):
        edit(world.order)
        update = engine.update([("order", None)])
        assert update is not None
        assert _file(engine) == _expected(world.order)


def test_an_insertion_joins_again_only_the_run_it_lands_in() -> None:
    order = _slugs(3000)
    world = World(order)
    engine = Engine(world.steps())
    _file(engine)
    runs_before = len(engine.get("run_starts"))
    assert runs_before > 10
    world.made.clear()
    at = order.index(next(s for s in order[1500:] if runs.starts_one(s))) + 3  # inside a run, not at its start
    world.order.insert(at, "a-new-paper-that-starts-no-run" if not runs.starts_one("a-new-paper-that-starts-no-run")
                       else "another-new-paper")
    update = engine.update([("order", None)])
    joined_again = [key for key in update.ran if key[0] == "piece_run"]
    # the run it lands in (and a run cut at its longest pushes its last paper on, up to the next start)
    assert 1 <= len(joined_again) <= 3
    assert len(world.made) <= 3 * runs.LONGEST  # not the 1,500 papers after it
    assert _file(engine) == _expected(world.order)
