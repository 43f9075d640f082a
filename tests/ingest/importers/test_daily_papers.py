"""The Hugging Face Daily Papers listing parser, on the two committed listings and on variants."""

from __future__ import annotations

import datetime as dt

import pytest

from sitegen.ingest.importers import DumpError, ParsedDump, RawPaper, daily_papers, parse_dump
from sitegen.ingest.importers.merge import title_key

from .conftest import DUMPS, LISTING_A, LISTING_B, parse_committed


def _paper(dump: ParsedDump, prefix: str) -> RawPaper:
    (found,) = [p for p in dump.papers if p.title.startswith(prefix)]
    return found


def test_both_listings_are_detected_and_counted() -> None:
    a, b = parse_committed(LISTING_A), parse_committed(LISTING_B)
    assert (a.format, b.format) == ("hf-daily-papers", "hf-daily-papers")
    assert (len(a.papers), len(b.papers)) == (49, 56)
    assert a.problems == () and b.problems == ()
    assert a.header == {"listing_date": "Apr 17"} and b.header == {"listing_date": "May 19"}
    assert len({title_key(p.title) for p in a.papers} & {title_key(p.title) for p in b.papers}) == 8


def test_listing_papers_have_no_author_names_or_category() -> None:
    for dump in (parse_committed(LISTING_A), parse_committed(LISTING_B)):
        for paper in dump.papers:
            assert paper.authors == () and paper.category is None and paper.score is None
            assert paper.title and paper.abstract
            assert paper.title == paper.title.strip() and "  " not in paper.title


def test_tpla_unescapes_ampersand_and_reads_its_meta_block() -> None:
    tpla = _paper(parse_committed(LISTING_A), "TPLA:")
    assert tpla.title == "TPLA: Tensor Parallel Latent Attention for Efficient Disaggregated Prefill & Decode Inference"
    assert "\\&" not in tpla.title
    assert tpla.author_count == 7 and tpla.organization is None
    assert tpla.date == dt.date(2025, 8, 21) and tpla.date_has_year
    assert tpla.upvotes == 2
    assert tpla.line == 13


def test_meta_block_without_upvotes() -> None:
    easyspec = _paper(parse_committed(LISTING_A), "EasySpec:")
    assert (easyspec.author_count, easyspec.date, easyspec.upvotes) == (3, dt.date(2025, 2, 4), None)


def test_organization_entry() -> None:
    bench = _paper(parse_committed(LISTING_B), "ParallelBench:")
    assert bench.organization == "FuriosaAI" and bench.organization_id == "furiosa-ai"
    assert bench.author_count is None
    assert bench.date == dt.date(2025, 10, 6) and bench.upvotes == 2
    assert bench.line == 257


def test_entry_without_a_meta_block() -> None:
    dump = parse_committed(LISTING_A)
    batch = _paper(dump, "Batch Speculative Decoding Done Right")
    assert batch.date is None and batch.author_count is None and batch.upvotes is None
    assert batch.organization is None
    assert batch.abstract.endswith("https://github.com/eBay/spec_dec.")
    following = dump.papers[dump.papers.index(batch) + 1]
    assert following.title.startswith("TensorBLEU")  # the next title directly after the abstract


def test_year_less_date_with_upvotes() -> None:
    statesmix = _paper(parse_committed(LISTING_B), "StateSMix:")
    assert statesmix.date == dt.date(2026, 4, 4) and not statesmix.date_has_year
    assert statesmix.upvotes == 2 and statesmix.author_count == 1


def test_year_less_date_later_than_the_capture_goes_to_the_year_before() -> None:
    statesmix = _paper(parse_committed(LISTING_B, dt.date(2026, 4, 1)), "StateSMix:")
    assert statesmix.date == dt.date(2025, 4, 4)


LISTING = """\
new

Get trending papers in your email inbox!

Subscribe

Daily Papers

byAK and the research community

Mar 2

Alpha: A Title \\& Co

The first abstract, which is long enough to be an abstract.

  • 3 authors
·
Feb 27 5

Beta: No Meta Block

The second abstract, also long enough to read as one.

Gamma <b>bold</b> "quoted" ../../etc

The third abstract, with <script>alert(1)</script> in it.

org-id Some Org Name
·
Jan 2, 2024
"""


def test_hand_made_listing() -> None:
    dump = parse_dump(LISTING.encode(), "l.txt", dt.date(2026, 3, 2))
    assert dump.problems == ()
    alpha, beta, gamma = dump.papers
    assert (alpha.title, alpha.author_count, alpha.date, alpha.upvotes) == (
        "Alpha: A Title & Co", 3, dt.date(2026, 2, 27), 5)
    assert (beta.title, beta.date, beta.line) == ("Beta: No Meta Block", None, 21)
    assert gamma.title == 'Gamma <b>bold</b> "quoted" ../../etc'
    assert gamma.abstract == "The third abstract, with <script>alert(1)</script> in it."
    assert (gamma.organization, gamma.organization_id, gamma.date) == ("Some Org Name", "org-id", dt.date(2024, 1, 2))


