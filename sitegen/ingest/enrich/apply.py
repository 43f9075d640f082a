"""Write what a lookup found into an entry's front matter, never over a curator's edit.

A field is the tools' to change when its value is still what a tool last wrote there:
its fingerprint is in `import-state.json`, under the entry's enrichment key or under the
importer's key for the entry. Anything else is the curator's and stays. An empty field is
filled; a truncated author list a tool wrote becomes the full list; `refresh` lets newer
data replace what a tool wrote (a preprint that gained a publisher DOI). Names the importer
wrote are respelled as the paper writes them when each is surely one of its authors
(`names`). Nothing is ever removed. Pure functions: no file access.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from ..importers.identity import abstract_key, state_keys, strict_key
from ..importers.merge import fingerprint, ordered, title_key
from .names import importers_list
from .record import Record
from .withdrawn import is_notice

LINK_KINDS = ("pdf", "abs", "hf", "code", "project")
AUTHOR_FIELDS = ("authors", "authors_truncated", "author_count")
# Fields a lookup may write, in the order they are considered.
FIELDS = ("title", "authors", "authors_truncated", "author_count", "date", "category", "arxiv", "doi", "venue",
          "withdrawn", "abstract")


@dataclass(frozen=True)
class Found:
    """The paper a lookup settled on for one entry, and how it was matched (for the provenance record)."""

    record: Record
    how: str
    score: float
    retrieved: dt.date


@dataclass
class Applied:
    """An entry's front matter after a lookup, the fingerprints to remember, and what changed."""

    meta: dict[str, Any]
    state: dict[str, str]
    changed: list[str] = field(default_factory=list)
    respelled: tuple[tuple[str, str], ...] = ()  # each name the importer wrote, replaced, and the paper's spelling
    kept: tuple[str, ...] = ()  # the importer's names with no single counterpart, for which its list stayed


def enrich_key(slug: str) -> str:
    """The import-state key under which enrichment remembers what it wrote into an entry."""
    return f"enrich:{slug}"


def importer_fingerprints(meta: dict[str, Any], state: dict[str, dict[str, str]]) -> dict[str, set[str]]:
    """Field -> fingerprints the importer recorded for this entry (under any key its title and abstract give)."""
    title, abstract = meta.get("title"), meta.get("abstract")
    if not isinstance(title, str):
        return {}
    keys = state_keys(title_key(title), strict_key(title), abstract_key(abstract if isinstance(abstract, str) else ""))
    found: dict[str, set[str]] = {}
    for key in keys:
        for name, value in state.get(key, {}).items():
            found.setdefault(name, set()).add(value)
    return found


def _partial_date(record: Record) -> str | int | None:
    """The year, or year and month, a source gives without a day (a .bib's `year`), as an entry writes it."""
    if not record.year:
        return None
    return f"{record.year:04d}-{record.month:02d}" if record.month else record.year


def entry_fields(record: Record) -> dict[str, Any]:
    """The entry fields a record gives (only those it knows).

    A withdrawal notice in place of the abstract, from any source, is no abstract: the entry
    keeps the one it has, and says `withdrawn: true` (never false: a withdrawal is not undone).
    """
    notice = is_notice(record.abstract)
    fields: dict[str, Any] = {
        "title": record.title, "date": record.date or _partial_date(record), "category": record.category,
        "arxiv": record.arxiv, "doi": record.doi, "venue": record.venue, "abstract": "" if notice else record.abstract,
        "withdrawn": True if record.withdrawn or notice else None,
    }
    if record.authors:
        fields["authors"] = [a.name for a in record.authors]
        fields["authors_truncated"] = False
        fields["author_count"] = len(record.authors)
    return {k: v for k, v in fields.items() if v not in (None, "", [])}


def apply(meta: dict[str, Any], found: Found, mine: dict[str, str], imported: dict[str, set[str]],
          refresh: bool = False) -> Applied:
    """`meta` with what `found` adds; `mine`: the fingerprints enrichment recorded for this entry."""
    result = Applied(dict(meta), dict(mine))
    new = entry_fields(found.record)
    fuller = _fuller_authors(meta, new, mine, imported)
    respelled = importers_list(meta, new.get("authors"), imported)
    whole = respelled is not None and not respelled.left  # every name the importer wrote is one of the paper's
    for name in FIELDS:
        current = meta.get(name)
        if name not in new or current == new[name]:
            continue
        empty = current in (None, "", [], {})
        tools = _written_by_a_tool(current, mine.get(name), imported.get(name, set()))
        if name == "arxiv":
            ok = empty  # a hand-set id pins the match; a tool-set one is this same paper's
        elif name in AUTHOR_FIELDS:
            ok = fuller or whole or (refresh and tools)
        else:
            ok = empty or (refresh and tools)
        if ok:
            result.meta[name] = new[name]
            result.state[name] = fingerprint(new[name])
            result.changed.append(name)
    if respelled is not None:
        replaced = "authors" in result.changed
        result.respelled, result.kept = (respelled.pairs, ()) if replaced else ((), respelled.left)
    _add_links(result, found.record)
    _add_provenance(result, found)
    result.meta = ordered(result.meta)
    return result


def _written_by_a_tool(value: Any, mine: str | None, imported: set[str]) -> bool:
    """Whether a field still holds what enrichment or the importer last wrote there."""
    if value is None:
        return True
    print_ = fingerprint(value)
    return print_ == mine or print_ in imported


def _fuller_authors(meta: dict[str, Any], new: dict[str, Any], mine: dict[str, str],
                    imported: dict[str, set[str]]) -> bool:
    """Whether the record's author list should replace the entry's: the entry's is a tool's, and short."""
    names = new.get("authors")
    current = meta.get("authors")
    if not names:
        return False
    if not isinstance(current, list) or not current:
        return True
    if not _written_by_a_tool(current, mine.get("authors"), imported.get("authors", set())):
        return False
    truncated = meta.get("authors_truncated") is True
    count = meta.get("author_count")
    return truncated or len(names) > len(current) or (isinstance(count, int) and count > len(current))


def _add_links(result: Applied, record: Record) -> None:
    """Kinds of link the entry lacks are added; a link already there, by hand or not, stays."""
    links = result.meta.get("links")
    current = dict(links) if isinstance(links, dict) else {}
    added = {kind: url for kind, url in record.links if kind in LINK_KINDS and kind not in current}
    if added:
        result.meta["links"] = current | added
        result.changed.append("links")


def _add_provenance(result: Applied, found: Found) -> None:
    """One source record per API: where the identity came from, when, and how sure.

    A record of the same API and paper is kept as it is unless this lookup changed a field,
    so running enrich again rewrites nothing.
    """
    record = found.record
    sources = result.meta.get("sources")
    before = [s for s in sources if isinstance(s, dict)] if isinstance(sources, list) else []
    same = [s for s in before if s.get("api") == record.source and s.get("id") == record.id]
    if same and not result.changed:
        return
    provenance = {"api": record.source, "id": record.id, "retrieved": found.retrieved, "match": found.how,
                  "score": round(found.score, 1)}
    kept = [s for s in sources if not (isinstance(s, dict) and s.get("api") == record.source)] \
        if isinstance(sources, list) else []
    result.meta["sources"] = [*kept, provenance]
    result.changed.append("sources")
