"""`sitegen import 2407.13168 10.1145/… refs.bib --hf-daily 2026-03-06`, and `sitegen new --arxiv ID`.

Everything local is read and checked first: the arguments, the .bib files, every entry, the
import state. Then each source is asked once for all the papers: Semantic Scholar for the
DOIs, arXiv for every arXiv id (50 to a request), Hugging Face for each paper's page (optional:
it adds the hf link, upvotes and code links; a paper it does not know, or Hugging Face not
answering, is no error). Only when every paper was found are the entries, the import state
and the answers for content/lookups/ written, together: a typo, an unknown id or a source
that cannot be reached leaves content/ as it was.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ...common.errors import Diagnostic, Location, Report, SitegenError, relpath
from ...content import config as site_config
from ...content.controls import shown
from ...content.tagging import Tagger
from ..curation import Curation
from ..importers import state as import_state
from ..importers import transaction
from . import aliases
from .answers import EnrichError
from .apply import enrich_key, importer_fingerprints
from .authors import AuthorFile
from .authors import load as load_profiles
from .bibfile import read_bibfile
from .entries import Catalog, Entry, Imported, add_provenance, fields_for, merge, new_entry, read_entries, render
from .hf import HfClient
from .http import Fetcher
from .identifiers import WHAT, ArxivId, BibFile, Daily, Doi, Identifier, parse_daily, parse_identifier
from .match import Resolved, decide
from .record import Record
from .resolve import PendingStore, Progress, Wanted, group, listings, look_up, where
from .run import known
from .store import Store, StoreError

SUMMARY_HINT = "nothing under content/ was changed"


@dataclass
class Arguments:
    """`sitegen import`'s arguments sorted out: dump files, papers named, and paths that do not exist."""

    dumps: list[Path] = field(default_factory=list)
    named: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    """What an import by id did (or, when it failed, would have done)."""

    new: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    report: Report = field(default_factory=Report)
    passed_over: int = 0  # papers of the listings that matched no tag of the site (`--match-tags`)

    def summary(self) -> str:
        over = f"; {self.passed_over} listed paper(s) matched no tag and were left out" if self.passed_over else ""
        return f"{len(self.new)} new, {len(self.merged)} merged, {len(self.unchanged)} unchanged{over}"


def split_arguments(arguments: Sequence[str]) -> Arguments:
    """A path that exists and is not a .bib is a dump (as always); anything else names papers.

    An argument that is neither an existing path nor anything like an identifier is `missing`:
    most likely a dump file's name mistyped.
    """
    found = Arguments()
    for argument in arguments:
        if _exists(argument) and not argument.strip().lower().endswith(".bib"):
            found.dumps.append(Path(argument))
            continue
        try:
            parse_identifier(argument)
        except SitegenError as exc:
            if exc.diagnostics[0].code == "E1020" and "://" not in argument:
                found.missing.append(argument)
                continue
        found.named.append(argument)
    return found


def _exists(argument: str) -> bool:
    try:
        return Path(argument).exists()
    except (OSError, ValueError):  # a name too long for the file system is no file
        return False


def missing_message(arguments: Sequence[str]) -> str:
    return f"Path {shown(arguments[0])} does not exist, and it names no paper (give a dump file, or {WHAT})"


def _wanted(argument: str, named: ArxivId | Doi) -> Wanted:
    if isinstance(named, Doi):
        return Wanted(where(argument), f"DOI {named.doi}", doi=named.doi)
    how = {"hf": f"Hugging Face paper {named.id}", "doi": f"DOI 10.48550/arXiv.{named.id}"}.get(named.via)
    return Wanted(where(argument), how or f"arXiv {named.id}", arxiv=named.id, required=True)


def _from_bib(bib: BibFile, root: Path, report: Report) -> list[Wanted]:
    """Each entry of a .bib file as it stands; those with an arXiv id are completed by arXiv's record."""
    shown = relpath(bib.path, root) if bib.path.exists() else bib.path.as_posix()
    read = read_bibfile(bib.path, shown)
    report.extend(list(read.diagnostics))
    wanted = []
    for entry in read.entries:
        record, at = entry.record, Location(shown, entry.line)
        if not record.title and not record.arxiv:
            report.error(at, "E1056", f"the entry '{entry.key}' has no title, and only an arXiv id is looked up",
                         f"add its title, or import its DOI on its own: sitegen import {record.doi}")
            continue
        wanted.append(Wanted(at, f"{shown}, entry {entry.key}", record.arxiv, record.doi, record,
                             entry.truncated, required=bool(record.arxiv)))
    return wanted


def _read_arguments(arguments: Sequence[str], root: Path, report: Report) -> list[Wanted]:
    wanted: list[Wanted] = []
    for argument in arguments:
        try:
            named: Identifier = parse_identifier(argument)
        except SitegenError as exc:
            report.extend(exc.diagnostics)
            continue
        wanted += _from_bib(named, root, report) if isinstance(named, BibFile) else [_wanted(argument, named)]
    return wanted