@pytest.mark.parametrize(("old", "new", "code", "line"), [
    ("Beta: No Meta Block\n", "Beta: No Meta\nBlock\n", "E320", 21),  # a title over two lines
    ("Feb 27 5\n", "Feb 30 5\n", "E313", 19),  # an impossible date
    ("Feb 27 5\n", "last week\n", "E322", 19),  # an unreadable date line
    ("  • 3 authors\n·\n", "  • 3 authors\n\n·\n", "E324", 17),  # the meta block split by a blank line
])
def test_unreadable_entry_is_reported_and_the_rest_kept(old: str, new: str, code: str, line: int) -> None:
    dump = parse_dump(LISTING.replace(old, new).encode(), "l.txt", dt.date(2026, 3, 2))
    assert [(d.code, d.location.line) for d in dump.problems] == [(code, line)]
    assert str(dump.problems[0].location) == f"l.txt:{line}"
    good = {p.title for p in parse_dump(LISTING.encode(), "l.txt", dt.date(2026, 3, 2)).papers}
    titles = {p.title for p in dump.papers}
    assert len(titles) == 2 and titles < good  # one paper lost, nothing misread as a paper


def test_a_title_over_two_lines_in_a_committed_listing_loses_only_that_paper() -> None:
    text = (DUMPS / LISTING_A).read_text(encoding="utf-8")
    broken = text.replace("Batch Speculative Decoding Done Right\n", "Batch Speculative Decoding\nDone Right\n")
    dump = parse_dump(broken.encode(), "l.txt", dt.date(2026, 4, 17))
    assert [d.format().splitlines()[0] for d in dump.problems] == [
        "l.txt:245: error[E320]: expected a one-line paper title, found 2 lines starting 'Batch Speculative Decoding'"]
    assert {p.title for p in dump.papers} == {p.title for p in parse_committed(LISTING_A).papers} - {
        "Batch Speculative Decoding Done Right"}


@pytest.mark.parametrize(("marker", "code", "kept"), [
    ("Multi-Head Latent Attention (MLA), introduced", "E323", 0),  # inside the first abstract
    ("  • 7 authors\n", "E324", 0),  # inside the first meta block
    ("  • 7 authors\n·\n", "E324", 0),
    ("EasySpec: Layer-Parallel Speculative Decoding", "E321", 1),  # inside the second title
    ("EasySpec breaks the sequential execution order", "E323", 1),  # inside the second abstract
])
def test_truncated_listing(marker: str, code: str, kept: int) -> None:
    data = (DUMPS / LISTING_A).read_bytes()
    cut = data.index(marker.encode()) + len(marker)
    dump = parse_dump(data[:cut], "cut.txt", dt.date(2026, 4, 17))
    assert [d.code for d in dump.problems] == [code]
    assert dump.problems[0].location.path == "cut.txt" and dump.problems[0].location.line > 0
    assert [p.title for p in dump.papers] == [p.title for p in parse_committed(LISTING_A).papers][:kept]
    if kept:  # the paper before the cut is whole: meta block and all
        assert dump.papers[0].upvotes == 2 and dump.papers[0].author_count == 7


def test_truncated_listing_keeps_the_complete_papers() -> None:
    data = (DUMPS / LISTING_B).read_bytes()
    cut = len(data) // 2
    dump = parse_dump(data[:cut], "cut.txt", dt.date(2026, 5, 19))
    assert [d.severity for d in dump.problems] == ["error"]
    full = {p.title: p for p in parse_committed(LISTING_B).papers}
    assert 0 < len(dump.papers) < 56
    for paper in dump.papers:
        assert paper.abstract == full[paper.title].abstract
        assert paper.date == full[paper.title].date


def test_last_paper_without_meta_block_is_accepted_when_complete() -> None:
    text = LISTING.split("org-id Some Org Name")[0]
    dump = parse_dump(text.encode(), "l.txt", dt.date(2026, 3, 2))
    assert dump.problems == () and len(dump.papers) == 3 and dump.papers[-1].date is None


def test_detection_needs_the_daily_papers_header() -> None:
    assert daily_papers.looks_like(LISTING.split("\n"))
    with pytest.raises(DumpError) as caught:
        parse_dump(LISTING.replace("Daily Papers", "Weekly Papers").encode(), "l.txt", dt.date(2026, 1, 1))
    assert caught.value.diagnostic.code == "E300"
    assert str(caught.value.diagnostic.location) == "l.txt:1"
