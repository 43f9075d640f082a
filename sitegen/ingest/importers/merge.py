"""Merge sightings of the same paper into entry fields, and merge those into existing entries.

Pure functions: no file access. The importer owns the fields it derives from dumps;
a field a person has changed is never overwritten (see `merge_into`).
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from ...content.tagging import Tagger
from .common import ParsedDump, RawPaper, code_link

ORDER = ("title", "authors", "authors_truncated", "author_count", "organization", "date", "category",
         "tags", "score", "upvotes", "links", "arxiv", "doi", "venue", "withdrawn", "cites", "status", "rating",
         "draft", "enrich", "added", "abstract", "sources")


@dataclass(frozen=True)
class Sighting:
    """A paper as one dump shows it."""

    paper: RawPaper
    dump: ParsedDump


def title_key(title: str) -> str:
    """Identity of a title: case, punctuation, white space and '\\&' do not matter."""
    text = unicodedata.normalize("NFKC", title).replace("\\&", "&").casefold()
    return " ".join(re.sub(r"[^\w\s]|_", " ", text).split())


def source_record(sighting: Sighting) -> dict[str, Any]:
    """What one dump said about the paper: a dated record of the aggregator's signals."""
    paper, dump = sighting.paper, sighting.dump
    record: dict[str, Any] = {
        "file": dump.path.rsplit("/", 1)[-1],
        "format": dump.format,
        "captured": dump.captured,
        "line": paper.line,
        "title": paper.title,
    }
    optional = {
        "date": paper.date, "category": paper.category, "score": paper.score,
        "upvotes": paper.upvotes, "author_count": paper.author_count,
        "organization": paper.organization, "organization_id": paper.organization_id,
    }
    record.update({k: v for k, v in optional.items() if v is not None})
    if paper.has_code:
        record["code"] = True
    return record


def imported_fields(sightings: list[Sighting], tagger: Tagger) -> dict[str, Any]:
    """The entry fields the importer derives from every sighting of one paper."""
    papers = [s.paper for s in sightings]
    by_capture = sorted(sightings, key=lambda s: (s.dump.captured, s.dump.path))
    first = papers[0]
    fields: dict[str, Any] = {"title": first.title}
    profiled = [p for p in papers if p.authors]
    fields["authors"] = list(profiled[0].authors) if profiled else []
    if profiled:
        fields["authors_truncated"] = bool(profiled[0].authors_truncated)
    _latest(fields, "author_count", [s.paper.author_count for s in by_capture])
    _latest(fields, "organization", [s.paper.organization for s in by_capture])
    dated = sorted((p for p in papers if p.date), key=lambda p: not p.date_has_year)
    if dated:
        fields["date"] = dated[0].date
    category = next((p.category for p in papers if p.category), None)
    abstract = max((p.abstract for p in papers), key=len)
    fields["category"] = category
    fields["tags"] = tagger.tags_for(first.title, abstract) + ([category] if category else [])
    fields["score"] = next((p.score for p in papers if p.score is not None), None)
    _latest(fields, "upvotes", [s.paper.upvotes for s in by_capture])
    code = next((url for url in (code_link(p.abstract) for p in papers) if url), None)
    if code:
        fields["links"] = {"code": code}
    fields["added"] = min(s.dump.captured for s in sightings)
    fields["abstract"] = abstract
    records: dict[str, dict[str, Any]] = {}
    for sighting in sightings:
        record = source_record(sighting)
        records.setdefault(record["file"], record)
    fields["sources"] = sorted(records.values(), key=lambda r: (r["captured"], r["file"]))
    return {k: v for k, v in fields.items() if v is not None}


def _latest(fields: dict[str, Any], key: str, values: list[Any]) -> None:
    present = [v for v in values if v is not None]
    if present:
        fields[key] = present[-1]


def fingerprint(value: Any) -> str:
    """A short stable hash of a field value, to tell later whether a person changed it."""
    text = json.dumps(value, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def merge_into(existing: dict[str, Any], imported: dict[str, Any], state: dict[str, str],
               update: bool) -> tuple[dict[str, Any], dict[str, str]]:
    """Merge freshly imported fields into an entry's front matter without losing edits.

    A missing field is added (deleting a field is how a curator asks for the dump's value
    back), except a count or truncation mark of authors that the curator's own complete author
    list makes moot. A field still equal to what the importer last wrote (its fingerprint in
    `state`) is refreshed only with `update`; anything else is the curator's and stays. New
    dumps are appended to `sources`.
    """
    meta = dict(existing)
    new_state = dict(state)
    for key, value in imported.items():
        if key == "sources":
            meta["sources"] = _merge_sources(meta.get("sources"), value, update)
            continue
        if key not in meta and _moot(key, meta, imported, state):
            continue
        if key == "links" and isinstance(meta.get(key), dict):  # add missing kinds of link
            unedited = state.get(key) == fingerprint(meta[key])
            meta[key] = value if update and unedited else {**value, **meta[key]}
            if unedited:
                new_state[key] = fingerprint(meta[key])
            continue
        if key not in meta or meta[key] == value or (update and state.get(key) == fingerprint(meta[key])):
            meta[key] = value
            new_state[key] = fingerprint(value)
    return ordered(meta), new_state


def _moot(key: str, meta: dict[str, Any], imported: dict[str, Any], state: dict[str, str]) -> bool:
    """A listing's "N authors" and a profile's truncation mark say nothing once the curator typed all N names."""
    if key not in ("author_count", "authors_truncated"):
        return False
    authors = meta.get("authors")
    if not isinstance(authors, list) or not authors or state.get("authors") == fingerprint(authors):
        return False
    count = imported.get("author_count")
    return not isinstance(count, int) or len(authors) >= count


def _merge_sources(current: Any, new: list[dict[str, Any]], update: bool) -> list[dict[str, Any]]:
    if not isinstance(current, list):
        return new
    merged = {str(r["file"]): r for r in current if isinstance(r, dict) and "file" in r}
    for record in new:
        if record["file"] not in merged or update:
            merged[record["file"]] = record
    # records of other kinds (an API's provenance, a hand-written note) are kept as they are, after the dumps'
    extra = [r for r in current if not (isinstance(r, dict) and "file" in r)]
    return sorted(merged.values(), key=lambda r: (str(r.get("captured")), str(r.get("file")))) + extra


def ordered(meta: dict[str, Any]) -> dict[str, Any]:
    """Known fields in their documented order, anything else after them as it came."""
    known = {k: meta[k] for k in ORDER if k in meta}
    return known | {k: v for k, v in meta.items() if k not in known}
