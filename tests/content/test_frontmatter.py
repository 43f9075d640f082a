"""Front matter: splitting, strict YAML loading with file lines, and rendering that loads back."""

from __future__ import annotations

import datetime as dt
from typing import Any
from unittest import mock

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sitegen.content import controls, frontmatter, rewrite
from sitegen.content.frontmatter import FrontMatterError


def _error(text: str) -> str:
    with pytest.raises(FrontMatterError) as caught:
        frontmatter.parse(text, "content/papers/x.md")
    return caught.value.diagnostic.format()


def test_split_finds_block_body_and_body_line() -> None:
    assert frontmatter.split("---\na: 1\n---\nbody\n") == ("a: 1\n", "body\n", 4)
    assert frontmatter.split("no block\n") == (None, "no block\n", 1)
    assert frontmatter.split("---\na: 1\n") == ("", "", 0)
    assert frontmatter.split("---\na: 1\n...\nbody") == ("a: 1\n", "body", 4)


def test_split_accepts_crlf_and_bom() -> None:
    assert frontmatter.split("\ufeff---\r\na: 1\r\n---\r\nbody\r\n") == ("a: 1\n", "body\n", 4)


def test_parse_remembers_key_lines() -> None:
    doc = frontmatter.parse("---\ntitle: T\n\ntags:\n- a\n- b\ndate: 2025-02-04\n---\n\nNotes.\n", "x.md")
    assert doc.meta == {"title": "T", "tags": ["a", "b"], "date": dt.date(2025, 2, 4)}
    assert doc.key_lines == {"title": 2, "tags": 4, "tags/0": 5, "tags/1": 6, "date": 7}
    assert doc.body == "\nNotes.\n" and doc.body_line == 9


def test_parse_with_crlf_bom_and_no_final_newline() -> None:
    plain = frontmatter.parse("---\ntitle: T\ndate: 2025-02-04\n---\nBody", "x.md")
    variant = frontmatter.parse("\ufeff---\r\ntitle: T\r\ndate: 2025-02-04\r\n---\r\nBody", "x.md")
    assert variant == plain


def test_empty_front_matter_is_an_empty_mapping() -> None:
    assert frontmatter.parse("---\n---\n", "x.md").meta == {}


def test_missing_and_unclosed_front_matter() -> None:
    assert _error("title: T\n").startswith("content/papers/x.md:1: error[E100]: missing front matter")
    assert _error("---\ntitle: T\n").startswith(
        "content/papers/x.md:1: error[E100]: front matter is opened with '---' but never closed")


def test_front_matter_must_be_a_mapping() -> None:
    assert _error("---\n- a\n- b\n---\n").startswith(
        "content/papers/x.md:2: error[E103]: front matter must be a mapping of fields")


def test_duplicate_key_is_an_error_at_its_second_line() -> None:
    assert _error("---\ntitle: A\ndate: 2025-01-01\ntitle: B\n---\n") == (
        "content/papers/x.md:4: error[E102]: found duplicate key 'title'\n"
        "  hint: each key may appear once; remove or merge the repeated one")


def test_nested_duplicate_key() -> None:
    assert _error("---\ntitle: A\nlinks:\n  code: https://a\n  code: https://b\n---\n").startswith(
        "content/papers/x.md:5: error[E102]: found duplicate key 'code'")


def test_unquoted_colon_in_title() -> None:
    assert _error("---\ntitle: BERT: Pre-training of Deep Bidirectional Transformers\n---\n") == (
        "content/papers/x.md:2:12: error[E101]: invalid YAML: mapping values are not allowed in this context\n"
        "  hint: a value containing ': ' must be quoted, e.g. title: 'BERT: Pre-training …'")


def test_unclosed_quote_points_at_its_line_not_the_end() -> None:
    assert _error("---\ntitle: 'BERT: Pre-training\ntags: [a]\n---\n") == (
        "content/papers/x.md:2:8: error[E101]: invalid YAML: a quoted value opened here is not closed "
        "(found unexpected end of stream)\n  hint: close it on this line, or quote the whole value")