def _read_dailies(values: Sequence[str], report: Report) -> list[tuple[str, Daily]]:
    days = []
    for value in values:
        try:
            days.append((value, parse_daily(value)))
        except SitegenError as exc:
            report.extend(exc.diagnostics)
    return days


@dataclass
class _Site:
    """The site as read before anything is asked: its tag map, entries and import state."""

    root: Path
    tagger: Tagger
    catalog: Catalog
    state: dict[str, dict[str, str]]
    state_path: Path
    state_text: str
    profiles: list[AuthorFile]
    renames: list[aliases.Rename] = field(default_factory=list)  # names the importer wrote, and the papers' spelling

    @classmethod
    def read(cls, root: Path, report: Report) -> _Site:
        cfg = site_config.load(root)
        paths = site_config.Paths(root)
        entries = read_entries(paths.papers, root, report)
        state_path = paths.content / import_state.STATE_FILE
        problems: list[Diagnostic] = []
        state = import_state.load(state_path, relpath(state_path, root), problems)
        report.extend(problems)
        return cls(root, Tagger(cfg.tags), Catalog(entries), state, state_path, import_state.render(state),
                   load_profiles(root, report))


def _ask(site: _Site, wanted: list[Wanted], days: list[tuple[str, Daily]], update: bool, delay: float | None,
         report: Report, progress: Progress,
         listed: Callable[[list[Wanted]], list[Wanted]] = list) -> tuple[list[Imported], PendingStore, dt.date]:
    """Every lookup, answers held back; a source that cannot be reached is one error and the end of the run.
    `listed` chooses among the papers of the listings (`--match-tags`), before anything is asked of them."""
    store = PendingStore(Store.for_site(site.root).root)
    fetcher = Fetcher(store=store, delay=delay)
    try:
        wanted = wanted + listed(listings(days, HfClient(fetcher), update, report, progress))
        look_up(wanted, fetcher, update, report, progress)
    except EnrichError as exc:
        at = Location(relpath(exc.path, site.root)) if isinstance(exc, StoreError) else Location(".")
        found = exc.diagnostic(at)
        report.add(Diagnostic(found.location, found.code, f"{found.message}; nothing was imported", found.hint))
        return [], store, fetcher.today()
    return group(wanted), store, fetcher.today()


def _place(site: _Site, item: Imported, today: dt.date, update: bool, report: Report) -> tuple[Entry, bool]:
    """Merge one paper into its entry (a new one when it is not on the list); whether anything changed."""
    found = site.catalog.find(item.record)
    entry = found
    if entry is None:
        entry, base = new_entry(site_config.Paths(site.root).papers, site.root, item.record, site.catalog.taken())
        if entry.slug != base:
            report.warning(item.where, "W1060", f"{item.record.title!r} gets {entry.shown}: {base}.md is another "
                           "paper's", "rename either file if you like: imports find entries by their ids")
    key = enrich_key(entry.slug)
    settled = found is not None and isinstance(decide(known(entry.meta), [item.record]), Resolved)
    merged = merge(entry.meta, fields_for(item, site.tagger, today), site.state.get(key, {}),
                   importer_fingerprints(entry.meta, site.state), update, settled)
    site.renames += aliases.renames(entry.shown, entry.text, merged.respelled)
    add_provenance(merged, item, today)
    entry.meta = merged.meta
    if merged.changed:
        site.state[key] = merged.state
    if found is None:
        site.catalog.add(entry)  # indexed once its front matter is there: a later paper may be this one
    else:
        site.catalog.note_ids(entry)
    return entry, bool(merged.changed)


def _commit(site: _Site, entries: list[Entry], store: PendingStore, report: Report) -> None:
    """Write the entries, the import state and the answers together, or (reporting why) none of them."""
    writes = {entry.path: render(entry) for entry in entries}
    writes |= aliases.plan(site.renames, site.profiles, site.state, site.root, report)[1]
    state = import_state.render(site.state)
    if state != site.state_text:
        writes[site.state_path] = state
    writes.update(store.fresh)
    try:
        transaction.apply(writes)
    except OSError as exc:
        where = relpath(Path(exc.filename).parent, site.root) if exc.filename else "content"  # not a temp name
        report.error(Location(where), "E1054", f"cannot write: {exc.strerror or exc}; {SUMMARY_HINT}",
                     "check the folder's permissions and free space, then import again")


