"""The engine's pages as the parallel renderer renders them: plan rows in, bytes out, memo records back.

A cold build is an update over an empty memo; across forked workers, each worker runs
the engine it inherited, and sends back with each chunk of pages the memo records that
chunk made (the reads of every page, item and piece), so the parent's memo is whole for
the next update. Values cross only for the small text steps a later update reads back
(list items, feed entries, citation pieces); the rest come back without theirs and run
again if ever read.
"""

from __future__ import annotations

from typing import Any

from ..model.routes import PageSpec
from .engine.graph import Engine
from .engine.memo import ABSENT, Key, Record

SHIPPED = frozenset({"item", "feed_entry", "piece"})  # steps whose values go back to the parent


class _Papers:
    """What the parallel renderer asks of a site: how many papers it has (to choose how to share it out)."""

    def __init__(self, count: int):
        self.papers = range(count)


class PageRenderer:
    """Renders plan rows through `engine` for `parallel.render_all`."""

    def __init__(self, engine: Engine, papers: int):
        self.engine = engine
        self.site = _Papers(papers)
        self.stores = None
        self.digests: dict[str, str] = {}  # output -> digest of the bytes just rendered (the page's fingerprint)

    def render(self, spec: PageSpec) -> bytes:
        key = ("page", (spec.output, spec.kind, spec.key, spec.template))
        data: bytes = self.engine.get(*key)
        self.digests[spec.output] = self.engine.memo.records[key].fingerprint
        return data

    def save_items(self, index: int) -> None:
        """Nothing to save: list items are the engine's own records."""

    def forked(self) -> None:
        """In a worker: start listing the records it makes."""
        self.engine.memo.log = []

    def harvest(self) -> list[tuple[Key, Record]]:
        """The records made since the last harvest, as they cross to the parent."""
        memo = self.engine.memo
        assert memo.log is not None
        made = [(key, _crossing(key, memo.records[key])) for key in dict.fromkeys(memo.log) if key in memo.records]
        memo.log.clear()
        return made

    def absorb(self, records: list[tuple[Key, Record]]) -> None:
        """In the parent: keep a worker's records (two workers may both have made an item: the same record)."""
        memo = self.engine.memo
        for key, record in records:
            if key not in memo.records or memo.records[key].value is ABSENT:
                memo.put(key, record)


def _crossing(key: Key, record: Record) -> Record:
    value: Any = record.value if key[0] in SHIPPED else ABSENT
    return record if value is record.value else Record(record.fingerprint, record.reads, value)
