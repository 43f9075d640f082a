"""`sitegen import ID …`, `--hf-daily` and `sitegen new --arxiv`: the real commands against the replay server."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sitegen.cli import main
from sitegen.content.frontmatter import parse
from sitegen.ingest.enrich.s2 import FIELDS
from sitegen.pipeline.build import build
from tests.html_tools import read_html
from tests.ingest.enrich.replay import FIXTURES, ReplayServer, Reply

SCICODE = json.loads((FIXTURES / "hf" / "paper_2407.13168.json").read_text())
SCICODE_FILE = "scicode-a-research-coding-benchmark-curated-by-scientists.md"
SCICODE_AUTHORS = ["Minyang Tian", "Luyu Gao", "Shizhuo Dylan Zhang", "Xinan Chen", "Bohao Wu", "Hao Peng"]
CACM = json.loads((FIXTURES / "s2" / "batch_arxiv.json").read_text())[2]  # a paper with a publisher's DOI
CACM_FILE = "now-later-and-lasting-ten-priorities-for-ai-research-policy.md"
CIRCLE_FILE = "large-multimodal-models-as-general-in-context-classifiers.md"
SITE_YAML = """\
title: Test list
base_url: https://example.org/
tags:
  benchmarks: [benchmark]
  classification: [classifier]
  refinement: [context refinement]
  gpu: [gpu]
"""
FAILED = "import failed: 1 error(s); nothing under content/ was changed"


@pytest.fixture
def site(tmp_path: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty reading list whose sources are the replay server, answering as the recorded services do."""
    monkeypatch.setenv("SITEGEN_HF_API", f"{replay.url}/api")
    monkeypatch.setenv("SITEGEN_ARXIV_API", f"{replay.url}/api/query")
    monkeypatch.setenv("SITEGEN_S2_API", f"{replay.url}/graph/v1")
    replay.add("/api/query", Reply.fixture("arxiv/empty_id_0000.0000.xml"))  # an id arXiv does not know
    for paper, fixture in (("2407.13168", "id_2407.13168_scicode.xml"), ("2602.23229", "id_2602.23229_circle.xml")):
        replay.add("/api/query", Reply.fixture(f"arxiv/{fixture}"),
                   query={"id_list": paper, "start": "0", "max_results": "1"})
    replay.add("/api/papers/2407.13168", Reply.fixture("hf/paper_2407.13168.json"))
    replay.add("/api/papers/2404.04750", Reply.json({"error": "Paper not found"}, status=404))
    replay.add("/api/daily_papers", Reply.fixture("hf/daily_papers_2026-03-06.json"))
    replay.add("/graph/v1/paper/batch", Reply.json([CACM]))
    root = tmp_path / "site"
    (root / "content" / "papers").mkdir(parents=True)
    (root / "site.yaml").write_text(SITE_YAML, encoding="utf-8")
    return root


def sitegen(root: Path, *args: str, command: str = "import") -> Result:
    return CliRunner().invoke(main, [command, "--root", str(root), "--delay", "0", *args])


def meta(path: Path) -> dict[str, Any]:
    return parse(path.read_text(encoding="utf-8"), path.name).meta


def content(root: Path) -> dict[str, bytes]:
    """Every file under content/, to show that a failed command changed none."""
    folder = root / "content"
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def asked(replay: ReplayServer) -> list[str]:
    return [f"{s.method} {s.path}" + (f" id_list={s.param('id_list')}" if s.param("id_list") else "")
            for s in replay.seen]


