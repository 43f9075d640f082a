"""Withdrawn arXiv papers: marked `withdrawn: true`, and a withdrawal notice never taken for the abstract.

arXiv says a paper is withdrawn in its comment ("This paper has been withdrawn by the author
due to …"); older withdrawals also replaced the abstract with that notice. `sitegen import`
and `sitegen enrich` both read it the same way, against the replay server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sitegen.cli import main
from sitegen.content.frontmatter import parse
from sitegen.ingest.enrich.arxiv import parse_feed
from sitegen.pipeline.build import build
from tests.html_tools import by_class, read_html, text_of
from tests.ingest.enrich.replay import FIXTURES, ReplayServer, Reply

WITHDRAWN = "arxiv/id_2601.07131_withdrawn.xml"  # the comment says so; the abstract kept
NOTICE = "arxiv/id_2601.07131_notice.xml"  # the older shape: the notice in place of the abstract too
TITLE = "The Limits of Complexity: Why Feature Engineering Beats Deep Learning in Investor Flow Prediction"
FILE = "the-limits-of-complexity-why-feature-engineering-beats-deep.md"
COMMENT = ("This paper has been withdrawn by the author due to an implementation error that resulted in look-ahead "
           "bias (data leakage)")
ABSTRACT_START = "The application of machine learning to financial prediction"
HAND_ABSTRACT = "We ask whether deep learning beats feature engineering on Korean investor flows; it does not."
NOTES = "Read it for the ablations, then the withdrawal.\n"


def _feed(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def test_arxivs_comment_marks_a_paper_withdrawn_and_keeps_its_real_abstract() -> None:
    [record] = parse_feed(_feed(WITHDRAWN))
    assert record.withdrawn is True
    assert record.abstract.startswith(ABSTRACT_START)


def test_a_withdrawal_notice_in_place_of_the_abstract_is_no_abstract() -> None:
    [record] = parse_feed(_feed(NOTICE))
    assert record.withdrawn is True and record.abstract == ""
    only_summary = _feed(NOTICE).replace(f"<arxiv:comment>{COMMENT}</arxiv:comment>", "")
    [record] = parse_feed(only_summary)
    assert record.withdrawn is True and record.abstract == ""


@pytest.mark.parametrize("comment", [
    COMMENT, "Withdrawn", "withdrawn.", "Withdrawn: error in the proof of Lemma 3", "This paper has been withdrawn",
    "This submission has been withdrawn by the authors", "Paper withdrawn", "withdrawn by the authors",
    "12 pages; withdrawn due to an error in Lemma 3", "arXiv admin note: this paper has been withdrawn by arXiv",
    "This article was withdrawn because of a crucial error", "The authors have withdrawn this paper",
])
def test_withdrawal_comments_are_read_as_withdrawals(comment: str) -> None:
    [record] = parse_feed(_feed(WITHDRAWN).replace(COMMENT, comment))
    assert record.withdrawn is True


@pytest.mark.parametrize("comment", [
    "12 pages, 5 figures", "v2: supersedes the withdrawn arXiv:1901.00001",
    "Withdrawn arXiv:1901.00001 is superseded by this paper",
    "This manuscript supersedes arXiv:2510.26642, which has been withdrawn with the agreement of all its authors",
    "Discusses drugs withdrawn from the market", "",
])
def test_a_comment_that_only_mentions_a_withdrawal_is_not_one(comment: str) -> None:
    [record] = parse_feed(_feed(WITHDRAWN).replace(COMMENT, comment))
    assert record.withdrawn is False and record.abstract.startswith(ABSTRACT_START)


@pytest.fixture
def site(tmp_path: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty list whose arXiv answers with the withdrawn paper; Hugging Face does not know it."""
    monkeypatch.setenv("SITEGEN_HF_API", f"{replay.url}/api")
    monkeypatch.setenv("SITEGEN_ARXIV_API", f"{replay.url}/api/query")
    monkeypatch.setenv("SITEGEN_S2_API", f"{replay.url}/graph/v1")
    replay.add("/api/papers/2601.07131", Reply.json({"error": "Paper not found"}, status=404))
    replay.add("/api/papers/search", Reply.json([]))
    root = tmp_path / "site"
    (root / "content" / "papers").mkdir(parents=True)
    (root / "site.yaml").write_text("title: Test list\nbase_url: https://example.org/\n", encoding="utf-8")
    return root


