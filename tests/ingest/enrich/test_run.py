"""`sitegen enrich` end to end: the real command against the replay server, then the built site."""

from __future__ import annotations

import json
from pathlib import Path

import bibtexparser
import pytest
from click.testing import CliRunner, Result

from sitegen.cli import main
from sitegen.content.frontmatter import parse
from sitegen.ingest.enrich.http import Fetcher
from sitegen.ingest.enrich.run import run_enrich
from sitegen.ingest.enrich.store import Store
from sitegen.pipeline.build import build
from tests.html_tools import read_html
from tests.ingest.enrich.replay import ReplayServer, Reply

SCICODE = json.loads((Path(__file__).parent / "fixtures" / "hf" / "search_scicode.json").read_text())[0]["paper"]
AUTHORS = [a["name"] for a in SCICODE["authors"]]
NOTES = "My own notes: *keep* these.\n"


def _site(root: Path) -> Path:
    papers = root / "content" / "papers"
    papers.mkdir(parents=True)
    (root / "site.yaml").write_text("title: Test list\nbase_url: https://example.org/\n", encoding="utf-8")
    abstract = " ".join(SCICODE["summary"].split())
    (papers / "scicode.md").write_text(
        f"---\ntitle: '{SCICODE['title']}'\nauthor_count: 6\ndate: 2024-07-18\ntags: [benchmarks]\n"
        f"abstract: {json.dumps(abstract)}\n---\n{NOTES}", encoding="utf-8")
    (papers / "unknown.md").write_text("---\ntitle: A Paper Nobody Has Written Yet\ndate: 2025-01-01\n---\n",
                                       encoding="utf-8")
    (papers / "opted-out.md").write_text("---\ntitle: Attention Is All You Need\nenrich: false\n---\n",
                                         encoding="utf-8")
    return root


def _serve_answers(replay: ReplayServer) -> None:
    replay.add("/api/papers/search", Reply.json([]))  # no other title is known to Hugging Face
    replay.add("/api/papers/search", Reply.fixture("hf/search_scicode.json"),
               query={"q": SCICODE["title"], "limit": "10"})
    replay.add("/api/query", Reply.fixture("arxiv/empty_id_0000.0000.xml"))
    replay.add("/api/query", Reply.fixture("arxiv/id_2407.13168_scicode.xml"),
               query={"id_list": "2407.13168", "start": "0", "max_results": "1"})


