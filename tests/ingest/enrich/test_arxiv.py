"""The arXiv client against recorded feeds served on 127.0.0.1."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sitegen.ingest.enrich.answers import SourceError
from sitegen.ingest.enrich.arxiv import ArxivClient, ArxivError, normalize_id, parse_feed, title_query
from sitegen.ingest.enrich.http import Fetcher
from sitegen.ingest.enrich.record import Author, Record
from sitegen.ingest.enrich.store import Store
from tests.ingest.enrich.replay import FIXTURES, ReplayServer, Reply

EMPTY = "arxiv/empty_id_0000.0000.xml"


@pytest.fixture
def client(replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> ArxivClient:
    monkeypatch.setenv("SITEGEN_ARXIV_API", f"{replay.url}/api/query")
    return ArxivClient(Fetcher(delay=0, backoff=0.01))


def feed(name: str) -> list[Record]:
    return parse_feed((FIXTURES / "arxiv" / name).read_text(encoding="utf-8"))


def test_the_2016_feed_parses_to_records() -> None:
    first, second = feed("search_quantum_criticality_2016.xml")
    assert first == Record(
        source="arxiv",
        id="1111.2011",
        title="Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit",
        authors=(Author("James M. Murray"), Author("Adrian Del Maestro"), Author("Zlatko Tesanovic")),
        abstract=first.abstract,
        date=dt.date(2011, 11, 8),
        arxiv="1111.2011",
        doi="10.1103/PhysRevB.85.115117",
        category="cond-mat.str-el",
        links=(("pdf", "https://arxiv.org/pdf/1111.2011"), ("abs", "https://arxiv.org/abs/1111.2011")),
        year=2011,
    )
    assert first.abstract.startswith("Theoretical description of anisotropic systems, such as layered superconductors")
    assert first.abstract.endswith("describing a single node.") and "\n" not in first.abstract
    assert (second.id, second.arxiv) == ("cond-mat/0607501", "cond-mat/0607501")
    assert second.doi == "10.1103/PhysRevB.74.214517"
    assert second.title.startswith("A striped supersolid phase and the search for deconfined quantum criticality in")
    assert second.links == (
        ("pdf", "https://arxiv.org/pdf/cond-mat/0607501"),
        ("abs", "https://arxiv.org/abs/cond-mat/0607501"),
    )


def test_the_current_feed_with_an_old_style_id_parses() -> None:
    (record,) = feed("id_hep-ex_0406020v1.xml")
    assert record == Record(
        source="arxiv",
        id="hep-ex/0406020",
        title="Sparticle Reconstruction at LHC",
        authors=(Author("Alessia Tricomi"),),
        abstract=record.abstract,
        date=dt.date(2004, 6, 7),
        arxiv="hep-ex/0406020",
        category="hep-ex",
        links=(("pdf", "https://arxiv.org/pdf/hep-ex/0406020"), ("abs", "https://arxiv.org/abs/hep-ex/0406020")),
        year=2004,
    )
    assert record.abstract.startswith("In this report a review")


def test_a_title_of_0_and_no_doi_survive() -> None:
    (record,) = feed("id_2104.12255v1.xml")
    assert (record.title, record.doi, record.category) == ("0", None, "cs.CR")


def test_an_empty_feed_is_no_result() -> None:
    assert feed("empty_id_0000.0000.xml") == []


def test_the_error_entry_is_an_error_with_arxivs_reason() -> None:
    with pytest.raises(ArxivError, match="arXiv refused the query: incorrect id format for abc") as caught:
        feed("error_400_id_abc.xml")
    assert caught.value.code == "E1002"


@pytest.mark.parametrize(
    "text",
    ["<html><body>Bad gateway</body></html>", "not xml at all", '<!DOCTYPE feed [<!ENTITY a "aaaa">]><feed/>'],
)
def test_something_that_is_not_an_atom_feed_is_a_source_error(text: str) -> None:
    with pytest.raises(SourceError):
        parse_feed(text)


def test_search_title_asks_a_quoted_title_phrase(client: ArxivClient, replay: ReplayServer) -> None:
    replay.add("/api/query", Reply.fixture("arxiv/search_quantum_criticality_2016.xml"))
    records = client.search_title("Quantum Criticality for Extended Nodes")
    assert [r.id for r in records] == ["1111.2011", "cond-mat/0607501"]
    (seen,) = replay.seen
    assert seen.param("search_query") == 'ti:"Quantum Criticality for Extended Nodes"'
    assert (seen.param("max_results"), seen.param("start")) == ("10", "0")


@pytest.mark.parametrize(
    ("title", "query"),
    [
        ("BERT: Pre-training of Deep Transformers", 'ti:"BERT Pre training of Deep Transformers"'),
        ('The "Attention" paper', 'ti:"The Attention paper"'),
        ("Cats AND Dogs OR Mice ANDNOT Birds", 'ti:"Cats and Dogs or Mice andnot Birds"'),
        ("Über  Lücken\n(und Sprünge)", 'ti:"Über Lücken und Sprünge"'),
        ('":()"', None),
    ],
)
def test_a_title_becomes_a_phrase_arxiv_can_parse(title: str, query: str | None) -> None:
    assert title_query(title) == query


def test_a_title_with_nothing_searchable_sends_nothing(client: ArxivClient, replay: ReplayServer) -> None:
    assert client.search_title("?!") == []
    assert replay.seen == []


def test_by_ids_splits_into_batches_of_100(client: ArxivClient, replay: ReplayServer) -> None:
    replay.add("/api/query", Reply.fixture(EMPTY))
    ids = [f"2101.{n:05d}" for n in range(1, 221)]
    assert client.by_ids([*ids, "2101.00001v3", "arXiv:2101.00002"]) == {}  # versions and prefixes: the same papers
    sent = [seen.param("id_list").split(",") for seen in replay.seen]  # type: ignore[union-attr]
    assert [len(batch) for batch in sent] == [100, 100, 20]
    assert [seen.param("max_results") for seen in replay.seen] == ["100", "100", "20"]
    assert [paper for batch in sent for paper in batch] == ids


def test_by_ids_keys_by_id_without_version_and_leaves_out_the_unknown(
    client: ArxivClient, replay: ReplayServer
) -> None:
    replay.add("/api/query", Reply.fixture("arxiv/id_0808.05394_1707.08567.xml"))
    found = client.by_ids(["1707.08567v1", "1707.08568"])
    assert list(found) == ["1707.08567"]
    record = found["1707.08567"]
    assert record.title == "Proceedings of Workshop AEW10: Concepts in Information Theory and Communications"
    names = ["Kees A. Schouhamer Immink", "Stan Baggen", "Dirk Wübben", "Hirosuke Yamamoto"]
    assert [a.name for a in record.authors] == names
    assert replay.seen[0].param("id_list") == "1707.08567,1707.08568"


def test_by_ids_refuses_a_malformed_id_before_asking(client: ArxivClient, replay: ReplayServer) -> None:
    with pytest.raises(ValueError, match="not an arXiv id: 'abc'"):
        client.by_ids(["2101.00010", "abc"])
    assert replay.seen == []


def test_arxivs_http_400_is_an_arxiv_error(client: ArxivClient, replay: ReplayServer) -> None:
    replay.add("/api/query", Reply.fixture("arxiv/error_400_id_abc.xml", status=400))
    with pytest.raises(ArxivError, match="incorrect id format for abc"):
        client.by_ids(["2101.00010"])
    assert len(replay.seen) == 1  # a refusal is an answer: not retried


def test_an_unexpected_status_is_a_source_error(client: ArxivClient, replay: ReplayServer) -> None:
    replay.add("/api/query", Reply(403, b"Forbidden"))
    with pytest.raises(SourceError, match="answered HTTP 403"):
        client.search_title("Attention Is All You Need")


def test_a_stored_feed_answers_a_later_run(
    replay: ReplayServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SITEGEN_ARXIV_API", f"{replay.url}/api/query")
    replay.add("/api/query", Reply.fixture("arxiv/id_hep-ex_0406020v1.xml"))
    for _ in range(2):
        client = ArxivClient(Fetcher(store=Store.for_site(tmp_path), delay=0))
        assert list(client.by_ids(["hep-ex/0406020"])) == ["hep-ex/0406020"]
    assert len(replay.seen) == 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2101.00010", "2101.00010"),
        ("2101.00010v3", "2101.00010"),
        ("arXiv:2101.00010", "2101.00010"),
        ("hep-th/9901001v2", "hep-th/9901001"),
        ("math.GT/0309136", "math/0309136"),
        ("abc", None),
        ("", None),
    ],
)
def test_normalize_id(text: str, expected: str | None) -> None:
    assert normalize_id(text) == expected


def test_the_default_endpoint_is_arxivs_export_api() -> None:
    assert ArxivClient(Fetcher()).base == "https://export.arxiv.org/api/query"
