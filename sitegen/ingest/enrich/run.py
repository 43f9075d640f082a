"""`sitegen enrich`: find each entry's paper in the scholarly APIs and write its identity into the entry.

The sources are asked in order (Hugging Face's paper search, arXiv's title search,
Semantic Scholar's title match) until the matcher settles on one paper; the papers found
are then looked up by id in batches (arXiv for the authoritative record, Semantic Scholar
for a publisher's DOI and venue), and the matcher judges those answers too. Every answer
is kept in `content/lookups/`, so a second run, or one resumed after an interruption,
asks nothing it asked before. Then, for every entry with an id, Semantic Scholar is asked
which papers it cites (cites.py).

Entries are looked up and written in batches of BATCH, each batch's files all at once or
not at all (with the import state and the author files it adds ids to): an interrupted
run keeps every batch before, and the next run goes on from there. A source that cannot
be reached, or keeps throttling, is dropped for the rest of the run with a warning and
the others go on; with none left, the run stops after writing what it resolved.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from ...common.errors import Diagnostic, Location, Report, relpath
from ...content import config as site_config
from ...content.files import entry_files
from ...content.rewrite import rewritten
from ..importers import state as import_state
from ..importers import transaction
from . import aliases, batched, cites
from . import authors as author_ids
from .answers import EnrichError, Response, Unreachable
from .apply import Found, apply, enrich_key, importer_fingerprints
from .arxiv import ArxivClient
from .hf import HfClient
from .http import Fetcher
from .match import Ambiguous, Decision, Known, NotFound, Resolved, decide
from .record import Record
from .s2 import S2Client
from .store import Store

SOURCES = ("hf", "arxiv", "s2")
NAMES = {"hf": "Hugging Face", "arxiv": "arXiv", "s2": "Semantic Scholar"}
BATCH = 100  # entries looked up, then written together
Progress = Callable[[int, int, int, int], None]  # (entries done, entries in all, resolved, doubtful)


@dataclass
class Target:
    """One entry to look up: its file, its front matter and body as read, and the candidates found so far."""

    path: Path
    shown: str
    slug: str
    text: str
    meta: dict[str, Any]
    candidates: list[Record] = field(default_factory=list)
    decision: Decision = field(default_factory=NotFound)
    not_asked: set[str] = field(default_factory=set)  # sources dropped before it could be asked of them


@dataclass
class Outcome:
    """What a run did, for the summary table and the report file."""

    resolved: list[tuple[Target, Resolved, list[str]]] = field(default_factory=list)
    ambiguous: list[tuple[Target, Ambiguous]] = field(default_factory=list)
    unresolved: list[tuple[Target, NotFound]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    profiles: list[str] = field(default_factory=list)  # author files given ids or aliases
    renames: list[aliases.Rename] = field(default_factory=list)  # names the importer wrote, and the papers' spelling
    kept: dict[str, str] = field(default_factory=dict)  # entry -> why the importer's names stayed
    citations: cites.Citations = field(default_factory=cites.Citations)
    texts: dict[Path, tuple[str, dict[str, Any]]] = field(default_factory=dict)  # entries rewritten: text, meta
    report: Report = field(default_factory=Report)


class _ReadOnlyStore(Store):
    """A store that answers from past lookups but keeps no new one (a dry run writes nothing)."""

    def save(self, source: str, response: Response, data: bytes | None = None) -> Path:
        return self.path(source, response.url, data)


def known(meta: dict[str, Any]) -> Known:
    """What an entry's front matter says about its paper, for the matcher."""
    listed = meta.get("authors")
    authors: list[Any] = listed if isinstance(listed, list) else []
    count = meta.get("author_count")
    listed_only = not isinstance(count, int) and bool(authors) and meta.get("authors_truncated") is not True
    if listed_only:
        count = len(authors)  # a whole list says how many there are (or the first names typed: see Known)
    date = meta.get("date")
    abstract = meta.get("abstract")
    arxiv = meta.get("arxiv")
    return Known(
        title=str(meta.get("title", "")),
        date=date if isinstance(date, dt.date) else None,
        author_count=count if isinstance(count, int) and not isinstance(count, bool) else None,
        authors=tuple(str(a) for a in authors or ()),
        abstract=abstract if isinstance(abstract, str) else "",
        truncated=meta.get("authors_truncated") is True,
        arxiv=str(arxiv) if arxiv else None,
        listed_only=listed_only,
    )


