"""What a scholarly API says about one paper, in one shape whatever the source.

Every client (arXiv, Hugging Face, Semantic Scholar, a BibTeX file) turns its responses
into Records; matching compares a Record with an entry, and merging writes its fields
into the entry. Plain frozen data: no client, no response, no I/O.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True)
class Author:
    """One author as a source names them, with the ids that source gives ("s2", "hf", "orcid")."""

    name: str
    ids: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Record:
    """One paper as one source describes it.

    `arxiv` is the id without its version; `doi` a publisher's DOI only (the arXiv DataCite
    DOI 10.48550/arXiv.<id> is derived where needed, never kept); `links` pairs of kind
    ("pdf", "abs", "hf", "code", "project") and URL, in that order of kinds.
    """

    source: str  # "arxiv", "hf", "s2", "bibtex", ...
    id: str  # the source's own id of the paper
    title: str
    authors: tuple[Author, ...] = ()
    abstract: str = ""
    date: dt.date | None = None  # first published
    arxiv: str | None = None
    doi: str | None = None
    category: str | None = None  # primary arXiv category
    links: tuple[tuple[str, str], ...] = ()
    venue: str | None = None
    upvotes: int | None = None
    organization: str | None = None
    keywords: tuple[str, ...] = ()
    year: int | None = None  # date's year, or the year alone where a source knows no day (S2 often)
    month: int | None = None  # the month (1-12) where a source knows it but not the day (a .bib's `month`)
    withdrawn: bool = False  # the source says the paper was withdrawn (arXiv's comment, or its notice as abstract)
