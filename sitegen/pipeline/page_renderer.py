"""The engine's pages as the parallel renderer renders them: plan rows in, bytes out, memo records back.

A cold build is an update over an empty memo; across forked workers, each worker runs
the engine it inherited, and the memo records each chunk of pages made (the reads of every
page, item and piece) are kept, so the parent's memo is whole for the next update. Over a
memo on disk made from nothing, each worker writes their rows to a part of the new memo file
(engine/parts.py) and sends back only what the memo's tables need of them; over a memo in
memory (the preview's), the records cross whole, their values already encoded as the memo on
disk saves them, decoded only if a later update reads them.
"""

from __future__ import annotations

import sqlite3
from array import array
from pathlib import Path

import msgspec

from ..common.digest import of as digest_of
from ..common.errors import Report
from ..content.cache import EntryCache
from ..content.loader import load_entries
from ..model.routes import PageSpec
from .engine import rows
from .engine.graph import Engine
from .engine.memo import ABSENT, Encode, Record, argument_of, packed
from .engine.parts import Part
from .engine.store import DiskMemo
from .steps.sources import Loaded

# Steps whose records nothing else a worker renders reads once its chunk is written: a page (no step reads
# one), a run of a whole-list file (its file is joined once). Kept, they held a worker's peak over 600 MB.
_READ_ONCE = frozenset({"page", "piece_run"})


class _Papers:
    """What the parallel renderer asks of a site: how many papers it has (to choose how to share it out)."""

    def __init__(self, count: int):
        self.papers = range(count)


class PageRenderer:
    """Renders plan rows through `engine` for `parallel.render_all`."""

    def __init__(self, engine: Engine, papers: int, encode: Encode | None = None, remember: bool = True):
        self.engine = engine
        self.remember = remember  # False: workers send back no records (a build nothing follows)
        self.site = _Papers(papers)
        self.digests: dict[str, str] = {}  # output -> digest of the bytes just rendered (the page's fingerprint)
        self._encode = encode  # how a worker's values cross (None: they do not, and run again when read)
        self._part: Part | None = None  # a worker's part of a new memo file, once it has written one
        self._parts = False  # whether this worker writes parts

    def render(self, spec: PageSpec) -> bytes:
        key = ("page", (spec.output, spec.kind, spec.key, spec.template))
        data: bytes = self.engine.get(*key)
        self.digests[spec.output] = digest_of(data)
        return data

    def forked(self) -> None:
        """In a worker: start listing the records it makes."""
        if self.remember:
            memo = self.engine.memo
            memo.log = []
            self._parts = isinstance(memo, DiskMemo) and memo.makes_parts()

    def harvest(self) -> bytes | None:
        """The records made since the last harvest, as they cross to the parent: msgpack rows of ids and
        integer arrays, values already encoded as the memo on disk saves them, so the parent (one process,
        while the workers are two) decodes none of them. None when nothing is remembered."""
        memo = self.engine.memo
        if memo.log is None:
            return None
        if self._parts:
            written = self._written_part()
            if written is not None:
                return written
        rows = []
        encode = self._encode
        for key in dict.fromkeys(memo.log):
            record = memo.records.get(key)
            if record is None:
                continue
            value = record.saved
            if value is None and record.value is not ABSENT and encode is not None:
                encoded = encode(key, record.value)
                value = None if encoded is ABSENT else packed(msgspec.msgpack.encode(encoded))
            rows.append((key[0], key[1], record.id, record.fingerprint, record.reads.tobytes() + record.seen.tobytes(),
                         value))
        memo.log.clear()
        return msgspec.msgpack.encode(("records", rows))

    def _written_part(self) -> bytes | None:
        """The records made since the last harvest written to this worker's part, and what crosses of them
        (id, fingerprint, ids read); None if the part cannot be written (the records then cross whole)."""
        memo = self.engine.memo
        assert memo.log is not None
        made, told = [], []
        for key in dict.fromkeys(memo.log):
            record = memo.records.get(key)
            if record is not None:
                made.append(rows.memo_row(key, record, self._encode))
                told.append((record.id, record.fingerprint, record.reads.tobytes()))
        try:
            if self._part is None:
                self._part = Part(memo.folder)  # type: ignore[attr-defined]
            self._part.add(made)
        except (OSError, sqlite3.Error):  # a cache folder that cannot hold it (a file in its place; a full disk)
            self._parts = False
            return None
        for key in memo.log:  # written, and read by nothing else this worker renders: let go
            if key[0] in _READ_ONCE and (record := memo.records.pop(key, None)) is not None:
                memo.keys.pop(record.id, None)
        memo.log.clear()
        return msgspec.msgpack.encode(("part", str(self._part.path), told))

    def absorb(self, data: bytes) -> None:
        """In the parent: keep a worker's records (two workers may both have made an item: the same record)."""
        memo = self.engine.memo
        kind, *shipped = msgspec.msgpack.decode(data)
        if kind == "part":
            path, told = shipped
            assert isinstance(memo, DiskMemo)
            memo.take_part(Path(path), told)
            return
        records = memo.records
        for step, argument, ident, fingerprint, reads, value in shipped[0]:
            key = (step, argument_of(argument))
            found = records.get(key)
            if found is not None and (found.value is not ABSENT or found.saved is not None):
                continue
            ids = array("q")
            ids.frombytes(reads)
            half = len(ids) // 2
            memo.put(key, Record(ident, fingerprint, ids[:half], ids[half:], ABSENT, value))


def prefetch(engine: Engine, root: Path, cache: EntryCache, jobs: int | None) -> None:
    """Entries the memo lacks, read and parsed across processes as `load_content` does, then seeded.

    Entries with something to report are left to their step, which reports it.
    """
    if engine.memo.get(("folder", "content/papers")) is not None:
        return
    keys: dict[str, str] = {}
    paths = [root / rel for rel in engine.get("folder", "content/papers")]
    for entry in load_entries(paths, root, Report(), cache, jobs, keys=keys):
        key = keys.get(entry.source_path)
        if key is not None:
            engine.seed(("file", entry.source_path), key)
            engine.seed(("entry", entry.source_path), Loaded(entry, ()), [("file", entry.source_path)])
