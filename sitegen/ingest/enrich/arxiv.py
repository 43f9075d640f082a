"""arXiv's query API: papers by title or by id, read from its Atom feed into Records.

The feed has looked two ways: the 2016-era one (namespaces declared on each element,
`http://` links, DOIs as `arxiv:doi`) and the current one (namespaces on the feed, `https://`
links). Both parse the same here. A query arXiv refuses comes back as HTTP 400 with a feed
holding one entry whose id is `…/api/errors#…`; no result is a 200 feed with no entry. A
withdrawn paper's `arxiv:comment` says so, and its summary may be only the withdrawal notice,
which is then no abstract (see `withdrawn`).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence

from sitegen.ingest.enrich.answers import EnrichError, Response, SourceError, host_of
from sitegen.ingest.enrich.http import Fetcher
from sitegen.ingest.enrich.identifiers import parse_arxiv
from sitegen.ingest.enrich.record import Author, Record
from sitegen.ingest.enrich.withdrawn import is_notice, says_withdrawn

DEFAULT_API = "https://export.arxiv.org/api/query"
ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
BATCH = 100  # ids per request: one request per batch of entries (run.BATCH), a feed of about 200 KB
SEARCH_RESULTS = 10
DATACITE = "10.48550/"  # the DOI arXiv mints for every paper: derived from the id, never kept

_OPERATORS = re.compile(r"\b(AND|OR|ANDNOT)\b")
_SPACE = re.compile(r"\s+")


class ArxivError(EnrichError):
    """A query arXiv refused, with the reason its error entry gives."""

    code = "E1002"
    hint = "arXiv refuses ids not of its form (2101.00010, hep-th/9901001) and queries it cannot parse"


def normalize_id(text: str) -> str | None:
    """An arXiv id without its version or `arXiv:` prefix (`hep-th/9901001`, `2101.00010`); None if not one."""
    found = parse_arxiv(text)
    return found.id if found is not None else None


def title_query(title: str) -> str | None:
    """`ti:"…"` for a title, None when nothing searchable is left.

    arXiv's query parser has no escape for a quote inside a phrase, and its search splits
    words at punctuation anyway, so every character that is not a letter or a digit becomes
    a space: `BERT: Pre-training` searches the phrase `BERT Pre training`. Operators spelled
    in capitals (AND, OR, ANDNOT) are lowered so a title cannot turn into a boolean query.
    """
    words = "".join(c if c.isalnum() else " " for c in title)
    words = _OPERATORS.sub(lambda m: m.group(1).lower(), _SPACE.sub(" ", words).strip())
    return f'ti:"{words}"' if words else None


class ArxivClient:
    """arXiv lookups through a shared Fetcher (paced at one request per 3 s, one connection)."""

    source = "arxiv"

    def __init__(self, fetcher: Fetcher, base: str | None = None):
        self.fetcher = fetcher
        self.base = base or os.environ.get("SITEGEN_ARXIV_API") or DEFAULT_API

    def search_title(self, title: str, *, max_results: int = SEARCH_RESULTS, refresh: bool = False) -> list[Record]:
        """Papers whose title holds `title` as a phrase, best first, at most `max_results`."""
        query = title_query(title)
        if query is None:
            return []
        params = {"search_query": query, "start": "0", "max_results": str(max_results)}
        return self._records(self._url(params), refresh)

    def search_titles(self, titles: Sequence[str], *, refresh: bool = False) -> list[Record] | None:
        """Papers whose title holds any of `titles` as a phrase, in one request (`ti:"…" OR ti:"…"`); None when
        arXiv found as many as it was asked to send, so some may be missing (each title is then searched alone)."""
        queries = list(dict.fromkeys(q for t in titles if (q := title_query(t)) is not None))
        if not queries:
            return []
        wanted = SEARCH_RESULTS * len(queries)
        params = {"search_query": " OR ".join(queries), "start": "0", "max_results": str(wanted)}
        records = self._records(self._url(params), refresh)
        return None if len(records) >= wanted else records

    def by_ids(self, ids: Iterable[str], *, batch: int = BATCH, refresh: bool = False) -> dict[str, Record]:
        """The papers with these ids, keyed by id without version; an id arXiv does not know is absent.

        ValueError for a string that is not an arXiv id: one bad id makes arXiv refuse the
        whole batch, so ids are checked before anything is sent (see `normalize_id`).
        """
        wanted = list(dict.fromkeys(_checked(ids)))
        found: dict[str, Record] = {}
        for start in range(0, len(wanted), batch):
            chunk = wanted[start : start + batch]
            params = {"id_list": ",".join(chunk), "start": "0", "max_results": str(len(chunk))}
            for record in self._records(self._url(params), refresh):
                if record.id in chunk:
                    found[record.id] = record
        return {paper: found[paper] for paper in wanted if paper in found}

    def _url(self, params: dict[str, str]) -> str:
        return f"{self.base}?{urllib.parse.urlencode(params)}"

    def _records(self, url: str, refresh: bool) -> list[Record]:
        response = self.fetcher.get(self.source, url, refresh=refresh)
        if response.status not in (200, 400):
            raise SourceError(f"{host_of(url)} answered HTTP {response.status} to {url}")
        records = parse_feed(response)
        if response.status == 400:  # a refusal always carries an error entry, which parse_feed raised
            raise SourceError(f"{host_of(url)} answered HTTP 400 to {url}")
        return records


def parse_feed(response: Response | str) -> list[Record]:
    """The papers of an arXiv Atom feed, in feed order; ArxivError for its error entry, SourceError if unreadable."""
    text = response.body if isinstance(response, Response) else response
    where = host_of(response.url) if isinstance(response, Response) else "arXiv"
    if "<!DOCTYPE" in text or "<!ENTITY" in text:  # a feed never has one; an entity bomb would
        raise SourceError(f"{where} answered with a document type declaration, which an Atom feed never has")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise SourceError(f"{where} answered with something that is not an Atom feed: {exc}") from None
    if root.tag != f"{ATOM}feed":
        raise SourceError(f"{where} answered with <{root.tag}>, not an Atom feed")
    records = []
    for entry in root.iterfind(f"{ATOM}entry"):
        entry_id = _text(entry, f"{ATOM}id")
        if "/api/errors" in entry_id:
            raise ArxivError(f"arXiv refused the query: {_text(entry, f'{ATOM}summary') or entry_id}")
        record = _record(entry, entry_id)
        if record is not None:
            records.append(record)
    return records


def _record(entry: ET.Element, entry_id: str) -> Record | None:
    """One feed entry as a Record; None for an entry without a usable id (never seen, but not trusted)."""
    paper = normalize_id(entry_id.rsplit("/abs/", 1)[-1])
    if paper is None:
        return None
    doi = _text(entry, f"{ARXIV}doi") or None
    if doi is not None and doi.lower().startswith(DATACITE):
        doi = None
    primary = entry.find(f"{ARXIV}primary_category")
    published = _date(_text(entry, f"{ATOM}published"))
    summary = _text(entry, f"{ATOM}summary")
    notice = is_notice(summary)  # a withdrawal notice is never taken for the abstract
    return Record(
        source="arxiv",
        id=paper,
        title=_text(entry, f"{ATOM}title"),
        authors=tuple(Author(name) for a in entry.iterfind(f"{ATOM}author") if (name := _text(a, f"{ATOM}name"))),
        abstract="" if notice else summary,
        date=published,
        arxiv=paper,
        doi=doi,
        category=(primary.get("term") or None) if primary is not None else None,
        links=_links(entry, paper),
        year=published.year if published else None,
        withdrawn=notice or says_withdrawn(_text(entry, f"{ARXIV}comment")),
    )


def _links(entry: ET.Element, paper: str) -> tuple[tuple[str, str], ...]:
    """The pdf and abstract page, version-free so they always show the latest version."""
    kinds = set()
    for link in entry.iterfind(f"{ATOM}link"):
        if link.get("title") == "pdf" or link.get("type") == "application/pdf":
            kinds.add("pdf")
        elif link.get("rel") == "alternate":
            kinds.add("abs")
    return tuple((kind, f"https://arxiv.org/{kind}/{paper}") for kind in ("pdf", "abs") if kind in kinds)


def _text(element: ET.Element, tag: str) -> str:
    """A child's text with its whitespace runs collapsed (titles and abstracts are wrapped in the feed)."""
    child = element.find(tag)
    return _SPACE.sub(" ", child.text or "").strip() if child is not None else ""


def _date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


def _checked(ids: Iterable[str]) -> Iterable[str]:
    for raw in ids:
        paper = normalize_id(raw)
        if paper is None:
            raise ValueError(f"not an arXiv id: {raw!r}")
        yield paper
