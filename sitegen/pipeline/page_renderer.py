"""The engine's pages as the parallel renderer renders them: plan rows in, bytes out, memo records back.

A cold build is an update over an empty memo; across forked workers, each worker runs
the engine it inherited, and sends back with each chunk of pages the memo records that
chunk made (the reads of every page, item and piece), so the parent's memo is whole for
the next update. Values cross only for the small text steps a later update reads back
(list items, feed entries, citation pieces); the rest come back without theirs and run
again if ever read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from ..common.errors import Report
from ..content.cache import EntryCache
from ..content.loader import load_entries
from ..model.routes import PageSpec
from .engine.graph import Engine
from .engine.memo import ABSENT, Key, Record, argument_of
from .steps.sources import Loaded

SHIPPED = frozenset({"item", "feed_entry", "piece"})  # steps whose values go back to the parent


def _key(canonical: dict[Key, Key], step: str, argument: Any) -> Key:
    """The one copy of a key as decoded (msgpack gives lists for tuples)."""
    key: Key = (step, argument_of(argument))
    return canonical.setdefault(key, key)


class _Papers:
    """What the parallel renderer asks of a site: how many papers it has (to choose how to share it out)."""

    def __init__(self, count: int):
        self.papers = range(count)


class PageRenderer:
    """Renders plan rows through `engine` for `parallel.render_all`."""

    def __init__(self, engine: Engine, papers: int):
        self.engine = engine
        self.site = _Papers(papers)
        self.digests: dict[str, str] = {}  # output -> digest of the bytes just rendered (the page's fingerprint)
        self._keys: dict[Key, Key] = {key: key for key in engine.memo.records}  # each key kept once (see absorb)
        self._text: dict[str, str] = {}

    def render(self, spec: PageSpec) -> bytes:
        key = ("page", (spec.output, spec.kind, spec.key, spec.template))
        data: bytes = self.engine.get(*key)
        self.digests[spec.output] = self.engine.memo.records[key].fingerprint
        return data

    def forked(self) -> None:
        """In a worker: start listing the records it makes."""
        self.engine.memo.log = []

    def harvest(self) -> bytes:
        """The records made since the last harvest, as they cross to the parent: msgpack rows, not pickled
        objects (pickling 100,000 records and their reads cost each side seconds at 10,000 papers)."""
        memo = self.engine.memo
        assert memo.log is not None
        rows = []
        for key in dict.fromkeys(memo.log):
            record = memo.records.get(key)
            if record is not None:
                row = [key[0], key[1], record.fingerprint, [(r[0], r[1], seen) for r, seen in record.reads]]
                if key[0] in SHIPPED:
                    row.append(record.value)
                rows.append(row)
        memo.log.clear()
        return msgspec.msgpack.encode(rows)

    def absorb(self, data: bytes) -> None:
        """In the parent: keep a worker's records (two workers may both have made an item: the same record).

        Keys and fingerprints are kept once each, however many records read them: 1.5 million reads
        at 10,000 papers, each decoded as new objects, held the preview at 1.2 GB.
        """
        memo = self.engine.memo
        records, canonical, text = memo.records, self._keys, self._text
        for row in msgspec.msgpack.decode(data):
            key = _key(canonical, row[0], row[1])
            if key in records and records[key].value is not ABSENT:
                continue
            reads = tuple((_key(canonical, r[0], r[1]), text.setdefault(r[2], r[2])) for r in row[3])
            memo.put(key, Record(text.setdefault(row[2], row[2]), reads, row[4] if len(row) > 4 else ABSENT))


def prefetch(engine: Engine, root: Path, cache: EntryCache, jobs: int | None) -> None:
    """Entries the memo lacks, read and parsed across processes as `load_content` does, then seeded.

    Entries with something to report are left to their step, which reports it.
    """
    if ("folder", "content/papers") in engine.memo.records:
        return
    keys: dict[str, str] = {}
    paths = [root / rel for rel in engine.get("folder", "content/papers")]
    for entry in load_entries(paths, root, Report(), cache, jobs, keys=keys):
        key = keys.get(entry.source_path)
        if key is not None:
            engine.seed(("file", entry.source_path), key)
            engine.seed(("entry", entry.source_path), Loaded(entry, ()), [(("file", entry.source_path), key)])
