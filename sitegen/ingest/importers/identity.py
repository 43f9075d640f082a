"""Which sightings are one paper, and which existing entry a paper already is: only on evidence.

A title key that ignores punctuation ('C++ …' and 'C# …' are both 'c …') only finds
candidates; it never decides alone. A sighting is a paper already known when

- that paper's entry records this very dump file with this exact title (a re-import), or
- their titles are equal but for case and spacing, and their abstracts or dates agree, or
- their titles are equal but for punctuation, and their abstracts are the same.

Anything else is a different paper, even under the same title.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...common.errors import Location
from ...content.slugs import short_hash
from .common import ParsedDump, RawPaper
from .merge import Sighting, title_key


def strict_key(title: str) -> str:
    """A title as written, but for case, spacing, Unicode composition and the '\\&' escape."""
    return " ".join(unicodedata.normalize("NFC", title).replace("\\&", "&").casefold().split())


def abstract_key(text: str) -> str:
    """An abstract but for spacing and Unicode composition."""
    return " ".join(unicodedata.normalize("NFC", text).split())


@dataclass(eq=False)
class Paper:
    """One paper: an existing entry (`entry` is its index) or one first seen in this import."""

    label: str
    location: Location
    entry: int | None = None
    sightings: list[Sighting] = field(default_factory=list)
    titles: set[str] = field(default_factory=set)
    loose: set[str] = field(default_factory=set)
    abstracts: set[str] = field(default_factory=set)
    dates: set[dt.date] = field(default_factory=set)
    records: set[tuple[str, str]] = field(default_factory=set)

    def similar_keys(self) -> set[str]:
        """What a similar title is looked up by: exact titles and non-empty punctuation-free keys."""
        return self.titles | {key for key in self.loose if key}

    def same_paper(self, paper: RawPaper, file: str) -> bool:
        strict, abstract = strict_key(paper.title), abstract_key(paper.abstract)
        if (file, strict) in self.records:
            return True
        same_abstract = bool(abstract) and abstract in self.abstracts
        if strict in self.titles and (same_abstract or (paper.date is not None and paper.date in self.dates)):
            return True
        loose = title_key(paper.title)
        return bool(loose) and loose in self.loose and same_abstract

    def add(self, sighting: Sighting) -> None:
        paper = sighting.paper
        self.sightings.append(sighting)
        self.titles.add(strict_key(paper.title))
        self.loose.add(title_key(paper.title))
        self.abstracts.add(abstract_key(paper.abstract))
        if paper.date is not None:
            self.dates.add(paper.date)


def known_entry(index: int, meta: dict[str, Any], label: str, location: Location) -> Paper:
    """What an entry's front matter tells of its identity: its titles, abstract, dates and sources."""
    known = Paper(label, location, entry=index)
    titles = [meta.get("title")]
    sources = meta.get("sources")
    for record in sources if isinstance(sources, list) else []:
        if isinstance(record, dict):
            titles.append(record.get("title"))
            if isinstance(record.get("title"), str) and isinstance(record.get("file"), str):
                known.records.add((record["file"], strict_key(record["title"])))
            if isinstance(record.get("date"), dt.date):
                known.dates.add(record["date"])
    for title in titles:
        if isinstance(title, str):
            known.titles.add(strict_key(title))
            known.loose.add(title_key(title))
    if isinstance(meta.get("abstract"), str) and meta["abstract"].strip():
        known.abstracts.add(abstract_key(meta["abstract"]))
    if isinstance(meta.get("date"), dt.date):  # a hand-edited date may be anything, even a list
        known.dates.add(meta["date"])
    return known


class Papers:
    """The papers of an import, existing and new, with an index of similar titles."""

    def __init__(self, known: Iterable[Paper]):
        self.all: list[Paper] = []
        self._order: dict[int, int] = {}  # id(paper) -> its place in `all`
        self._similar: dict[str, dict[int, Paper]] = {}
        for paper in known:
            self._add(paper)

    def _add(self, paper: Paper) -> None:
        if id(paper) not in self._order:
            self._order[id(paper)] = len(self.all)
            self.all.append(paper)
        for key in paper.similar_keys():
            self._similar.setdefault(key, {})[id(paper)] = paper

    def assign(self, dumps: list[ParsedDump]) -> None:
        """Attach each sighting, in file then line order, to the first paper it has evidence for."""
        for dump in sorted(dumps, key=lambda d: d.path):
            file = dump.path.rsplit("/", 1)[-1]
            for raw in dump.papers:
                found = next((p for p in self._candidates(raw.title) if p.same_paper(raw, file)), None)
                if found is None:
                    found = Paper(raw.title, Location(dump.path, raw.line))
                found.add(Sighting(raw, dump))
                self._add(found)

    def _candidates(self, title: str) -> list[Paper]:
        seen: dict[int, Paper] = {}
        for key in (strict_key(title), title_key(title)):
            seen.update(self._similar.get(key, {}))
        return sorted(seen.values(), key=self._place) if len(seen) > 1 else list(seen.values())

    def imported(self) -> list[Paper]:
        """The papers this import saw, existing ones first, new ones in the order first seen."""
        return [p for p in self.all if p.sightings]

    def look_alike(self, paper: Paper) -> Paper | None:
        """An earlier paper (existing, or new but first seen before) with the same title but for case,
        spacing or punctuation: the one a reader would take this one for."""
        place = self._place(paper)
        others = {id(p): p for key in paper.similar_keys() for p in self._similar.get(key, {}).values()
                  if self._place(p) < place}
        return min(others.values(), key=self._place) if others else None

    def _place(self, paper: Paper) -> int:
        return self._order[id(paper)]


def state_keys(general: str, *identity: str) -> list[str]:
    """Import-state keys for one paper or author, most general first, then ones told apart by a hash."""
    return [general] + [f"{general} #{short_hash(chr(10).join(identity[:n]))}" for n in range(1, len(identity) + 1)]


def choose_key(keys: list[str], state: dict[str, Any], used: set[str], existing: bool) -> str:
    """The state key of an existing item (the most specific one recorded) or a new one (the first free)."""
    if existing:
        recorded = [k for k in reversed(keys) if k in state and k not in used]
        if recorded:
            return recorded[0]
    free = [k for k in keys if k not in state and k not in used]
    if free:
        return free[0]
    n = 2
    while f"{keys[-1]}-{n}" in state or f"{keys[-1]}-{n}" in used:
        n += 1
    return f"{keys[-1]}-{n}"
