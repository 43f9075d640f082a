"""`parse_dump` as a whole: format detection, robustness on any input, and generated dumps round-tripping."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from sitegen.ingest.importers import ONLY_TAGS, DumpError, ParsedDump, parse_dump
from sitegen.ingest.importers.common import MONTHS

from .conftest import CAPTURED, DUMPS, parse_committed


@pytest.mark.parametrize(("name", "fmt", "count"), [
    ("000_5ba3278e7bf0573b.txt", "author-profile", 6), ("001_1c5307dff05a53f9.txt", "author-profile", 4),
    ("002_fadf736e7f95309e.txt", "hf-daily-papers", 49), ("003_bb22b9fa9b819595.txt", "hf-daily-papers", 56),
])
def test_golden_counts(name: str, fmt: str, count: int) -> None:
    dump = parse_committed(name)
    assert (dump.format, len(dump.papers), dump.problems) == (fmt, count, ())
    assert dump.path == f"content/dumps/{name}" and dump.captured == CAPTURED[name]


@pytest.mark.parametrize(("data", "code"), [
    (b"", "E301"), (b"\n\r\n \t", "E301"), (b"\x00\x00\x00", "E302"), (b"Daily Papers\n\xff\xfe", "E303"),
    (b"%PDF-1.7\n1 0 obj\n", "E300"), (b"\xef\xbb\xbf", "E300"),
])
def test_unreadable_input(data: bytes, code: str) -> None:
    with pytest.raises(DumpError) as caught:
        parse_dump(data, "d.txt", dt.date(2026, 1, 1))
    assert caught.value.diagnostic.code == code and caught.value.diagnostic.location.path == "d.txt"


def _check_outcome(data: bytes, captured: dt.date) -> None:
    try:
        dump = parse_dump(data, "d.txt", captured)
    except DumpError as exc:
        assert exc.diagnostic.location.path == "d.txt" and exc.diagnostic.severity == "error"
        return
    assert isinstance(dump, ParsedDump)
    last_line = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1
    for problem in dump.problems:
        assert problem.location.path == "d.txt" and 1 <= problem.location.line <= last_line
    for paper in dump.papers:
        assert paper.title and paper.title == paper.title.strip()
        assert 1 <= paper.line <= last_line


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000), st.dates())
def test_arbitrary_bytes_never_crash(data: bytes, captured: dt.date) -> None:
    _check_outcome(data, captured)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=2000), st.dates())
def test_arbitrary_text_never_crashes(text: str, captured: dt.date) -> None:
    _check_outcome(text.encode("utf-8"), captured)


PIECES = st.sampled_from([
    "", " ", "Daily Papers", "h-index3", "6 Papers", "2 Papers", "DCFeb 11", "69.4LGApr 29", "BMJun 24, 2025Code",
    "XXFeb 30", "LGFeb 29", "Some Title", "A, B et al.", "An abstract that ends.", "An abstract that stops",
    "  • 7 authors", "·", "Aug 21, 2025 2", "Apr 4 2", "Feb 29", "furiosa-ai FuriosaAI", "Feb 0", "May 19",
    "Dec 99, 0000 3", "cs.Feb 1", "Jan 1, 9999", "Feb 29, 2023", "Novelty67%", "AI Score5.5", "\ufeff", "\t",
])


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(PIECES, max_size=40), st.sampled_from(["\n", "\r\n", "\r"]), st.dates())
def test_dump_like_text_never_crashes(lines: list[str], newline: str, captured: dt.date) -> None:
    _check_outcome(newline.join(lines).encode("utf-8"), captured)


# -- generated well-formed dumps ------------------------------------------------------------------

WORD = st.sampled_from(["Fast", "GPU", "kernels", "for", "LLM", "Serving", "MoE", "x2", "Łukasz", "Straße", "Жар",
                        "論文", "FlashAttention-3", "O(n)", "$\\times$", "1.5x", "e.g.", "A100", "et", "al", "7B", "é"])
TITLE_WORD = st.one_of(WORD, st.sampled_from(["\\&", "&", "-", ":", "<b>", "'q'", '"q"', "../", "(x)", "—"]),
                       st.text(st.sampled_from("abcXYZ019éЖ"), min_size=1, max_size=6))
TITLES = st.lists(TITLE_WORD, min_size=1, max_size=8).map(" ".join).filter(
    lambda t: not re.match(rf"^({'|'.join(MONTHS)}) \d", t) and not ONLY_TAGS.fullmatch(t))  # '<b>' is no title
ABSTRACTS = st.lists(WORD, min_size=8, max_size=20).map(lambda ws: " ".join(ws) + ".")
CATEGORIES = {"DC": "cs.DC", "LG": "cs.LG", "CV": "cs.CV", "BM": "q-bio.BM", "PL": "cs.PL", "ML": "stat.ML"}


@dataclass
class Made:
    title: str
    abstract: str
    date: dt.date | None
    with_year: bool = True
    authors: tuple[str, ...] = ()
    truncated: bool = False
    category: str = "DC"
    score: int | None = None  # tenths
    code: bool = False
    count: int | None = None
    organization: tuple[str, str] | None = None
    upvotes: int | None = None


@st.composite
def dates(draw: st.DrawFn, captured: dt.date) -> tuple[dt.date, bool]:
    if draw(st.booleans()):
        return draw(st.dates(dt.date(1990, 1, 1), dt.date(2030, 12, 31))), True
    when = captured - dt.timedelta(days=draw(st.integers(0, 364)))
    assume((when.month, when.day) != (2, 29))
    return when, False


def _date_text(paper: Made) -> str:
    assert paper.date
    text = f"{MONTHS[paper.date.month - 1]} {paper.date.day}"
    return f"{text}, {paper.date.year}" if paper.with_year else text


@st.composite
def profile_papers(draw: st.DrawFn, captured: dt.date) -> Made:
    date, with_year = draw(dates(captured))
    return Made(draw(TITLES), draw(ABSTRACTS), date, with_year,
                authors=tuple(draw(st.lists(st.lists(WORD, min_size=1, max_size=3).map(" ".join), min_size=1,
                                            max_size=4))),
                truncated=draw(st.booleans()), category=draw(st.sampled_from(sorted(CATEGORIES))),
                score=draw(st.one_of(st.none(), st.integers(0, 999))), code=draw(st.booleans()))


def render_profile(papers: list[Made]) -> str:
    lines = ["Jane Doe", "", "LG", "h-index4", f"{len(papers)}papers", "9citations", "Novelty50%", "AI Score12", "",
             f"{len(papers)} Papers", ""]
    for p in papers:
        score = "" if p.score is None else f"{p.score / 10:.1f}"
        lines += [f"{score}{p.category}{_date_text(p)}{'Code' if p.code else ''}", p.title, "",
                  ", ".join(p.authors) + (" et al." if p.truncated else ""), "", p.abstract, ""]
    return "\n".join(lines)


def _longer(abstract: str, title: str) -> str:
    """As on the real pages, an abstract is longer than its title (the listing parser relies on it)."""
    return abstract if len(abstract) > len(title) else "x" * (len(title) - len(abstract)) + " " + abstract


@st.composite
def listing_papers(draw: st.DrawFn, captured: dt.date) -> Made:
    title = draw(TITLES)
    abstract = _longer(draw(ABSTRACTS), title)
    if draw(st.integers(0, 4)) == 0:
        return Made(title, abstract, None)
    date, with_year = draw(dates(captured))
    org = draw(st.one_of(st.none(), st.tuples(st.from_regex(r"[a-z][a-z0-9\-]{0,12}", fullmatch=True),
                                              st.lists(WORD, min_size=1, max_size=3).map(" ".join))))
    return Made(title, abstract, date, with_year, count=None if org else draw(st.integers(1, 500)), organization=org,
                upvotes=draw(st.one_of(st.none(), st.integers(0, 9999))))


def render_listing(papers: list[Made], captured: dt.date) -> str:
    lines = ["new", "", "Get trending papers in your email inbox!", "", "Subscribe", "", "Daily Papers", "",
             "byAK and the research community", "", f"{MONTHS[captured.month - 1]} {captured.day}", ""]
    for p in papers:
        lines += [p.title, "", p.abstract, ""]
        if p.date:
            who = f"  • {p.count} authors" if p.organization is None else " ".join(p.organization)
            date = _date_text(p) + ("" if p.upvotes is None else f" {p.upvotes}")
            lines += [who, "·", date, ""]
    return "\n".join(lines)


def _clean_title(title: str) -> str:
    return " ".join(title.replace("\\&", "&").split())


ENDINGS = st.sampled_from([("\n", False), ("\r\n", False), ("\n", True), ("\r\n", True)])


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.dates(dt.date(2000, 1, 1), dt.date(2030, 12, 31)), ENDINGS, st.booleans())
def test_generated_profile_round_trips(data: st.DataObject, captured: dt.date, ending: tuple[str, bool],
                                       final_newline: bool) -> None:
    papers = data.draw(st.lists(profile_papers(captured), min_size=1, max_size=6))
    newline, bom = ending
    text = render_profile(papers).rstrip("\n") + ("\n" if final_newline else "")
    dump = parse_dump(("\ufeff" if bom else "").encode() + text.replace("\n", newline).encode(), "p.txt", captured)
    assert dump.format == "author-profile" and dump.problems == ()
    assert dump.header["papers"] == len(papers)
    assert len(dump.papers) == len(papers)
    for made, got in zip(papers, dump.papers, strict=True):
        assert got.title == _clean_title(made.title)
        assert got.abstract == " ".join(made.abstract.split())  # dumps carry stray spaces; parsers fold them
        assert (got.date, got.date_has_year) == (made.date, made.with_year)
        assert got.authors == made.authors and got.authors_truncated is made.truncated
        assert got.category == CATEGORIES[made.category]
        assert got.score == (None if made.score is None else float(f"{made.score / 10:.1f}"))
        assert got.has_code is made.code


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.dates(dt.date(2000, 1, 1), dt.date(2030, 12, 31)), ENDINGS, st.booleans())
def test_generated_listing_round_trips(data: st.DataObject, captured: dt.date, ending: tuple[str, bool],
                                       final_newline: bool) -> None:
    papers = data.draw(st.lists(listing_papers(captured), min_size=1, max_size=8))
    newline, bom = ending
    text = render_listing(papers, captured).rstrip("\n") + ("\n" if final_newline else "")
    dump = parse_dump(("\ufeff" if bom else "").encode() + text.replace("\n", newline).encode(), "l.txt", captured)
    assert dump.format == "hf-daily-papers" and dump.problems == ()
    assert len(dump.papers) == len(papers)
    for made, got in zip(papers, dump.papers, strict=True):
        assert got.title == _clean_title(made.title)
        assert got.abstract == " ".join(made.abstract.split())  # dumps carry stray spaces; parsers fold them
        assert got.date == made.date
        assert got.author_count == made.count
        assert got.upvotes == made.upvotes
        if made.organization:
            assert (got.organization_id, got.organization) == made.organization


def test_committed_dumps_with_every_line_ending() -> None:
    for name in CAPTURED:
        data = (DUMPS / name).read_bytes()
        original = parse_committed(name)
        for variant in (data.replace(b"\n", b"\r\n"), b"\xef\xbb\xbf" + data, data + b"\n", data.replace(b"\n", b"\r")):
            again = parse_dump(variant, original.path, original.captured)
            assert again == original
