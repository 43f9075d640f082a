"""What the store keeps of an answer: only what the parsers read, so a kept answer reads exactly as the full one.

Every recorded answer is parsed as sent and as kept, and the two must give the same
Records: a parser that starts reading a field the store drops fails here until the store
keeps it (sitegen/ingest/enrich/kept.py).
"""

from __future__ import annotations

import datetime as dt
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.lookup_sizes import hf_search_answer
from sitegen.ingest.enrich.answers import EnrichError, Response
from sitegen.ingest.enrich.arxiv import parse_feed
from sitegen.ingest.enrich.hf import HfClient
from sitegen.ingest.enrich.s2 import S2Client
from sitegen.ingest.enrich.store import Store

FIXTURES = Path(__file__).parent / "fixtures"
ANSWERS = sorted(f"{p.parent.name}/{p.name}" for p in FIXTURES.glob("*/*") if p.suffix in (".json", ".xml"))
URL = "https://example.org/api/answer?q=x"
DAY = dt.date(2026, 5, 19)


class Canned:
    """A fetcher that answers every request with one stored body."""

    def __init__(self, body: str):
        self.body = body

    def get(self, source: str, url: str, **options: object) -> Response:
        return Response(url, 200, self.body, DAY)

    def post_json(self, source: str, url: str, payload: object, **options: object) -> Response:
        return Response(url, 200, self.body, DAY)


def parsed(source: str, body: str) -> object:
    """What sitegen reads from a 200 answer through its client: Records, a Match, or the error it raises; a batch
    is read both as papers and as the papers each one cites, since either question is answered by a list."""
    fetcher: Any = Canned(body)
    data = json.loads(body) if source != "arxiv" else None
    if source == "s2" and isinstance(data, list):
        ids = [f"id{n}" for n in range(len(data))]
        return (_read(lambda: S2Client(fetcher).batch(ids)), _read(lambda: S2Client(fetcher).references(ids)))
    return _read(lambda: _one(source, fetcher, body, data))


def _one(source: str, fetcher: Any, body: str, data: object) -> object:
    if source == "arxiv":
        return parse_feed(Response(URL, 200, body, DAY))
    if source == "hf":
        return HfClient(fetcher).search("x") if isinstance(data, list) else HfClient(fetcher).paper("2101.00010")
    return S2Client(fetcher).match_title("x")


def _read(question: Callable[[], object]) -> object:
    try:
        return question()
    except EnrichError as exc:
        return type(exc), exc.message


def stored(source: str, body: str, status: int = 200) -> tuple[str, int]:
    """The body a later run reads back from the store, and the size of the file it was kept in."""
    with tempfile.TemporaryDirectory() as scratch:
        store = Store(Path(scratch))
        path = store.save(source, Response(URL, status, body, DAY))
        again = store.load(source, URL)
        assert again is not None
        return again.body, path.stat().st_size


@pytest.mark.parametrize("name", ANSWERS)
def test_a_kept_answer_reads_exactly_as_the_answer_sent(name: str) -> None:
    source = name.split("/")[0]
    body = (FIXTURES / name).read_text(encoding="utf-8")
    kept, _ = stored(source, body)
    assert parsed(source, kept) == parsed(source, body)
    assert len(kept) <= len(body)


def test_a_hugging_face_search_is_kept_in_a_third_of_its_size() -> None:
    """Ten items in the recorded shape: the avatars, thumbnails, submitter, AI summary and the item's second
    copy of each title and abstract are not kept."""
    body = hf_search_answer()
    kept, size = stored("hf", body)
    assert size <= 0.4 * len(body.encode())
    assert parsed("hf", kept) == parsed("hf", body)
    assert len(parsed("hf", body)) == 10  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ANSWERS)
