"""The bundled reading list's arXiv ids: each one was checked against a public page, and says which."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from sitegen.content import frontmatter

PAPERS = Path(__file__).resolve().parents[2] / "content" / "papers"
# The number of bundled entries whose arXiv id was confirmed by hand: it may grow, never shrink.
RESOLVED_AT_LEAST = 85
# ... and of those, the number whose whole author list, in order, was typed from the same page.
COMPLETE_AUTHORS_AT_LEAST = 63


def entries() -> list[tuple[str, dict[str, Any]]]:
    return [(path.name, frontmatter.parse(path.read_text(encoding="utf-8"), path.name).meta)
            for path in sorted(PAPERS.glob("*.md"))]


def with_ids() -> list[tuple[str, dict[str, Any]]]:
    return [(name, meta) for name, meta in entries() if meta.get("arxiv")]


@pytest.mark.parametrize(("name", "meta"), with_ids(), ids=lambda value: value if isinstance(value, str) else "")
def test_every_id_says_which_page_confirmed_it(name: str, meta: dict[str, Any]) -> None:
    arxiv = meta["arxiv"]
    assert isinstance(arxiv, str), f"{name}: the id must be a quoted string"
    records = [r for r in meta.get("sources") or [] if r.get("api") == "hand" and r.get("id") == arxiv]
    assert records, f"{name}: no hand source record for {arxiv}"
    for record in records:
        url = str(record.get("url", ""))
        assert urlsplit(url).scheme == "https" and urlsplit(url).netloc, f"{name}: {url!r} is no https URL"
        assert arxiv in url, f"{name}: {url} does not name {arxiv}"
        assert record.get("retrieved"), f"{name}: the record says not when the page was read"


def test_hand_records_name_the_entrys_own_id() -> None:
    stray = [name for name, meta in entries() for r in meta.get("sources") or []
             if r.get("api") == "hand" and r.get("id") != meta.get("arxiv")]
    assert stray == []


def test_at_least_this_many_entries_lead_to_arxiv() -> None:
    assert len(with_ids()) >= RESOLVED_AT_LEAST


def complete_author_lists() -> list[tuple[str, dict[str, Any]]]:
    return [(name, meta) for name, meta in entries()
            if meta.get("authors") and "author_count" not in meta and not meta.get("authors_truncated")]



def test_every_complete_author_list_says_where_it_was_read() -> None:
    """A whole author list in place of a listing's bare "N authors" was typed from the page that confirmed the
    paper's id (a hand record), or came whole from an author-profile page."""
    def read_from(meta: dict[str, Any]) -> bool:
        return any(r.get("api") == "hand" or r.get("format") == "author-profile" for r in meta.get("sources") or [])
    lists = complete_author_lists()
    assert [name for name, meta in lists if not read_from(meta)] == []
    assert len(lists) >= COMPLETE_AUTHORS_AT_LEAST
    for name, meta in lists:
        authors = meta["authors"]
        assert all(isinstance(a, str) and a and a.strip() == a for a in authors), name
        assert len(set(authors)) == len(authors), f"{name}: a name twice"