def test_tab_indentation_hint() -> None:
    message = _error("---\ntitle: T\ntags:\n\t- a\n---\n")
    assert message.startswith("content/papers/x.md:4:1: error[E101]: invalid YAML:")
    assert message.endswith("hint: YAML does not allow tabs for indentation; use spaces")


def test_syntax_error_line_counts_from_the_file_start() -> None:
    assert _error("---\ntitle: T\nauthors: [A, B\ndate: 2025-01-01\n---\n") == (
        "content/papers/x.md:3:10: error[E101]: invalid YAML: a [ list opened here is not closed "
        "(did not find expected ',' or ']')\n  hint: close it on this line, or quote the whole value")
    assert _error("---\ntitle: T\n\n\ndate: x: y\n---\n").startswith("content/papers/x.md:5:")


@pytest.mark.parametrize("text", [
    "[a, b]: 1",  # a list as a key
    "{a: 1}: 2",
    "a: !!int many",  # explicit tags on text they cannot read
    "a: !!float x",
    "a: !!bool maybe",
    "--- !!map\n- a",
    "b: *undefined",  # an alias (E340)
])
def test_unusual_yaml_is_an_error_not_a_crash(text: str) -> None:
    message = _error(f"---\n{text}\n---\n")
    assert message.startswith("content/papers/x.md:") and ("error[E10" in message or "error[E340]" in message)


def test_impossible_date_stays_text_for_validation() -> None:
    doc = frontmatter.parse("---\ndate: 2026-13-01\nadded: 2025-02-30\nok: 2025-02-28\n---\n", "x.md")
    assert doc.meta == {"date": "2026-13-01", "added": "2025-02-30", "ok": dt.date(2025, 2, 28)}


def test_unquoted_arxiv_id_is_a_number() -> None:
    assert frontmatter.parse("---\narxiv: 2101.00010\n---\n", "x.md").meta == {"arxiv": 2101.0001}


def test_safe_loader_refuses_python_objects() -> None:
    assert "error[E101]" in _error("---\nx: !!python/object/apply:os.system ['true']\n---\n")


def test_render_layout() -> None:
    text = frontmatter.render({"title": "T", "tags": ["a"], "date": dt.date(2025, 2, 4)}, "\n\nNotes.\n\n\n")
    assert text == "---\ntitle: T\ntags:\n- a\ndate: 2025-02-04\n---\n\nNotes.\n"
    assert frontmatter.render({"title": "T"}, "") == "---\ntitle: T\n---\n"


@pytest.mark.parametrize("value", [
    "BERT: Pre-training", "2101.00010", "yes", "no", "null", "~", "2025-02-04", "- item", "# not a comment",
    "'quoted'", '"double"', "a: b # c", "---", "...", "@at", "`tick`", "%pct", "!bang", "&amp", "*star",
    "{brace}", "[bracket]", "<b>bold</b>", "../../etc/passwd", "\\&", "line\nbreak", " padded ", "",
    "\ufeffbom", "tab\there", "\x85nel", "\u2028ls", "😀", "論文",
])
def test_tricky_strings_round_trip(value: str) -> None:
    meta = {"title": value, "tags": [value] if value else [], "abstract": value * 40}
    text = frontmatter.render(meta, "")
    assert frontmatter.parse(text, "x.md").meta == meta


printable = st.text(st.characters(codec="utf-8"), max_size=300)


@settings(max_examples=200, deadline=None)
@given(title=printable, abstract=printable, authors=st.lists(printable, max_size=4),
       date=st.one_of(st.none(), st.dates()), score=st.one_of(st.none(), st.floats(allow_nan=False)),
       body=printable)