@pytest.mark.parametrize("argument", [
    "2407.13168", "arXiv:2407.13168v2", "https://arxiv.org/abs/2407.13168", "https://arxiv.org/pdf/2407.13168v1",
    "arxiv.org/abs/2407.13168", "https://huggingface.co/papers/2407.13168", "10.48550/arXiv.2407.13168",
    "https://doi.org/10.48550/arXiv.2407.13168",
])
def test_every_spelling_of_an_arxiv_paper_makes_its_entry(site: Path, replay: ReplayServer, argument: str) -> None:
    result = sitegen(site, argument)
    assert result.exit_code == 0, result.output
    assert f"  new content/papers/{SCICODE_FILE}\n" in result.stdout and "1 new, 0 merged, 0 unchanged" in result.stdout
    fields = meta(site / "content" / "papers" / SCICODE_FILE)
    assert fields["title"] == "SciCode: A Research Coding Benchmark Curated by Scientists"
    assert fields["authors"] == SCICODE_AUTHORS and fields["author_count"] == 6
    assert fields["date"] == dt.date(2024, 7, 18) and fields["added"] == dt.date.today()
    assert fields["abstract"].startswith("Since language models (LMs) now outperform")
    assert fields["arxiv"] == "2407.13168" and fields["category"] == "cs.AI" and "doi" not in fields
    assert fields["tags"] == ["benchmarks", "cs.AI"]
    assert fields["links"] == {"pdf": "https://arxiv.org/pdf/2407.13168", "abs": "https://arxiv.org/abs/2407.13168",
                               "hf": "https://huggingface.co/papers/2407.13168"}
    assert [(s["api"], s["id"], s["retrieved"]) for s in fields["sources"]] == [
        ("arxiv", "2407.13168", dt.date.today()), ("hf", "2407.13168", dt.date.today())]
    assert asked(replay) == ["GET /api/query id_list=2407.13168", "GET /api/papers/2407.13168"]
    assert sorted(p.parent.name for p in (site / "content" / "lookups").rglob("*.json")) == ["arxiv", "hf"]
    assert CliRunner().invoke(main, ["check", "--root", str(site)]).exit_code == 0


@pytest.mark.parametrize("argument", ["10.1145/3637866", "doi:10.1145/3637866", "https://doi.org/10.1145/3637866"])
def test_a_doi_is_looked_up_on_semantic_scholar(site: Path, replay: ReplayServer, argument: str) -> None:
    result = sitegen(site, argument)
    assert result.exit_code == 0, result.output
    fields = meta(site / "content" / "papers" / CACM_FILE)
    assert fields["doi"] == "10.1145/3637866" and fields["venue"] == "Communications of the ACM"
    assert fields["arxiv"] == "2404.04750" and fields["date"] == dt.date(2024, 4, 6)
    assert fields["authors"] == [a["name"] for a in CACM["authors"]]
    assert [(s["api"], s["id"]) for s in fields["sources"]] == [("s2", CACM["paperId"])]
    batch = next(s for s in replay.seen if s.method == "POST")
    assert json.loads(batch.body) == {"ids": ["DOI:10.1145/3637866"]}
    # the arXiv id Semantic Scholar gives is asked of arXiv (which, here, answers with nothing) and Hugging Face (404)
    assert asked(replay) == ["POST /graph/v1/paper/batch", "GET /api/query id_list=2404.04750",
                             "GET /api/papers/2404.04750"]


def test_one_paper_named_twice_is_one_entry_asked_for_once(site: Path, replay: ReplayServer) -> None:
    result = sitegen(site, "2407.13168", "https://huggingface.co/papers/2407.13168v1")
    assert result.exit_code == 0, result.output
    assert [p.name for p in (site / "content" / "papers").iterdir()] == [SCICODE_FILE]
    assert asked(replay) == ["GET /api/query id_list=2407.13168", "GET /api/papers/2407.13168"]


NOTES = "My notes:  \r\n\r\n*keep* these,\ttabs and all.\r\n\r\n"
BY_TITLE = """\
---
# typed in before the paper had an id
title: 'SciCode: a research coding benchmark curated by scientists'
date: 2024-07-18
tags: [benchmarks, favourites]
rating: 5
links:
  code: https://github.com/me/scicode-fork
---
"""
BY_ID = """\
---
title: My SciCode notes
arxiv: '2407.13168'
status: reading
---
"""


