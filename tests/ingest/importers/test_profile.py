"""The author-profile dump parser, on the two committed profiles and on hand-made variants."""

from __future__ import annotations

import datetime as dt

import pytest

from sitegen.ingest.importers import DumpError, ParsedDump, RawPaper, parse_dump, profile
from sitegen.ingest.importers.merge import title_key

from .conftest import DUMPS, PROFILE_A, PROFILE_B, parse_committed

VTC = "VTC: DNN Compilation with Virtual Tensors for Data Movement Elimination"


def _paper(dump: ParsedDump, prefix: str) -> RawPaper:
    (found,) = [p for p in dump.papers if p.title.startswith(prefix)]
    return found


def test_both_profiles_are_detected_and_counted() -> None:
    a, b = parse_committed(PROFILE_A), parse_committed(PROFILE_B)
    assert (a.format, b.format) == ("author-profile", "author-profile")
    assert (len(a.papers), len(b.papers)) == (6, 4)
    assert a.problems == () and b.problems == ()
    shared = {title_key(p.title) for p in a.papers} & {title_key(p.title) for p in b.papers}
    assert shared == {title_key(VTC)}


def test_profile_headers() -> None:
    assert parse_committed(PROFILE_A).header == {
        "name": "Ahan Gupta", "category": "cs.LG", "h_index": 12, "papers": 6,
        "citations": 18, "novelty_percent": 67, "ai_score": 55,
    }
    assert parse_committed(PROFILE_B).header == {
        "name": "Vima Gupta", "category": "cs.LG", "h_index": 3, "papers": 4,
        "citations": 12, "novelty_percent": 54, "ai_score": 41,
    }


def test_vtc_in_both_profiles() -> None:
    for name in (PROFILE_A, PROFILE_B):
        vtc = _paper(parse_committed(name), "VTC:")
        assert vtc.title == VTC
        assert vtc.date == dt.date(2026, 2, 11) and not vtc.date_has_year
        assert vtc.category == "cs.DC"
        assert vtc.authors == ("Muyan Hu", "Ahan Gupta", "Jiachen Yuan")
        assert vtc.authors_truncated is True
        assert vtc.score is None and not vtc.has_code
        assert vtc.line == 12
        assert vtc.abstract.startswith("With the widening gap between compute and memory")
        assert vtc.abstract.endswith("inference memory savings.")


def test_megafold_has_code_and_a_biology_category() -> None:
    megafold = _paper(parse_committed(PROFILE_A), "MegaFold:")
    assert megafold.has_code
    assert megafold.category == "q-bio.BM"
    assert megafold.date == dt.date(2025, 6, 24) and megafold.date_has_year


def test_autosp_score() -> None:
    autosp = _paper(parse_committed(PROFILE_A), "AutoSP:")
    assert autosp.score == 69.4
    assert autosp.category == "cs.LG"
    assert autosp.date == dt.date(2026, 4, 29)
    assert "$\\times$" in autosp.abstract  # LaTeX math is kept for the renderer


def test_authors_without_et_al() -> None:
    paper = _paper(parse_committed(PROFILE_B), "Understanding the Countably Infinite")
    assert paper.authors == ("Vima Gupta", "Sashank Varma")
    assert paper.authors_truncated is False


@pytest.mark.parametrize(("captured", "expected"), [
    (dt.date(2026, 5, 19), dt.date(2026, 2, 18)),
    (dt.date(2026, 2, 18), dt.date(2026, 2, 18)),  # the capture day itself is still this year
    (dt.date(2026, 2, 17), dt.date(2025, 2, 18)),  # later than the capture: the year before
    (dt.date(2026, 1, 5), dt.date(2025, 2, 18)),
])
def test_year_less_date_resolves_against_the_capture(captured: dt.date, expected: dt.date) -> None:
    chai = _paper(parse_committed(PROFILE_B, captured), "CHAI:")
    assert chai.date == expected


def test_dates_with_a_year_ignore_the_capture() -> None:
    lynx = _paper(parse_committed(PROFILE_B, dt.date(2020, 1, 1)), "Lynx:")
    assert lynx.date == dt.date(2024, 11, 13)


PROFILE = """\
Jane Doe

DC
h-index4
2papers
9citations
Novelty50%
AI Score12.5

2 Papers

12.5DCMar 3, 2025Code
First Paper: Fast Things

Jane Doe, John Roe

We make things fast. Code is at https://github.com/jane/fast.

LGJan 9
Second Paper \\& More

Jane Doe et al.

We make other things slower.
"""


