"""Command-line paper identifiers: every spelling a browser shows, and exact diagnostics for typos."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sitegen.common.errors import SitegenError
from sitegen.ingest.enrich.identifiers import (
    ArxivId,
    BibFile,
    Daily,
    Doi,
    arxiv_key,
    parse_arxiv,
    parse_daily,
    parse_identifier,
)


@pytest.mark.parametrize(("argument", "expected"), [
    ("2507.14417", ArxivId("2507.14417")),
    ("2507.14417v2", ArxivId("2507.14417", 2)),
    ("arXiv:2507.14417v2", ArxivId("2507.14417", 2)),
    ("arxiv: 2507.14417", ArxivId("2507.14417")),
    ("  2507.14417\n", ArxivId("2507.14417")),
    ("https://arxiv.org/abs/2507.14417", ArxivId("2507.14417")),
    ("https://arxiv.org/abs/2507.14417v3/", ArxivId("2507.14417", 3)),
    ("https://arxiv.org/pdf/2507.14417v1", ArxivId("2507.14417", 1)),
    ("https://arxiv.org/pdf/2507.14417.pdf", ArxivId("2507.14417")),
    ("https://arxiv.org/pdf/2507.14417v2.pdf", ArxivId("2507.14417", 2)),
    ("https://www.arxiv.org/html/2507.14417v1#S3", ArxivId("2507.14417", 1)),
    ("http://export.arxiv.org/abs/2507.14417", ArxivId("2507.14417")),
    ("arxiv.org/abs/2507.14417?context=cs", ArxivId("2507.14417")),
    ("http://export.arxiv.org/abs/hep-th/9901001", ArxivId("hep-th/9901001")),
    ("hep-th/9901001", ArxivId("hep-th/9901001")),
    ("hep-th/9901001v2", ArxivId("hep-th/9901001", 2)),
    ("math.GT/0309136", ArxivId("math/0309136")),
    ("https://arxiv.org/abs/math.GT/0309136", ArxivId("math/0309136")),
    ("0704.0001", ArxivId("0704.0001")),
    ("1412.9999", ArxivId("1412.9999")),
    ("1501.00001", ArxivId("1501.00001")),
    ("https://huggingface.co/papers/2507.14417", ArxivId("2507.14417")),
    ("https://huggingface.co/papers/2507.14417#community", ArxivId("2507.14417")),
    ("10.1145/3581784.3607040", Doi("10.1145/3581784.3607040")),
    ("https://doi.org/10.1145/3581784.3607040", Doi("10.1145/3581784.3607040")),
    ("http://dx.doi.org/10.1145/3581784.3607040", Doi("10.1145/3581784.3607040")),
    ("https://doi.org/10.1002/%28SICI%291097", Doi("10.1002/(SICI)1097")),
    ("doi:10.1145/3581784.3607040", Doi("10.1145/3581784.3607040")),
    ("DOI: 10.1145/3581784.3607040", Doi("10.1145/3581784.3607040")),
    ("10.48550/arXiv.2507.14417", ArxivId("2507.14417")),
    ("https://doi.org/10.48550/arXiv.2507.14417", ArxivId("2507.14417")),
    ("refs.bib", BibFile(Path("refs.bib"))),
    ("papers/2507.14417.BIB", BibFile(Path("papers/2507.14417.BIB"))),
])
def test_identifiers_in_every_spelling(argument: str, expected: object) -> None:
    assert parse_identifier(argument) == expected


def test_via_says_how_the_paper_was_named() -> None:
    assert parse_identifier("https://huggingface.co/papers/2507.14417").via == "hf"  # type: ignore[union-attr]
    assert parse_identifier("10.48550/arXiv.2507.14417").via == "doi"  # type: ignore[union-attr]
    assert parse_identifier("2507.14417").via == "arxiv"  # type: ignore[union-attr]
    assert str(ArxivId("2507.14417", 2)) == "2507.14417v2"


def _failure(argument: str) -> str:
    with pytest.raises(SitegenError) as caught:
        parse_identifier(argument)
    return str(caught.value)


ARXIV_HINT = "  hint: arXiv ids look like 2507.14417 (YYMM.NNNNN, optionally v2)"
WHAT = ("  hint: give an arXiv id (2507.14417), an arXiv or Hugging Face paper URL, a DOI (10.1145/…) "
        "or a .bib file")


@pytest.mark.parametrize(("argument", "expected"), [
    ("2507.1441", "2507.1441: error[E1021]: arXiv ids of 2025-07 have 5 digits after the dot (from January 2015 on)\n"
     + ARXIV_HINT),
    ("1412.12345", "1412.12345: error[E1021]: arXiv ids of 2014-12 have 4 digits after the dot (until December 2014)\n"
     + ARXIV_HINT),
    ("2513.12345", "2513.12345: error[E1021]: '13' is not a month (an arXiv id starts with the year and month, YYMM)\n"
     + ARXIV_HINT),
    ("0703.0001", "0703.0001: error[E1021]: new-style arXiv ids start in April 2007 (0704.NNNN)\n" + ARXIV_HINT),
    ("\u0662\u0665\u0660\u0667.14417", "\u0662\u0665\u0660\u0667.14417: error[E1020]: not a paper sitegen can "
     "look up\n" + WHAT),  # Arabic-Indic digits are digits to Python, not to arXiv
    ("10.1145/\x1b[2J", "'10.1145/\\x1b[2J': error[E1022]: '10.1145/\\x1b[2J' is not a DOI\n"
     "  hint: a DOI is 10.<digits>/<suffix> without spaces, e.g. 10.1145/3581784.3607040"),
    ("https://[arxiv.org/abs/2507.14417", "https://[arxiv.org/abs/2507.14417: error[E1020]: not a URL: Invalid IPv6 "
     "URL\n" + WHAT),
    ("foo", "foo: error[E1020]: not a paper sitegen can look up\n" + WHAT),
    ("", "'': error[E1020]: not a paper sitegen can look up\n" + WHAT),
    ("a\x1b[2Jb", "'a\\x1b[2Jb': error[E1020]: not a paper sitegen can look up\n" + WHAT),
    ("https://example.com/paper", "https://example.com/paper: error[E1020]: sitegen does not know papers at "
     "'example.com'\n" + WHAT),
    ("ftp://arxiv.org/abs/2507.14417", "ftp://arxiv.org/abs/2507.14417: error[E1020]: 'ftp' URLs name no paper\n"
     "  hint: use the https:// URL of the paper"),
    ("https://arxiv.org/list/cs.LG/recent", "https://arxiv.org/list/cs.LG/recent: error[E1025]: this URL is not a "
     "paper's page\n  hint: use the paper's page, e.g. https://arxiv.org/abs/2507.14417 or "
     "https://huggingface.co/papers/2507.14417"),
    ("https://arxiv.org/abs/2507.1441", "https://arxiv.org/abs/2507.1441: error[E1021]: arXiv ids of 2025-07 have 5 "
     "digits after the dot (from January 2015 on)\n  hint: arXiv ids look like 2507.14417 (YYMM.NNNNN, optionally "
     "v2) or hep-th/9901001"),
    ("arXiv:2507.14417v0", "arXiv:2507.14417v0: error[E1021]: 'v0' is no version: arXiv counts versions from v1\n"
     "  hint: arXiv ids look like 2507.14417 (YYMM.NNNNN, optionally v2) or hep-th/9901001"),
    ("hep-xx/9901001", "hep-xx/9901001: error[E1021]: 'hep-xx' is not an arXiv archive of the old-style ids "
     "(archive/YYMMNNN)\n" + ARXIV_HINT),
    ("hep-th/0801001", "hep-th/0801001: error[E1021]: old-style arXiv ids run from 9108 (August 1991) to 0703 "
     "(March 2007)\n" + ARXIV_HINT),
    ("10.1145/has space", "10.1145/has space: error[E1022]: '10.1145/has space' is not a DOI\n"
     "  hint: a DOI is 10.<digits>/<suffix> without spaces, e.g. 10.1145/3581784.3607040"),
    ("doi:10.48550/arXiv.2507.1", "doi:10.48550/arXiv.2507.1: error[E1021]: arXiv ids of 2025-07 have 5 digits "
     "after the dot (from January 2015 on)\n  hint: arXiv ids look like 2507.14417 (YYMM.NNNNN, optionally v2) "
     "or hep-th/9901001"),
])
def test_malformed_arguments_are_one_diagnostic_at_the_argument(argument: str, expected: str) -> None:
    assert _failure(argument) == expected


def test_parse_arxiv_never_raises_and_keys_ignore_version_and_subject() -> None:
    assert parse_arxiv("arXiv:2507.14417v2") == ArxivId("2507.14417", 2)
    assert parse_arxiv("2507.1441") is None
    assert parse_arxiv("not an id") is None
    assert arxiv_key("math.GT/0309136v2") == arxiv_key("math/0309136") == "math/0309136"
    assert arxiv_key("2507.14417v3") == "2507.14417"


@pytest.mark.parametrize(("argument", "expected", "shown"), [
    ("2025-07-21", Daily("day", dt.date(2025, 7, 21), dt.date(2025, 7, 21)), "2025-07-21"),
    ("2025-W30", Daily("week", dt.date(2025, 7, 21), dt.date(2025, 7, 27)), "2025-W30"),
    ("2025-w01", Daily("week", dt.date(2024, 12, 30), dt.date(2025, 1, 5)), "2025-W01"),
    ("2020-W53", Daily("week", dt.date(2020, 12, 28), dt.date(2021, 1, 3)), "2020-W53"),
    ("2025-07", Daily("month", dt.date(2025, 7, 1), dt.date(2025, 7, 31)), "2025-07"),
    ("2024-02", Daily("month", dt.date(2024, 2, 1), dt.date(2024, 2, 29)), "2024-02"),
])
def test_daily_specs(argument: str, expected: Daily, shown: str) -> None:
    assert parse_daily(argument) == expected
    assert str(expected) == shown


NO_SUCH = "  hint: days are YYYY-MM-DD, ISO weeks YYYY-Www (01-52 or 53), months YYYY-MM"


@pytest.mark.parametrize(("argument", "expected"), [
    ("2025-02-30", "2025-02-30: error[E1024]: 2025-02-30 is not a date: day is out of range for month\n" + NO_SUCH),
    ("2025-W53", "2025-W53: error[E1024]: 2025 has no ISO week 53\n" + NO_SUCH),
    ("2025-W00", "2025-W00: error[E1024]: 2025 has no ISO week 00\n" + NO_SUCH),
    ("2025-13", "2025-13: error[E1024]: 2025-13 is not a month\n" + NO_SUCH),
    ("2025/07/21", "2025/07/21: error[E1023]: not a day, an ISO week or a month\n"
     "  hint: give a day (2025-07-21), an ISO week (2025-W30) or a month (2025-07)"),
    ("20250721", "20250721: error[E1023]: not a day, an ISO week or a month\n"
     "  hint: give a day (2025-07-21), an ISO week (2025-W30) or a month (2025-07)"),
])
def test_impossible_daily_specs(argument: str, expected: str) -> None:
    with pytest.raises(SitegenError) as caught:
        parse_daily(argument)
    assert str(caught.value) == expected


@st.composite
def new_style_ids(draw: st.DrawFn) -> tuple[str, int | None]:
    """Any valid new-style id: a real month from 0704 on, with the digit count of its era."""
    year = draw(st.integers(7, 99))
    month = draw(st.integers(4 if year == 7 else 1, 12))
    digits = 4 if (year, month) < (15, 1) else 5
    number = draw(st.integers(0, 10**digits - 1))
    version = draw(st.none() | st.integers(1, 999))
    return f"{year:02d}{month:02d}.{number:0{digits}d}", version


FORMS = (
    "{id}", "arXiv:{id}", "arxiv:{id}", "https://arxiv.org/abs/{id}", "http://arxiv.org/abs/{id}/",
    "https://arxiv.org/pdf/{id}", "https://arxiv.org/pdf/{id}.pdf", "http://export.arxiv.org/abs/{id}",
    "https://www.arxiv.org/html/{id}", "arxiv.org/abs/{id}",
)


@given(new_style_ids(), st.sampled_from(FORMS))
def test_every_valid_id_round_trips_through_every_form(found: tuple[str, int | None], form: str) -> None:
    base, version = found
    text = base if version is None else f"{base}v{version}"
    parsed = parse_identifier(form.format(id=text))
    assert parsed == ArxivId(base, version)
    assert str(parsed) == text


@given(new_style_ids(), st.sampled_from(("https://huggingface.co/papers/{id}", "10.48550/arXiv.{id}",
                                         "https://doi.org/10.48550/arXiv.{id}")))
def test_unversioned_forms_name_the_same_paper(found: tuple[str, int | None], form: str) -> None:
    base, _ = found
    assert parse_identifier(form.format(id=base)) == ArxivId(base)


PREFIXES = ("", "10.", "10.1145/", "doi:", "arXiv:", "2507.", "hep-th/", "https://", "https://arxiv.org/abs/",
            "https://doi.org/", "https://huggingface.co/papers/", "2025-", "2025-W")


@given(st.sampled_from(PREFIXES), st.text(max_size=30))
def test_any_argument_is_a_value_or_a_printable_diagnostic(prefix: str, rest: str) -> None:
    argument = prefix + rest
    try:
        parse_identifier(argument)
    except SitegenError as exc:
        assert len(exc.diagnostics) == 1 and exc.diagnostics[0].code.startswith("E10")
        assert str(exc).replace("\n", "").isprintable()
    try:
        parse_daily(argument)
    except SitegenError as exc:
        assert exc.diagnostics[0].code in ("E1023", "E1024")
        assert str(exc).replace("\n", "").isprintable()