@pytest.mark.parametrize("front", [BY_TITLE, BY_ID], ids=["same title and date", "same arXiv id"])
def test_an_entry_of_the_same_paper_is_completed_never_overwritten(site: Path, replay: ReplayServer,
                                                                    front: str) -> None:
    mine = site / "content" / "papers" / "mine.md"
    mine.write_bytes((front + NOTES).encode())
    before = meta(mine)
    result = sitegen(site, "2407.13168")
    assert result.exit_code == 0, result.output
    assert "0 new, 1 merged, 0 unchanged" in result.stdout
    assert [p.name for p in (site / "content" / "papers").iterdir()] == ["mine.md"]
    text = mine.read_bytes()
    assert text.endswith(b"\n---\n" + NOTES.encode())  # the notes byte for byte, CRs, tabs and trailing spaces
    after = meta(mine)
    assert {k: after[k] for k in before if k != "links"} == {k: v for k, v in before.items() if k != "links"}
    assert after["arxiv"] == "2407.13168" and after["authors"] == SCICODE_AUTHORS and after["category"] == "cs.AI"
    assert after["links"]["pdf"] == "https://arxiv.org/pdf/2407.13168"
    assert after["links"].get("code") == before.get("links", {}).get("code")
    assert ("# typed in before the paper had an id" in text.decode()) == ("# typed" in front)
    state = json.loads((site / "content" / "import-state.json").read_text())
    assert "abstract" in state["enrich:mine"] and "title" not in state["enrich:mine"]
    # a second run asks nothing (the answers were kept in content/lookups/) and changes nothing
    seen, files = len(replay.seen), content(site)
    again = sitegen(site, "https://arxiv.org/abs/2407.13168")
    assert again.exit_code == 0, again.output
    assert "0 new, 0 merged, 1 unchanged" in again.stdout
    assert len(replay.seen) == seen and content(site) == files


BIB = r"""
@inproceedings{tian2024scicode,
  title = {SciCode: A Research Coding Benchmark Curated by Scientists},
  author = {Tian, Minyang and Gao, Luyu and others},
  booktitle = {Advances in Neural Information Processing Systems},
  year = {2024},
  eprint = {2407.13168},
  archivePrefix = {arXiv},
}

@inproceedings{lee2023fast,
  title = {Fast Kernels: 90\% Fewer {FLOPs}},
  author = {Lee, Min-Jun and M{\"u}ller, J{\"o}rg},
  booktitle = {Proceedings of Systems},
  year = 2023,
  doi = {10.5555/3666122.3666123},
  url = {https://github.com/example/fast-kernels},
  keywords = {kernels; efficiency, GPU},
}

@article{dated,
  title = {Dated Precisely},
  author = {Doe, Jane and others},
  date = {2024-02-29},
  journaltitle = {Nature},
}
"""


def test_a_bib_file_imports_each_entry_asking_only_about_arxiv_ids(site: Path, replay: ReplayServer) -> None:
    bib = site / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    result = sitegen(site, str(bib))
    assert result.exit_code == 0, result.output
    assert "3 new, 0 merged, 0 unchanged" in result.stdout
    papers = site / "content" / "papers"
    scicode = meta(papers / SCICODE_FILE)  # completed by arXiv's record: its whole author list, abstract, date
    assert scicode["authors"] == SCICODE_AUTHORS and scicode["authors_truncated"] is False
    assert scicode["venue"] == "Advances in Neural Information Processing Systems"
    assert scicode["date"] == dt.date(2024, 7, 18) and scicode["abstract"].startswith("Since language models")
    assert [s["api"] for s in scicode["sources"]] == ["arxiv", "hf", "bibtex"]
    assert scicode["sources"][2]["id"] == "tian2024scicode" and scicode["sources"][2]["match"] == "refs.bib, entry " \
        "tian2024scicode"
    fast = meta(papers / "fast-kernels-90-fewer-flops.md")  # used as it is: no network for a DOI in a .bib
    assert fast["title"] == "Fast Kernels: 90% Fewer FLOPs" and fast["authors"] == ["Min-Jun Lee", "Jörg Müller"]
    assert fast["doi"] == "10.5555/3666122.3666123" and fast["links"] == {"code": "https://github.com/example/fast-kernels"}
    assert fast["tags"] == ["gpu"] and fast["date"] == 2023  # the keywords go through the tag map; a year is kept
    dated = meta(papers / "dated-precisely.md")
    assert dated["date"] == dt.date(2024, 2, 29) and dated["venue"] == "Nature"
    assert dated["authors"] == ["Jane Doe"] and dated["authors_truncated"] is True and "author_count" not in dated
    assert asked(replay) == ["GET /api/query id_list=2407.13168", "GET /api/papers/2407.13168"]


