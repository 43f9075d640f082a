"""Whatever YAML an entry or author file holds, `sitegen check` answers with diagnostics, never a traceback.

Documents are made of random nested values under the schema's own field names (and odd
ones: numbers, nothing, true as keys), dumped as YAML and read the way `sitegen check`
reads each file: `loader.entry_from_text` and `loader.load_profile`. An entry that passes
is clean: no control character left in it, and its citations and data are written.
"""

from __future__ import annotations

import datetime as dt
import re
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sitegen.common.errors import Diagnostic, Report
from sitegen.content import config as site_config
from sitegen.content import schema
from sitegen.content.loader import AuthorProfile, Entry, entry_from_text, load_profile
from sitegen.model.site import Paper
from sitegen.render.outputs import citations, data

CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=20)
_SCALARS = st.one_of(
    _TEXT, st.sampled_from(["", " ", "x", "2101.00010", "10.1145/1.2", "cs.DC", "https://x.org/", "read", "\x1b[2J"]),
    st.integers(), st.integers(-(10**40), 10**40), st.floats(), st.booleans(), st.none(),
    st.dates(dt.date(1, 1, 1)), st.datetimes(dt.datetime(1, 1, 1)),
)
_KEYS = st.one_of(_TEXT, st.integers(-5, 5), st.none(), st.booleans(), st.dates(dt.date(2000, 1, 1)))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.dictionaries(_KEYS, inner, max_size=3)), max_leaves=10)


def _fields(names: list[str]) -> st.SearchStrategy[dict[Any, Any]]:
    return st.dictionaries(st.one_of(st.sampled_from(names), _KEYS), _VALUES, max_size=6)


def _dump(document: dict[Any, Any]) -> str:
    return yaml.safe_dump(document, allow_unicode=True, sort_keys=False)


def _check(diagnostics: list[Diagnostic], path: str) -> None:
    for d in diagnostics:
        assert d.location.path == path and d.location.line >= 1 and re.fullmatch(r"[EW]\d{3}", d.code), d
        assert not CONTROL.search(d.format()), d  # a terminal would obey it


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (tuple, list)):
        return [s for item in value for s in _strings(item)]
    return []


def _clean(record: Entry | AuthorProfile) -> None:
    for name, value in vars(record).items():
        for text in _strings(value):
            assert not CONTROL.search(text.replace("\n", "").replace("\t", "")), (name, text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_fields(list(schema.ENTRY_FIELDS)), st.one_of(st.none(), _TEXT), _TEXT)
@example({"title": "T", "sources": [{1: "a", "b": "c"}]}, None, "")
@example({"title": "T", "sources": 5, "tags": {"a": 1}, "authors": 5, 1: "x", None: "y"}, None, "")
@example({"title": "T", "author_count": 10**30, "score": float("nan"), "links": {None: "https://x.org"}}, None, "")
@example({"title": "T\x07", "\x1b[2J": 1}, None, "a\x00b\x1bc")
def test_any_entry_front_matter_gives_diagnostics_or_a_clean_entry(
        fields: dict[Any, Any], title: str | None, body: str) -> None:
    if title is not None:
        fields.setdefault("title", title)
    path = "content/papers/x.md"
    report = Report()
    entry = entry_from_text(f"---\n{_dump(fields)}---\n{body}", path, "x", report)
    _check(report.items, path)
    assert (entry is None) == report.has_errors
    if entry is not None:
        _clean(entry)
        paper = Paper(entry, "papers/x/", (), (), None, "x2024")
        cfg = site_config.SiteConfig()
        citations.bibtex([paper], cfg), citations.ris([paper], cfg), citations.csl_json([paper], cfg)
        data.papers_json([paper], cfg)


@settings(max_examples=200, deadline=None)
@given(_fields(list(schema.AUTHOR_FIELDS)), st.one_of(st.none(), _TEXT))
@example({"name": "Ann", "aliases": {"a": 1}, "h_index": 10**30, None: 1}, None)
@example({"name": "Ann\x1b Lee", "aliases": ["\x07"]}, None)
def test_any_author_file_gives_diagnostics_or_a_clean_profile(fields: dict[Any, Any], name: str | None) -> None:
    if name is not None:
        fields.setdefault("name", name)
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        path = root / "content" / "authors" / "a.yaml"
        path.parent.mkdir(parents=True)
        path.write_text(_dump(fields), encoding="utf-8")
        report = Report()
        profile = load_profile(path, root, report)
    _check(report.items, "content/authors/a.yaml")
    assert (profile is None) == report.has_errors
    if profile is not None:
        _clean(profile)
