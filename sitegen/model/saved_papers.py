"""A saved model's papers: each made when first read, from its saved row and its entry.

A model read back from the memo in a new process holds 10,000 papers, and a title edit
patches it reading a few hundred of them (the edited paper, its neighbours in time, the
papers its authors and tags reach). Making every Paper at once would restore every entry
from the entry cache, which costs more than building the model again; here a paper is
made from its row (route, links, cite key, neighbours) and its entry when asked for.
Rows are read back as their saved bytes and decoded when first asked for, and an unread row
is saved again as the bytes it came as: decoding 10,000 rows of bylines and tags was three
quarters of reading the saved model back (0.25 of 0.33 s).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping

import msgspec

from ..content.loader import Entry
from .citations import Citations
from .mentions import Mentions
from .network import Ref
from .people import Byline
from .site import Paper

# What a paper is besides its entry: (source path, route, authors, tags, category, cite key, newer, older,
# unlisted authors, mentions, citations), as the `paper` step saves it
PaperRow = tuple[str, str, tuple[Byline, ...], tuple[Ref, ...], Ref | None, str, str | None, str | None,
                 tuple[Byline, ...], Mentions | None, Citations | None]


SavedRow = PaperRow | msgspec.Raw  # a row, or its saved bytes not yet decoded
_decode_row = msgspec.msgpack.Decoder(PaperRow).decode


def row_of(paper: Paper) -> PaperRow:
    return (paper.entry.source_path, paper.route, paper.authors, paper.tags, paper.category, paper.cite_key,
            paper.newer, paper.older, paper.unlisted_authors, paper.mentions, paper.citations)


class SavedPapers(Mapping[str, Paper]):
    """Papers by slug, in the site's order; `entry_of(source path)` gives a paper's entry as it now reads."""

    __slots__ = ("_entry_of", "_made", "_rows")

    def __init__(self, rows: dict[str, SavedRow], entry_of: Callable[[str], Entry],
                 made: dict[str, Paper] | None = None):
        self._rows, self._entry_of = rows, entry_of
        self._made: dict[str, Paper] = made if made is not None else {}

    def __getitem__(self, slug: str) -> Paper:
        paper = self._made.get(slug)
        if paper is None:
            row = self._row(slug)
            paper = self._made[slug] = Paper(self._entry_of(row[0]), *row[1:])
        return paper

    def _row(self, slug: str) -> PaperRow:
        row = self._rows[slug]
        if isinstance(row, msgspec.Raw):
            row = self._rows[slug] = _decode_row(row)  # the same row in every model sharing the dict
        return row

    def __iter__(self) -> Iterator[str]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, slug: object) -> bool:
        return slug in self._rows

    def made(self, slug: str) -> Paper | None:
        """The paper if it has been made (from the entry of the time it was read)."""
        return self._made.get(slug)

    def make(self, slug: str, entry: Entry) -> Paper:
        """The paper made with this entry (the one the model was made from, when the file has changed since)."""
        paper = self._made[slug] = Paper(entry, *self._row(slug)[1:])
        return paper

    def row(self, slug: str) -> PaperRow:
        paper = self._made.get(slug)
        return row_of(paper) if paper is not None else self._row(slug)

    def saved_row(self, slug: str) -> SavedRow:
        """The row to save: as read, bytes and all, unless the paper was made (and so may have changed)."""
        paper = self._made.get(slug)
        return row_of(paper) if paper is not None else self._rows[slug]

    def replaced(self, papers: Mapping[str, Paper], order: Iterable[str] | None) -> SavedPapers:
        """These papers with `papers` in place (and their order `order`, if given), none of the rest made."""
        rows = self._rows if order is None else {slug: self._rows[slug] for slug in order}
        return SavedPapers(rows, self._entry_of, {**self._made, **papers})


def updated(papers: Mapping[str, Paper], values: Mapping[str, Paper], order: Iterable[str] | None
            ) -> Mapping[str, Paper]:
    """`papers` with `values` set, in `order` if given (a saved model's papers stay unmade)."""
    if isinstance(papers, SavedPapers):
        return papers.replaced(values, order)
    if order is None:
        return {**papers, **values}
    return {key: values[key] if key in values else papers[key] for key in order}