@example(title="", abstract="", authors=[], date=None, score=None, body="\r")  # a body of a lone CR
@example(title="", abstract="", authors=[], date=None, score=None, body="x\r\r\ny")
def test_render_parse_round_trip(title: str, abstract: str, authors: list[str], date: dt.date | None,
                                 score: float | None, body: str) -> None:
    meta: dict[str, object] = {"title": title, "authors": authors, "abstract": abstract}
    if date is not None:
        meta["date"] = date
    if score is not None:
        meta["score"] = score
    text = frontmatter.render(meta, body)
    doc = frontmatter.parse(text, "x.md")
    assert doc.meta == meta
    lines = body.replace("\r\n", "\n").replace("\r", "\n")
    assert doc.body.strip("\n") == controls.clean(lines).strip("\n")  # control characters removed
    assert bool(doc.warnings) == bool(controls.CONTROL.search(lines.strip("\n")))
    assert text.endswith("\n") and not text.endswith("\n\n")
    if not doc.warnings:
        assert frontmatter.render(doc.meta, doc.body) == text  # a second render changes nothing


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_arbitrary_text_never_crashes_the_parser(text: str) -> None:
    for candidate in (text, f"---\n{text}\n---\n"):
        try:
            doc = frontmatter.parse(candidate, "x.md")
        except FrontMatterError as exc:
            assert exc.diagnostic.location.path == "x.md" and exc.diagnostic.location.line >= 1
        else:
            assert isinstance(doc.meta, dict)


YAML_PIECES = st.sampled_from([
    "title: x", "[a, b]: 1", "{a: 1}: 2", "? [a]", ": b", "date: 2025-13-01", "a: &x 1", "b: *x", "c: *y",
    "!!binary x", "d: !!timestamp 2025-99-99", "t: .nan", "- a", "  - b", "e: {", "k: '", "\t", "<<: {a: 1}",
    "<<: *x", "tags: [a, [b]]", "1: 2", "null: 3", "~: 1", "2025-01-01: x", "%YAML 1.1", "--- !!map", "!!str 1: 2",
    "x: !!int y", "x: !!float y", "x: !!bool y", "x: !!set [1]", "x: !!omap {a: 1}", "title: x\ntitle: y",
])


@settings(max_examples=200, deadline=None)
@given(st.lists(YAML_PIECES, max_size=8))
def test_odd_yaml_never_crashes_the_parser(lines: list[str]) -> None:
    try:
        frontmatter.parse("---\n" + "\n".join(lines) + "\n---\n", "x.md")
    except FrontMatterError as exc:
        assert exc.diagnostic.code in ("E101", "E102", "E103", "E340")


_KEYS = st.sampled_from(["title", "authors", "tags", "date", "abstract", "score", "links"])
_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp"), blacklist_characters="\x85"),
                max_size=120)
_VALUE = st.one_of(_TEXT, st.integers(), st.lists(_TEXT, max_size=3), st.dictionaries(_KEYS, _TEXT, max_size=2))


@settings(max_examples=300)
@given(st.dictionaries(_KEYS, _VALUE, min_size=1),
       st.lists(st.tuples(st.one_of(st.none(), _KEYS), _TEXT.map(str.strip)), max_size=6))
@example({"abstract": "word " * 30 + "# inside a folded scalar " + "word " * 20, "title": "x #y"},
         [("abstract", " before the abstract"), (None, " at the end"), ("title", "")])
@example({"abstract": "a\n# a line of text\nb", "tags": ["#t"]}, [("tags", "x"), ("abstract", "y")])
def test_comments_put_back_are_found_again_and_change_no_value(data: dict[str, Any],
                                                               kept: list[tuple[str | None, str]]) -> None:
    kept = [(key if key in data else None, "#" + text) for key, text in kept]
    text = rewrite.with_comments(frontmatter.dump_yaml(data), kept)
    assert frontmatter.load_yaml(text, "x.yaml")[0] == data
    found = rewrite.comments(text)
    by_key = {key: [c for k, c in kept if k == key] for key, _ in kept}
    assert {key: [c for k, c in found if k == key] for key, _ in found} == {k: v for k, v in by_key.items() if v}