def test_hand_made_profile() -> None:
    dump = parse_dump(PROFILE.encode(), "p.txt", dt.date(2026, 2, 1))
    assert dump.problems == ()
    assert dump.header == {"name": "Jane Doe", "category": "cs.DC", "h_index": 4, "papers": 2,
                           "citations": 9, "novelty_percent": 50, "ai_score": 12.5}
    first, second = dump.papers
    assert (first.title, first.score, first.has_code) == ("First Paper: Fast Things", 12.5, True)
    assert first.category == "cs.DC"
    assert first.authors == ("Jane Doe", "John Roe") and first.authors_truncated is False
    assert second.title == "Second Paper & More"
    assert second.date == dt.date(2026, 1, 9)
    assert second.authors == ("Jane Doe",) and second.authors_truncated is True


def test_unknown_category_code_is_a_warning_and_left_out() -> None:
    dump = parse_dump(PROFILE.replace("LGJan 9", "ZZJan 9").encode(), "p.txt", dt.date(2026, 1, 1))
    assert len(dump.papers) == 2 and dump.papers[1].category is None
    assert [(d.severity, d.code, d.location.line) for d in dump.problems] == [("warning", "W314", 19)]


def test_unreadable_entry_is_reported_once_and_the_rest_kept() -> None:
    text = PROFILE.replace("12.5DCMar 3, 2025Code", "12.5DC sometime in March")
    dump = parse_dump(text.encode(), "p.txt", dt.date(2026, 1, 1))
    assert [p.title for p in dump.papers] == ["Second Paper & More"]
    assert [d.format().splitlines()[0] for d in dump.problems] == [
        "p.txt:12: error[E310]: expected a paper's meta line like 'DCFeb 11', found '12.5DC sometime in March'"]


def test_impossible_date_is_reported() -> None:
    dump = parse_dump(PROFILE.replace("LGJan 9", "LGFeb 30").encode(), "p.txt", dt.date(2026, 1, 1))
    assert [p.title for p in dump.papers] == ["First Paper: Fast Things"]
    assert [(d.code, d.location.line, d.message) for d in dump.problems] == [("E313", 19, "impossible date Feb 30")]


@pytest.mark.parametrize(("marker", "code", "line"), [
    ("LGAug 18, 2025Code\n", "E312", None),  # cut right after a meta line
    ("Hoa La, Ahan Gupta, Alex Morehead et al.\n", "E312", None),  # after the author line
    ("(LLMs) demonstrate enormous utility in long-context tasks", "E315", 47),  # inside the last abstract
    ("come at a steep system cost", "E315", 33),  # inside an earlier abstract
    ("Supercomputing-System-AI-Lab/MegaFold/.", "E311", 10),  # between two papers: the count is short
])
def test_truncated_profile(marker: str, code: str, line: int | None) -> None:
    data = (DUMPS / PROFILE_A).read_bytes()
    cut = data.index(marker.encode()) + len(marker)
    dump = parse_dump(data[:cut], "cut.txt", dt.date(2026, 5, 19))
    errors = [d for d in dump.problems if d.severity == "error"]
    assert [d.code for d in errors] == [code]
    if line is not None:
        assert errors[0].location.line == line
    assert len(dump.papers) < 6
    full = {p.title: p for p in parse_committed(PROFILE_A).papers}
    for paper in dump.papers:  # what is kept is whole: never a cut abstract
        assert paper.abstract == full[paper.title].abstract


def test_detection_needs_the_h_index_line() -> None:
    lines = PROFILE.split("\n")
    assert profile.looks_like(lines)
    with pytest.raises(DumpError) as caught:
        parse_dump(PROFILE.replace("h-index4", "hindex 4").encode(), "p.txt", dt.date(2026, 1, 1))
    assert caught.value.diagnostic.code == "E300"


def test_count_check_still_runs_next_to_warnings() -> None:
    text = PROFILE.replace("12.5DCMar 3, 2025Code", "12.5ZZMar 3, 2025Code").replace("2 Papers", "3 Papers")
    dump = parse_dump(text.encode(), "p.txt", dt.date(2026, 2, 1))
    assert [(d.code, d.location.line) for d in dump.problems] == [("W314", 12), ("E311", 10)]
    assert len(dump.papers) == 2