@pytest.fixture
def site(tmp_path: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SITEGEN_HF_API", f"{replay.url}/api")
    monkeypatch.setenv("SITEGEN_ARXIV_API", f"{replay.url}/api/query")
    monkeypatch.setenv("SITEGEN_S2_API", f"{replay.url}/graph/v1")
    _serve_answers(replay)
    return _site(tmp_path / "site")


def enrich(root: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["enrich", "--root", str(root), "--delay", "0", "--sources", "hf,arxiv", *args])


def test_enrich_writes_the_identity_keeps_the_notes_and_reports_the_rest(site: Path, replay: ReplayServer) -> None:
    result = enrich(site, "--report", str(site / "report.md"))
    assert result.exit_code == 0, result.output
    entry = site / "content" / "papers" / "scicode.md"
    doc = parse(entry.read_text(encoding="utf-8"), "scicode.md")
    assert doc.body == NOTES
    meta = doc.meta
    assert meta["arxiv"] == "2407.13168" and meta["category"] == "cs.AI"
    assert meta["authors"] == AUTHORS and meta["authors_truncated"] is False
    assert meta["links"]["pdf"] == "https://arxiv.org/pdf/2407.13168"
    assert meta["links"]["hf"] == "https://huggingface.co/papers/2407.13168"
    assert "doi" not in meta  # arXiv's DataCite DOI is derived, never stored
    provenance = meta["sources"][-1]
    assert provenance["api"] == "arxiv" and provenance["id"] == "2407.13168" and provenance["score"] >= 95
    assert "sources arxiv, hf" in provenance["match"]  # found on Hugging Face, checked against arXiv's record
    state = json.loads((site / "content" / "import-state.json").read_text())
    assert "enrich:scicode" in state and "authors" in state["enrich:scicode"]
    report = (site / "report.md").read_text(encoding="utf-8")
    assert "| `content/papers/scicode.md` | resolved |" in report
    assert "| `content/papers/unknown.md` | unresolved | no candidate found |" in report
    assert "| `content/papers/opted-out.md` | skipped | enrich: false |" in report
    assert "1 resolved (1 entries written), 0 ambiguous, 1 unresolved, 1 skipped" in result.output
    assert (site / "content" / "papers" / "opted-out.md").read_text().endswith("enrich: false\n---\n")
    assert all((s.header("User-Agent") or "").startswith("sitegen/") for s in replay.seen)
    assert replay.unmatched == []


def test_a_second_run_sends_no_request_about_what_it_asked_before(site: Path, replay: ReplayServer) -> None:
    assert enrich(site).exit_code == 0
    asked = len(replay.seen)
    before = {p.name: p.read_bytes() for p in (site / "content" / "papers").iterdir()}
    again = enrich(site, "unknown", "scicode")
    assert again.exit_code == 0, again.output
    assert len(replay.seen) == asked  # every answer came from content/lookups/
    assert {p.name: p.read_bytes() for p in (site / "content" / "papers").iterdir()} == before


def test_the_built_site_leads_to_the_paper(site: Path) -> None:
    assert enrich(site).exit_code == 0
    build(site, search=False)
    page = read_html(site / "public" / "papers" / "scicode" / "index.html")
    hrefs = [a.get("href") for a in page.iter("a")]
    assert "https://arxiv.org/abs/2407.13168" in hrefs
    metas = [(m.get("name"), m.get("content")) for m in page.iter("meta")]
    assert [c for n, c in metas if n == "citation_author"] == AUTHORS
    assert ("citation_arxiv_id", "2407.13168") in metas
    library = bibtexparser.parse_string((site / "public" / "papers" / "scicode" / "cite.bib").read_text())
    fields = {f.key: f.value for f in library.entries[0].fields}
    assert fields["eprint"] == "2407.13168" and fields["archiveprefix"] == "arXiv"


def test_with_no_source_reachable_every_entry_is_left_as_it_was(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITEGEN_HF_API", "http://127.0.0.1:9/api")  # the discard port: nothing listens there
    monkeypatch.setenv("SITEGEN_ARXIV_API", "http://127.0.0.1:9/api/query")
    before = {p.name: p.read_bytes() for p in (site / "content" / "papers").iterdir()}
    result = enrich(site)
    assert result.exit_code == 1
    assert "could not reach 127.0.0.1:9" in result.stderr and "2 entries left as they were" in result.stderr
    assert "Hugging Face was left out" in result.stderr  # the first to fail, while arXiv was still there
    assert "Traceback" not in result.output
    assert {p.name: p.read_bytes() for p in (site / "content" / "papers").iterdir()} == before
    assert not (site / "content" / "import-state.json").exists()


def test_a_throttled_source_is_left_out_and_what_the_others_resolve_is_written(
        site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Semantic Scholar answers nothing but 429 (no Retry-After): after its longer waits it is dropped for the
    rest of the run with a warning naming what it leaves unresolved, and Hugging Face and arXiv go on."""
    throttled = ReplayServer().start()  # a host of its own, as Semantic Scholar's is
    try:
        throttled.add("/graph/v1/paper/search/match", Reply(429, b'{"message": "Too Many Requests"}'))
        throttled.add("/graph/v1/paper/batch", Reply(429, b'{"message": "Too Many Requests"}'))
        monkeypatch.setenv("SITEGEN_S2_API", f"{throttled.url}/graph/v1")
        fetcher = Fetcher(store=Store.for_site(site), delay=0, backoff=0.01, throttle_backoff=0.01)
        outcome = run_enrich(site, sources=("hf", "arxiv", "s2"), fetcher=fetcher)
        asked = list(throttled.seen)
    finally:
        throttled.stop()
    assert not outcome.report.has_errors, [d.format() for d in outcome.report.items]
    assert outcome.written == ["content/papers/scicode.md"]
    assert parse((site / "content/papers/scicode.md").read_text(encoding="utf-8"), "s").meta["arxiv"] == "2407.13168"
    warnings = [d for d in outcome.report.items if d.code == "W1004"]
    assert len(warnings) == 1, [d.message for d in warnings]
    warning = warnings[0]
    assert warning.message.startswith("Semantic Scholar was left out after it failed: ")
    assert "HTTP 429 (after 6 tries)" in warning.message
    assert "1 entry not asked of it stays unresolved" in warning.message
    assert "throttling" in warning.hint
    assert len(asked) == 6  # one throttled question, tried six times; nothing asked of it after


def test_an_interrupted_run_keeps_the_batches_it_wrote_and_the_next_run_goes_on(
        site: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from sitegen.ingest.enrich import run

    monkeypatch.setattr(run, "BATCH", 1)
    real = run._search

    def interrupted(clients: object, source: str, title: str, refresh: bool) -> object:
        if title.startswith("A Paper Nobody"):
            raise KeyboardInterrupt  # Ctrl-C while the second batch is being looked up
        return real(clients, source, title, refresh)  # type: ignore[arg-type]

    monkeypatch.setattr(run, "_search", interrupted)
    unknown = (site / "content/papers/unknown.md").read_bytes()
    result = enrich(site)
    assert result.exit_code == 130 and "interrupted" in result.stderr and "Traceback" not in result.output
    assert "arxiv: '2407.13168'" in (site / "content/papers/scicode.md").read_text(encoding="utf-8")
    assert "enrich:scicode" in json.loads((site / "content/import-state.json").read_text())
    assert (site / "content/papers/unknown.md").read_bytes() == unknown
    monkeypatch.setattr(run, "_search", real)
    again = enrich(site, "--report", str(site / "report.md"))
    assert again.exit_code == 0, again.output
    report = (site / "report.md").read_text(encoding="utf-8")
    assert "scicode" not in report  # resolved by the first run: not looked up again
    assert "| `content/papers/unknown.md` | unresolved |" in report


def test_a_run_logged_to_a_file_says_how_far_it_got(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not on a terminal: plain lines now and then (every line here), then the summary; no table."""
    from sitegen.console import LookupLines

    monkeypatch.setattr(LookupLines, "PERIOD", 0.0)
    result = enrich(site)
    assert result.exit_code == 0, result.output
    assert "1/2 · 1 resolved · 0 doubtful · ETA " in result.stderr
    assert "3 entries: add --report FILE for what became of each" in result.stdout
    assert "┃" not in result.stdout and "1 resolved (1 entries written)" in result.stdout


def test_a_named_entry_that_does_not_exist_is_an_error(site: Path) -> None:
    result = enrich(site, "no-such-paper")
    assert result.exit_code == 1
    assert "content/papers/no-such-paper.md: error[E1010]: no entry named 'no-such-paper'" in result.stderr


def test_a_dry_run_reports_but_writes_nothing(site: Path) -> None:
    before = {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    result = enrich(site, "--dry-run")
    assert result.exit_code == 0, result.output
    assert "dry run: 1 resolved (1 entries written)" in result.output  # what a run would write
    assert {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()} == before


def test_a_hand_set_arxiv_id_pins_the_paper(site: Path, replay: ReplayServer) -> None:
    entry = site / "content" / "papers" / "scicode.md"
    entry.write_text(entry.read_text(encoding="utf-8").replace("author_count: 6\n", "arxiv: '2407.13168'\n"),
                     encoding="utf-8")
    assert enrich(site, "scicode").exit_code == 0
    meta = parse(entry.read_text(encoding="utf-8"), "scicode.md").meta
    assert meta["arxiv"] == "2407.13168" and meta["authors"] == AUTHORS
    assert not any(s.path == "/api/papers/search" for s in replay.seen)  # found by its id, no title search
    assert "arXiv id pinned" in meta["sources"][-1]["match"]


def test_an_id_from_a_service_shaped_like_a_path_is_refused_with_its_source_named(
        tmp_path: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """It would name a file under lookups/ and go into the entry: the answer is refused, the run ends with an
    error that names Hugging Face (never an internal error), and no entry changes."""
    monkeypatch.setenv("SITEGEN_HF_API", f"{replay.url}/api")
    monkeypatch.setenv("SITEGEN_ARXIV_API", f"{replay.url}/api/query")
    bad = json.loads((Path(__file__).parent / "fixtures" / "hf" / "search_scicode.json").read_text())
    bad[0]["paper"]["id"] = "../../../etc/passwd"
    replay.add("/api/papers/search", Reply.json(bad))
    replay.add("/api/query", Reply.fixture("arxiv/empty_id_0000.0000.xml"))
    site = _site(tmp_path / "site")
    before = {p.name: p.read_bytes() for p in (site / "content" / "papers").iterdir()}
    result = enrich(site)
    assert result.exit_code == 1
    assert "Hugging Face answered with a paper whose id is not an arXiv id: '../../../etc/passwd'" in result.stderr
    assert "E999" not in result.output and "Traceback" not in result.output
    assert {p.name: p.read_bytes() for p in (site / "content" / "papers").iterdir()} == before


def test_only_a_list_with_no_count_and_no_truncation_is_read_as_possibly_the_first_names() -> None:
    from sitegen.ingest.enrich.run import known

    typed = known({"title": "T", "authors": ["Ashish Vaswani"]})
    assert (typed.author_count, typed.listed_only) == (1, True)
    assert not known({"title": "T", "authors": ["Ashish Vaswani"], "author_count": 8}).listed_only
    assert not known({"title": "T", "authors": ["Ashish Vaswani"], "authors_truncated": True}).listed_only
    assert not known({"title": "T"}).listed_only


def test_verbose_says_each_entry_and_quiet_only_what_went_wrong(site: Path) -> None:
    """Not on a terminal, -v gives one plain line per entry (the terminal's table); -q keeps the summary back."""
    said = enrich(site, "-v", "--dry-run")
    assert said.exit_code == 0, said.output
    lines = said.output.splitlines()
    assert any(line.startswith("content/papers/scicode.md · ") and "2407.13168" in line for line in lines), lines
    assert any(line.startswith("content/papers/unknown.md · ") for line in lines), lines
    quiet = enrich(site, "-q", "--dry-run")
    assert quiet.exit_code == 0 and "dry run:" not in quiet.output, quiet.output
    kept = [line for line in quiet.output.splitlines() if not line.startswith("  hint: ")]
    assert kept and all(": warning[W" in line for line in kept), quiet.output  # the warnings alone


def test_enrich_keeps_other_tools_fields_and_extra_byte_for_byte(site: Path) -> None:
    """An Obsidian vault's keys and the curator's `extra:` survive the rewrite that writes the paper's identity."""
    from ...content.test_extra import OBSIDIAN

    entry = site / "content" / "papers" / "scicode.md"
    entry.write_text(entry.read_text(encoding="utf-8").replace("---\n", "---\n" + OBSIDIAN, 1), encoding="utf-8")
    result = enrich(site)
    assert result.exit_code == 0, result.output
    text = entry.read_text(encoding="utf-8")
    assert parse(text, "scicode.md").meta["arxiv"] == "2407.13168"  # it was rewritten
    assert OBSIDIAN in text and text.endswith(NOTES)