class _PyYAMLOnly(frontmatter.StrictLoader):
    """The strict loader with PyYAML's own constructor for every node, as it was before the fast path."""

    def construct_document(self, node: Any) -> Any:
        return yaml.constructor.BaseConstructor.construct_document(self, node)


def _outcome(text: str) -> tuple[str, str]:
    try:
        return "data", repr(frontmatter.load_yaml(text, "x.md", 2))  # repr: .nan is not equal to itself
    except FrontMatterError as exc:
        return "error", exc.diagnostic.format()


def _both(text: str) -> tuple[tuple[str, str], tuple[str, str]]:
    ours = _outcome(text)
    with mock.patch.object(frontmatter, "StrictLoader", _PyYAMLOnly):
        theirs = _outcome(text)
    return ours, theirs


_SCALARS = st.one_of(_TEXT, st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
                     st.dates(dt.date(1900, 1, 1), dt.date(2100, 12, 31)))
_NESTED = st.recursive(_SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(_TEXT, inner, max_size=3)), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(YAML_PIECES, max_size=8))
@example(["a: &x 1", "b: *x"])
@example(["<<: {a: 1}", "title: x"])
@example(["title: x\ntitle: y"])
@example(["x: !!set [1]", "d: !!timestamp 2025-99-99", "t: .nan"])
def test_odd_yaml_loads_exactly_as_pyyamls_constructor_loads_it(lines: list[str]) -> None:
    ours, theirs = _both("\n".join(lines) + "\n")
    assert ours == theirs


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(_TEXT, _NESTED, max_size=6), st.booleans())
def test_any_dumped_data_loads_exactly_as_pyyamls_constructor_loads_it(data: dict[str, Any], flow: bool) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True, sort_keys=False)
    ours, theirs = _both(text)
    assert ours == theirs and ours[0] == "data"
    assert frontmatter.load_yaml(text, "x.md")[0] == data


def test_a_duplicate_key_is_the_same_error_with_or_without_an_alias() -> None:
    plain = _both("a: 1\nb:\n  c: 2\n  c: 3\n")
    aliased = _both("a: &x 1\nb:\n  c: *x\n  c: 3\n")
    assert plain[0] == plain[1] and aliased[0] == aliased[1]
    assert plain[0][0] == aliased[0][0] == "error" and plain[0][1].split(":")[:2] == ["x.md", "5"]


def test_control_characters_are_removed_from_the_body_with_a_warning_at_their_line() -> None:
    doc = frontmatter.parse("---\ntitle: T\n---\n\nFine.\nA bell\a, an \x1b[2Jescape,\x00 a NUL\x85.\n\tTab.\n", "x.md")
    assert doc.body == "\nFine.\nA bell, an [2Jescape, a NUL.\n\tTab.\n"
    assert [w.format() for w in doc.warnings] == [
        "x.md:6: warning[W341]: control character U+0007 removed from the notes\n"
        "  hint: it is invisible, and no feed or page may hold it; delete it from the file"]
    assert frontmatter.parse("---\ntitle: T\n---\nClean\ttext.\n", "x.md").warnings == ()


def test_a_raw_control_character_in_front_matter_is_an_error_with_a_hint() -> None:
    assert _error("---\ntitle: T\nabstract: a\x07b\n---\n") == (
        "content/papers/x.md:3:12: error[E101]: invalid YAML: control character U+0007 is not allowed\n"
        "  hint: delete the invisible control character from this line")
    assert _error("---\ntitle: T\ntags: [a, \"\x9b\"]\n---\n").startswith(
        "content/papers/x.md:3:12: error[E101]: invalid YAML: control character U+009B is not allowed\n")
