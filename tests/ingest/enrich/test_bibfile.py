"""A .bib file as Records: Google Scholar's, DBLP's and arXiv's exports, and the mistakes people make."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.common.errors import SitegenError
from sitegen.ingest.enrich.bibfile import BibEntry, parse_bib, read_bibfile
from sitegen.ingest.enrich.record import Author, Record

REFS = Path(__file__).parent / "data" / "refs.bib"


@pytest.fixture(scope="module")
def refs() -> dict[str, BibEntry]:
    return {entry.key: entry for entry in read_bibfile(REFS, "refs.bib").entries}


def test_google_scholar_export(refs: dict[str, BibEntry]) -> None:
    entry = refs["vaswani2017attention"]
    assert entry.line == 4 and entry.truncated  # `and others`: three names of more
    assert entry.record == Record(
        source="bibtex", id="vaswani2017attention", title="Attention is all you need",
        authors=(Author("Ashish Vaswani"), Author("Noam Shazeer"), Author("Niki Parmar")),
        arxiv="1706.03762", year=2017)  # the id from "arXiv preprint arXiv:…", which is no venue


def test_dblp_export(refs: dict[str, BibEntry]) -> None:
    record = refs["DBLP:journals/corr/abs-2507-14417"].record
    assert record.title == "Sparse Mixture-of-Experts for $\\mathcal{O}(n)$ Attention"  # math kept for the site
    assert [a.name for a in record.authors] == ["Wei Zhang", "Jörg Müller", "Jan van der Berg"]
    assert record.arxiv == "2507.14417" and record.doi is None  # arXiv's DataCite DOI is an arXiv id
    assert record.venue is None and record.year == 2025 and record.date is None


def test_arxiv_export(refs: dict[str, BibEntry]) -> None:
    entry = refs["smith2025scaling"]
    assert not entry.truncated
    assert entry.record == Record(
        source="bibtex", id="smith2025scaling", title="Scaling Laws for Schrödinger Bridges",
        authors=(Author("John Smith Jr."), Author("Ana García")), arxiv="2501.01234", category="cs.LG",
        links=(("abs", "https://arxiv.org/abs/2501.01234"),), year=2025)


def test_conference_paper(refs: dict[str, BibEntry]) -> None:
    entry = refs["lee2023fast"]
    assert entry.record.month == 12
    assert entry.record == Record(
        source="bibtex", id="lee2023fast", title="Fast Kernels: 90% Fewer FLOPs",
        authors=(Author("Min-Jun Lee"), Author("OpenAI Team")),
        abstract="We cut FLOPs by 90% with fused kernels.\n\nA second paragraph.",
        doi="10.5555/3666122.3666123", links=(("code", "https://github.com/example/fast-kernels"),),
        venue="Advances in Neural Information Processing Systems", keywords=("kernels", "efficiency", "GPU"),
        year=2023, month=12)


def test_biblatex_date_gives_the_day(refs: dict[str, BibEntry]) -> None:
    entry = refs["biblatex2024"]
    assert (entry.record.date, entry.record.year, entry.record.month, entry.record.venue) == (
        dt.date(2024, 2, 29), 2024, None, "Nature")


def test_bad_values_are_left_out_not_guessed(refs: dict[str, BibEntry]) -> None:
    sloppy = refs["sloppy2022"].record
    assert (sloppy.year, sloppy.doi, sloppy.links, sloppy.category, sloppy.arxiv) == (None, None, (), None, None)
    assert refs["badmonth2021"].record.year == 2021 and refs["badmonth2021"].record.month is None
    assert refs["badmonth2021"].record.links == (("pdf", "https://example.org/odd.pdf"),)
    assert refs["conflict2024"].record.arxiv is None  # two arXiv ids: a wrong one is worse than none


def test_entries_that_cannot_be_read_are_diagnostics_at_their_lines() -> None:
    result = read_bibfile(REFS, "refs.bib")
    assert [entry.key for entry in result.entries] == [
        "vaswani2017attention", "DBLP:journals/corr/abs-2507-14417", "smith2025scaling", "lee2023fast",
        "biblatex2024", "sloppy2022", "badmonth2021", "conflict2024"]
    assert "\n".join(d.format() for d in result.diagnostics) == """\
refs.bib:58: warning[W1035]: year 'in press' is not a year; the entry has no date
  hint: a year is four digits, e.g. 2025
refs.bib:59: warning[W1035]: doi 'not a doi' is not a DOI; left out
  hint: e.g. doi = {10.1145/3581784.3607040}
refs.bib:60: warning[W1035]: url 'ftp://example.org/paper.pdf' is not an http(s) URL; left out
refs.bib:61: warning[W1035]: primaryclass 'Computer Science' is not an arXiv category; left out
  hint: e.g. cs.LG
refs.bib:62: warning[W1035]: eprint '2201.1234' is not an arXiv id; left out
  hint: e.g. eprint = {2507.14417}
refs.bib:68: warning[W1035]: month 'Smarch' is not a month; only the year is kept
  hint: e.g. month = jul or 7
refs.bib:74: warning[W1035]: the entry names different arXiv papers (2401.00001, 2401.00002); no arXiv id kept
  hint: keep the right one in eprint and remove the others
refs.bib:78: error[E1031]: this block cannot be read: Unexpected block start: `@article`. \
Was still looking for field-value closing `}` (line 82)
  hint: check its braces, quotes and commas; each field is `name = {value},`
refs.bib:82: error[E1032]: the key 'Vaswani2017Attention' is used twice
  hint: the first is on line 4 (BibTeX ignores case in keys); rename or remove one
