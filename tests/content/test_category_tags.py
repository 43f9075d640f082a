"""A tag that names an arXiv category is shown as the paper's category, never also as a tag."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.common.errors import Report
from sitegen.content.loader import entry_from_text
from sitegen.pipeline.build import build

from ..html_tools import main_of, parse_html, text_of


def entry(front_matter: str, report: Report | None = None) -> tuple[tuple[str, ...], str | None]:
    e = entry_from_text(f"---\ntitle: T\n{front_matter}---\n", "content/papers/t.md", "t", report or Report())
    assert e is not None
    return e.tags, e.category


@pytest.mark.parametrize(("front_matter", "tags", "category"), [
    ("tags: [attention, cs.CL]\ncategory: cs.CL\n", ("attention",), "cs.CL"),  # says it twice
    ("tags: [cs.lg, attention]\n", ("attention",), "cs.lg"),  # the only category given: it is the category
    ("tags: [quant-ph]\n", (), "quant-ph"),
    ("tags: [hpc, dc, ir]\n", ("hpc", "dc", "ir"), None),  # bare subject codes are words, not categories
])
def test_category_tags_become_the_category(front_matter: str, tags: tuple[str, ...], category: str | None) -> None:
    report = Report()
    assert entry(front_matter, report) == (tags, category)
    assert report.items == []


def test_a_second_category_among_the_tags_is_left_out_with_a_warning_at_its_line() -> None:
    report = Report()
    assert entry("category: cs.CL\ntags:\n- attention\n- cs.LG\n", report) == (("attention",), "cs.CL")
    assert [d.format() for d in report.items] == [
        "content/papers/t.md:6: warning[W342]: tag 'cs.LG' is an arXiv category other than this paper's (cs.CL), "
        "and is left out\n  hint: tags are topics: make it the paper's `category`, or remove it"]


def test_the_built_site_shows_a_category_tag_only_as_a_category(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text("title: T\nbase_url: https://example.org/\n", encoding="utf-8")
    papers = tmp_path / "content" / "papers"
    papers.mkdir(parents=True)
    (papers / "a.md").write_text("---\ntitle: A\ndate: 2024-01-02\ntags: [attention, cs.LG]\n---\n", encoding="utf-8")
    (papers / "b.md").write_text("---\ntitle: B\ndate: 2024-01-03\ntags: [cs.LG]\ncategory: cs.LG\n---\n",
                                 encoding="utf-8")
    out = tmp_path / "public"
    build(tmp_path, out, search=False)
    assert sorted(p.name for p in (out / "tags").iterdir()) == ["attention", "index.html"]
    assert sorted(p.name for p in (out / "categories").iterdir()) == ["cs-lg", "index.html"]
    category = main_of(parse_html((out / "categories/cs-lg/index.html").read_text(encoding="utf-8")))
    assert "2 papers" in text_of(category)
    for page in ("papers/a/index.html", "tags/index.html", "index.html"):
        html = (out / page).read_text(encoding="utf-8")
        assert "tags/cs-lg/" not in html, page
    assert "cs.LG" not in text_of(main_of(parse_html((out / "tags/index.html").read_text(encoding="utf-8")))
                                  .find(".//section[@aria-labelledby='topics-heading']"))  # type: ignore[arg-type]
