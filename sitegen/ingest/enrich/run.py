"""`sitegen enrich`: find each entry's paper in the scholarly APIs and write its identity into the entry.

The sources are asked in order (Hugging Face's paper search, arXiv's title search,
Semantic Scholar's title match) until the matcher settles on one paper; the papers found
are then looked up by id in batches (arXiv for the authoritative record, Semantic Scholar
for a publisher's DOI and venue), and the matcher judges those answers too. Every answer
is kept in `content/lookups/`, so a second run, or one resumed after an interruption,
asks nothing it asked before. Entries are written only once every lookup has answered:
a source that cannot be reached leaves every entry as it was.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...common.errors import Diagnostic, Location, Report, relpath
from ...common.fsutil import write_atomic
from ...content import config as site_config
from ...content.files import entry_files
from ...content.rewrite import rewritten
from ..importers import state as import_state
from . import authors as author_ids
from .answers import EnrichError, Response
from .apply import Found, apply, enrich_key, importer_fingerprints
from .arxiv import ArxivClient
from .hf import HfClient
from .http import Fetcher
from .match import Ambiguous, Decision, Known, NotFound, Resolved, decide
from .record import Record
from .s2 import S2Client
from .store import Store

SOURCES = ("hf", "arxiv", "s2")


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


@dataclass
class Outcome:
    """What a run did, for the summary table and the report file."""

    resolved: list[tuple[Target, Resolved, list[str]]] = field(default_factory=list)
    ambiguous: list[tuple[Target, Ambiguous]] = field(default_factory=list)
    unresolved: list[tuple[Target, NotFound]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    profiles: list[str] = field(default_factory=list)  # author files given ids (see enrich.authors)
    report: Report = field(default_factory=Report)


class _ReadOnlyStore(Store):
    """A store that answers from past lookups but keeps no new one (a dry run writes nothing)."""

    def save(self, source: str, response: Response, data: bytes | None = None) -> Path:
        return self.path(source, response.url, data)


def known(meta: dict[str, Any]) -> Known:
    """What an entry's front matter says about its paper, for the matcher."""
    authors = meta.get("authors") if isinstance(meta.get("authors"), list) else []
    count = meta.get("author_count")
    if not isinstance(count, int) and authors and meta.get("authors_truncated") is not True:
        count = len(authors)  # a whole list says how many there are
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
    )


def run_enrich(root: Path, slugs: Sequence[str] = (), refresh: bool = False, delay: float | None = None,
               sources: Sequence[str] = SOURCES, dry_run: bool = False,
               progress: Callable[[int, int], None] | None = None) -> Outcome:
    """Look up the entries of `root` (those without an arXiv id or DOI, or the ones named) and write what is found.

    Raises SitegenError when a source cannot be reached (nothing is written then) or an
    entry cannot be read.
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
    fetcher = Fetcher(store=store, delay=delay)
    try:
        _look_up(targets, fetcher, sources, refresh, progress)
    except EnrichError as exc:
        left = f"; {len(targets)} entries left as they were"
        diagnostic = exc.diagnostic(Location("."))
        outcome.report.add(Diagnostic(diagnostic.location, diagnostic.code, diagnostic.message + left,
                                      diagnostic.hint))
        return outcome
    today = fetcher.today()
    for target in targets:
        _settle(root, target, state, refresh, today, dry_run, outcome)
    if outcome.written and not dry_run:
        write_atomic(state_path, import_state.render(state))
    _record_author_ids(root, profiles, dry_run, outcome)
    return outcome


def _record_author_ids(root: Path, profiles: list[author_ids.AuthorFile], dry_run: bool, outcome: Outcome) -> None:
    """The author ids the resolved papers' sources give, written into the authors' profile files."""
    papers = [author_ids.resolved(t.shown, t.text, t.meta, d.record, d.records, changed)
              for t, d, changed in outcome.resolved]
    for path, text in sorted(author_ids.plan(papers, profiles, root, outcome.report).items()):
        if not dry_run:
            write_atomic(path, text)
        outcome.profiles.append(relpath(path, root))


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


def _look_up(targets: list[Target], fetcher: Fetcher, sources: Sequence[str], refresh: bool,
             progress: Callable[[int, int], None] | None) -> None:
    """Ask the sources about each target until the matcher settles, then complete the settled ones by id."""
    clients = _Clients(HfClient(fetcher), ArxivClient(fetcher), S2Client(fetcher))
    pinned = [t for t in targets if known(t.meta).arxiv]
    if pinned and "arxiv" in sources:
        records = clients.arxiv.by_ids([str(t.meta["arxiv"]) for t in pinned], refresh=refresh)
        for target in pinned:
            record = records.get(str(target.meta["arxiv"]))
            target.candidates += [record] if record else []
    for done, target in enumerate(targets, 1):
        facts = known(target.meta)
        target.decision = decide(facts, target.candidates)
        for source in sources:
            if isinstance(target.decision, Resolved):
                break
            target.candidates += _search(clients, source, facts.title, refresh)
            target.decision = decide(facts, target.candidates)
        if progress:
            progress(done, len(targets))
    _complete(targets, clients, sources, refresh)


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


def _complete(targets: list[Target], clients: _Clients, sources: Sequence[str], refresh: bool) -> None:
    """The settled papers looked up by id, in batches: arXiv's record and Semantic Scholar's DOI and venue."""
    settled = [t for t in targets if isinstance(t.decision, Resolved) and t.decision.record.arxiv]
    ids = sorted({str(t.decision.record.arxiv) for t in settled if isinstance(t.decision, Resolved)})
    extra: dict[str, list[Record]] = {i: [] for i in ids}
    if ids and "arxiv" in sources:
        for paper, record in clients.arxiv.by_ids(ids, refresh=refresh).items():
            extra.setdefault(paper, []).append(record)
    if ids and "s2" in sources:
        for asked, record in clients.s2.batch([f"ARXIV:{i}" for i in ids], refresh=refresh).items():
            extra.setdefault(asked.removeprefix("ARXIV:"), []).append(record)
    for target in settled:
        assert isinstance(target.decision, Resolved)
        more = [r for r in extra.get(str(target.decision.record.arxiv), []) if r not in target.candidates]
        if more:
            target.candidates += more
            target.decision = decide(known(target.meta), target.candidates)


def _settle(root: Path, target: Target, state: dict[str, dict[str, str]], refresh: bool, today: dt.date,
            dry_run: bool, outcome: Outcome) -> None:
    """Write one target's outcome into its entry (when resolved) and record it for the report."""
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
    if not result.changed:
        return
    if not dry_run:
        write_atomic(target.path, rewritten(target.text, result.meta))
        state[key] = result.state
    outcome.written.append(target.shown)
