"""Title lookups for many entries at once: Daily Papers listings by month, arXiv's phrases ORed in one request,
and never a decision other than the one each title asked alone would give."""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from sitegen.cli import main
from sitegen.content.frontmatter import parse
from sitegen.ingest.enrich import batched
from sitegen.ingest.enrich.match import Ambiguous, Known, Resolved, decide, normalize
from sitegen.ingest.enrich.record import Author, Record
from tests.ingest.enrich.replay import FIXTURES, ReplayServer, Reply

DAILY = json.loads((FIXTURES / "hf" / "daily_papers_2026-03-06.json").read_text(encoding="utf-8"))
CIRCLE = (FIXTURES / "arxiv" / "id_2602.23229_circle.xml").read_text(encoding="utf-8")
SCICODE = (FIXTURES / "arxiv" / "id_2407.13168_scicode.xml").read_text(encoding="utf-8")
TITLES = ("Sparse Lattice Codes for Private Retrieval", "Tokenizer-Free Speech Models at Scale")


def _listing() -> list[dict[str, object]]:
    """The recorded Daily Papers item, and two more in its shape (other ids, titles and first authors)."""
    items = [DAILY[0]]
    for n, title in enumerate(TITLES, 1):
        item = copy.deepcopy(DAILY[0])
        paper = item["paper"]
        paper["id"], paper["title"], item["title"] = f"2603.0000{n}", title, title
        paper["authors"][0]["name"] = f"Author Number{n}"
        items.append(item)
    return items


