"""Papers found by id, written as entries: the entry of the same paper found, a curator's edits kept.

`sitegen import 2407.13168` (and a DOI, a .bib file, a Daily Papers listing) ends here with
one merged Record per paper. An entry is already that paper when it names the same arXiv id
or DOI, or, by the dump importer's rules (`importers.identity`), has the same title with an
agreeing abstract or date, and no id that says otherwise. A field is filled when empty; one
a tool wrote (its fingerprint under the entry's `enrich:<slug>` key or the importer's keys
in import-state.json) is refreshed only with `--update`; anything else is the curator's and
stays. Comments in the front matter are kept, and the notes below it byte for byte. Pure
planning: nothing here writes a file.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...common.errors import Location, Report, relpath
from ...content import frontmatter
from ...content.files import entry_files
from ...content.rewrite import rewritten
from ...content.slugs import slugify, unique_slug
from ...content.tagging import Tagger
from ..importers.common import RawPaper
from ..importers.identity import Paper, abstract_key, known_entry, strict_key
from ..importers.merge import fingerprint, ordered, title_key
from .apply import LINK_KINDS, _fuller_authors, _written_by_a_tool, entry_fields
from .identifiers import arxiv_key
from .names import importers_list
from .record import Record

EMPTY: tuple[Any, ...] = (None, "", [], {})
AUTHOR_FIELDS = frozenset({"authors", "authors_truncated", "author_count"})
ONLY_WHEN_EMPTY = frozenset({"arxiv", "added"})  # a hand-set id pins the paper; `added` is when it first came


@dataclass
class Entry:
    """An entry as planned: its file, its front matter so far, and the text it was read from ('' when new)."""

    path: Path
    shown: str
    meta: dict[str, Any]
    text: str = ""
    line: int = 1  # of its title, for messages
    new: bool = False
    notes: str = ""  # a new entry's notes (`sitegen new --notes`)

    @property
    def slug(self) -> str:
        return self.path.stem


@dataclass(frozen=True)
class Imported:
    """One paper to import: its merged record, the records it came from, and how the user named it."""

    record: Record
    records: tuple[Record, ...]
    how: str
    where: Location
    truncated: bool = False  # its author list is a .bib's, cut short with `and others`


@dataclass
class Merged:
    """Front matter after a merge, the fingerprints to remember, and the fields that changed."""

    meta: dict[str, Any]
    state: dict[str, str]
    changed: list[str] = field(default_factory=list)
    respelled: tuple[tuple[str, str], ...] = ()  # as `apply.Applied`: the importer's names replaced, respelled


def read_entries(folder: Path, root: Path, report: Report) -> list[Entry]:
    """Every entry of the site; one that cannot be read is an error (whether it is the paper cannot be told)."""
    return [Entry(f.path, f.shown, f.doc.meta, f.text, f.doc.key_lines.get("title", 1))
            for f in entry_files(folder, root, report)]


def _id_keys(arxiv: object, doi: object) -> list[str]:
    keys = [f"arxiv:{arxiv_key(str(arxiv))}"] if arxiv else []
    return keys + ([f"doi:{str(doi).casefold()}"] if doi else [])


def _contradicts(meta: dict[str, Any], record: Record) -> bool:
    """Whether the entry names another arXiv id or DOI than the record: then no title makes them one paper."""
    arxiv, doi = meta.get("arxiv"), meta.get("doi")
    if arxiv and record.arxiv and arxiv_key(str(arxiv)) != arxiv_key(record.arxiv):
        return True
    return bool(doi and record.doi and str(doi).casefold() != record.doi.casefold())


class Catalog:
    """The site's entries (and those this import plans), found by arXiv id, DOI or the importer's title rules."""

    def __init__(self, entries: list[Entry]):
        self.entries: list[Entry] = []
        self._ids: dict[str, Entry] = {}
        self._titles: dict[str, list[tuple[Entry, Paper]]] = {}
        for entry in entries:
            self.add(entry)

    def add(self, entry: Entry) -> None:
        self.entries.append(entry)
        self.note_ids(entry)
        title = entry.meta.get("title")
        label = title if isinstance(title, str) else entry.slug
        paper = known_entry(len(self.entries) - 1, entry.meta, label, Location(entry.shown, entry.line))
        for key in paper.similar_keys():
            self._titles.setdefault(key, []).append((entry, paper))

    def note_ids(self, entry: Entry) -> None:
        """Index the entry under its arXiv id and DOI (again after a merge gave it one); the first entry wins."""
        for key in _id_keys(entry.meta.get("arxiv"), entry.meta.get("doi")):
            self._ids.setdefault(key, entry)

    def find(self, record: Record) -> Entry | None:
        """The entry of the record's paper, or None when it is not on the list yet."""
        for key in _id_keys(record.arxiv, record.doi):
            if key in self._ids:
                return self._ids[key]
        raw = RawPaper(record.title, record.abstract, 0, date=record.date)
        for key in dict.fromkeys((strict_key(record.title), title_key(record.title))):
            for entry, paper in self._titles.get(key, []):
                if not _contradicts(entry.meta, record) and paper.same_paper(raw, ""):
                    return entry
        return None

    def taken(self) -> set[str]:
        return {entry.slug for entry in self.entries}