def run_enrich(root: Path, slugs: Sequence[str] = (), refresh: bool = False, delay: float | None = None,
               sources: Sequence[str] = SOURCES, dry_run: bool = False, progress: Progress | None = None,
               fetcher: Fetcher | None = None, citations: bool = True) -> Outcome:
    """Look up the entries of `root` (those without an arXiv id or DOI, or the ones named) and write what is found,
    a batch at a time; then, unless `citations` is off or Semantic Scholar is not asked, the papers each cites.

    An error in the outcome's report when no source is left to ask or an entry cannot be read;
    what earlier batches resolved is written all the same.
    """
    site_config.load(root)
    outcome = Outcome()
    targets = _targets(root, slugs, refresh, outcome)
    state_path = root / "content" / import_state.STATE_FILE
    problems: list[Diagnostic] = []
    state = import_state.load(state_path, relpath(state_path, root), problems)
    outcome.report.extend(problems)
    profiles = author_ids.load(root, outcome.report)  # an unreadable one stops the run before any lookup
    if outcome.report.has_errors:
        return outcome
    store = _ReadOnlyStore(Store.for_site(root).root) if dry_run else Store.for_site(root)
    fetcher = fetcher or Fetcher(store=store, delay=delay)
    clients = _Clients(HfClient(fetcher), ArxivClient(fetcher), S2Client(fetcher))
    asking = Sources(list(sources))
    done = 0

    def looked_up(target: Target) -> None:
        nonlocal done
        done += 1
        if progress:
            settling = sum(isinstance(t.decision, Resolved) for t in targets[start:done])  # this batch, so far
            progress(done, len(targets), len(outcome.resolved) + settling, len(outcome.ambiguous))

    for start in range(0, len(targets), BATCH):
        batch = targets[start:start + BATCH]
        try:
            _look_up(batch, clients, asking, refresh, looked_up)
        except EnrichError as exc:  # an answer that cannot be used: this batch is left as it was
            _stopped(outcome, exc, len(targets) - len(outcome.resolved))
            break
        writes: dict[Path, str] = {}
        today = fetcher.today()
        for target in batch:
            _settle(target, state, refresh, today, outcome, writes)
        last = start + BATCH >= len(targets) or not asking.names
        writes |= _author_writes(root, profiles, state, outcome, outcome.report if last else Report())
        if writes and not dry_run:
            transaction.apply({**writes, state_path: import_state.render(state)})
        if not asking.names:
            _stopped(outcome, asking.last, len(targets) - len(outcome.resolved))
            break
    if citations and "s2" in asking.order and not outcome.report.has_errors:
        _cite(root, slugs, refresh, state, clients.s2, asking, outcome,
              lambda writes: None if dry_run else transaction.apply({**writes, state_path: import_state.render(state)}))
    asking.warn(targets, outcome.report, outcome.citations.not_asked)
    return outcome


def _cite(root: Path, slugs: Sequence[str], refresh: bool, state: dict[str, dict[str, str]], s2: S2Client,
          asking: Sources, outcome: Outcome, write: cites.Write) -> None:
    """Ask Semantic Scholar which papers the entries cite, and write the lists a batch at a time; an answer that
    cannot be used ends the run with an error, the batches before it written."""
    def ask(ids: list[str]) -> dict[str, cites.References] | None:
        return asking.ask("s2", lambda: s2.references(ids, refresh=refresh))

    try:
        cites.fetch(cites.entries(root, outcome.texts), set(slugs), refresh, state, ask, write, outcome.citations,
                    outcome.report)
    except EnrichError as exc:
        _stopped(outcome, exc, 0)