def sitegen(root: Path, command: str, *args: str) -> Result:
    return CliRunner().invoke(main, [command, "--root", str(root), "--delay", "0", *args])


def meta(path: Path) -> dict[str, Any]:
    return parse(path.read_text(encoding="utf-8"), path.name).meta


def test_import_marks_a_withdrawn_paper_and_stores_no_notice(site: Path, replay: ReplayServer) -> None:
    replay.add("/api/query", Reply.fixture(NOTICE))
    result = sitegen(site, "import", "2601.07131")
    assert result.exit_code == 0, result.output
    entry = meta(site / "content" / "papers" / FILE)
    assert entry["withdrawn"] is True and entry["arxiv"] == "2601.07131" and entry["title"] == TITLE
    assert "abstract" not in entry


def test_a_reimport_keeps_the_last_real_abstract_and_the_hand_edits(site: Path, replay: ReplayServer) -> None:
    replay.add("/api/query", Reply.fixture(WITHDRAWN), Reply.fixture(NOTICE))  # then the notice replaces it
    assert sitegen(site, "import", "2601.07131").exit_code == 0
    path = site / "content" / "papers" / FILE
    first = meta(path)
    assert first["withdrawn"] is True and first["abstract"].startswith(ABSTRACT_START)
    text = path.read_text(encoding="utf-8").replace("status: to-read\n", "")
    path.write_text(text.replace("---\n", "---\nstatus: read\nrating: 2\n", 1) + NOTES, encoding="utf-8")
    result = sitegen(site, "import", "--update", "2601.07131")
    assert result.exit_code == 0, result.output
    doc = parse(path.read_text(encoding="utf-8"), FILE)
    assert doc.meta["abstract"] == first["abstract"] and doc.meta["withdrawn"] is True
    assert doc.meta["status"] == "read" and doc.meta["rating"] == 2 and doc.body.endswith(NOTES)


def test_enrich_marks_a_withdrawn_paper_and_keeps_the_entrys_abstract(site: Path, replay: ReplayServer) -> None:
    replay.add("/api/query", Reply.fixture(NOTICE))
    path = site / "content" / "papers" / "flows.md"
    path.write_text(f"---\ntitle: '{TITLE}'\nauthors: [Sungwoo Kang]\ndate: 2026-01-12\n"
                    f"abstract: {HAND_ABSTRACT}\n---\n{NOTES}", encoding="utf-8")
    result = sitegen(site, "enrich", "--sources", "arxiv")
    assert result.exit_code == 0, result.output
    doc = parse(path.read_text(encoding="utf-8"), "flows.md")
    assert doc.meta["arxiv"] == "2601.07131" and doc.meta["withdrawn"] is True
    assert doc.meta["abstract"] == HAND_ABSTRACT and doc.body == NOTES


def test_the_paper_page_says_it_was_withdrawn(site: Path, replay: ReplayServer) -> None:
    replay.add("/api/query", Reply.fixture(NOTICE))
    assert sitegen(site, "import", "2601.07131").exit_code == 0
    build(site, search=False)
    page = read_html(site / "public" / "papers" / FILE.removesuffix(".md") / "index.html")
    header = next(by_class(page, "paper-header"))
    notice = next(by_class(header, "withdrawn-notice"))
    assert text_of(notice).startswith("Withdrawn")
    assert "withdrawn" not in text_of(next(by_class(page, "paper-main"))).lower()  # no notice as an abstract
