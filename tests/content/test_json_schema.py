"""The JSON Schemas editors read, checked with a real validator: what sitegen accepts they accept, and what
`sitegen check` refuses they refuse."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from sitegen.content import config, frontmatter, json_schema, schema
from sitegen.ingest.scaffold import init_site

from ..site_factory import REPO

REGENERATE = "python -m sitegen.content.json_schema"


def _plain(value: Any) -> Any:
    """A YAML value as an editor's YAML server hands it to the schema: dates as the text they are written as."""
    return json.loads(json.dumps(value, default=lambda v: v.isoformat() if isinstance(v, dt.date) else str(v)))


def _validator(name: str) -> jsonschema.protocols.Validator:
    document = json_schema.documents()[f"{name}.schema.json"]
    jsonschema.Draft202012Validator.check_schema(document)
    return jsonschema.Draft202012Validator(document, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)


def test_the_shipped_schemas_are_the_ones_the_checks_make() -> None:
    for name, document in json_schema.documents().items():
        shipped = (json_schema.SHIPPED / name).read_text(encoding="utf-8")
        assert shipped == json_schema.text(document), f"{name} is stale: run `{REGENERATE}`"


def test_every_bundled_entry_author_file_and_the_settings_validate() -> None:
    entries, authors = _validator("entry"), _validator("author")
    papers = sorted((REPO / "content" / "papers").glob("*.md"))
    assert len(papers) > 100
    for path in papers:
        meta = frontmatter.parse(path.read_text(encoding="utf-8"), path.name).meta
        assert not list(entries.iter_errors(_plain(meta))), path.name
    for path in sorted((REPO / "content" / "authors").glob("*.yaml")):
        assert not list(authors.iter_errors(_plain(yaml.safe_load(path.read_text(encoding="utf-8"))))), path.name
    assert not list(_validator("site").iter_errors(_plain(yaml.safe_load((REPO / "site.yaml").read_text()))))


ENTRY_REFUSED = [
    "authors: [A]\n",  # no title
    "title: ''\n", "title: [a]\n", "title: 2001\n",
    "title: T\nauthors: Alice\n", "title: T\nauthors: ['']\n", "title: T\ntags: [a, 7]\n",
    "title: T\nauthors_truncated: yes please\n", "title: T\nauthor_count: -1\n", "title: T\nauthor_count: 1.5\n",
    "title: T\ndate: soon\n", "title: T\ndate: 2025-13-45\n", "title: T\nadded: 2025-02-30\n",
    "title: T\ncategory: 'cs DC'\n", "title: T\nscore: high\n", "title: T\nupvotes: -3\n",
    "title: T\nlinks: [https://x.org]\n", "title: T\nlinks: {code: 'javascript:alert(1)'}\n",
    "title: T\nlinks: {code: ftp://x.org/a}\n", "title: T\nstatus: readd\n", "title: T\nrating: 6\n",
    "title: T\nrating: 0\n", "title: T\narxiv: 2101.000101\n", "title: T\narxiv: '21010.0010'\n",
    "title: T\ncites: ['2205.14135', not-an-id]\n", "title: T\ncites: 10.1145/x\n", "title: T\ncites: [2205.14135]\n",
    "title: T\ndoi: '10.1234/x}, note = {pwned'\n", "title: T\ndoi: 11.1/x\n", "title: T\ndraft: maybe\n",
    "title: T\nwithdrawn: 1\n", "title: T\nsources: 5\n", "title: T\nsources: [{file: [x.txt]}]\n",
    "title: T\nextra: [a]\n", "title: T\nvenue: [SC]\n",
]


AUTHOR_REFUSED = [
    "h_index: 3\n", "name: X\nh_index: lots\n", "name: X\nnovelty_percent: 167\n", "name: X\nhomepage: javascript:x\n",
    "name: X\nsemantic_scholar: 0\n", "name: X\nsemantic_scholar: 'abc'\n", "name: X\nhuggingface: '-x'\n",
    "name: X\norcid: 0000-0002-1825\n", "name: X\naliases: Ada\n", "name: X\nai_score: high\n",
]


@pytest.mark.parametrize(("kind", "text"), [("entry", t) for t in ENTRY_REFUSED]
                         + [("author", t) for t in AUTHOR_REFUSED])
def test_what_check_refuses_in_an_entry_or_author_file_the_schema_refuses(kind: str, text: str) -> None:
    data, lines = frontmatter.load_yaml(text, "x")
    _, problems = (schema.validate_entry if kind == "entry" else schema.validate_author)(data, lines, "x")
    assert any(p.severity == "error" for p in problems), "check accepts it"
    assert list(_validator(kind).iter_errors(_plain(data))), "the schema accepts it"


SETTINGS_REFUSED = [
    "titel: X\n", "title: [X]\n", "page_size: 0\n", "page_size: many\n", "language: english!\n",
    "base_url: example.org\n", "tags: [a, b]\n", "tags: {agents: {label: A, colour: red}}\n",
    "tags: {agents: {label: [A]}}\n", "tags: {agents: [agent, 7]}\n",
]


@pytest.mark.parametrize("text", SETTINGS_REFUSED)
def test_what_check_refuses_in_the_settings_the_schema_refuses(tmp_path: Path, text: str) -> None:
    (tmp_path / "site.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(config.SitegenError):
        config.load(tmp_path)
    assert list(_validator("site").iter_errors(_plain(yaml.safe_load(text)))), "the schema accepts it"


def test_an_unknown_field_is_marked_as_check_strict_marks_it_and_extra_takes_anything() -> None:
    entries = _validator("entry")
    assert list(entries.iter_errors({"title": "T", "cssclasses": ["wide"]}))
    assert not list(entries.iter_errors({"title": "T", "extra": {"cssclasses": ["wide"], "seen": "2026-01-02"}}))
    assert not list(entries.iter_errors({"title": "T", "tags": None, "date": None}))  # a key left empty is absent


def test_init_wires_the_schemas_up_for_editors(tmp_path: Path) -> None:
    site = tmp_path / "list"
    init_site(site)
    for name in json_schema.NAMES:
        assert (site / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8") == \
            (json_schema.SHIPPED / f"{name}.schema.json").read_text(encoding="utf-8")
    settings = json.loads((site / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert settings["yaml.schemas"] == {"./schemas/site.schema.json": "site.yaml",
                                        "./schemas/author.schema.json": "content/authors/*.yaml"}
    text = (site / "site.yaml").read_text(encoding="utf-8")
    assert text.splitlines()[0] == "# yaml-language-server: $schema=schemas/site.schema.json"
    assert not list(_validator("site").iter_errors(_plain(yaml.safe_load(text))))
    (entry,) = (site / "content" / "papers").glob("*.md")
    assert not list(_validator("entry").iter_errors(_plain(frontmatter.parse(entry.read_text(), entry.name).meta)))