class Sources:
    """The sources still asked: one that cannot be reached (or keeps throttling) is dropped for the rest of the run,
    so the others go on and what they resolve is written."""

    def __init__(self, names: list[str]):
        self.order = tuple(names)  # as asked
        self.names = names  # those still asked
        self.dropped: dict[str, Unreachable] = {}
        self.last: Unreachable | None = None

    def ask(self, source: str, question: Callable[[], Any]) -> Any:
        """The source's answer, or None when it is (or has just been) dropped."""
        if source not in self.names:
            return None
        try:
            return question()
        except Unreachable as exc:
            self.names.remove(source)
            self.dropped[source] = self.last = exc
            return None

    def warn(self, targets: list[Target], report: Report, uncited: int = 0) -> None:
        """A warning for each dropped source, with what it leaves unresolved (and, for Semantic Scholar, the
        `uncited` entries not asked which papers they cite)."""
        for source, exc in self.dropped.items():
            left = sum(1 for t in targets if source in t.not_asked and not isinstance(t.decision, Resolved))
            more = f"; {uncited} {'entry' if uncited == 1 else 'entries'} not asked which papers " \
                   f"{'it cites' if uncited == 1 else 'they cite'}" if source == "s2" and uncited else ""
            report.add(Diagnostic(Location("."), "W1004",
                                  f"{NAMES[source]} was left out after it failed: {exc.message}; "
                                  f"{left} {'entry' if left == 1 else 'entries'} not asked of it "
                                  f"{'stays' if left == 1 else 'stay'} unresolved or doubtful{more}",
                                  exc.hint, severity="warning"))


def _stopped(outcome: Outcome, exc: EnrichError | None, left: int) -> None:
    """The run ends early: an error saying why, and how many entries it leaves as they were."""
    if exc is None:
        return
    diagnostic = exc.diagnostic(Location("."))
    more = f"; {left} {'entry' if left == 1 else 'entries'} left as they were" if left else ""
    written = f" ({len(outcome.written)} written before)" if outcome.written else ""
    outcome.report.add(Diagnostic(diagnostic.location, diagnostic.code, diagnostic.message + more + written,
                                  diagnostic.hint))


def _author_writes(root: Path, profiles: list[author_ids.AuthorFile], state: dict[str, dict[str, str]],
                   outcome: Outcome, report: Report) -> dict[Path, str]:
    """The author files to write so that they hold the aliases and ids of every paper resolved so far (each
    batch's plan holds the earlier batches' too: planned from the files as the run found them)."""
    profiles, planned = aliases.plan(outcome.renames, profiles, state, root, report)
    papers = [author_ids.resolved(t.shown, t.text, t.meta, d.record, d.records, changed)
              for t, d, changed in outcome.resolved]
    planned |= author_ids.plan(papers, profiles, root, report)
    outcome.profiles = sorted({*outcome.profiles, *(relpath(path, root) for path in planned)})
    return planned


def _targets(root: Path, slugs: Sequence[str], refresh: bool, outcome: Outcome) -> list[Target]:
    """The entries to look up: the named ones, else every one without an arXiv id or DOI (all with refresh)."""
    folder = root / "content" / "papers"
    wanted = set(slugs)
    found = {p.stem for p in folder.glob("*.md")} if folder.is_dir() else set()
    for slug in sorted(wanted - found):
        outcome.report.error(Location(f"content/papers/{slug}.md"), "E1010", f"no entry named '{slug}'",
                             "name entries by their file name without .md, as in content/papers/")
    targets = []
    for file in entry_files(folder, root, outcome.report):
        if wanted and file.path.stem not in wanted:
            continue
        meta, shown = file.doc.meta, file.shown
        if meta.get("enrich") is False:
            outcome.skipped.append((shown, "enrich: false"))
        elif not isinstance(meta.get("title"), str) or not meta["title"].strip():
            outcome.skipped.append((shown, "no title to look up"))
        elif (meta.get("arxiv") or meta.get("doi")) and not wanted and not refresh:
            continue  # resolved already, or typed in: a later run asks nothing about it
        else:
            targets.append(Target(file.path, shown, file.path.stem, file.text, meta))
    return targets


