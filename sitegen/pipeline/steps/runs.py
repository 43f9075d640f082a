"""Whole-list files (the reading list's BibTeX, RIS and CSL-JSON, `papers.json`) joined from runs of papers.

Each file holds every paper's piece in the site's order. Read piece by piece, an edit made
the file read 10,000 pieces from the memo again (1.5 s for the four files at 10,000 papers).
The order is cut into runs instead, each joined and kept as one value: an edit joins its
paper's run again and the file reads about 160 runs.

Where a run starts is decided by the papers themselves, as content-defined chunking does
(rsync, restic): a run starts at a paper whose slug hashes to a multiple of `RUN` (about
one in `RUN`), or `LONGEST` papers after the last start (runs of such slugs alone vary
from one paper to 700). A new paper, or one moved by a title or date edit, changes the
run it joins and the one it leaves (and the forced starts up to the next paper that
starts a run); cut at fixed places, every run after it would have moved.
A paper's own pieces are not saved on disk (`codecs.py` has no codec for `piece`): a run
joined again in a new process makes those of its papers again. In a process they are kept,
so a cold build's citation pages and runs make each piece once.
"""

from __future__ import annotations

import xxhash

from ...common.digest import digest
from ..engine.graph import Context, Step

RUN = 64  # a run starts at about one paper in RUN
LONGEST = 2 * RUN  # and after this many papers at the latest: one edit makes at most this many pieces again
HEAD = ""  # the run before the first paper that starts one


def steps() -> list[Step]:
    return [
        Step("run_starts", 5, run_starts, digest),
        Step("run_papers", 5, run_papers, digest),
        Step("piece_run", 6, piece_run, str),
    ]


def starts_one(slug: str) -> bool:
    return xxhash.xxh64_intdigest(slug.encode()) % RUN == 0


def run_starts(ctx: Context, arg: None) -> tuple[str, ...]:
    """Each run's first paper, in the site's order; the first run's is `HEAD` unless its paper starts one."""
    order = ctx.get("order")
    starts: list[str] = []
    first = 0
    while first < len(order):
        starts.append(order[first] if first or starts_one(order[0]) else HEAD)
        first = _end(order, first)
    return tuple(starts)


def run_papers(ctx: Context, start: str) -> tuple[str, ...]:
    """The papers of the run starting at `start`: up to the next paper that starts one."""
    order = ctx.get("order")
    first = 0 if start == HEAD else _places(order).get(start)
    return () if first is None else tuple(order[first:_end(order, first)])


_PLACES: list[tuple[tuple[str, ...], dict[str, int]]] = []  # the last order's places, for its ~160 runs


def _places(order: tuple[str, ...]) -> dict[str, int]:
    """Each paper's place in `order`, worked out once per order however many runs ask (finding each run's
    start by search took runs × papers: 160 million comparisons at 100,000 papers)."""
    if not _PLACES or _PLACES[0][0] is not order:
        _PLACES[:] = [(order, {slug: i for i, slug in enumerate(order)})]
    return _PLACES[0][1]


def _end(order: tuple[str, ...], first: int) -> int:
    """Where the run starting at `first` ends: at the next paper that starts one, or `LONGEST` papers on."""
    end = first + 1
    while end < len(order) and end - first < LONGEST and not starts_one(order[end]):
        end += 1
    return end


def piece_run(ctx: Context, key: tuple[str, str, str]) -> str:
    """One run's pieces of one whole-list file (store, separator, the run's start), joined."""
    store, separator, start = key
    return separator.join(ctx.get("piece", (store, slug)) for slug in ctx.get("run_papers", start))


def joined(ctx: Context, store: str, prefix: bytes, separator: bytes, suffix: bytes, empty: bytes) -> bytearray:
    """The whole file: its runs joined (grown in place: each file is 22 MB at 10,000 papers)."""
    starts = ctx.get("run_starts")
    if not starts:
        return bytearray(empty)
    keys = [(store, separator.decode(), start) for start in starts]
    ctx.preload("piece_run", keys)
    data = bytearray(prefix)
    for n, key in enumerate(keys):
        if n:
            data += separator
        data += ctx.get("piece_run", key, keep=False).encode()  # read once: not kept decoded
    data += suffix
    return data
