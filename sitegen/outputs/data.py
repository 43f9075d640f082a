"""`papers.json`: every entry's front matter as JSON, for other tools."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from ..config import SiteConfig
from ..loader import Entry
from ..model import Paper

_SKIP = {"source_path", "notes", "title_html", "abstract_html", "summary_html", "notes_html", "notes_text",
         "digest", "body_line"}


def entry_record(entry: Entry) -> dict[str, Any]:
    """The entry's fields as JSON-ready values; empty ones left out."""
    record: dict[str, Any] = {}
    for f in fields(entry):
        if f.name in _SKIP:
            continue
        value = getattr(entry, f.name)
        if f.name == "links":
            value = dict(value)
        elif f.name == "sources":
            value = [dict(s) for s in value]
        if value in (None, (), [], {}, False, ""):
            continue
        record[f.name] = value
    return record


def papers_json(papers: Iterable[Paper], config: SiteConfig) -> str:
    """A JSON array of every paper, newest first, each with its page URL."""
    out = [entry_record(p.entry) | {"url": config.absolute(p.route), "notes": p.entry.notes} for p in papers]
    return json.dumps(out, ensure_ascii=False, indent=1, default=str, sort_keys=True) + "\n"