def test_an_answer_kept_whole_by_an_older_version_reads_as_before(tmp_path: Path, name: str) -> None:
    source = name.split("/")[0]
    body = (FIXTURES / name).read_text(encoding="utf-8")
    store = Store(tmp_path)
    path = store.path(source, URL)
    path.parent.mkdir(parents=True)
    record = {"body": body, "retrieved": DAY.isoformat(), "status": 200, "url": URL}  # as every answer was kept
    path.write_text(json.dumps(record, sort_keys=True, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert store.load(source, URL) == Response(URL, 200, body, DAY, stored=True)


BOMB = ('<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>&b;</id></entry></feed>')


@pytest.mark.parametrize(
    ("source", "body", "status"),
    [
        ("hf", "<html><body>502 Bad Gateway</body></html>", 200),
        ("hf", '"a paper"', 200),
        ("hf", '{"error": "Paper not found", "detail": "no such id"}', 404),
        ("s2", "{cut off", 200),
        ("s2", '{"error": "Title match not found", "code": 7}', 404),
        ("s2", '{"message": "no data here"}', 200),
        ("s2", "[" * 100_000 + "]" * 100_000, 200),
        ("arxiv", "<html><body>503</body></html>", 200),
        ("arxiv", '<feed xmlns="http://www.w3.org/2005/Atom"><entry>', 200),
        ("arxiv", BOMB, 200),
        ("crossref", '{"message": {"title": ["kept whole"], "indexed": 1}}', 200),
    ],
)
def test_an_answer_not_in_its_source_s_shape_is_kept_as_it_came(source: str, body: str, status: int) -> None:
    """Reading it again fails as it did the first time (or, for a source with no cut, reads as it did)."""
    assert stored(source, body, status)[0] == body


ABSENT = object()
VALUES = st.sampled_from([ABSENT, None, "", "  \n ", "Large  Models\n", "owner/repo", "https://example.org/p", 3,
                          [], ["in-context learning"], {}, {"name": " "}, {"fullname": "Group", "_id": "x"},
                          {"name": "MHUGLab"}])
FALLBACKS = ("title", "summary", "githubRepo", "projectPage", "ai_keywords", "organization")


@settings(deadline=None)  # a loaded CI machine takes longer than the default 200 ms for a draw now and then
@given(st.lists(VALUES, min_size=12, max_size=12))
def test_an_item_s_copies_are_kept_where_its_paper_lacks_them(values: list[object]) -> None:
    """paper_record takes each of these from the paper, else from the item around it: whatever each holds,
    the kept item reads as the full one."""
    paper = {"id": "2602.23229", **{k: v for k, v in zip(FALLBACKS, values[:6], strict=True) if v is not ABSENT}}
    item = {"paper": paper, **{k: v for k, v in zip(FALLBACKS, values[6:], strict=True) if v is not ABSENT}}
    body = json.dumps([item])
    assert parsed("hf", stored("hf", body)[0]) == parsed("hf", body)


def test_hugging_face_authors_keep_their_name_and_claimed_account() -> None:
    body = (FIXTURES / "hf" / "paper_2407.13168.json").read_text(encoding="utf-8")
    authors = json.loads(stored("hf", body)[0])["authors"]
    assert authors[2] == {"name": "Shizhuo Dylan Zhang", "user": {"user": "haopeng01", "name": "haopeng01"}}
    assert authors[3] == {"name": "Xinan Chen"}


def test_arxiv_keeps_comments_and_journal_refs_with_the_feed_s_namespaces() -> None:
    """Free text a venue may be read from: kept though nothing reads it yet, in arXiv's own namespace."""
    body = (FIXTURES / "arxiv" / "search_quantum_criticality_2016.xml").read_text(encoding="utf-8")
    kept = stored("arxiv", body)[0]
    assert '<arxiv:comment>8 pages, 3 figures. Published version</arxiv:comment>' in kept
    assert '<arxiv:journal_ref>Phys. Rev. B 85, 115117 (2012)</arxiv:journal_ref>' in kept
    assert 'xmlns:arxiv="http://arxiv.org/schemas/atom"' in kept and "opensearch" not in kept
