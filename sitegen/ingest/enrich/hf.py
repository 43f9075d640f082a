"""Hugging Face's papers API: a paper by arXiv id, a title search, and the Daily Papers lists.

Shapes, from the Hub's OpenAPI spec and recorded answers (tests/ingest/enrich/fixtures/hf/README.md):
`/papers/{id}` answers the paper object itself; `/papers/search` and `/daily_papers`
answer a list of items, each with the paper nested under `paper` beside the item's own
copies of `title`, `summary` and `organization`. An author may carry `user`, the Hub
account that claimed the name (`user.user`, or `user.name` in the older spelling).
"""

from __future__ import annotations

import datetime as dt
import os
import re
import urllib.parse

from sitegen.ingest.enrich.answers import SourceError, host_of
from sitegen.ingest.enrich.arxiv import normalize_id
from sitegen.ingest.enrich.http import Fetcher
from sitegen.ingest.enrich.record import Author, Record

DEFAULT_API = "https://huggingface.co/api"
PAPER_PAGE = "https://huggingface.co/papers/"
SEARCH_RESULTS = 10
DAILY_PAGE = 100  # the most /daily_papers gives at once
MAX_PAGES = 50  # a month of Daily Papers is a few hundred items; a runaway loop is not
_SPACE = re.compile(r"\s+")
_REPO = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")


class HfClient:
    """Hugging Face lookups through a shared Fetcher (paced at 500 calls per 5 minutes)."""

    source = "hf"

    def __init__(self, fetcher: Fetcher, base: str | None = None):
        self.fetcher = fetcher
        self.base = (base or os.environ.get("SITEGEN_HF_API") or DEFAULT_API).rstrip("/")

    def paper(self, arxiv_id: str, *, refresh: bool = False) -> Record | None:
        """The paper page of an arXiv id; None when Hugging Face has no page for it (HTTP 404)."""
        url = f"{self.base}/papers/{urllib.parse.quote(arxiv_id, safe='')}"
        data = self._json(url, refresh, missing_ok=True)
        if data is None:
            return None
        if not isinstance(data, dict):
            raise SourceError(f"{host_of(url)} answered {url} with JSON that is not a paper")
        return paper_record(data)

    def search(self, query: str, *, limit: int = SEARCH_RESULTS, refresh: bool = False) -> list[Record]:
        """Papers matching `query` (a title works best), best first."""
        params = {"q": query[:250], "limit": str(limit)}  # the API refuses a longer q
        return self._items(f"{self.base}/papers/search?{urllib.parse.urlencode(params)}", refresh)

    def daily(
        self,
        *,
        date: dt.date | None = None,
        week: str | None = None,
        month: str | None = None,
        refresh: bool = False,
    ) -> list[Record]:
        """The Daily Papers of one day, ISO week (`2025-W09`) or month (`2025-02`), every page of them."""
        chosen = {k: v for k, v in {"date": date and date.isoformat(), "week": week, "month": month}.items() if v}
        if len(chosen) != 1:
            raise ValueError("give exactly one of date, week or month")
        records: list[Record] = []
        for page in range(MAX_PAGES):
            params = {**chosen, "p": str(page), "limit": str(DAILY_PAGE)}
            batch = self._items(f"{self.base}/daily_papers?{urllib.parse.urlencode(params)}", refresh)
            records.extend(batch)
            if len(batch) < DAILY_PAGE:
                break
        return records

    def _items(self, url: str, refresh: bool) -> list[Record]:
        data = self._json(url, refresh)
        if not isinstance(data, list):
            raise SourceError(f"{host_of(url)} answered {url} with JSON that is not a list of papers")
        return [paper_record(_inner(item), item) for item in data if isinstance(item, dict)]

    def _json(self, url: str, refresh: bool, missing_ok: bool = False) -> object:
        response = self.fetcher.get(self.source, url, refresh=refresh)
        if response.status == 404 and missing_ok:
            return None
        if response.status != 200:
            raise SourceError(f"{host_of(url)} answered HTTP {response.status} to {url}")
        return response.json()


def paper_record(paper: dict[str, object], item: dict[str, object] | None = None) -> Record:
    """A paper object (and the list item around it, when it came in one) as a Record.

    The paper's own fields come first; the item's copies fill what the paper lacks. The
    date is the paper's `publishedAt` (its arXiv date), never the item's, which is the day
    it was put on Daily Papers.
    """
    outer = item or {}
    raw_id = _str(paper.get("id"))
    if not raw_id:
        raise SourceError("Hugging Face answered with a paper that has no id")
    arxiv_id = normalize_id(raw_id)  # it names a file under lookups/ and goes into an entry: checked first
    if arxiv_id is None:
        raise SourceError(f"Hugging Face answered with a paper whose id is not an arXiv id: {raw_id[:80]!r}",
                          "the answer is not used; if this persists, report it (the answer is kept under "
                          "content/lookups/hf/)")
    links = [("hf", PAPER_PAGE + arxiv_id)]
    code = _github(_str(paper.get("githubRepo")) or _str(outer.get("githubRepo")))
    if code:
        links.append(("code", code))
    project = _http(_str(paper.get("projectPage")) or _str(outer.get("projectPage")))
    if project:
        links.append(("project", project))
    upvotes = paper.get("upvotes")
    keywords = paper.get("ai_keywords") or outer.get("ai_keywords")
    published = _date(_str(paper.get("publishedAt")))
    return Record(
        source="hf",
        id=arxiv_id,
        title=_clean(paper.get("title")) or _clean(outer.get("title")),
        authors=tuple(_author(a) for a in _list(paper.get("authors")) if isinstance(a, dict) and _clean(a.get("name"))),
        abstract=_clean(paper.get("summary")) or _clean(outer.get("summary")),
        date=published,
        arxiv=arxiv_id,
        links=tuple(links),
        upvotes=int(upvotes) if isinstance(upvotes, int | float) and not isinstance(upvotes, bool) else None,
        organization=_organization(paper.get("organization")) or _organization(outer.get("organization")),
        keywords=tuple(k.strip() for k in _list(keywords) if isinstance(k, str) and k.strip()),
        year=published.year if published else None,
    )


def _inner(item: dict[str, object]) -> dict[str, object]:
    """The paper nested in a list item (search, Daily Papers), or the item itself if it is not nested."""
    paper = item.get("paper")
    return paper if isinstance(paper, dict) else item


def _author(data: dict[str, object]) -> Author:
    """An author, with the Hub account that claimed the name when there is one."""
    user = data.get("user")
    account = (_str(user.get("user")) or _str(user.get("name"))) if isinstance(user, dict) else ""
    return Author(_clean(data.get("name")), (("hf", account),) if account else ())


def _organization(data: object) -> str | None:
    if isinstance(data, dict):
        return _clean(data.get("fullname")) or _clean(data.get("name")) or None
    return None


def _github(value: str) -> str | None:
    """A code link: a URL as given, or `owner/repo` (as some answers spell it) on GitHub."""
    if _REPO.fullmatch(value):
        return f"https://github.com/{value}"
    return _http(value)


def _http(value: str) -> str | None:
    """Only http(s) URLs become links: the answer is untrusted, and a `javascript:` link is a hole."""
    parts = urllib.parse.urlsplit(value.strip())
    return value.strip() if parts.scheme in ("http", "https") and parts.netloc else None


def _str(value: object) -> str:
    return value if isinstance(value, str) else ""


def _clean(value: object) -> str:
    return _SPACE.sub(" ", _str(value)).strip()


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None
