"""`sitegen enrich` writes `cites:`, the papers each resolved entry cites, from Semantic Scholar's recorded answers
served on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sitegen.cli import main
from sitegen.content.frontmatter import parse
from sitegen.ingest.enrich import cites
from sitegen.ingest.enrich.http import Fetcher
from sitegen.ingest.enrich.run import run_enrich
from sitegen.ingest.enrich.s2 import FIELDS, REFERENCE_FIELDS
from sitegen.ingest.enrich.store import Store
from sitegen.ingest.importers.merge import fingerprint
from tests.ingest.enrich.replay import FIXTURES, ReplayServer, Reply

ENDPOINTS = (("SITEGEN_HF_API", "/api"), ("SITEGEN_ARXIV_API", "/api/query"), ("SITEGEN_S2_API", "/graph/v1"))
BATCH = "/graph/v1/paper/batch"
REFERENCES = {"fields": REFERENCE_FIELDS}
RECORDED = json.loads((FIXTURES / "s2" / "batch_references.json").read_text(encoding="utf-8"))
TURING = "DOI:10.1093/MIND/LIX.236.433"
ASKED = [TURING, "DOI:10.2307/2268810", "ARXIV:2405.19561"]  # the entries' order, which is the recording's
TURING_YAML = """\
---
title: Computing Machinery and Intelligence
authors:
- A. M. Turing
date: 1950-10-01
doi: 10.1093/MIND/LIX.236.433
venue: Mind
cites:
- 10.2307/3610576
- 10.1136/bmj.1.4616.1105
- 10.2307/2268801
- 10.2307/2371045
- 10.1007/S00605-006-0423-7
- 10.2307/2268810
- 10.2307/2371199
- 10.26686/wgtn.25018733
status: read
---
Notes on the imitation game.
"""


def _site(root: Path) -> Path:
    """The recorded paper (by its DOI), one of its references (by its DOI), one paper citing it (by its arXiv id),
    and a paper left alone."""
    papers = root / "content" / "papers"
    papers.mkdir(parents=True)
    (root / "site.yaml").write_text("title: Test list\nbase_url: https://example.org/\n", encoding="utf-8")
    (papers / "computing-machinery.md").write_text(
        "---\ntitle: Computing Machinery and Intelligence\nauthors:\n- A. M. Turing\ndate: 1950-10-01\n"
        "doi: 10.1093/MIND/LIX.236.433\nvenue: Mind\nstatus: read\n---\nNotes on the imitation game.\n",
        encoding="utf-8")
    (papers / "on-computable-numbers.md").write_text(
        "---\ntitle: On Computable Numbers, with an Application to the Entscheidungsproblem\ndoi: 10.2307/2268810\n"
        "---\n", encoding="utf-8")
    (papers / "opted-out.md").write_text("---\ntitle: Attention Is All You Need\narxiv: '1706.03762'\n"
                                         "enrich: false\n---\n", encoding="utf-8")
    (papers / "quo-vadis.md").write_text(
        "---\ntitle: 'Quo Vadis ChatGPT? From Large Language Models to Large Knowledge Models'\n"
        "arxiv: '2405.19561'\n---\n", encoding="utf-8")
    return root


@pytest.fixture
def site(tmp_path: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, path in ENDPOINTS:
        monkeypatch.setenv(name, replay.url + path)
    return _site(tmp_path / "site")


def _nothing_found(replay: ReplayServer) -> None:
    """No source finds any title, and arXiv knows no id: the entries named, or all with --refresh, are looked up
    again and stay as they are."""
    replay.add("/api/papers/search", Reply.json([]))
    replay.add("/api/query", Reply.fixture("arxiv/empty_id_0000.0000.xml"))
    replay.add("/graph/v1/paper/search/match", Reply.fixture("s2/match_not_found.json", status=404))


def references_asked(replay: ReplayServer) -> list[list[str]]:
    return [json.loads(s.body)["ids"] for s in replay.seen if s.param("fields") == REFERENCE_FIELDS]


def enrich(root: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["enrich", "--root", str(root), "--delay", "0", *args])


def meta(root: Path, slug: str) -> dict[str, object]:
    return parse((root / "content" / "papers" / f"{slug}.md").read_text(encoding="utf-8"), slug).meta


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_enrich_writes_the_papers_each_entry_cites(site: Path, replay: ReplayServer) -> None:
    replay.add(BATCH, Reply.fixture("s2/batch_references.json"), query=REFERENCES)
    result = enrich(site, "--report", str(site / "report.md"))
    assert result.exit_code == 0, result.output
    assert (site / "content/papers/computing-machinery.md").read_text(encoding="utf-8") == TURING_YAML
    assert meta(site, "quo-vadis")["cites"] == ["10.1093/MIND/LIX.236.433"]
    assert "cites" not in meta(site, "on-computable-numbers")  # Semantic Scholar answered null: nothing known
    assert "cites" not in meta(site, "opted-out")
    (seen,) = replay.seen  # every entry already had its id: nothing else to ask
    assert (seen.method, seen.path, seen.param("fields")) == ("POST", BATCH, REFERENCE_FIELDS)
    assert json.loads(seen.body) == {"ids": ASKED}  # `enrich: false` is never asked
    state = json.loads((site / "content/import-state.json").read_text(encoding="utf-8"))
    assert state["enrich:computing-machinery"] == {"cites": fingerprint(meta(site, "computing-machinery")["cites"])}
    assert state["enrich:on-computable-numbers"] == {"cites-unknown": "DOI:10.2307/2268810"}
    assert "; 2 entries: cites written" in result.output
    assert "| `content/papers/quo-vadis.md` | cites | wrote cites: 1 paper |" in (site / "report.md").read_text()
    assert replay.unmatched == []


def test_a_second_run_asks_nothing_and_changes_nothing(site: Path, replay: ReplayServer) -> None:
    replay.add(BATCH, Reply.fixture("s2/batch_references.json"), query=REFERENCES)
    assert enrich(site).exit_code == 0
    before = files(site)
    again = enrich(site)
    assert again.exit_code == 0, again.output
    assert len(replay.seen) == 1  # every entry has its list, or is known to be unknown to Semantic Scholar
    assert files(site) == before
    assert "; 0 entries: cites written" in again.output
    _nothing_found(replay)
    named = enrich(site, "computing-machinery", "on-computable-numbers")  # named: their titles are looked up
    assert named.exit_code == 0, named.output
    assert references_asked(replay) == [ASKED]
    assert {k: v for k, v in files(site).items() if "lookups" not in k} == \
        {k: v for k, v in before.items() if "lookups" not in k}


def test_the_kept_answer_gives_the_same_lists(site: Path, replay: ReplayServer, tmp_path: Path) -> None:
    """What the store keeps of the answer is enough: a site with only the kept answers writes the same entries."""
    replay.add(BATCH, Reply.fixture("s2/batch_references.json"), query=REFERENCES)
    assert enrich(site).exit_code == 0
    other = _site(tmp_path / "other")
    (other / "content" / "lookups").parent.mkdir(exist_ok=True)
    for kept in (site / "content" / "lookups").rglob("*.json"):
        target = other / kept.relative_to(site)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(kept.read_bytes())
    assert enrich(other).exit_code == 0
    assert len(replay.seen) == 1
    assert {k: v for k, v in files(other).items() if "papers" in k} == \
        {k: v for k, v in files(site).items() if "papers" in k}


def test_refresh_asks_again_and_keeps_a_hand_typed_list(site: Path, replay: ReplayServer) -> None:
    fewer = [{**RECORDED[0], "references": RECORDED[0]["references"][:2]}, None]  # the list as S2 has it later
    replay.add(BATCH, Reply.fixture("s2/batch_references.json"), Reply.json(fewer), query=REFERENCES)
    _nothing_found(replay)
    assert enrich(site).exit_code == 0
    entry = site / "content" / "papers" / "quo-vadis.md"
    entry.write_text(entry.read_text(encoding="utf-8").replace("- 10.1093/MIND/LIX.236.433\n",
                                                                "- 10.1093/MIND/LIX.236.433\n- '1706.03762'\n"))
    result = enrich(site, "--refresh")
    assert result.exit_code == 0, result.output
    assert references_asked(replay) == [ASKED, ASKED[:2]]  # the hand-typed list is not even asked about
    assert meta(site, "computing-machinery")["cites"] == ["10.2307/3610576", "10.1136/bmj.1.4616.1105"]
    assert meta(site, "quo-vadis")["cites"] == ["10.1093/MIND/LIX.236.433", "1706.03762"]


def test_no_citations_asks_nothing(site: Path, replay: ReplayServer) -> None:
    before = files(site)
    result = enrich(site, "--no-citations")
    assert result.exit_code == 0, result.output
    assert replay.seen == [] and files(site) == before
    assert "cites written" not in result.output


def test_a_dry_run_asks_but_writes_nothing(site: Path, replay: ReplayServer) -> None:
    replay.add(BATCH, Reply.fixture("s2/batch_references.json"), query=REFERENCES)
    before = files(site)
    result = enrich(site, "--dry-run")
    assert result.exit_code == 0, result.output
    assert "dry run: " in result.output and "; 2 entries: cites written" in result.output
    assert len(replay.seen) == 1 and files(site) == before


def test_a_failed_batch_leaves_the_batches_before_it_written(
        site: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch of one entry each: the second answer is no list of papers, so the run ends with an error, the
    first batch's entry and state written, the others as they were."""
    monkeypatch.setattr(cites, "BATCH", 1)
    replay.add(BATCH, Reply.json([RECORDED[0]]), Reply.json({"message": "Internal error"}), query=REFERENCES)
    before = files(site)
    result = enrich(site)
    assert result.exit_code == 1
    assert "answered a batch of 1 ids with something else" in result.stderr and "Traceback" not in result.output
    assert (site / "content/papers/computing-machinery.md").read_text(encoding="utf-8") == TURING_YAML
    assert "enrich:computing-machinery" in json.loads((site / "content/import-state.json").read_text())
    after = files(site)
    for slug in ("on-computable-numbers", "quo-vadis"):
        assert after[f"content/papers/{slug}.md"] == before[f"content/papers/{slug}.md"]


