"""A paper dated by its year or month alone keeps that, and nothing shows or exports a day nobody gave."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import bibtexparser
import feedparser
import pytest
import rispy

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content import dates
from sitegen.content.loader import entry_from_text
from sitegen.content.schema import ENTRY_FIELDS
from sitegen.model.site import Paper
from sitegen.pipeline.build import build
from sitegen.render.outputs import citations

from ..html_tools import read_html, text_of
from ..site_factory import copy_site


@pytest.mark.parametrize(("written", "kept"), [(2025, "2025"), ("2025", "2025"), ("2025-03", "2025-03"),
                                               ("2025-03-04", dt.date(2025, 3, 4))])
def test_a_day_a_month_or_a_year_is_a_date(written: object, kept: object) -> None:
    assert ENTRY_FIELDS["date"](written) == (kept, "", "")


@pytest.mark.parametrize("written", ["2025-13", "2025-3", "03/2025", 999, 12025, "2025-02-30", True, "next year"])
def test_anything_else_is_refused_with_the_three_forms_as_hint(written: object) -> None:
    _, error, hint = ENTRY_FIELDS["date"](written)
    assert error.startswith("invalid date")
    assert "YYYY-MM-DD" in hint and "YYYY-MM" in hint and "YYYY" in hint


def test_added_stays_a_day() -> None:
    assert ENTRY_FIELDS["added"]("2025")[1].startswith("invalid date")


def entry(date_line: str, slug: str = "t") -> Paper:
    report = Report()
    found = entry_from_text(f"---\ntitle: T\n{date_line}\n---\n", f"content/papers/{slug}.md", slug, report)
    assert found is not None, report.items
    return Paper(found, f"papers/{slug}/", (), (), None, f"{slug}2024")


@pytest.mark.parametrize(("line", "first", "precision", "iso", "human"), [
    ("date: 2024", dt.date(2024, 1, 1), dates.YEAR, "2024", "2024"),
    ("date: 2024-03", dt.date(2024, 3, 1), dates.MONTH, "2024-03", "March 2024"),
    ("date: 2024-03-05", dt.date(2024, 3, 5), dates.DAY, "2024-03-05", "Mar 5, 2024"),
])
def test_the_model_keeps_the_first_day_and_the_precision(line: str, first: dt.date, precision: str, iso: str,
                                                         human: str) -> None:
    e = entry(line).entry
    assert (e.date, e.date_precision) == (first, precision)
    assert dates.iso(e.date, e.date_precision) == iso and dates.human(e.date, e.date_precision) == human


def test_bibtex_gives_the_month_only_when_it_is_known() -> None:
    config = site_config.SiteConfig()
    for line, month in (("date: 2024", None), ("date: 2024-03", "mar")):
        library = bibtexparser.parse_string(citations.bibtex([entry(line)], config))
        fields = {f.key: str(f.value) for f in library.entries[0].fields}
        assert fields["year"] == "2024" and fields.get("month") == month


def test_ris_and_csl_json_leave_the_unknown_parts_out() -> None:
    config = site_config.SiteConfig()
    year, month = entry("date: 2024", "y"), entry("date: 2024-03", "m")
    records = rispy.loads(citations.ris([year, month], config))
    assert records[0]["year"] == "2024" and "date" not in records[0]
    assert records[1]["year"] == "2024" and records[1]["date"] == "2024/03//"
    items = [citations.csl_item(p, config) for p in (year, month)]
    assert [item["issued"] for item in items] == [{"date-parts": [[2024]]}, {"date-parts": [[2024, 3]]}]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """Three committed papers, the first dated by its year alone and the second by its month."""
    root = copy_site(tmp_path_factory.mktemp("partial") / "site", papers=3)
    first, second = sorted((root / "content" / "papers").glob("*.md"))[:2]
    for path, date in ((first, "2019"), (second, "2019-07")):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"(?m)^date: .*$", f"date: {date}", text, count=1), encoding="utf-8")
    build(root, root.parent / "public", "https://example.org/", search=False)
    return root.parent / "public", first.stem, second.stem


def test_pages_show_what_is_known(built: tuple[Path, str, str]) -> None:
    public, year_only, month_only = built
    for stem, iso, shown in ((year_only, "2019", "2019"), (month_only, "2019-07", "July 2019")):
        page = read_html(public / "papers" / stem / "index.html")
        times = [t for t in page.iter("time") if t.get("datetime") == iso]
        assert times and text_of(times[0]) == shown
        ld = json.loads(next(s.text for s in page.iter("script") if s.get("type") == "application/ld+json"))
        assert ld["datePublished"] == iso
        highwire = next(m.get("content") for m in page.iter("meta") if m.get("name") == "citation_publication_date")
        assert highwire == iso.replace("-", "/")


def test_the_year_page_lists_a_year_alone_apart_from_the_months(built: tuple[Path, str, str]) -> None:
    public, year_only, month_only = built
    page = read_html(public / "timeline" / "2019" / "index.html")
    sections = {text_of(s.find(".//h2")): s for s in page.iter("section")}
    unknown = next(s for heading, s in sections.items() if "month not known" in heading)
    july = next(s for heading, s in sections.items() if heading.startswith("July 2019"))
    assert next(a.get("href") for a in unknown.iter("a") if "/papers/" in (a.get("href") or "")).endswith(
        f"papers/{year_only}/")
    assert any(f"papers/{month_only}/" in (a.get("href") or "") for a in july.iter("a"))


def test_a_feed_claims_no_day_of_publication_nobody_gave(built: tuple[Path, str, str]) -> None:
    public, year_only, month_only = built
    feed = feedparser.parse((public / "feed.xml").read_bytes())
    by_link = {e.link.rstrip("/").rsplit("/", 1)[-1]: e for e in feed.entries}
    assert "published" not in by_link[year_only] and "published" not in by_link[month_only]
    assert by_link[year_only].get("updated")


def test_the_data_file_writes_the_partial_date(built: tuple[Path, str, str]) -> None:
    public, year_only, month_only = built
    papers = {p["slug"]: p for p in json.loads((public / "papers.json").read_text(encoding="utf-8"))}
    assert papers[year_only]["date"] == "2019" and papers[month_only]["date"] == "2019-07"
    assert "date_precision" not in papers[year_only]


def test_the_editor_schema_takes_and_refuses_what_check_does() -> None:
    import jsonschema

    from sitegen.content import json_schema

    document = json_schema.documents()["entry.schema.json"]
    validator = jsonschema.Draft202012Validator(document, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    for value in (2025, "2025", "2025-03", "2025-03-04", "2025-13", "0999", 999, "2025-3", "2025-02-30"):
        schema_ok = not list(validator.iter_errors({"title": "T", "date": value}))
        assert schema_ok == (ENTRY_FIELDS["date"](value)[1] == ""), value
