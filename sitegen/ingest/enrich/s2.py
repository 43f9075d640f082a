"""Semantic Scholar's Graph API: the best title match, and papers by id in batches.

`/paper/search/match` answers `{"data": [paper + "matchScore"]}`, or HTTP 404 with
`{"error": "Title match not found"}` when nothing matches: an answer, kept like any other.
`matchScore` is unbounded (about 100+ for an exact title) and may not be asked for in
`fields`. `/paper/batch` is a POST of `{"ids": [...]}` answered by a list in the same
order, with `null` for an id it does not know.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass

from sitegen.content.field_checks import DOI
from sitegen.ingest.enrich.answers import Response, SourceError, host_of
from sitegen.ingest.enrich.arxiv import DATACITE, normalize_id
from sitegen.ingest.enrich.http import Fetcher
from sitegen.ingest.enrich.record import Author, Record

DEFAULT_API = "https://api.semanticscholar.org/graph/v1"
FIELDS = "title,abstract,year,publicationDate,authors.name,authors.authorId,externalIds,venue,publicationVenue,url"
BATCH = 500  # the most /paper/batch takes at once
NOT_VENUES = frozenset({"arxiv", "arxiv.org"})  # where the preprint is, not where it was published
_SPACE = re.compile(r"\s+")


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
        wanted = list(dict.fromkeys(ids))
        url = f"{self.base}/paper/batch?{urllib.parse.urlencode({'fields': FIELDS})}"
        found: dict[str, Record] = {}
        for start in range(0, len(wanted), size):
            chunk = wanted[start : start + size]
            body = {"ids": chunk}
            rows = _answer(self.fetcher.post_json(self.source, url, body, headers=self._headers(), refresh=refresh))
            if not isinstance(rows, list) or len(rows) != len(chunk):
                raise SourceError(f"{host_of(url)} answered a batch of {len(chunk)} ids with something else")
            found.update((asked, paper_record(row)) for asked, row in zip(chunk, rows, strict=True) if row)
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
