"""Semantic Scholar's Graph API: the best title match, papers by id in batches, and the papers each one cites.

`/paper/search/match` answers `{"data": [paper + "matchScore"]}`, or HTTP 404 with
`{"error": "Title match not found"}` when nothing matches: an answer, kept like any other.
`matchScore` is unbounded (about 100+ for an exact title) and may not be asked for in
`fields`. `/paper/batch` is a POST of `{"ids": [...]}` answered by a list in the same
order, with `null` for an id it does not know. Asked for `references.externalIds`, each
paper carries `references`: every paper it cites, `{"paperId", "externalIds"}`, both null
for a reference Semantic Scholar could not resolve to a paper.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from sitegen.content.field_checks import DOI
from sitegen.ingest.enrich.answers import Response, SourceError, host_of
from sitegen.ingest.enrich.arxiv import DATACITE, normalize_id
from sitegen.ingest.enrich.http import Fetcher
from sitegen.ingest.enrich.record import Author, Record

DEFAULT_API = "https://api.semanticscholar.org/graph/v1"
FIELDS = "title,abstract,year,publicationDate,authors.name,authors.authorId,externalIds,venue,publicationVenue,url"
REFERENCE_FIELDS = "externalIds,references.externalIds"
BATCH = 500  # the most /paper/batch takes at once
ARXIV_DOI = DATACITE + "arxiv."  # 10.48550/arXiv.<id>, compared in lower case
NOT_VENUES = frozenset({"arxiv", "arxiv.org"})  # where the preprint is, not where it was published
_SPACE = re.compile(r"\s+")
T = TypeVar("T")


@dataclass(frozen=True)
class Match:
    """Semantic Scholar's best match for a title, and its `matchScore` (unbounded; ~100+ when exact)."""

    record: Record
    score: float


class S2Client:
    """Semantic Scholar lookups through a shared Fetcher; `key` (or SITEGEN_S2_KEY) goes as `x-api-key`."""

    source = "s2"

    def __init__(self, fetcher: Fetcher, base: str | None = None, key: str | None = None):
        self.fetcher = fetcher
        self.base = (base or os.environ.get("SITEGEN_S2_API") or DEFAULT_API).rstrip("/")
        self.key = key if key is not None else os.environ.get("SITEGEN_S2_KEY") or None

    def match_title(self, title: str, *, refresh: bool = False) -> Match | None:
        """The paper whose title matches best, with its score; None when Semantic Scholar finds none."""
        query = _SPACE.sub(" ", title).strip()
        if not query:
            return None
        url = f"{self.base}/paper/search/match?{urllib.parse.urlencode({'query': query, 'fields': FIELDS})}"
        response = self.fetcher.get(self.source, url, headers=self._headers(), refresh=refresh)
        if response.status == 404:
            return None
        data = _answer(response)
        rows = data.get("data") if isinstance(data, dict) else None
        if not isinstance(rows, list) or not rows or not isinstance(rows[0], dict):
            raise SourceError(f"{host_of(url)} answered a title match without `data`")
        score = rows[0].get("matchScore")
        return Match(paper_record(rows[0]), float(score) if isinstance(score, int | float) else 0.0)

    def batch(self, ids: Iterable[str], *, size: int = BATCH, refresh: bool = False) -> dict[str, Record]:
        """Papers by id (`ARXIV:2106.15928`, `DOI:10.…`, a paperId), keyed as asked; an unknown id is absent."""
        return self._batch(ids, FIELDS, paper_record, size, refresh)

    def references(self, ids: Iterable[str], *, size: int = BATCH, refresh: bool = False) -> dict[str, References]:
        """The papers each paper cites, by id as for `batch`, keyed as asked; an unknown id is absent."""
        return self._batch(ids, REFERENCE_FIELDS, references, size, refresh)

    def _batch(self, ids: Iterable[str], fields: str, parse: Callable[[dict[str, object]], T], size: int,
               refresh: bool) -> dict[str, T]:
        """POSTs of at most `size` ids, each answer a list in the order asked (`null` for an unknown id)."""
        wanted = list(dict.fromkeys(ids))
        url = f"{self.base}/paper/batch?{urllib.parse.urlencode({'fields': fields})}"
        found: dict[str, T] = {}
        for start in range(0, len(wanted), size):
            chunk = wanted[start : start + size]
            body = {"ids": chunk}
            rows = _answer(self.fetcher.post_json(self.source, url, body, headers=self._headers(), refresh=refresh))
            if not isinstance(rows, list) or len(rows) != len(chunk):
                raise SourceError(f"{host_of(url)} answered a batch of {len(chunk)} ids with something else")
            for asked, row in zip(chunk, rows, strict=True):
                if not row:
                    continue
                if not isinstance(row, dict):
                    raise SourceError(f"{host_of(url)} answered a batch with an item that is no paper")
                found[asked] = parse(row)
        return found

    def _headers(self) -> dict[str, str]:
        return {"x-api-key": self.key} if self.key else {}