def _entry(papers: Path, slug: str, title: str, date: str, daily: bool = True) -> None:
    source = "sources:\n- file: 001_listing.txt\n  format: hf-daily-papers\n" if daily else ""
    papers.joinpath(f"{slug}.md").write_text(f"---\ntitle: {json.dumps(title)}\nauthor_count: 5\ndate: {date}\n"
                                             f"{source}---\nNotes.\n", encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SITEGEN_HF_API", f"{replay.url}/api")
    monkeypatch.setenv("SITEGEN_ARXIV_API", f"{replay.url}/api/query")
    monkeypatch.setenv("SITEGEN_S2_API", f"{replay.url}/graph/v1")
    root = tmp_path / "site"
    (root / "content" / "papers").mkdir(parents=True)
    (root / "site.yaml").write_text("title: Test list\n", encoding="utf-8")
    return root


def _enrich(root: Path) -> Result:
    return CliRunner().invoke(main, ["enrich", "--root", str(root), "--delay", "0", "--sources", "hf,arxiv"])


def _meta(root: Path, slug: str) -> dict[str, object]:
    path = root / "content" / "papers" / f"{slug}.md"
    return parse(path.read_text(encoding="utf-8"), path.name).meta


def test_entries_from_daily_papers_are_matched_against_their_month_in_one_request(
        site: Path, replay: ReplayServer) -> None:
    papers = site / "content" / "papers"
    _entry(papers, "circle", "Large Multimodal Models as General In-Context Classifiers", "2026-02-26")
    _entry(papers, "lattice", TITLES[0], "2026-03-02")
    _entry(papers, "speech", TITLES[1], "2026-03-04")
    replay.add("/api/daily_papers", Reply.json([]))  # February's list: empty
    replay.add("/api/daily_papers", Reply.json(_listing()), query={"month": "2026-03", "p": "0", "limit": "100"})
    replay.add("/api/query", Reply.fixture("arxiv/empty_id_0000.0000.xml"))
    result = _enrich(site)
    assert result.exit_code == 0, result.output
    assert [_meta(site, slug).get("arxiv") for slug in ("circle", "lattice", "speech")] == [
        "2602.23229", "2603.00001", "2603.00002"]
    asked = [seen.path for seen in replay.seen if seen.path.startswith("/api/") and seen.path != "/api/query"]
    assert asked == ["/api/daily_papers", "/api/daily_papers"]  # February and March, no title search
    assert replay.unmatched == []


def _feed(*entries: str) -> str:
    """One arXiv feed holding the <entry> elements of recorded feeds."""
    head = SCICODE[:SCICODE.index("<entry>")]
    return head + "".join(e[e.index("<entry>"):e.index("</entry>") + len("</entry>")] for e in entries) + "</feed>\n"


def test_titles_unknown_to_hugging_face_are_asked_of_arxiv_together(site: Path, replay: ReplayServer) -> None:
    papers = site / "content" / "papers"
    _entry(papers, "circle", "Large Multimodal Models as General In-Context Classifiers", "2026-02-26", daily=False)
    _entry(papers, "unknown", "A Paper Nobody Has Written Yet", "2026-01-01", daily=False)
    replay.add("/api/papers/search", Reply.json([]))
    feed = _feed(CIRCLE)
    replay.add("/api/query", Reply(200, feed.encode(), (("Content-Type", "application/atom+xml"),)))
    result = _enrich(site)
    assert result.exit_code == 0, result.output
    assert _meta(site, "circle").get("arxiv") == "2602.23229" and "arxiv" not in _meta(site, "unknown")
    searches = [s.param("search_query") for s in replay.seen if s.path == "/api/query" and s.param("search_query")]
    assert searches == ['ti:"Large Multimodal Models as General In Context Classifiers" OR '
                        'ti:"A Paper Nobody Has Written Yet"']  # one request for both, none alone


def test_titles_of_an_answer_arxiv_cut_short_are_asked_alone(site: Path, replay: ReplayServer) -> None:
    papers = site / "content" / "papers"
    _entry(papers, "circle", "Large Multimodal Models as General In-Context Classifiers", "2026-02-26", daily=False)
    _entry(papers, "unknown", "A Paper Nobody Has Written Yet", "2026-01-01", daily=False)
    replay.add("/api/papers/search", Reply.json([]))
    crowded = _feed(*[SCICODE.replace("2407.13168", f"2407.{n:05d}") for n in range(20)])  # 20 of 20 asked for
    replay.add("/api/query", Reply(200, crowded.encode(), (("Content-Type", "application/atom+xml"),)))
    replay.add("/api/query", Reply(200, CIRCLE.encode(), (("Content-Type", "application/atom+xml"),)),
               query={"search_query": 'ti:"Large Multimodal Models as General In Context Classifiers"',
                      "start": "0", "max_results": "10"})
    assert _enrich(site).exit_code == 0
    assert _meta(site, "circle").get("arxiv") == "2602.23229"
    searches = [s.param("search_query") or "" for s in replay.seen if s.param("search_query")]
    assert len(searches) == 3 and " OR " in searches[0]  # the batch, then each title alone


@pytest.mark.parametrize(("meta", "months"), [
    ({"date": dt.date(2026, 3, 4), "sources": [{"format": "hf-daily-papers"}]}, ("2026-03",)),
    ({"date": dt.date(2025, 12, 28), "sources": [{"format": "hf-daily-papers"}]}, ("2025-12", "2026-01")),
    ({"date": dt.date(2026, 3, 4), "sources": [{"format": "author-profile"}]}, ()),
    ({"sources": [{"format": "hf-daily-papers"}]}, ()),
    ({"date": dt.date(2026, 3, 4), "sources": "hf-daily-papers"}, ()),
])
def test_the_months_a_daily_papers_entry_may_be_listed_in(meta: dict[str, object], months: tuple[str, ...]) -> None:
    assert batched.listed_months(meta) == months


def _paper(title: str, n: int, year: int) -> Record:
    return Record(source="hf", id=f"2401.{n:05d}", title=title, authors=(Author("Ada Lovelace"),),
                  date=dt.date(year, 1, 2), arxiv=f"2401.{n:05d}", year=year)


WORDS = st.sampled_from(("sparse", "attention", "models", "of", "depth", "2", "not", "scaling", "laws", "mixture",
                         "llama", "3", "diffusion", "is", "all", "you", "need"))


@given(st.lists(st.lists(WORDS, min_size=1, max_size=7).map(" ".join), min_size=1, max_size=12),
       st.lists(st.integers(2023, 2025), min_size=12, max_size=12), st.integers(0, 11))
def test_a_listing_gives_the_decision_its_whole_list_would(titles: list[str], years: list[int], pick: int) -> None:
    """Only candidates that fail the title check are left out: what is settled, and which papers are in doubt,
    are the same (a wrong id is never let in by the narrower pool)."""
    pool = [_paper(title, n, years[n]) for n, title in enumerate(titles)]
    known = Known(titles[pick % len(titles)], dt.date(2024, 1, 1), authors=("Ada Lovelace",))
    near = batched.near_titles(known.title, pool, [normalize(r.title) for r in pool])
    whole, narrow = decide(known, pool), decide(known, near)
    assert type(whole) is type(narrow)
    if isinstance(whole, Resolved) and isinstance(narrow, Resolved):
        assert whole.record.arxiv == narrow.record.arxiv
    if isinstance(whole, Ambiguous) and isinstance(narrow, Ambiguous):
        assert {c.record.id for c in whole.candidates} == {c.record.id for c in narrow.candidates}
