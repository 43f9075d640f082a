"""Field validation: every problem of a file, at the line of its key, with a hint."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from sitegen import frontmatter, schema
from sitegen.errors import Diagnostic


def _validate(yaml_text: str) -> tuple[dict[str, Any], list[str]]:
    doc = frontmatter.parse(f"---\n{yaml_text}---\n", "content/papers/x.md")
    clean, problems = schema.validate_entry(doc.meta, doc.key_lines, "content/papers/x.md")
    return clean, [p.format() for p in problems]


def _one(yaml_text: str) -> str:
    _, problems = _validate(yaml_text)
    assert len(problems) == 1, problems
    return problems[0]


def test_a_complete_entry_is_valid_and_normalized() -> None:
    clean, problems = _validate(
        "title: T\nauthors: [A, B]\nauthors_truncated: true\nauthor_count: 7\norganization: Org\n"
        "date: 2025-02-04\ncategory: cs.DC\ntags: [x]\nscore: 69.4\nupvotes: 2\n"
        "links: {code: 'https://github.com/a/b'}\narxiv: '2101.00010'\ndoi: 10.1145/3581784.3607040\n"
        "status: to-read\nrating: 5\ndraft: false\nadded: 2026-05-19\nabstract: A.\n"
        "sources: [{file: a.txt}]\n")
    assert problems == []
    assert clean["date"] == dt.date(2025, 2, 4) and clean["arxiv"] == "2101.00010"
    assert set(clean) == set(schema.ENTRY_FIELDS)


def test_missing_title() -> None:
    assert _one("authors: [A]\n") == ("content/papers/x.md:1: error[E200]: missing required field 'title'\n"
                                      "  hint: add a line 'title: …' to the front matter")


@pytest.mark.parametrize(("yaml_text", "expected"), [
    ("title:\n", "content/papers/x.md:2: error[E202]: 'title' has no value\n  hint: write a value after 'title:'"),
    ("title: '  '\n", "content/papers/x.md:2: error[E203]: 'title': must not be empty\n"
                      "  hint: write the paper's title"),
])
def test_empty_title(yaml_text: str, expected: str) -> None:
    assert _one(yaml_text) == expected


@pytest.mark.parametrize("value", ["2025-13-45", "2025-02-30", "04/02/2025", "yesterday", "'20250204'"])
def test_bad_date(value: str) -> None:
    message = _one(f"title: T\n\ndate: {value}\n")
    shown = value.strip("'")
    assert message.startswith(f"content/papers/x.md:4: error[E203]: 'date': invalid date '{shown}'")
    assert message.endswith("hint: write dates as YYYY-MM-DD, e.g. 2025-02-04")


def test_date_read_as_a_number() -> None:
    message = _one("title: T\ndate: 20250204\n")
    assert message.startswith("content/papers/x.md:3: error[E203]: 'date': invalid date 20250204")


def test_datetime_is_accepted_as_its_date() -> None:
    clean, problems = _validate("title: T\ndate: 2025-02-04 10:30:00\n")
    assert problems == [] and clean["date"] == dt.date(2025, 2, 4)


@pytest.mark.parametrize(("yaml_text", "start"), [
    ("authors: Alice\n", "'authors': expected a list, found the text 'Alice'"),
    ("authors: [Alice, 3]\n", "'authors': list item 3 is the int 3, not text"),
    ("tags: [a, '']\n", "'tags': list items must not be empty"),
    ("author_count: many\n", "'author_count': expected a whole number, found text"),
    ("upvotes: 2.5\n", "'upvotes': expected a whole number, found the float 2.5"),
    ("upvotes: -1\n", "'upvotes': -1 is out of range 0–None"),
    ("rating: 6\n", "'rating': 6 is out of range 1–5"),
    ("rating: true\n", "'rating': expected a whole number, found true/false"),
    ("draft: 'no'\n", "'draft': expected true or false, found text"),
    ("score: high\n", "'score': expected a number, found text"),
    ("organization: 42\n", "'organization': expected text, found the int 42"),
    ("abstract: [a]\n", "'abstract': expected text, found a list"),
    ("links: https://x.org\n", "'links': expected a mapping of links, found text"),
    ("sources: a.txt\n", "'sources': expected a list of source records"),
    ("category: Computer Science\n", "'category': invalid arXiv category 'Computer Science'"),
    ("doi: doi.org/10.1/x\n", "'doi': invalid DOI 'doi.org/10.1/x'"),
    ("arxiv: arXiv:2101.00010\n", "'arxiv': invalid arXiv id 'arXiv:2101.00010'"),
])
def test_wrong_type(yaml_text: str, start: str) -> None:
    assert _one("title: T\n" + yaml_text).startswith(f"content/papers/x.md:3: error[E203]: {start}")


def test_title_read_as_a_number_or_date() -> None:
    assert _one("title: 2001\n") == (
        "content/papers/x.md:2: error[E203]: 'title': expected text, found the int 2001\n"
        "  hint: YAML read an unquoted value as a number or date; put it in quotes")
    assert "found the date datetime.date(2001, 1, 1)" in _one("title: 2001-01-01\n")


def test_unquoted_arxiv_id_read_as_a_number() -> None:
    assert _one("title: T\narxiv: 2101.00010\n") == (
        "content/papers/x.md:3: error[E203]: 'arxiv': arXiv id 2101.0001 was read as a number\n"
        "  hint: quote it so YAML keeps it as text: '2101.00010'")


@pytest.mark.parametrize(("key", "suggestion"), [
    ("titel", "title"), ("tag", "tags"), ("author", "authors"), ("catgory", "category"), ("link", "links"),
])
def test_unknown_key_did_you_mean(key: str, suggestion: str) -> None:
    assert _one(f"title: T\n{key}: x\n") == (f"content/papers/x.md:3: error[E201]: unknown field '{key}'\n"
                                              f"  hint: did you mean '{suggestion}'?")


def test_unknown_key_without_a_close_match_lists_the_known_fields() -> None:
    message = _one("title: T\nzzzzzz: 1\n")
    assert message.startswith("content/papers/x.md:3: error[E201]: unknown field 'zzzzzz'\n"
                              "  hint: known fields: title,")


def test_status_did_you_mean() -> None:
    assert _one("title: T\nstatus: readd\n") == ("content/papers/x.md:3: error[E203]: 'status': invalid value "
                                                 "'readd'\n  hint: did you mean 'read'?")


@pytest.mark.parametrize("link", ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,x", "ftp://x.org/a",
                                  "//evil.example/x", "https://", "http:// space.org", "vbscript:x"])
def test_non_http_link(link: str) -> None:
    message = _one(f"title: T\nlinks:\n  code: '{link}'\n")
    # the line of the bad link, not of 'links:'
    assert message.startswith(f"content/papers/x.md:4: error[E203]: 'links': link 'code': not an http(s) URL: {link!r}")
    assert message.endswith("hint: links must start with https:// or http://")


def test_an_error_about_one_item_names_the_items_line() -> None:
    text = ("title: T\nlinks:\n  code: https://example.org/code\n\n  paper: ftp://example.org/p\n"
            "authors:\n- Ada Lovelace\n- ''\ntags: [a,\n  7]\n")
    _, problems = _validate(text)
    assert [p.split("\n")[0] for p in problems] == [
        "content/papers/x.md:6: error[E203]: 'links': link 'paper': not an http(s) URL: 'ftp://example.org/p'",
        "content/papers/x.md:9: error[E203]: 'authors': list items must not be empty",
        "content/papers/x.md:11: error[E203]: 'tags': list item 7 is the int 7, not text",
    ]


def test_every_problem_is_reported_in_file_order() -> None:
    _, problems = _validate("titel: T\ndate: 2025-13-01\nrating: 9\narxiv: 2101.00010\n"
                            "links: {code: 'javascript:x'}\n")
    assert [p.split(":")[1] + " " + p.split("[")[1][:4] for p in problems] == [
        "2 E201", "3 E203", "4 E203", "5 E203", "6 E203", "1 E200"]


def test_valid_fields_survive_next_to_invalid_ones() -> None:
    clean, problems = _validate("title: T\nrating: 9\ntags: [a]\n")
    assert clean == {"title": "T", "tags": ["a"]} and len(problems) == 1


def test_optional_field_left_empty_is_ignored() -> None:
    clean, problems = _validate("title: T\ntags:\ndate:\n")
    assert problems == [] and clean == {"title": "T"}


def test_author_file() -> None:
    data, lines = frontmatter.load_yaml(
        "name: Ahan Gupta\ncategory: cs.LG\nh_index: 12\nnovelty_percent: 167\nhomepage: javascript:x\n"
        "affiliaton: UIUC\n", "content/authors/a.yaml")
    clean, problems = schema.validate_author(data, lines, "content/authors/a.yaml")
    assert clean == {"name": "Ahan Gupta", "category": "cs.LG", "h_index": 12}
    assert [p.format().splitlines()[0] for p in problems] == [
        "content/authors/a.yaml:4: error[E203]: 'novelty_percent': 167 is out of range 0–100",
        "content/authors/a.yaml:5: error[E203]: 'homepage': not an http(s) URL: 'javascript:x'",
        "content/authors/a.yaml:6: error[E201]: unknown field 'affiliaton'",
    ]
    assert problems[-1].hint == "did you mean 'affiliation'?"


def test_author_file_needs_a_name() -> None:
    _, problems = schema.validate_author({"h_index": 3}, {"h_index": 1}, "a.yaml")
    assert [(p.code, p.message) for p in problems] == [("E200", "missing required field 'name'")]


def test_non_text_keys_are_unknown_fields() -> None:
    _, problems = _validate("title: T\n1: x\n")
    assert problems == ["content/papers/x.md:3: error[E201]: unknown field '1'\n  hint: known fields: "
                        + ", ".join(schema.ENTRY_FIELDS)]


def test_diagnostics_are_diagnostics() -> None:
    _, problems = schema.validate_entry({}, {}, "x.md")
    assert all(isinstance(p, Diagnostic) for p in problems)
