"""The Semantic Scholar client against recorded answers served on 127.0.0.1."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from sitegen.ingest.enrich.answers import SourceError
from sitegen.ingest.enrich.http import Fetcher
from sitegen.ingest.enrich.record import Author, Record
from sitegen.ingest.enrich.s2 import FIELDS, REFERENCE_FIELDS, Match, References, S2Client, paper_record
from sitegen.ingest.enrich.store import Store
from tests.ingest.enrich.replay import ReplayServer, Reply

MATCH = "/graph/v1/paper/search/match"
BATCH = "/graph/v1/paper/batch"


@pytest.fixture
def client(replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> S2Client:
    monkeypatch.setenv("SITEGEN_S2_API", f"{replay.url}/graph/v1")
    return S2Client(Fetcher(delay=0, backoff=0.01))


def test_a_title_match_parses_with_its_score(client: S2Client, replay: ReplayServer) -> None:
    replay.add(MATCH, Reply.fixture("s2/match_mining_association_rules.json"))
    found = client.match_title("Mining association rules between sets of items in large databases")
    assert found == Match(
        Record(
            source="s2",
            id="6fe8c5bf8dddaadf10c765133d38dfef5714347f",
            title="Mining association rules between sets of items in large databases",
            authors=(
                Author("R. Agrawal", (("s2", "144947410"),)),
                Author("T. Imielinski", (("s2", "1733797"),)),
                Author("A. Swami", (("s2", "31536502"),)),
            ),
            abstract=found.record.abstract if found else "",
            date=dt.date(1993, 6, 1),
            doi="10.1145/170035.170072",
            venue="SIGMOD Conference",
            year=1993,
        ),
        109.24948,
    )
    (seen,) = replay.seen
    assert seen.param("query") == "Mining association rules between sets of items in large databases"
    assert seen.param("fields") == FIELDS and "matchScore" not in FIELDS  # asking for it is a 400


def test_no_title_match_is_none_and_kept(replay: ReplayServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITEGEN_S2_API", f"{replay.url}/graph/v1")
    replay.add(MATCH, Reply.fixture("s2/match_not_found.json", status=404))
    for _ in range(2):
        assert S2Client(Fetcher(store=Store.for_site(tmp_path), delay=0)).match_title("Nothing like this") is None
    assert len(replay.seen) == 1


def test_a_batch_is_posted_and_null_items_are_absent(client: S2Client, replay: ReplayServer) -> None:
    replay.add(BATCH, Reply.fixture("s2/batch_with_null.json"))
    ids = ["CorpusId:211530585", "CorpusId:470667", "10.2139/ssrn.2250500", "0f40b1f08821e22e859c6050916cec3667778613"]
    found = client.batch(ids)
    assert list(found) == ids[1:]
    assert found["CorpusId:470667"].title == "How Much Should We Trust Differences-in-Differences Estimates?"
    bertrand = found["CorpusId:470667"]
    assert (bertrand.date, bertrand.doi) == (dt.date(2001, 10, 1), "10.2139/ssrn.288970")
    only_year = found["0f40b1f08821e22e859c6050916cec3667778613"]
    assert (only_year.date, only_year.year, only_year.venue) == (None, 2023, None)  # "" is no venue
    (seen,) = replay.seen
    assert (seen.method, json.loads(seen.body)) == ("POST", {"ids": ids})
    assert seen.param("fields") == FIELDS


def test_arxiv_ids_are_kept_and_the_arxiv_doi_and_venue_are_not(client: S2Client, replay: ReplayServer) -> None:
    replay.add(BATCH, Reply.fixture("s2/batch_arxiv.json"))
    found = client.batch(["ARXIV:2404.13957", "ARXIV:2101.00010", "ARXIV:2404.04750"])
    preprint, published = found["ARXIV:2404.13957"], found["ARXIV:2404.04750"]
    assert (preprint.arxiv, preprint.doi, preprint.venue) == ("2404.13957", None, None)
    assert (published.arxiv, published.doi, published.venue) == (
        "2404.04750",
        "10.1145/3637866",
        "Communications of the ACM",
    )
    assert published.authors[0] == Author("Eric Horvitz", (("s2", "2234484064"),))
    assert "ARXIV:2101.00010" not in found


def test_a_long_list_is_split_into_batches(client: S2Client, replay: ReplayServer) -> None:
    replay.add(BATCH, Reply.json([None, None]), Reply.json([None]))
    assert client.batch(["A", "B", "C"], size=2) == {}
    assert [json.loads(seen.body)["ids"] for seen in replay.seen] == [["A", "B"], ["C"]]


def test_a_batch_answer_of_the_wrong_length_is_a_source_error(client: S2Client, replay: ReplayServer) -> None:
    replay.add(BATCH, Reply.json([None]))
    with pytest.raises(SourceError, match="batch of 2 ids"):
        client.batch(["A", "B"])


def test_the_key_is_sent_as_x_api_key(replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITEGEN_S2_API", f"{replay.url}/graph/v1")
    replay.add(MATCH, Reply.fixture("s2/match_not_found.json", status=404))
    S2Client(Fetcher(delay=0)).match_title("without a key")
    monkeypatch.setenv("SITEGEN_S2_KEY", "k3y")
    S2Client(Fetcher(delay=0)).match_title("with a key")
    without, with_key = replay.seen
    assert (without.header("x-api-key"), with_key.header("x-api-key")) == (None, "k3y")


def test_a_refused_key_is_a_source_error_with_a_hint(client: S2Client, replay: ReplayServer) -> None:
    replay.add(MATCH, Reply.json({"message": "Forbidden"}, status=403))
    with pytest.raises(SourceError, match="answered HTTP 403: Forbidden") as caught:
        client.match_title("Attention Is All You Need")
    assert "SITEGEN_S2_KEY" in caught.value.hint


def test_a_blank_title_asks_nothing(client: S2Client, replay: ReplayServer) -> None:
    assert client.match_title(" \n ") is None
    assert replay.seen == []


def test_the_default_endpoint_is_the_graph_api() -> None:
    assert S2Client(Fetcher()).base == "https://api.semanticscholar.org/graph/v1"


@pytest.mark.parametrize(("ids", "said"), [({"DOI": "../../etc/passwd"}, "a DOI that is not one"),
                                           ({"DOI": "10.1145/x\x1b[2J"}, "a DOI that is not one"),
                                           ({"ArXiv": "../lookups/x"}, "an arXiv id that is not one"),
                                           ({"ArXiv": 2407.13168}, "an arXiv id that is not one")])
def test_ids_that_would_reach_an_entry_are_checked_first(ids: dict[str, object], said: str) -> None:
    with pytest.raises(SourceError, match=said):
        paper_record({"paperId": "abc", "title": "A paper", "externalIds": ids})
    assert paper_record({"paperId": "abc", "title": "A paper", "externalIds": {"DOI": "", "ArXiv": None}}).doi is None


TURING = "DOI:10.1093/MIND/LIX.236.433"
TURING_CITES = ("10.2307/3610576", "10.1136/bmj.1.4616.1105", "10.2307/2268801", "10.2307/2371045",
                "10.1007/S00605-006-0423-7", "10.2307/2268810", "10.2307/2371199", "10.26686/wgtn.25018733")


def test_the_references_of_a_batch_are_the_cited_papers_ids_in_order(client: S2Client, replay: ReplayServer) -> None:
    """The recorded paper cites 14 works: 6 that S2 did not resolve (paperId and externalIds null) are left out,
    the other 8 are named by their DOIs, in the order S2 lists them."""
    replay.add(BATCH, Reply.fixture("s2/batch_references.json"))
    ids = [TURING, "DOI:10.2307/2268810", "ARXIV:2405.19561"]
    found = client.references(ids)
    assert found == {TURING: References(TURING_CITES), "ARXIV:2405.19561": References(("10.1093/MIND/LIX.236.433",))}
    (seen,) = replay.seen
    assert (seen.method, json.loads(seen.body)) == ("POST", {"ids": ids})
    assert seen.param("fields") == REFERENCE_FIELDS == "externalIds,references.externalIds"


def test_a_reference_is_its_arxiv_id_else_its_doi_and_what_is_no_id_is_refused(
        client: S2Client, replay: ReplayServer) -> None:
    """Not a recording: references shaped as S2 sends them, each with an id of a kind the recording lacks."""
    cited = [
        {"paperId": "a", "externalIds": {"ArXiv": "2404.13957", "DOI": "10.48550/arXiv.2404.13957"}},
        {"paperId": "b", "externalIds": {"DOI": "10.48550/ARXIV.2101.00010", "CorpusId": 1}},  # arXiv's DOI only
        {"paperId": "c", "externalIds": {"ArXiv": "hep-th/9901001v2", "DOI": "10.1088/1126-6708/1999/01/001"}},
        {"paperId": "d", "externalIds": {"DOI": "10.1145/3637866"}},
        {"paperId": "e", "externalIds": {"DOI": "10.1145/3637866".upper()}},  # the same DOI: DOIs ignore case
        {"paperId": "f", "externalIds": {"ArXiv": "2404.13957"}},
        {"paperId": "g", "externalIds": {"DOI": "../../etc/passwd"}},
        {"paperId": "h", "externalIds": {"ArXiv": "../lookups/x", "DOI": "10.1145/3637866"}},
        {"paperId": "i", "externalIds": {"DOI": "10.1145/x\x1b[2J"}},
        {"paperId": "j", "externalIds": {"DOI": "10.48550/arXiv.not-an-id"}},
        {"paperId": "k", "externalIds": {"ArXiv": 2407.13168}},
        {"paperId": "l", "externalIds": {"CorpusId": 5, "MAG": "7"}},  # no id an entry could have
        {"paperId": None, "externalIds": None},
        "not a reference",
    ]
    replay.add(BATCH, Reply.json([{"paperId": "p", "references": cited}, {"paperId": "q", "references": []},
                                  {"paperId": "r"}]))
    found = client.references(["ARXIV:2101.00011", "ARXIV:2101.00012", "ARXIV:2101.00013"])
    assert found["ARXIV:2101.00011"] == References(
        ("2404.13957", "2101.00010", "hep-th/9901001", "10.1145/3637866"),
        ("../../etc/passwd", "../lookups/x", "10.1145/x\x1b[2J", "10.48550/arXiv.not-an-id", "2407.13168"))
    assert found["ARXIV:2101.00012"] == found["ARXIV:2101.00013"] == References(())  # known, citing nothing usable


def test_a_references_answer_with_an_item_that_is_no_paper_is_a_source_error(
        client: S2Client, replay: ReplayServer) -> None:
    replay.add(BATCH, Reply.json(["a paper"]))
    with pytest.raises(SourceError, match="an item that is no paper"):
        client.references(["ARXIV:2101.00011"])


def test_references_are_asked_500_at_a_time(client: S2Client, replay: ReplayServer) -> None:
    replay.add(BATCH, Reply.json([None] * 500), Reply.json([None]))
    assert client.references([f"ARXIV:2101.{n:05d}" for n in range(501)]) == {}
    assert [len(json.loads(seen.body)["ids"]) for seen in replay.seen] == [500, 1]
