"""Field validation: every problem of a file, at the line of its key, with a hint."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from sitegen.common.errors import Diagnostic
from sitegen.content import frontmatter, schema


def _validate(yaml_text: str) -> tuple[dict[str, Any], list[str]]:
    doc = frontmatter.parse(f"---\n{yaml_text}---\n", "content/papers/x.md")
    clean, problems = schema.validate_entry(doc.meta, doc.key_lines, "content/papers/x.md")
    return clean, [p.format() for p in problems]


KEPT = " (sitegen ignores it and keeps it as written; fields of your own go under 'extra:')"


def _one(yaml_text: str) -> str:
    _, problems = _validate(yaml_text)
    assert len(problems) == 1, problems
    return problems[0]


def test_a_complete_entry_is_valid_and_normalized() -> None:
    clean, problems = _validate(
        "title: T\nauthors: [A, B]\nauthors_truncated: true\nauthor_count: 7\norganization: Org\n"
        "date: 2025-02-04\ncategory: cs.DC\ntags: [x]\nscore: 69.4\nupvotes: 2\n"
        "links: {code: 'https://github.com/a/b'}\narxiv: '2101.00010'\ndoi: 10.1145/3581784.3607040\n"
        "status: to-read\nrating: 5\ndraft: false\nvenue: SC 2023\nwithdrawn: true\nenrich: true\n"
        "cites: ['2205.14135', arXiv:1706.03762v5, 10.1145/3600006.3613165]\n"
        "added: 2026-05-19\nabstract: A.\nsources: [{file: a.txt}]\nsummary: Worth it.\npinned: true\n"
        "extra: {slides: 'https://x.org/s', seen: 2026-01-02}\n")
    assert problems == []
    # a date as text, as the cache keeps it
    assert clean["extra"] == {"slides": "https://x.org/s", "seen": "2026-01-02"}
    assert clean["date"] == dt.date(2025, 2, 4) and clean["arxiv"] == "2101.00010"
    assert clean["cites"] == ["2205.14135", "arXiv:1706.03762v5", "10.1145/3600006.3613165"]
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
    assert message.endswith("hint: write YYYY-MM-DD, or YYYY-MM or YYYY when only the month or year is known, "
                            "e.g. 2025-02-04 or 2025")


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
    ("upvotes: -1\n", "'upvotes': -1 is less than 0"),
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
        "content/papers/x.md:3: warning[W204]: 'arxiv': arXiv id 2101.00010 is unquoted, and YAML reads it as the "
        "number 2101.0001\n  hint: quote it: arxiv: '2101.00010' (sitegen import and enrich write it so when they "
        "rewrite the entry)")
    assert _one("title: T\narxiv: 2101.000101\n") == (  # more digits than an id of its month has: no id
        "content/papers/x.md:3: error[E203]: 'arxiv': arXiv id 2101.000101 was read as a number\n"
        "  hint: quote it so YAML keeps it as text: '2101.00010'")


@pytest.mark.parametrize(("key", "suggestion"), [
    ("titel", "title"), ("tag", "tags"), ("author", "authors"), ("catgory", "category"), ("link", "links"),
])
def test_unknown_key_did_you_mean(key: str, suggestion: str) -> None:
    """A warning, not an error: another tool's field (an Obsidian vault's) must not stop a build."""
    assert _one(f"title: T\n{key}: x\n") == (f"content/papers/x.md:3: warning[W201]: unknown field '{key}'\n"
                                              f"  hint: did you mean '{suggestion}'?{KEPT}")


def test_unknown_key_without_a_close_match_lists_the_known_fields() -> None:
    message = _one("title: T\nzzzzzz: 1\n")
    assert message.startswith("content/papers/x.md:3: warning[W201]: unknown field 'zzzzzz'\n"
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
    _, problems = _validate("titel: T\ndate: 2025-13-01\nrating: 9\narxiv: 2101.000101\n"
                            "links: {code: 'javascript:x'}\n")
    assert [p.split(":")[1] + " " + p.split("[")[1][:4] for p in problems] == [
        "2 W201", "3 E203", "4 E203", "5 E203", "6 E203", "1 E200"]


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
        "content/authors/a.yaml:6: warning[W201]: unknown field 'affiliaton'",
    ]
    assert problems[-1].hint == "did you mean 'affiliation'? (sitegen ignores it and keeps it as written)"


def test_author_file_needs_a_name() -> None:
    _, problems = schema.validate_author({"h_index": 3}, {"h_index": 1}, "a.yaml")
    assert [(p.code, p.message) for p in problems] == [("E200", "missing required field 'name'")]


def test_non_text_keys_are_unknown_fields() -> None:
    _, problems = _validate("title: T\n1: x\n")
    assert problems == ["content/papers/x.md:3: warning[W201]: unknown field '1'\n  hint: known fields: "
                        + ", ".join(schema.ENTRY_FIELDS) + KEPT]


def test_diagnostics_are_diagnostics() -> None:
    _, problems = schema.validate_entry({}, {}, "x.md")
    assert all(isinstance(p, Diagnostic) for p in problems)


_CONTROL_HINT = "it is invisible, and no feed, page or citation may hold it; delete it from the file"


def test_control_characters_are_removed_with_a_warning_at_the_fields_line() -> None:
    clean, problems = _validate(
        'title: "Bell\\a and \\e[31mred\\e[0m"\nauthors:\n- Ann Lee\n- "Bob\\0 Roe"\n'
        'abstract: "one\\x85two\\x9bthree\\x7f\\r\\nfour"\nlinks: {code: "https://x.org/\\x01"}\n'
        'tags: [ok, "t\\x1f"]\n')
    assert clean == {"title": "Bell and [31mred[0m", "authors": ["Ann Lee", "Bob Roe"],
                     "abstract": "onetwothree\nfour", "links": {"code": "https://x.org/"}, "tags": ["ok", "t"]}
    assert problems == [f"content/papers/x.md:{line}: warning[W341]: '{key}': control character {char} removed\n"
                        f"  hint: {_CONTROL_HINT}" for line, key, char in [
                            (2, "title", "U+0007"), (5, "authors", "U+0000"), (6, "abstract", "U+0085"),
                            (7, "links", "U+0001"), (8, "tags", "U+001F")]]


def test_control_characters_in_an_author_file_are_removed_with_a_warning() -> None:
    data, lines = frontmatter.load_yaml('name: "Ann\\x1b] Lee"\naliases: [A. Lee, "A.\\u0090 L."]\n',
                                        "content/authors/a.yaml")
    clean, problems = schema.validate_author(data, lines, "content/authors/a.yaml")
    assert clean == {"name": "Ann] Lee", "aliases": ["A. Lee", "A. L."]}
    assert [p.format().splitlines()[0] for p in problems] == [
        "content/authors/a.yaml:1: warning[W341]: 'name': control character U+001B removed",
        "content/authors/a.yaml:2: warning[W341]: 'aliases': control character U+0090 removed"]


def test_a_field_made_empty_by_the_cleaning_is_an_error() -> None:
    _, problems = _validate('title: "\\a"\ntags: ["\\e"]\n')
    assert [p.splitlines()[0] for p in problems] == [
        "content/papers/x.md:2: warning[W341]: 'title': control character U+0007 removed",
        "content/papers/x.md:2: error[E203]: 'title': must not be empty",
        "content/papers/x.md:3: warning[W341]: 'tags': control character U+001B removed",
        "content/papers/x.md:3: error[E203]: 'tags': list items must not be empty"]


def test_an_unknown_field_name_is_shown_with_its_control_characters_escaped() -> None:
    problems = _validate('title: T\n"\\e[2Jx": 1\n')[1]
    assert problems[0].startswith("content/papers/x.md:3: warning[W201]: unknown field '\\x1b[2Jx'\n")


@pytest.mark.parametrize("doi", ["10.1234/x}, note = {pwned", "10.1234/a b", "10.1234/x{y}", '10.1234/\\"q\\"',
                                 "10.1234/back\\\\slash", "10.1234/x\\n", "10.1234/x\\ty"])
def test_a_doi_with_braces_spaces_quotes_or_a_line_break_is_refused(doi: str) -> None:
    assert _one(f'title: T\ndoi: "{doi}"\n').startswith("content/papers/x.md:3: error[E203]: 'doi': invalid DOI ")
    assert _one(f'title: T\ndoi: "{doi}"\n').endswith(
        "hint: expected something like 10.1145/3581784.3607040 (no spaces, braces, quotes or backslashes)")


@pytest.mark.parametrize(("key", "value"), [
    ("arxiv", "2101.00010\\n"), ("arxiv", "2101.00010}"), ("category", "cs.DC\\n"), ("date", "2025-02-04\\n"),
    ("links", {"code": "https://x.org/\\n"}),
])
def test_a_final_line_break_does_not_pass_a_pattern(key: str, value: Any) -> None:
    text = f'{key}: "{value}"\n' if isinstance(value, str) else f'{key}: {{code: "{value["code"]}"}}\n'
    assert _one("title: T\n" + text).startswith(f"content/papers/x.md:3: error[E203]: '{key}': ")


@pytest.mark.parametrize(("yaml_text", "expected"), [
    ("sources: 5\n", "3: error[E203]: 'sources': expected a list of source records"),
    ("sources:\n- {1: a, file: x.txt}\n", "4: error[E203]: 'sources': source record 1: the name 1 is not text"),
    ("sources:\n- {file: x.txt}\n- {null: y}\n",
     "5: error[E203]: 'sources': source record 2: the name None is not text"),
    ("sources:\n- {file: [x.txt]}\n", "4: error[E203]: 'sources': source record 1: 'file' is a list"),
    ("sources:\n- {score: .nan}\n", "4: error[E203]: 'sources': source record 1: 'score' is the float nan"),
    ("tags: {a: 1}\n", "3: error[E203]: 'tags': expected a list, found a mapping"),
    ("authors: 5\n", "3: error[E203]: 'authors': expected a list, found the int 5"),
    ("null: y\n", "3: warning[W201]: unknown field 'None'"),
    ("true: y\n", "3: warning[W201]: unknown field 'True'"),
    ("extra: [a]\n", "3: error[E203]: 'extra': expected a mapping of your own fields, found a list"),
    ("links: {null: https://x.org}\n", "3: error[E203]: 'links': link name None must be text"),
    ("author_count: 99999999999999999999999\n", "3: error[E203]: 'author_count': the number 99999999999999999999999 "
                                                "is too large"),
    ("upvotes: 9007199254740992\n", "3: error[E203]: 'upvotes': the number 9007199254740992 is too large"),
    ("score: .nan\n", "3: error[E203]: 'score': the number nan is not finite or too large"),
    ("score: -.inf\n", "3: error[E203]: 'score': the number -inf is not finite or too large"),
    ("title: " + "9" * 200 + "\n", "2: error[E203]: 'title': expected text, found the int " + "9" * 59 + "…"),
])
def test_odd_values_are_diagnostics_with_a_hint(yaml_text: str, expected: str) -> None:
    text = yaml_text if yaml_text.startswith("title:") else "title: T\n" + yaml_text
    problem = _one(text)
    assert problem.startswith("content/papers/x.md:" + expected), problem
    assert "\n  hint: " in problem
