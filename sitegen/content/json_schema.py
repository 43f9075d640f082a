"""JSON Schemas of an entry's front matter, an author file and `site.yaml`, made from the checks `sitegen check` runs.

Editors that read JSON Schema (yaml-language-server through a `$schema` modeline or VS Code's
`yaml.schemas`) then complete field names and mark mistakes while a curator types. The schemas
are made from `schema.ENTRY_FIELDS`, `schema.AUTHOR_FIELDS` (each checker carries the fragment
of what it accepts) and `config.SETTINGS_SCHEMA`; the copies shipped in `schemas/` are written
by `python -m sitegen.content.json_schema` and a test keeps them equal to what this makes.
A few checks are beyond JSON Schema (an ORCID iD's check digit, a tag named like an arXiv
category, a date that does not exist is left to the `date` format): there the schema accepts
more than `sitegen check` does, never less.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from . import config, schema

DIALECT = "https://json-schema.org/draft/2020-12/schema"
SHIPPED = Path(__file__).parent / "schemas"
NAMES = ("entry", "author", "site")


def _fields(fields: dict[str, schema.Checker], required: tuple[str, ...]) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    for name, checker in fields.items():
        fragment = getattr(checker, "json_schema")  # noqa: B009 - set by field_checks.described
        # a key with no value is left out, as if absent (but a required one)
        properties[name] = fragment if name in required else {"anyOf": [fragment, {"type": "null"}]}
    return properties


def entry() -> dict[str, Any]:
    return _document("A paper's front matter in content/papers/*.md", _fields(
        schema.ENTRY_FIELDS, schema.REQUIRED_ENTRY), list(schema.REQUIRED_ENTRY))


def author() -> dict[str, Any]:
    return _document("An author file, content/authors/*.yaml", _fields(
        schema.AUTHOR_FIELDS, schema.REQUIRED_AUTHOR), list(schema.REQUIRED_AUTHOR))


def site() -> dict[str, Any]:
    return _document("A reading list's settings, site.yaml", dict(config.SETTINGS_SCHEMA), [])


def _document(title: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"$schema": DIALECT, "title": title,
            "type": "object", "properties": properties, "required": required,
            # an unknown key is a warning of `sitegen check` (an error under --strict): marked here too
            "additionalProperties": False}


def documents() -> dict[str, dict[str, Any]]:
    """Each schema by file name."""
    made = {"entry": entry(), "author": author(), "site": site()}
    return {f"{name}.schema.json": made[name] for name in NAMES}


def text(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def main(folder: Path = SHIPPED) -> None:
    """Write the schemas into `folder` (the package's copies by default)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, document in documents().items():
        (folder / name).write_text(text(document), encoding="utf-8", newline="")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else SHIPPED)