def test_an_interrupted_run_keeps_the_batches_it_wrote(
        site: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from sitegen.ingest.enrich.s2 import S2Client

    monkeypatch.setattr(cites, "BATCH", 1)
    replay.add(BATCH, Reply.json([RECORDED[0]]), query=REFERENCES)
    real = S2Client.references

    def interrupted(self: S2Client, ids: list[str], **options: bool) -> object:
        if ids != [TURING]:
            raise KeyboardInterrupt  # Ctrl-C while the second batch is asked about
        return real(self, ids, **options)

    monkeypatch.setattr(S2Client, "references", interrupted)
    quo_vadis = (site / "content/papers/quo-vadis.md").read_bytes()
    result = enrich(site)
    assert result.exit_code == 130 and "interrupted" in result.stderr
    assert (site / "content/papers/computing-machinery.md").read_text(encoding="utf-8") == TURING_YAML
    assert (site / "content/papers/quo-vadis.md").read_bytes() == quo_vadis


SCICODE = json.loads((FIXTURES / "hf" / "search_scicode.json").read_text(encoding="utf-8"))[0]["paper"]


@pytest.fixture
def resolving(tmp_path: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An entry with no id yet, which Hugging Face and arXiv resolve to 2407.13168 in the run."""
    from tests.ingest.enrich.test_run import _serve_answers
    from tests.ingest.enrich.test_run import _site as resolving_site

    for name, path in ENDPOINTS:
        monkeypatch.setenv(name, replay.url + path)
    _serve_answers(replay)
    replay.add("/graph/v1/paper/search/match", Reply.fixture("s2/match_not_found.json", status=404))
    replay.add(BATCH, Reply.json([None]), query={"fields": FIELDS})
    return resolving_site(tmp_path / "site")


def test_an_entry_resolved_in_the_run_is_asked_what_it_cites(resolving: Path, replay: ReplayServer) -> None:
    """Not a recording: references as Semantic Scholar shapes them, among them ids the recording lacks (arXiv's
    own DOI, an old-style arXiv id) and one that is no DOI, which is left out with a warning."""
    cited = [{"paperId": "a", "externalIds": {"ArXiv": "2404.13957", "DOI": "10.48550/arXiv.2404.13957"}},
             {"paperId": "b", "externalIds": {"DOI": "10.48550/arXiv.2101.00010"}},
             {"paperId": "c", "externalIds": {"ArXiv": "hep-th/9901001"}},
             {"paperId": "d", "externalIds": {"DOI": "10.1145/3637866"}},
             {"paperId": "e", "externalIds": {"DOI": "../../etc/passwd"}},
             {"paperId": None, "externalIds": None}]
    replay.add(BATCH, Reply.json([{"paperId": "s", "externalIds": {"ArXiv": "2407.13168"}, "references": cited}]),
               query=REFERENCES)
    result = CliRunner().invoke(main, ["enrich", "--root", str(resolving), "--delay", "0"])
    assert result.exit_code == 0, result.output
    text = (resolving / "content/papers/scicode.md").read_text(encoding="utf-8")
    assert "arxiv: '2407.13168'\ncites:\n- '2404.13957'\n- '2101.00010'\n- hep-th/9901001\n- 10.1145/3637866\n" \
        in text  # new-style ids quoted, so that YAML reads them back as text
    assert parse(text, "s").meta["cites"] == ["2404.13957", "2101.00010", "hep-th/9901001", "10.1145/3637866"]
    (asked,) = [s for s in replay.seen if s.param("fields") == REFERENCE_FIELDS]
    assert json.loads(asked.body) == {"ids": ["ARXIV:2407.13168"]}
    assert "content/papers/scicode.md: warning[W1080]: Semantic Scholar gave 1 reference of this paper an id " \
           "that is not one, left out of `cites`: '../../etc/passwd'" in result.output + result.stderr
    assert "1 resolved (1 entries written)" in result.output and "; 1 entries: cites written" in result.output


def test_a_known_paper_with_no_usable_reference_gets_an_empty_list(resolving: Path, replay: ReplayServer) -> None:
    replay.add(BATCH, Reply.json([{"paperId": "s", "references": [{"paperId": None, "externalIds": None}]}]),
               query=REFERENCES)
    assert CliRunner().invoke(main, ["enrich", "--root", str(resolving), "--delay", "0"]).exit_code == 0
    assert "\ncites: []\n" in (resolving / "content/papers/scicode.md").read_text(encoding="utf-8")


def test_a_throttled_references_call_drops_semantic_scholar_and_the_resolved_fields_are_written(
        resolving: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Semantic Scholar answers the resolving questions, then nothing but 429 to the references: it is dropped
    with a warning saying what it leaves, and the entry keeps what the run resolved."""
    replay.add(BATCH, Reply(429, b'{"message": "Too Many Requests"}'), query=REFERENCES)
    fetcher = Fetcher(store=Store.for_site(resolving), delay=0, backoff=0.01, throttle_backoff=0.01)
    outcome = run_enrich(resolving, fetcher=fetcher)
    assert not outcome.report.has_errors, [d.format() for d in outcome.report.items]
    assert meta(resolving, "scicode")["arxiv"] == "2407.13168" and "cites" not in meta(resolving, "scicode")
    (warning,) = [d for d in outcome.report.items if d.code == "W1004"]
    assert warning.message.startswith("Semantic Scholar was left out after it failed: ")
    assert "HTTP 429 (after 6 tries)" in warning.message
    assert warning.message.endswith("; 1 entry not asked which papers it cites")
    assert len([s for s in replay.seen if s.param("fields") == REFERENCE_FIELDS]) == 6
    assert outcome.citations.written == []