def fields_for(item: Imported, tagger: Tagger, today: dt.date) -> dict[str, Any]:
    """The entry fields a paper gives: its identity, tags through the site's tag map, signals, links, `added`.

    Hugging Face's keywords and a .bib's `keywords` are matched against the tag map with the
    title and abstract (the schema has no field for them); the arXiv category is a tag too,
    as the dump importer makes it.
    """
    record = item.record
    fields = entry_fields(record)
    if item.truncated and "authors" in fields:
        fields["authors_truncated"] = True
        del fields["author_count"]  # `and others`: how many there are is not known
    tags = tagger.tags_for(record.title, record.abstract, *record.keywords)
    fields["tags"] = list(dict.fromkeys(tags + ([record.category] if record.category else [])))
    if record.upvotes is not None:
        fields["upvotes"] = record.upvotes
    if record.organization:
        fields["organization"] = record.organization
    links = {kind: url for kind, url in record.links if kind in LINK_KINDS}
    if links:
        fields["links"] = links
    fields["added"] = today
    return fields


def merge(meta: dict[str, Any], fields: dict[str, Any], mine: dict[str, str], imported: dict[str, set[str]],
          update: bool, settled: bool = False) -> Merged:
    """`meta` with what `fields` adds; `mine`: the fingerprints recorded under the entry's enrich key.

    `settled`: the matcher takes the paper for the entry's, so the names the importer wrote may be respelled.
    """
    result = Merged(dict(meta), dict(mine))
    fuller = _fuller_authors(meta, fields, mine, imported)
    respelled = importers_list(meta, fields.get("authors"), imported) if settled else None
    fuller = fuller or (respelled is not None and not respelled.left)
    for name, value in fields.items():
        current = meta.get(name)
        if name == "links" or current == value:
            continue
        tools = _written_by_a_tool(current, mine.get(name), imported.get(name, set()))
        if name in ONLY_WHEN_EMPTY:
            ok = current in EMPTY
        elif name in AUTHOR_FIELDS:
            ok = fuller or (update and tools)
        else:
            ok = current in EMPTY or (update and tools)
        if ok:
            result.meta[name] = value
            result.state[name] = fingerprint(value)
            result.changed.append(name)
    if respelled is not None and "authors" in result.changed:
        result.respelled = respelled.pairs
    _add_links(result, fields.get("links", {}))
    return result


def _add_links(result: Merged, links: dict[str, str]) -> None:
    """Kinds of link the entry lacks are added; a link already there, by hand or not, stays."""
    current = result.meta.get("links")
    if current is not None and not isinstance(current, dict):
        return  # not a mapping: the curator's to mend, `sitegen check` says so
    have = dict(current or {})
    added = {kind: url for kind, url in links.items() if kind not in have}
    if added:
        result.meta["links"] = have | added
        result.changed.append("links")


def add_provenance(result: Merged, item: Imported, today: dt.date) -> None:
    """One `sources` record per API the paper came from; kept as they are when nothing else changed."""
    sources = result.meta.get("sources")
    if sources is not None and not isinstance(sources, list):
        return
    before = list(sources or [])
    apis = {r.source: r for r in reversed(item.records)}  # the first record of each API wins
    have = {(s.get("api"), s.get("id")) for s in before if isinstance(s, dict)}
    if not result.changed and all((api, r.id) in have for api, r in apis.items()):
        return
    kept = [s for s in before if not (isinstance(s, dict) and s.get("api") in apis)]
    fresh = [{"api": api, "id": r.id, "retrieved": today, "match": item.how}
             for api, r in sorted(apis.items(), key=lambda kv: item.records.index(kv[1]))]
    result.meta["sources"] = kept + fresh
    result.changed.append("sources")


def new_entry(folder: Path, root: Path, record: Record, taken: set[str]) -> tuple[Entry, str]:
    """An empty entry for a paper not on the list, named by the importer's slug rules, and the base slug asked for."""
    base = slugify(record.title)
    slug = unique_slug(base, taken, strict_key(record.title) + "\n" + abstract_key(record.abstract))
    path = folder / f"{slug}.md"
    return Entry(path, relpath(path, root), {}, new=True), base


def render(entry: Entry) -> str:
    """The entry's text: new front matter with the curator's comments kept, then the notes exactly as written."""
    meta = ordered(entry.meta)
    return frontmatter.render(meta, entry.notes) if entry.new else rewritten(entry.text, meta)