refs.bib:88: error[E1033]: the entry gives title twice
  hint: keep one of each field
refs.bib:91: error[E1034]: the entry 'nothing' has no title, DOI or arXiv id
  hint: give at least its title; a DOI or eprint makes the match certain
refs.bib:98: error[E1036]: the author 'Doe, Jane, Jr, Extra' cannot be read: too many commas
  hint: write names as `Last, First and Last, First`, with balanced braces
refs.bib:101: error[E1032]: the key 'DBLP:journals/corr/abs-2507-14417' is used twice
  hint: the first is on line 11; rename or remove one"""
    assert result.has_errors
    with pytest.raises(SitegenError) as caught:
        result.raise_on_errors()
    assert [d.code for d in caught.value.diagnostics] == ["E1031", "E1032", "E1033", "E1034", "E1036", "E1032"]


def test_exact_duplicate_fields() -> None:
    result = parse_bib("@misc{a,\n  title = {x},\n  title = {y},\n}\n", "a.bib")
    assert result.entries == ()
    assert [d.format() for d in result.diagnostics] == [
        "a.bib:1: error[E1033]: the entry gives title twice\n  hint: keep one of each field"]


def test_a_clean_file_has_no_diagnostics() -> None:
    result = parse_bib("\ufeff@misc{k, title = {T}, year = {2024}, month = {7}}\n", "k.bib")
    assert result.diagnostics == () and not result.has_errors
    result.raise_on_errors()
    assert result.entries[0].record.year == 2024 and result.entries[0].record.month == 7


def test_crlf_and_control_characters() -> None:
    text = "% exported on Windows\r\n\r\n@misc{k,\r\n  title = {Bell\x07 Labs},\r\n  year = {2024}\r\n}\r\n"
    result = parse_bib(text, "k.bib")
    assert result.entries[0].line == 3 and result.entries[0].record.title == "Bell Labs"
    assert [d.format() for d in result.diagnostics] == ["k.bib:4: warning[W1037]: control character U+0007 removed"]


def test_empty_file() -> None:
    assert parse_bib("", "e.bib").entries == () and parse_bib("", "e.bib").diagnostics == ()


def test_missing_file(tmp_path: Path) -> None:
    result = read_bibfile(tmp_path / "missing.bib", "missing.bib")
    assert [d.format() for d in result.diagnostics] == [
        "missing.bib: error[E1030]: cannot read the BibTeX file: No such file or directory\n"
        "  hint: give the path of a .bib file"]


@pytest.mark.posix
def test_a_folder_or_fifo_is_refused_not_waited_on(tmp_path: Path) -> None:
    (tmp_path / "dir.bib").mkdir()
    os.mkfifo(tmp_path / "pipe.bib")
    shown = {name: [d.format() for d in read_bibfile(tmp_path / name, name).diagnostics]
             for name in ("dir.bib", "pipe.bib")}
    assert shown == {
        "dir.bib": ["dir.bib: error[E1030]: cannot read the BibTeX file: it is a folder; only regular files are "
                    "read\n  hint: give the path of a .bib file"],
        "pipe.bib": ["pipe.bib: error[E1030]: cannot read the BibTeX file: not a regular file (a FIFO, device or "
                     "socket); only regular files are read\n  hint: give the path of a .bib file"]}


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.bib"
    path.write_bytes("@misc{k,\n  title = {Caf\u00e9},\n}\n".encode("latin-1"))
    result = read_bibfile(path)
    assert [d.format() for d in result.diagnostics] == [
        f"{path.as_posix()}:2: error[E1030]: the BibTeX file is not valid UTF-8 text\n"
        "  hint: save it as UTF-8 (most reference managers offer it on export)"]


def test_names_follow_bibtex_rules() -> None:
    text = (r"@misc{k, title = {T}, url = {https://huggingface.co/papers/2507.14417},"
            r" author = {{Barnes and Noble} and de la Cruz, Mar{\'\i}a and Ng, {\relax Ch}ristopher and others}}")
    entry = parse_bib(text, "k.bib").entries[0]
    assert [a.name for a in entry.record.authors] == ["Barnes and Noble", "María de la Cruz", "Christopher Ng"]
    assert entry.truncated and entry.record.links == (("hf", "https://huggingface.co/papers/2507.14417"),)
    assert entry.record.arxiv == "2507.14417"  # the HF page of an arXiv paper names it


def test_identifiers_are_read_verbatim_not_as_latex() -> None:
    text = r"@misc{k, title = {T}, url = {https://example.org/a%20b~c_d}, doi = {10.1000/a_b%c}}"
    record = parse_bib(text, "k.bib").entries[0].record
    assert record.links == (("abs", "https://example.org/a%20b~c_d"),)  # LaTeX would cut at % and turn ~ to a space
    assert record.doi == "10.1000/a_b%c"


PIECES = ("@article{k,", "@misc{", "title = {", "author = {", "}", "{", ",", "\n", " and ", "others", "year = 2020",
          "month = ", "eprint = {2507.14417}", "doi = {", '\\"o', "$", "%", '@string{a = "b"}', "url = {http://x}",
          '"', "#", "=", "date = {2024-13-01}", "Last, First, Jr, X")


@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=5), max_size=30))
def test_any_text_is_entries_and_diagnostics_at_lines(pieces: list[str]) -> None:
    text = "".join(pieces)
    result = parse_bib(text, "f.bib")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 1
    assert all(1 <= d.location.line <= lines for d in result.diagnostics)
    assert all(1 <= e.line <= lines for e in result.entries)
