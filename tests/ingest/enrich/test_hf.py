"""The Hugging Face client against recorded answers served on 127.0.0.1."""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from sitegen.ingest.enrich.answers import SourceError
from sitegen.ingest.enrich.hf import HfClient, paper_record
from sitegen.ingest.enrich.http import Fetcher
from sitegen.ingest.enrich.record import Author, Record
from sitegen.ingest.enrich.store import Store
from tests.ingest.enrich.replay import FIXTURES, ReplayServer, Reply


def recorded(name: str) -> Any:
    return json.loads((FIXTURES / "hf" / name).read_text(encoding="utf-8"))


def recorded_record(name: str) -> Record:
    data = recorded(name)
    assert isinstance(data, dict)
    return paper_record(data)


@pytest.fixture
def client(replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> HfClient:
    monkeypatch.setenv("SITEGEN_HF_API", f"{replay.url}/api")
    return HfClient(Fetcher(delay=0, backoff=0.01))


def test_a_paper_page_parses_with_claimed_accounts(client: HfClient, replay: ReplayServer) -> None:
    replay.add("/api/papers/2407.13168", Reply.fixture("hf/paper_2407.13168.json"))
    record = client.paper("2407.13168")
    assert record == Record(
        source="hf",
        id="2407.13168",
        title="SciCode: A Research Coding Benchmark Curated by Scientists",
        authors=(
            Author("Minyang Tian", (("hf", "mtian8"),)),
            Author("Luyu Gao", (("hf", "Luyu"),)),
            Author("Shizhuo Dylan Zhang", (("hf", "haopeng01"),)),  # as recorded: the Hub's claim, not ours
            Author("Xinan Chen"),
            Author("Bohao Wu", (("hf", "nlogn-27"),)),
            Author("Hao Peng", (("hf", "haopeng01"),)),
        ),
        abstract=record.abstract if record else "",
        date=dt.date(2024, 7, 18),
        arxiv="2407.13168",
        links=(("hf", "https://huggingface.co/papers/2407.13168"),),
        upvotes=17,
        keywords=("language models", "coding benchmark", "knowledge recall", "reasoning", "code synthesis",
                  "scientific AI"),
        year=2024,
    )
    assert record is not None
    assert record.abstract.startswith("Since language models (LMs) now outperform average humans on many")
    assert "\n" not in record.abstract


def test_a_paper_hugging_face_has_no_page_for_is_none_and_kept(
    replay: ReplayServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SITEGEN_HF_API", f"{replay.url}/api")
    replay.add("/api/papers/2101.00010", Reply.json({"error": "Not Found"}, status=404))
    for _ in range(2):
        assert HfClient(Fetcher(store=Store.for_site(tmp_path), delay=0)).paper("2101.00010") is None
    assert len(replay.seen) == 1


def test_a_daily_papers_item_parses_from_its_nested_paper(client: HfClient, replay: ReplayServer) -> None:
    replay.add("/api/daily_papers", Reply.fixture("hf/daily_papers_2026-03-06.json"))
    (record,) = client.daily(date=dt.date(2026, 3, 6))
    assert record == Record(
        source="hf",
        id="2602.23229",
        title="Large Multimodal Models as General In-Context Classifiers",
        authors=tuple(Author(name) for name in (
            "Marco Garosi", "Matteo Farina", "Alessandro Conti", "Massimiliano Mancini", "Elisa Ricci")),
        abstract=record.abstract,
        date=dt.date(2026, 2, 26),  # the paper's publishedAt, not the day it went on Daily Papers
        arxiv="2602.23229",
        links=(
            ("hf", "https://huggingface.co/papers/2602.23229"),
            ("code", "https://github.com/marco-garosi/CIRCLE"),
            ("project", "https://circle-lmm.github.io/"),
        ),
        upvotes=10,
        organization="Multimedia and Human Understanding Group",
        keywords=("Vision-Language Models", "Large Multimodal Models", "zero-shot classification",
                  "in-context learning", "open-world classification", "cache-based adapters", "CIRCLE",
                  "pseudo-labeling", "context refinement"),
        year=2026,
    )
    (seen,) = replay.seen
    assert dict(seen.query) == {"date": "2026-03-06", "p": "0", "limit": "100"}


@pytest.mark.parametrize(("kind", "value"), [("week", "2026-W10"), ("month", "2026-03")])
def test_daily_papers_of_a_week_or_a_month(client: HfClient, replay: ReplayServer, kind: str, value: str) -> None:
    replay.add("/api/daily_papers", Reply.fixture("hf/daily_papers_2026-03-06.json"))
    assert [r.id for r in client.daily(**{kind: value})] == ["2602.23229"]  # type: ignore[arg-type]
    assert replay.seen[0].param(kind) == value and replay.seen[0].param("date") is None


def test_daily_papers_takes_every_page(client: HfClient, replay: ReplayServer) -> None:
    (item,) = recorded("daily_papers_2026-03-06.json")
    page = []
    for n in range(100):
        copied = copy.deepcopy(item)
        copied["paper"]["id"] = f"2602.{n:05d}"
        page.append(copied)
    replay.add("/api/daily_papers", Reply.json(page), query={"month": "2026-02", "p": "0", "limit": "100"})
    replay.add("/api/daily_papers", Reply.json([item]), query={"month": "2026-02", "p": "1", "limit": "100"})
    records = client.daily(month="2026-02")
    assert len(records) == 101 and records[-1].id == "2602.23229"
    assert [seen.param("p") for seen in replay.seen] == ["0", "1"]


def test_daily_papers_needs_exactly_one_period(client: HfClient) -> None:
    with pytest.raises(ValueError, match="exactly one"):
        client.daily(week="2026-W10", month="2026-03")


def test_search_reads_the_nested_paper(client: HfClient, replay: ReplayServer) -> None:
    replay.add("/api/papers/search", Reply.fixture("hf/search_scicode.json"))
    (record,) = client.search("SciCode: A Research Coding Benchmark")
    assert record == recorded_record("paper_2407.13168.json")
    assert dict(replay.seen[0].query) == {"q": "SciCode: A Research Coding Benchmark", "limit": "10"}


@pytest.mark.parametrize(
    ("repo", "page", "links"),
    [
        ("thu-ml/Causal-Forcing", None, [("code", "https://github.com/thu-ml/Causal-Forcing")]),
        ("javascript:alert(1)", "javascript:alert(1)", []),
        ("", "ftp://example.org/x", []),
        (None, "https://example.org/p", [("project", "https://example.org/p")]),
    ],
)
def test_only_http_links_are_kept(repo: str | None, page: str | None, links: list[tuple[str, str]]) -> None:
    (item,) = recorded("daily_papers_2026-03-06.json")
    item["paper"]["githubRepo"], item["paper"]["projectPage"] = repo, page
    record = paper_record(item["paper"], item)
    assert list(record.links[1:]) == links


def test_an_answer_of_the_wrong_shape_is_a_source_error(client: HfClient, replay: ReplayServer) -> None:
    replay.add("/api/daily_papers", Reply.json({"error": "Invalid date"}))
    with pytest.raises(SourceError, match="not a list of papers"):
        client.daily(date=dt.date(2026, 3, 6))


def test_a_refusal_is_a_source_error(client: HfClient, replay: ReplayServer) -> None:
    replay.add("/api/papers/search", Reply.json({"error": "q too long"}, status=400))
    with pytest.raises(SourceError, match="answered HTTP 400"):
        client.search("x")


def test_the_default_endpoint_is_hugging_faces_api() -> None:
    assert HfClient(Fetcher()).base == "https://huggingface.co/api"
