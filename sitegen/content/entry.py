"""An entry: one paper of the reading list as its file says, plus its rendered text."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from . import dates


@dataclass(frozen=True)
class Entry:
    """One paper of the reading list, as its file says, plus its rendered text."""

    source_path: str
    slug: str
    title: str
    authors: tuple[str, ...]
    abstract: str
    notes: str
    tags: tuple[str, ...] = ()
    date: dt.date | None = None  # the first day of the period `date_precision` says is known
    added: dt.date | None = None
    authors_truncated: bool = False
    author_count: int | None = None
    organization: str | None = None
    category: str | None = None
    score: int | float | None = None  # as written: the cache must not turn a 5 into a 5.0
    upvotes: int | None = None
    links: tuple[tuple[str, str], ...] = ()
    status: str | None = None
    rating: int | None = None
    arxiv: str | None = None
    doi: str | None = None
    venue: str | None = None  # the journal or conference, when enrichment found one
    draft: bool = False
    withdrawn: bool = False  # withdrawn by its authors or its archive: shown, never hidden
    sources: tuple[tuple[tuple[str, Any], ...], ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)  # the curator's own fields (`extra:`), for templates
    title_html: str = ""
    abstract_html: str = ""
    summary_html: str = ""
    notes_html: str = ""
    notes_text: str = ""
    digest: str = ""
    body_line: int = 1
    date_precision: str = dates.DAY  # dates.YEAR for `date: 2025`, dates.MONTH for `date: 2025-03`
    summary: str = ""  # the curator's one-line take (`summary:`), as written
    pinned: bool = False  # `pinned: true`: first among the papers the home page says to start with
    lead_html: str = ""  # the notes' first paragraph, cut short, as text with math: the take when there is no summary
    take_html: str = ""  # what a card shows of the curator: the summary, else the notes' lead
    mentions: tuple[tuple[str, int], ...] = ()  # each `[[target]]` of the notes and its line in the file
    cites: tuple[str, ...] = ()  # the arXiv ids and DOIs the paper cites (`cites:`), as written

    @property
    def hidden_authors(self) -> int:
        """How many authors the source did not name ('+N more'); 0 when unknown."""
        if self.author_count is not None and self.author_count > len(self.authors):
            return self.author_count - len(self.authors)
        return 0

    def link(self, kind: str) -> str | None:
        return dict(self.links).get(kind)