def import_papers(root: Path, arguments: Sequence[str], dailies: Sequence[str] = (), update: bool = False,
                  delay: float | None = None, progress: Progress | None = None, match_tags: bool = False) -> Outcome:
    """Import the papers named (ids, URLs, DOIs, .bib files) and listed (`--hf-daily`) into content/papers/;
    with `match_tags`, only those of the listings the site's tag map gives a tag (its keywords found in the
    title, abstract or Hugging Face's keywords), as the importer tags papers."""
    tick = progress or (lambda _: None)
    outcome = Outcome()
    report = outcome.report
    site = _Site.read(root, report)
    wanted = _read_arguments(arguments, root, report)
    days = _read_dailies(dailies, report)
    if report.has_errors:
        return outcome
    def matching(listed: list[Wanted]) -> list[Wanted]:
        kept = [w for w in listed if w.given is None or site.tagger.tags_for(
            w.given.title, w.given.abstract, *w.given.keywords)]
        outcome.passed_over = len(listed) - len(kept)
        return kept

    items, store, today = _ask(site, wanted, days, update, delay, report, tick, matching if match_tags else list)
    if report.has_errors:
        return outcome
    touched: dict[Path, Entry] = {}
    for item in items:
        entry, changed = _place(site, item, today, update, report)
        if changed:
            touched[entry.path] = entry
        (outcome.new if entry.new else outcome.merged if entry.path in touched else outcome.unchanged).append(
            entry.shown)
    _commit(site, list(touched.values()), store, report)
    if report.has_errors:
        return Outcome(report=report)
    outcome.new, outcome.merged = list(dict.fromkeys(outcome.new)), list(dict.fromkeys(outcome.merged))
    outcome.unchanged = [s for s in dict.fromkeys(outcome.unchanged) if s not in outcome.merged]
    return outcome


def _one_paper(option: str, value: str) -> ArxivId | Doi:
    """The paper `--arxiv`, `--doi` or `--url` names; a .bib file or an id given to the wrong option is an error."""
    named = parse_identifier(value)
    at = where(value)
    if isinstance(named, BibFile):
        raise SitegenError.single(at, "E1055", "`sitegen new` makes one entry, and a .bib file holds many",
                                  f"import it instead: sitegen import {value}")
    if option == "arxiv" and isinstance(named, Doi):
        raise SitegenError.single(at, "E1055", f"{named.doi} is a DOI, not an arXiv id", f"use --doi {value}")
    if option == "doi" and isinstance(named, ArxivId) and named.via != "doi":
        raise SitegenError.single(at, "E1055", f"{named} is an arXiv id, not a DOI", f"use --arxiv {value}")
    return named


def _refuse_twice(site: _Site, record: Record, value: str) -> None:
    existing = site.catalog.find(record)
    if existing is not None:
        raise SitegenError.single(Location(existing.shown, existing.line), "E1053", f"{value} is already on the list",
                                  f"sitegen import {value} adds what it knows to this entry")


def _stop(report: Report) -> None:
    if report.has_errors:
        raise SitegenError(report.items)


def new_paper(root: Path, option: str, value: str, title: str | None = None, date: dt.date | str | int | None = None,
              tags: Sequence[str] = (), authors: Sequence[str] = (), delay: float | None = None,
              progress: Progress | None = None, curation: Curation | None = None) -> tuple[Path, list[Diagnostic]]:
    """`sitegen new --arxiv ID` (`--doi`, `--url`): a new entry filled from the paper's record, and any warnings.

    What is typed wins over the record, and counts as a hand edit (never refreshed): the
    title, `--date`, `--author`s; `--tags` come first, then the tags the record gives; `curation` (status,
    rating, notes) is the curator's own.
    """
    named = _one_paper(option, value)
    report = Report()
    site = _Site.read(root, report)
    _stop(report)
    wanted = _wanted(value, named)
    _refuse_twice(site, Record("given", value, "", arxiv=wanted.arxiv, doi=wanted.doi), value)  # before asking
    items, store, today = _ask(site, [wanted], [], False, delay, report, progress or (lambda _: None))
    _stop(report)
    item = items[0]
    typed_title = " ".join(title.split()) if title and title.strip() else None
    if typed_title:
        item = replace(item, record=replace(item.record, title=typed_title))
    _refuse_twice(site, item.record, value)
    entry, _ = _place(site, item, today, False, report)
    typed: dict[str, object] = {"title": typed_title, "date": date, "authors": list(authors) or None}
    state = site.state[enrich_key(entry.slug)]
    for name, given in typed.items():
        if given is not None:
            entry.meta[name] = given
            state.pop(name, None)
    if authors:
        for name in ("authors_truncated", "author_count"):
            entry.meta.pop(name, None)
            state.pop(name, None)
    if tags:
        entry.meta["tags"] = list(dict.fromkeys([*tags, *entry.meta.get("tags", [])]))
        state.pop("tags", None)
    curation = curation or Curation()
    entry.meta.update(curation.fields())
    entry = replace(entry, notes=curation.notes)
    _commit(site, [entry], store, report)
    _stop(report)
    return entry.path, report.items
