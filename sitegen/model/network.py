"""The co-author network: who wrote with whom and on what, ranked for each author's page.

Kept apart from the model that holds it: counting co-authors is the largest piece of work in
a big list's model (1.8 million pairs at 10,000 papers), and the model patch reuses it.
"""

from __future__ import annotations

import heapq
import operator
from collections import Counter
from collections.abc import Mapping, MutableMapping
from itertools import chain, repeat
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ..content.loader import Entry

MAX_COAUTHORS = 30  # a prolific author has thousands; the page lists the closest ones
MAX_TOPICS = 15

_new_tuple = tuple.__new__


class Ref(NamedTuple):
    """A named link target: an author, a tag or a category, with its URL slug.

    A named tuple, not a dataclass: a large list holds millions of co-author links.
    """

    name: str
    slug: str
    count: int = 0  # type: ignore[assignment]  # shadows tuple.count on purpose: templates read .count


class Network:
    """Who wrote with whom and on what, shared by every Author for their lazy co-author lists."""

    def __init__(self, entries: list[Entry], unlisted: dict[str, tuple[str, ...]], slugs: dict[str, str],
                 tag_slugs: dict[str, str]):
        self.names_of: MutableMapping[str, tuple[str, ...]] = {e.slug: e.authors + unlisted[e.slug] for e in entries}
        self.tags_of: MutableMapping[str, tuple[str, ...]] = {e.slug: e.tags for e in entries}
        self.authors, self.tags = Ranking(slugs), Ranking(tag_slugs)

    @classmethod
    def from_rows(cls, names_of: MutableMapping[str, tuple[str, ...]], tags_of: MutableMapping[str, tuple[str, ...]],
                  slugs: dict[str, str], tag_slugs: dict[str, str]) -> Network:
        """A network of rows already known (each paper's authors and tags), as a saved model has them."""
        network = cls([], {}, slugs, tag_slugs)
        network.names_of, network.tags_of = names_of, tags_of
        return network

    def links(self, name: str, papers: tuple[str, ...]) -> tuple[tuple[Ref, ...], tuple[Ref, ...], int]:
        """Top co-authors, top topics and the number of distinct co-authors of one author.

        Co-authors are counted by rank, not by name: at 10,000 papers this counts 1.8 million
        co-author pairs, and small ints hash and compare faster than names.
        """
        authors, tags, names_of, tags_of = self.authors, self.tags, self.names_of, self.tags_of
        co = Counter(chain.from_iterable([authors.ranks(names_of[slug]) for slug in papers]))  # counted in C
        del co[authors.rank.get(name, -1)]
        topics = Counter(chain.from_iterable([tags.ranks(tags_of[slug]) for slug in papers]))
        return authors.top_ranked(co, MAX_COAUTHORS), tags.top_ranked(topics, MAX_TOPICS), len(co)


def sort_name(name: str) -> str:
    """Family name first, case-folded: authors are listed A-Z by surname."""
    parts = name.split()
    return " ".join(parts[-1:] + parts[:-1]).casefold() if parts else ""


class Ranking:
    """Names ranked most frequent first, ties A-Z (case-folded), with their slugs.

    Each (count, name) pair is packed into one integer so the sort compares plain ints:
    ranking every author's co-authors is the largest sort of a big list.
    """

    def __init__(self, slugs: dict[str, str]):
        self.names = sorted(slugs, key=lambda n: (n.casefold(), n))
        self.rank = {name: i for i, name in enumerate(self.names)}
        self.slugs = slugs
        self._ranks: dict[int, tuple[tuple[str, ...], tuple[int, ...]]] = {}

    def ranks(self, names: tuple[str, ...]) -> tuple[int, ...]:
        """The ranks of one paper's names, worked out once per tuple of names (and per Ranking).

        Keyed by the tuple's identity, which is cheaper than hashing its names; the cache
        holds the tuple itself, so the identity cannot be reused by another one.
        """
        found = self._ranks.get(id(names))
        if found is None or found[0] is not names:
            found = self._ranks[id(names)] = (names, tuple(map(self.rank.__getitem__, names)))
        return found[1]

    def top(self, counter: Counter[str], limit: int | None = None) -> tuple[Ref, ...]:
        return self.top_ranked({self.rank[name]: count for name, count in counter.items()}, limit)

    def top_ranked(self, counter: Mapping[int, int], limit: int | None = None) -> tuple[Ref, ...]:
        """Like `top`, for a counter of ranks (see `ranks`)."""
        size = len(self.names)
        # rank - count * size for every pair, with map() over builtins so no bytecode runs per name
        codes = list(map(operator.sub, counter, map(size.__mul__, counter.values())))
        if limit is not None and len(codes) > limit:
            # sorting in C beats a heap walked in Python until the list is thousands long
            codes = sorted(codes)[:limit] if len(codes) < 2000 else heapq.nsmallest(limit, codes)
        else:
            codes.sort()
        names, slugs = self.names, self.slugs
        # tuple.__new__ itself, not Ref(...), whose __new__ is a Python function: an author page's
        # 45 links, 360,000 at 10,000 papers
        named = [(names[rank], -count) for count, rank in map(divmod, codes, repeat(size))]
        return tuple([_new_tuple(Ref, (name, slugs[name], count)) for name, count in named])