def test_a_bib_file_imports_offline_as_the_file_gives_it(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITEGEN_ARXIV_API", "http://127.0.0.1:9/api")  # the discard port: nothing listens there
    (site / "refs.bib").write_text(BIB + "\n@misc{monthly,\n  title = {Monthly Paper},\n  year = {2022},\n"
                                   "  month = jul,\n  eprint = {2207.00001},\n}\n", encoding="utf-8")
    result = sitegen(site, str(site / "refs.bib"))
    assert result.exit_code == 0, result.output
    assert "refs.bib:2: warning[W1079]: arXiv could not be reached (could not reach 127.0.0.1:9: connection " \
           "refused): 2 .bib entries are imported as the file gives them, unchecked (tian2024scicode, monthly)" \
        in result.stderr
    papers = site / "content" / "papers"
    scicode = meta(papers / SCICODE_FILE)
    assert scicode["arxiv"] == "2407.13168" and scicode["date"] == 2024 and scicode["authors_truncated"] is True
    assert scicode["authors"] == ["Minyang Tian", "Luyu Gao"] and [s["api"] for s in scicode["sources"]] == ["bibtex"]
    assert meta(papers / "monthly-paper.md")["date"] == "2022-07"
    assert len(list(papers.glob("*.md"))) == 4
    assert CliRunner().invoke(main, ["check", "--root", str(site)]).exit_code == 0


def test_offline_an_id_typed_alone_still_needs_arxiv(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITEGEN_ARXIV_API", "http://127.0.0.1:9/api")
    (site / "refs.bib").write_text(BIB, encoding="utf-8")
    result = sitegen(site, str(site / "refs.bib"), "2602.23229")
    assert result.exit_code == 1 and "error[E1000]: could not reach 127.0.0.1:9" in result.stderr
    assert content(site) == {}


def test_a_bib_entry_whose_eprint_is_another_paper_is_imported_as_written(site: Path, replay: ReplayServer) -> None:
    (site / "refs.bib").write_text("@article{x,\n  title = {Attention Is All You Need},\n  year = {2017},\n"
                                   "  eprint = {2407.13168},\n}\n", encoding="utf-8")
    result = sitegen(site, str(site / "refs.bib"))
    assert result.exit_code == 0, result.output
    assert "refs.bib:1: warning[W1059]: arXiv's 2407.13168 is 'SciCode: A Research Coding Benchmark Curated by " \
           "Scientists', which does not look like this entry's paper" in result.stderr
    fields = meta(site / "content" / "papers" / "attention-is-all-you-need.md")
    assert fields["title"] == "Attention Is All You Need" and "authors" not in fields
    assert [s["api"] for s in fields["sources"]] == ["bibtex"]


@pytest.mark.parametrize(("value", "param"), [("2026-03-06", "date"), ("2026-W10", "week"), ("2026-03", "month")])
def test_hf_daily_imports_the_listing_with_its_signals(site: Path, replay: ReplayServer, value: str,
                                                       param: str) -> None:
    result = sitegen(site, "--hf-daily", value)
    assert result.exit_code == 0, result.output
    fields = meta(site / "content" / "papers" / CIRCLE_FILE)
    assert fields["upvotes"] == 10 and fields["organization"] == "Multimedia and Human Understanding Group"
    assert fields["links"] == {"pdf": "https://arxiv.org/pdf/2602.23229", "abs": "https://arxiv.org/abs/2602.23229",
                               "hf": "https://huggingface.co/papers/2602.23229",
                               "code": "https://github.com/marco-garosi/CIRCLE",
                               "project": "https://circle-lmm.github.io/"}
    assert fields["arxiv"] == "2602.23229" and fields["category"] == "cs.CV" and fields["date"] == dt.date(2026, 2, 26)
    # "context refinement" is one of Hugging Face's keywords, not in the title or abstract
    assert fields["tags"] == ["benchmarks", "classification", "refinement", "cs.CV"]
    listing = replay.seen[0]
    assert listing.path == "/api/daily_papers" and listing.param(param) == value and listing.param("p") == "0"
    assert asked(replay) == ["GET /api/daily_papers", "GET /api/query id_list=2602.23229"]  # no page asked again


def test_new_with_an_arxiv_id_fills_the_entry_and_what_is_typed_wins(site: Path, replay: ReplayServer) -> None:
    result = sitegen(site, "--arxiv", "2407.13168", command="new")
    assert result.exit_code == 0, result.output
    made = site / "content" / "papers" / SCICODE_FILE
    assert result.stdout == f"created {made}\n"
    fields = meta(made)
    assert fields["authors"] == SCICODE_AUTHORS and fields["arxiv"] == "2407.13168" and fields["status"] == "to-read"
    assert fields["links"]["hf"] == "https://huggingface.co/papers/2407.13168"
    seen = len(replay.seen)
    again = sitegen(site, "--url", "https://arxiv.org/abs/2407.13168", command="new")
    assert again.exit_code == 1 and len(replay.seen) == seen  # the id is on the list: nothing to ask
    assert f"content/papers/{SCICODE_FILE}:2: error[E1053]: https://arxiv.org/abs/2407.13168 is already on the " \
           "list\n  hint: sitegen import https://arxiv.org/abs/2407.13168 adds what it knows to this entry" \
           in again.stderr
    made.unlink()
    typed = sitegen(site, "Reading SciCode", "--arxiv", "2407.13168", "--tags", "mine", "--date", "2024-07-20",
                    "--author", "Minyang Tian", "--status", "read", "--rating", "5", "--notes", "Hard *and* fair.",
                    command="new")
    assert typed.exit_code == 0, typed.output
    fields = meta(site / "content" / "papers" / "reading-scicode.md")
    assert fields["status"] == "read" and fields["rating"] == 5
    assert (site / "content" / "papers" / "reading-scicode.md").read_text().endswith("---\n\nHard *and* fair.\n")
    assert fields["title"] == "Reading SciCode" and fields["date"] == dt.date(2024, 7, 20)
    assert fields["tags"] == ["mine", "benchmarks", "cs.AI"] and fields["abstract"].startswith("Since language")
    assert fields["authors"] == ["Minyang Tian"] and "author_count" not in fields and "authors_truncated" not in fields
    state = json.loads((site / "content" / "import-state.json").read_text())["enrich:reading-scicode"]
    assert not {"title", "date", "tags", "authors"} & set(state) and "abstract" in state


@pytest.mark.parametrize(("args", "expected"), [
    (["--doi", "2407.13168"], "2407.13168: error[E1055]: 2407.13168 is an arXiv id, not a DOI\n"
                              "  hint: use --arxiv 2407.13168"),
    (["--arxiv", "10.1145/3637866"], "10.1145/3637866: error[E1055]: 10.1145/3637866 is a DOI, not an arXiv id"),
    (["--arxiv", "2407.1316"], "2407.1316: error[E1021]: arXiv ids of 2024-07 have 5 digits after the dot"),
    (["--arxiv", "2507.99999"], "2507.99999: error[E1050]: arXiv has no paper 2507.99999"),
])
def test_new_refuses_what_names_no_paper(site: Path, args: list[str], expected: str) -> None:
    result = sitegen(site, *args, command="new")
    assert result.exit_code == 1 and expected in result.stderr and "Traceback" not in result.output
    assert content(site) == {}


def test_new_needs_a_title_or_an_id(site: Path) -> None:
    result = sitegen(site, command="new")
    assert result.exit_code == 2 and "give the paper's TITLE, or --arxiv, --doi or --url" in result.output


@pytest.mark.parametrize(("args", "expected"), [
    (["2507.1441"], "2507.1441: error[E1021]: arXiv ids of 2025-07 have 5 digits after the dot (from January 2015 "
                    "on)\n  hint: arXiv ids look like 2507.14417 (YYMM.NNNNN, optionally v2)"),
    (["2407.13168", "arXiv:2513.14417"], "arXiv:2513.14417: error[E1021]: '13' is not a month"),
    (["https://arxiv.org/list/cs.LG"], "https://arxiv.org/list/cs.LG: error[E1025]: this URL is not a paper's page"),
    (["10.1145"], "10.1145: error[E1022]: '10.1145' is not a DOI\n  hint: a DOI is 10.<digits>/<suffix>"),
    (["https://example.org/paper"], "https://example.org/paper: error[E1020]: sitegen does not know papers at "
                                    "'example.org'"),
    (["2407.13168", "--hf-daily", "2026-02-30"], "2026-02-30: error[E1024]: 2026-02-30 is not a date"),
])
def test_a_malformed_id_is_an_error_before_anything_is_asked(site: Path, replay: ReplayServer, args: list[str],
                                                             expected: str) -> None:
    result = sitegen(site, *args)
    assert result.exit_code == 1, result.output
    assert expected in result.stderr and result.stderr.rstrip().endswith(FAILED)
    assert replay.seen == [] and content(site) == {}


def test_a_broken_bib_file_imports_nothing(site: Path, replay: ReplayServer) -> None:
    (site / "refs.bib").write_text("@misc{ok, title = {Fine}, eprint = {2407.13168}}\n\n@misc{broken,\n"
                                   "  title = {Unclosed\n", encoding="utf-8")
    result = sitegen(site, str(site / "refs.bib"))
    assert result.exit_code == 1 and "refs.bib:3: error[E1031]: this block cannot be read" in result.stderr
    assert replay.seen == [] and content(site) == {}


@pytest.mark.parametrize(("args", "expected"), [
    (["2407.13168", "2507.99999"], "2507.99999: error[E1050]: arXiv has no paper 2507.99999\n  hint: check the id at "
                                   "https://arxiv.org/abs/2507.99999"),
    (["10.1145/0000000"], "10.1145/0000000: error[E1051]: Semantic Scholar knows no paper with the DOI "
                          "10.1145/0000000\n  hint: check it at https://doi.org/10.1145/0000000"),
])
def test_an_unknown_paper_is_an_error_and_nothing_is_written(site: Path, replay: ReplayServer, args: list[str],
                                                             expected: str) -> None:
    # arXiv answers a list of ids with the papers it knows, leaving the others out (id_0808.05394_1707.08567.xml)
    replay.add("/api/query", Reply.fixture("arxiv/id_2407.13168_scicode.xml"),
               query={"id_list": "2407.13168,2507.99999", "start": "0", "max_results": "2"})
    replay.add("/graph/v1/paper/batch", Reply.json([None]), query={"fields": FIELDS})  # null: a DOI it does not know
    result = sitegen(site, *args)
    assert result.exit_code == 1, result.output
    assert expected in result.stderr and result.stderr.rstrip().endswith(FAILED)
    assert content(site) == {}  # not even the answers: an import writes all of it or nothing


@pytest.mark.parametrize(("variable", "args", "code"), [
    ("SITEGEN_ARXIV_API", ["2407.13168"], "E1000"),
    ("SITEGEN_S2_API", ["10.1145/3637866"], "E1000"),
    ("SITEGEN_HF_API", ["--hf-daily", "2026-03-06"], "E1000"),
])
def test_a_source_that_cannot_be_reached_writes_nothing(site: Path, monkeypatch: pytest.MonkeyPatch, variable: str,
                                                        args: list[str], code: str) -> None:
    monkeypatch.setenv(variable, "http://127.0.0.1:9/api")  # the discard port: nothing listens there
    result = sitegen(site, *args)
    assert result.exit_code == 1, result.output
    assert f".: error[{code}]: could not reach 127.0.0.1:9: connection refused; nothing was " \
           "imported" in result.stderr
    assert "Traceback" not in result.output and content(site) == {}


def test_a_write_that_fails_leaves_everything_as_it_was(site: Path) -> None:
    papers = site / "content" / "papers"
    papers.rmdir()
    papers.write_text("not a folder\n", encoding="utf-8")
    before = content(site)
    result = sitegen(site, "2407.13168")
    assert result.exit_code == 1, result.output
    assert "content/papers: error[E1054]: cannot write: Not a directory; nothing under content/ was changed" \
        in result.stderr
    assert content(site) == before  # the answers of content/lookups/ were not written either


def test_hugging_face_out_of_reach_costs_only_its_links(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITEGEN_HF_API", "http://127.0.0.1:9/api")
    result = sitegen(site, "2407.13168")
    assert result.exit_code == 0, result.output
    assert ".: warning[W1058]: Hugging Face was not asked further: could not reach 127.0.0.1:9" in result.stderr
    fields = meta(site / "content" / "papers" / SCICODE_FILE)
    assert fields["authors"] == SCICODE_AUTHORS and "hf" not in fields["links"]


def test_dump_files_and_ids_are_imported_in_separate_runs(site: Path, replay: ReplayServer) -> None:
    dump = site / "dump.txt"
    dump.write_text("Daily Papers\n", encoding="utf-8")
    result = sitegen(site, str(dump), "2407.13168")
    assert result.exit_code == 2 and "import dump files and papers named by id" in result.output
    missing = sitegen(site, "no-such-dump.txt")
    assert missing.exit_code == 2 and "Path 'no-such-dump.txt' does not exist" in missing.output
    long = sitegen(site, "x" * 5000 + ".txt")  # too long a name for the file system: no traceback either
    assert long.exit_code == 2 and "Path 'xxxxxxxx" in long.output and "Traceback" not in long.output
    assert replay.seen == []


def test_the_built_site_links_the_imported_papers(site: Path) -> None:
    for args in (["2407.13168"], ["--hf-daily", "2026-03-06"]):
        result = sitegen(site, *args)
        assert result.exit_code == 0, result.output
    build(site, search=False)
    scicode = read_html(site / "public" / "papers" / SCICODE_FILE.removesuffix(".md") / "index.html")
    hrefs = [a.get("href") for a in scicode.iter("a")]
    assert "https://arxiv.org/abs/2407.13168" in hrefs and "https://huggingface.co/papers/2407.13168" in hrefs
    metas = [(m.get("name"), m.get("content")) for m in scicode.iter("meta")]
    assert [c for n, c in metas if n == "citation_author"] == SCICODE_AUTHORS
    circle = read_html(site / "public" / "papers" / CIRCLE_FILE.removesuffix(".md") / "index.html")
    hrefs = [a.get("href") for a in circle.iter("a")]
    assert "https://github.com/marco-garosi/CIRCLE" in hrefs and "https://circle-lmm.github.io/" in hrefs
    index = (site / "public" / "index.html").read_text(encoding="utf-8")
    assert 'href="papers/scicode-a-research-coding-benchmark-curated-by-scientists/"' in index


def test_an_unquoted_arxiv_id_finds_its_entry_and_is_written_back_quoted(site: Path) -> None:
    entry = site / "content" / "papers" / "scicode.md"
    entry.write_text("---\ntitle: SciCode\narxiv: 2407.13168\nmine: kept as written\n---\nMy notes.\n",
                     encoding="utf-8")
    result = sitegen(site, "2407.13168")
    assert result.exit_code == 0, result.output
    assert "0 new, 1 merged, 0 unchanged" in result.stdout
    text = entry.read_text(encoding="utf-8")
    assert "arxiv: '2407.13168'\n" in text and "mine: kept as written\n" in text and text.endswith("My notes.\n")
    assert meta(entry)["authors"] == SCICODE_AUTHORS


def test_match_tags_imports_only_the_listed_papers_the_tag_map_tags(site: Path, replay: ReplayServer) -> None:
    listing = json.loads((FIXTURES / "hf" / "daily_papers_2026-03-06.json").read_text())
    other = json.loads(json.dumps(listing[0]))  # the recorded shape, about another subject
    other["paper"].update(id="2603.00001", title="Surface codes for neutral atoms",
                          summary="We decode surface codes on neutral-atom arrays.", ai_keywords=["quantum"])
    other["title"], other["summary"] = other["paper"]["title"], other["paper"]["summary"]
    replay.add("/api/daily_papers", Reply.json([*listing, other]),
               query={"date": "2026-03-06", "p": "0", "limit": "100"})
    result = sitegen(site, "--hf-daily", "2026-03-06", "--match-tags")
    assert result.exit_code == 0, result.output
    assert "1 new, 0 merged, 0 unchanged; 1 listed paper(s) matched no tag and were left out" in result.stdout
    assert sorted(p.name for p in (site / "content" / "papers").glob("*.md")) == [CIRCLE_FILE]
    assert "GET /api/query id_list=2603.00001" not in asked(replay)  # nothing asked about a paper left out


def test_match_tags_needs_a_listing(site: Path) -> None:
    result = sitegen(site, "2407.13168", "--match-tags")
    assert result.exit_code == 2 and "--match-tags chooses among the papers of --hf-daily listings" in result.output
