"""`cites:`, the papers an entry's paper cites, from Semantic Scholar, written once its arXiv id or DOI is known.

The list is of ids as entries write them (an arXiv id, else a DOI), so a page can link
the papers of the list that an entry cites. It is asked for after the resolving batches
of a run, for every entry with an id and no `cites:` yet (or all of them with `refresh`),
500 to a request, and each request's entries are written together with the import state,
all or nothing. The list is the tools' to rewrite only while its fingerprint is what
enrich last wrote there: a list typed or edited by hand stays, and is not asked about.
A paper Semantic Scholar knows but whose references name no id gets `cites: []`, and one it
does not know is remembered in the import state by the id it was asked by (UNKNOWN), so the
next run asks about neither again (with `refresh` it does, and once the entry's id changes).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...common.errors import Location, Report
from ...content.field_checks import DOI
from ...content.files import entry_files
from ...content.rewrite import rewritten
from ..importers.merge import fingerprint, ordered
from .apply import enrich_key
from .arxiv import normalize_id
from .s2 import BATCH, References

FIELD = "cites"
UNKNOWN = "cites-unknown"  # in an entry's import state: the id Semantic Scholar knew no paper by
Ask = Callable[[list[str]], dict[str, References] | None]  # the answers by id asked; None once S2 is dropped
Write = Callable[[dict[Path, str]], None]


@dataclass(frozen=True)
class Entry:
    """An entry as the resolving batches left it (written, or in a dry run as it would be)."""

    path: Path
    shown: str
    text: str
    meta: dict[str, Any]


@dataclass
class Citations:
    """What the phase did: entries given `cites:` (with how many papers), and those Semantic Scholar's drop left."""

    asked: bool = False  # the phase ran (Semantic Scholar among the sources, citations not turned off)
    written: list[tuple[str, int]] = field(default_factory=list)
    refused: dict[str, tuple[str, ...]] = field(default_factory=dict)  # entry -> ids given that are not ids
    not_asked: int = 0


def entries(root: Path, written: dict[Path, tuple[str, dict[str, Any]]]) -> list[Entry]:
    """Every entry that reads, as this run left it: `written` holds the text and front matter of those it rewrote
    (a dry run writes nothing, so they are not read back from the files). Unreadable ones were reported already."""
    found = []
    for file in entry_files(root / "content" / "papers", root, Report()):
        text, meta = written.get(file.path, (file.text, file.doc.meta))
        found.append(Entry(file.path, file.shown, text, meta))
    return found


def paper_id(meta: dict[str, Any]) -> str | None:
    """How Semantic Scholar is asked about an entry's paper: `ARXIV:<id>`, else `DOI:<doi>`; None without either."""
    arxiv = normalize_id(str(meta["arxiv"])) if meta.get("arxiv") else None
    if arxiv:
        return f"ARXIV:{arxiv}"
    doi = meta.get("doi")
    return f"DOI:{doi}" if isinstance(doi, str) and DOI.match(doi) and doi.isprintable() else None


def hand_typed(meta: dict[str, Any], mine: dict[str, str]) -> bool:
    """Whether an entry's `cites:` is not what enrich last wrote there (typed, or edited, by hand)."""
    return FIELD in meta and fingerprint(meta[FIELD]) != mine.get(FIELD)


def wanted(found: list[Entry], slugs: Collection[str], refresh: bool,
           state: dict[str, dict[str, str]]) -> list[tuple[Entry, str]]:
    """The entries to ask about, with the id each is asked by: those with an id and no `cites:` (with `refresh`,
    also those whose `cites:` enrich wrote), only the named ones when `slugs` are given, never `enrich: false`."""
    chosen = []
    for entry in found:
        paper = paper_id(entry.meta)
        if entry.meta.get("enrich") is False or paper is None or (slugs and entry.path.stem not in slugs):
            continue
        mine = state.get(enrich_key(entry.path.stem), {})
        if FIELD in entry.meta and (not refresh or hand_typed(entry.meta, mine)):
            continue
        if mine.get(UNKNOWN) == paper and not refresh:
            continue
        chosen.append((entry, paper))
    return chosen


def fetch(found: list[Entry], slugs: Collection[str], refresh: bool, state: dict[str, dict[str, str]], ask: Ask,
          write: Write, done: Citations, report: Report) -> None:
    """Ask for the references of the wanted entries a batch at a time, and write each batch's `cites:` (and the
    fingerprints put into `state`) with `write`. An EnrichError from an answer that cannot be used ends the
    phase; the batches before it stay written."""
    done.asked = True
    todo = wanted(found, slugs, refresh, state)
    for start in range(0, len(todo), BATCH):
        batch = todo[start:start + BATCH]
        answers = ask([paper for _, paper in batch])
        if answers is None:  # Semantic Scholar was dropped: the warning counts these
            done.not_asked += len(todo) - start
            return
        writes: dict[Path, str] = {}
        remembered = False
        for entry, paper in batch:
            cited = answers.get(paper)
            key = enrich_key(entry.path.stem)
            if cited is not None:
                _settle(entry, cited, state, done, report, writes)
            elif state.get(key, {}).get(UNKNOWN) != paper:
                state[key] = {**state.get(key, {}), UNKNOWN: paper}
                remembered = True
        if writes or remembered:
            write(writes)


def _settle(entry: Entry, cited: References, state: dict[str, dict[str, str]], done: Citations, report: Report,
            writes: dict[Path, str]) -> None:
    """One entry's `cites:` into `writes` when it changes, its fingerprint into `state`, and the refused ids said."""
    if cited.refused:
        done.refused[entry.shown] = cited.refused
        shown = ", ".join(repr(bad) for bad in cited.refused[:3]) + (", …" if len(cited.refused) > 3 else "")
        count = len(cited.refused)
        report.warning(Location(entry.shown), "W1080",
                       f"Semantic Scholar gave {count} {'reference' if count == 1 else 'references'} of this paper "
                       f"an id that is not one, left out of `cites`: {shown}",
                       "nothing to do: the other references are written")
    ids = list(cited.ids)
    key = enrich_key(entry.path.stem)
    if entry.meta.get(FIELD) == ids:
        return
    writes[entry.path] = rewritten(entry.text, ordered({**entry.meta, FIELD: ids}))
    state[key] = {**{k: v for k, v in state.get(key, {}).items() if k != UNKNOWN}, FIELD: fingerprint(ids)}
    done.written.append((entry.shown, len(ids)))
