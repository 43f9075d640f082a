"""The search index's shards as steps: which papers each holds, and a digest of their records.

The index is cut into shards of consecutive papers, oldest first (publish/search.py), and a
shard whose records did not change is kept from the last index. Working that out took every
paper's record after each edit: 10,000 papers made and their records hashed, 7 s of a notes
edit at 10,000 papers. Here each paper's record has a step of its own (`search_record`, its
digest), each shard one that reads the papers it holds (`search_slugs`) and their records'
digests (`search_shard`): an edit re-runs its paper's record and its shard, the other shards
are verified on their fingerprints, and records are made only for a shard indexed again.

A shard's papers are a slice of the site's order counted from its end (the order is newest
first), so a new paper, which is most often the newest, leaves every shard but the last as
it was. A shard's records come oldest first, papers of one day in the reverse of the site's
order.
"""

from __future__ import annotations

from ...common.digest import digest
from ...model.site import Paper
from ...publish.search import contents, record_digest
from ...publish.search_records import record
from ..engine.graph import Context, Step


def steps() -> list[Step]:
    return [
        Step("search_record", 5, search_record, str),
        Step("search_slugs", 6, search_slugs, digest),
        Step("search_shard", 7, lambda ctx, key: contents(ctx.get("search_record", s) for s in
                                                          ctx.get("search_slugs", key)), str),
    ]


def search_record(ctx: Context, slug: str) -> str:
    """The digest of the paper's record (its entry as it now reads)."""
    paper: Paper | None = ctx.get("paper", slug)
    if paper is None:
        return ""
    return record_digest(record(paper, ctx.get("config").language))


def search_slugs(ctx: Context, key: tuple[int, int]) -> tuple[str, ...]:
    """The papers of shard `number` (`key` is the shard size and the number), read as a slice of the order."""
    size, number = key
    end = ctx.get("count") - number * size
    return tuple(reversed(ctx.get("order_slice", (max(0, end - size), max(0, end)))))