def _answer(response: Response) -> object:
    """The JSON of a 200; SourceError naming the status and Semantic Scholar's own message otherwise."""
    if response.status == 200:
        return response.json()
    message = ""
    try:
        body = response.json()
        if isinstance(body, dict):
            message = str(body.get("error") or body.get("message") or "")
    except SourceError:
        pass
    hint = "check SITEGEN_S2_KEY, or unset it to go without a key" if response.status in (401, 403) else None
    detail = f": {message}" if message else ""
    raise SourceError(f"{host_of(response.url)} answered HTTP {response.status}{detail}", hint)


def paper_record(data: dict[str, object]) -> Record:
    """A Graph API paper as a Record: arXiv id and publisher DOI from `externalIds`, S2 ids on authors."""
    paper_id = data.get("paperId")
    if not isinstance(paper_id, str) or not paper_id:
        raise SourceError("Semantic Scholar answered with a paper that has no paperId")
    external = data.get("externalIds")
    ids = external if isinstance(external, dict) else {}
    arxiv = ids.get("ArXiv")
    doi = ids.get("DOI")
    # what goes into an entry is checked first: an answer holding something else is not used, and said so
    if arxiv not in (None, "") and (not isinstance(arxiv, str) or normalize_id(arxiv) is None):
        raise SourceError(f"Semantic Scholar answered with an arXiv id that is not one: {str(arxiv)[:80]!r}")
    if doi not in (None, "") and (not isinstance(doi, str) or not (DOI.match(doi) and doi.isprintable())):
        raise SourceError(f"Semantic Scholar answered with a DOI that is not one: {str(doi)[:80]!r}")
    year = data.get("year")
    published = _date(data.get("publicationDate"))
    return Record(
        source="s2",
        id=paper_id,
        title=_clean(data.get("title")),
        authors=tuple(_author(a) for a in _list(data.get("authors")) if isinstance(a, dict) and _clean(a.get("name"))),
        abstract=_clean(data.get("abstract")),
        date=published,
        arxiv=normalize_id(arxiv) if isinstance(arxiv, str) else None,
        doi=doi if isinstance(doi, str) and doi and not doi.lower().startswith(DATACITE) else None,
        venue=_venue(data),
        year=published.year if published else (year if type(year) is int else None),
    )


@dataclass(frozen=True)
class References:
    """The papers one paper cites, as an entry names papers (arXiv id, else DOI), in Semantic Scholar's order, once
    each; and what was given for an id but is not one (left out, so never written into an entry)."""

    ids: tuple[str, ...]
    refused: tuple[str, ...] = ()


def references(data: dict[str, object]) -> References:
    """A Graph API paper's `references` as ids; a reference known by neither an arXiv id nor a DOI is left out (it
    could never be a paper of the list), as is one Semantic Scholar did not resolve (`externalIds` null)."""
    found: dict[str, str] = {}  # DOIs are case-insensitive: one per paper, as first written
    refused: list[str] = []
    for item in _list(data.get("references")):
        external = item.get("externalIds") if isinstance(item, dict) else None
        if not isinstance(external, dict):
            continue
        paper, bad = reference_id(external)
        if paper is not None:
            found.setdefault(paper.casefold(), paper)
        elif bad is not None:
            refused.append(bad)
    return References(tuple(found.values()), tuple(refused))


def reference_id(ids: dict[str, object]) -> tuple[str | None, str | None]:
    """The id an entry would write for a reference (`externalIds.ArXiv`, else the DOI; arXiv's own DOI stands for
    the arXiv id), and, when what was given is not an id, that text instead (shortened, for the report)."""
    arxiv, doi = ids.get("ArXiv"), ids.get("DOI")
    if arxiv not in (None, ""):
        paper = normalize_id(arxiv) if isinstance(arxiv, str) else None
        return paper, None if paper else str(arxiv)[:80]
    if doi in (None, ""):
        return None, None
    if isinstance(doi, str) and doi.lower().startswith(DATACITE):  # only arXiv's papers have DOIs under 10.48550/
        paper = normalize_id(doi[len(ARXIV_DOI):]) if doi.lower().startswith(ARXIV_DOI) else None
        return paper, None if paper else doi[:80]
    if isinstance(doi, str) and DOI.match(doi) and doi.isprintable():
        return doi, None
    return None, str(doi)[:80]


def _author(data: dict[str, object]) -> Author:
    author_id = data.get("authorId")
    return Author(_clean(data.get("name")), (("s2", author_id),) if isinstance(author_id, str) and author_id else ())


def _venue(data: dict[str, object]) -> str | None:
    """The venue's full name (`publicationVenue.name`) over the short `venue`; arXiv itself is no venue."""
    full = data.get("publicationVenue")
    for name in (_clean(full.get("name")) if isinstance(full, dict) else "", _clean(data.get("venue"))):
        if name and name.casefold() not in NOT_VENUES:
            return name
    return None


def _clean(value: object) -> str:
    return _SPACE.sub(" ", value).strip() if isinstance(value, str) else ""


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _date(value: object) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None