def _look_up(targets: list[Target], clients: _Clients, asking: Sources, refresh: bool,
             looked_up: Callable[[Target], None] = lambda target: None) -> None:
    """Ask the sources, in order, about the targets the matcher has not settled, many at once where a source
    allows it (batched.py), then complete the settled ones by id."""
    pinned = [t for t in targets if known(t.meta).arxiv]
    if pinned:
        records = asking.ask("arxiv", lambda: clients.arxiv.by_ids([str(t.meta["arxiv"]) for t in pinned],
                                                                     refresh=refresh)) or {}
        for target in pinned:
            record = records.get(str(target.meta["arxiv"]))
            target.candidates += [record] if record else []
    pending = _settled(targets, looked_up)
    for source in asking.order:
        alone = pending  # asked one title at a time
        if source == "hf":
            batched.from_listings(pending, lambda month: asking.ask(
                "hf", lambda: clients.hf.daily(month=month, refresh=refresh)))
            alone = pending = _settled(pending, looked_up)
        elif source == "arxiv":
            alone = []
            for group in batched.title_groups(pending):
                found = asking.ask("arxiv", partial(clients.arxiv.search_titles,
                                                    [str(t.meta["title"]) for t in group], refresh=refresh))
                if found is not None:
                    batched.share(group, found)
                else:  # arXiv had more than it sent, or it was dropped (then each is marked below)
                    alone += group
        for target in alone:
            found = asking.ask(source, partial(_search, clients, source, known(target.meta).title, refresh))
            if found:
                target.candidates += [r for r in found if r not in target.candidates]
            elif source in asking.dropped:
                target.not_asked.add(source)
        pending = _settled(pending, looked_up)
    for target in pending:
        looked_up(target)
    _complete(targets, clients, asking, refresh)


def _settled(targets: list[Target], looked_up: Callable[[Target], None]) -> list[Target]:
    """Each target decided on its candidates so far; those the matcher settled are reported, the rest returned."""
    pending = []
    for target in targets:
        target.decision = decide(known(target.meta), target.candidates)
        if isinstance(target.decision, Resolved):
            looked_up(target)
        else:
            pending.append(target)
    return pending


@dataclass(frozen=True)
class _Clients:
    hf: HfClient
    arxiv: ArxivClient
    s2: S2Client


def _search(clients: _Clients, source: str, title: str, refresh: bool) -> list[Record]:
    """One source's candidates for a title."""
    if source == "hf":
        return list(clients.hf.search(title, refresh=refresh))
    if source == "arxiv":
        return list(clients.arxiv.search_title(title, refresh=refresh))
    match = clients.s2.match_title(title, refresh=refresh)
    return [match.record] if match is not None else []


def _complete(targets: list[Target], clients: _Clients, asking: Sources, refresh: bool) -> None:
    """The settled papers looked up by id, in batches: arXiv's record and Semantic Scholar's DOI and venue."""
    settled = [t for t in targets if isinstance(t.decision, Resolved) and t.decision.record.arxiv]
    ids = sorted({str(t.decision.record.arxiv) for t in settled if isinstance(t.decision, Resolved)})
    extra: dict[str, list[Record]] = {i: [] for i in ids}
    if ids:
        for paper, record in (asking.ask("arxiv", lambda: clients.arxiv.by_ids(ids, refresh=refresh)) or {}).items():
            extra.setdefault(paper, []).append(record)
        batch = asking.ask("s2", lambda: clients.s2.batch([f"ARXIV:{i}" for i in ids], refresh=refresh)) or {}
        for asked, record in batch.items():
            extra.setdefault(asked.removeprefix("ARXIV:"), []).append(record)
    for target in settled:
        assert isinstance(target.decision, Resolved)
        more = [r for r in extra.get(str(target.decision.record.arxiv), []) if r not in target.candidates]
        if more:
            target.candidates += more
            target.decision = decide(known(target.meta), target.candidates)


def _settle(target: Target, state: dict[str, dict[str, str]], refresh: bool, today: dt.date, outcome: Outcome,
            writes: dict[Path, str]) -> None:
    """One target's outcome: its entry's new text into `writes` (when resolved), and a row for the report."""
    decision = target.decision
    if isinstance(decision, Ambiguous):
        outcome.ambiguous.append((target, decision))
        return
    if isinstance(decision, NotFound):
        outcome.unresolved.append((target, decision))
        return
    key = enrich_key(target.slug)
    result = apply(target.meta, Found(decision.record, decision.how, decision.score, today), state.get(key, {}),
                   importer_fingerprints(target.meta, state), refresh)
    outcome.resolved.append((target, decision, result.changed))
    outcome.renames += aliases.renames(target.shown, target.text, result.respelled)
    if result.kept:
        outcome.kept[target.shown] = why = aliases.unmatched(result.kept)
        outcome.report.warning(aliases.authors_at(target.shown, target.text), "W1076",
                               f"the authors the importer wrote stay as they are: {why}",
                               "if the entry's names are misspelt, write them as the paper does")
    if not result.changed:
        return
    writes[target.path] = rewritten(target.text, result.meta)
    outcome.texts[target.path] = (writes[target.path], result.meta)
    state[key] = result.state
    outcome.written.append(target.shown)
