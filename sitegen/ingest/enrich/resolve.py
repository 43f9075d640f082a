"""Asking the sources about papers named by id, each source once for all of them.

Semantic Scholar answers for the DOIs (one batch), arXiv for every arXiv id (50 to a
request), Hugging Face for each paper's page: optional, it adds the hf link, upvotes, the
organization and code links, so a paper it does not know, or Hugging Face not answering, is
a warning at most. A `--hf-daily` listing is Hugging Face's, each of its papers then
completed by arXiv's record. Answers wait in a `PendingStore` until the import writes.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from ...common.errors import Location, Report
from .answers import EnrichError, Response, Unreachable
from .arxiv import ArxivClient, normalize_id
from .entries import Imported
from .hf import HfClient
from .http import Fetcher
from .identifiers import Daily, arxiv_key
from .match import SOURCES, Known, assess
from .match import merge as merge_records
from .record import Record
from .s2 import S2Client
from .store import Store

Progress = Callable[[str], None]
HF_IDS = re.compile(r"\d{4}\.\d{4,5}\Z")  # Hugging Face's paper pages know only new-style ids


@dataclass
class Wanted:
    """One paper the user asked for, as far as it is known before and after asking the sources."""

    where: Location
    how: str
    arxiv: str | None = None
    doi: str | None = None
    given: Record | None = None  # what a .bib entry or a Daily Papers listing already says
    truncated: bool = False
    required: bool = False  # arXiv must know it: the user named this arXiv id (or a .bib entry did)
    records: list[Record] = field(default_factory=list)


class PendingStore(Store):
    """A store whose new answers wait in memory, to be written with the entries or not at all."""

    def __init__(self, root: Path):
        super().__init__(root)
        self.fresh: dict[Path, str] = {}
        self._answers: dict[Path, Response] = {}

    def load(self, source: str, url: str, data: bytes | None = None) -> Response | None:
        return self._answers.get(self.path(source, url, data)) or super().load(source, url, data)

    def save(self, source: str, response: Response, data: bytes | None = None) -> Path:
        path = self.path(source, response.url, data)
        self._answers[path] = replace(response, stored=True)
        with tempfile.TemporaryDirectory() as scratch:  # the text exactly as Store writes it, whatever its format
            self.fresh[path] = Store(Path(scratch)).save(source, response, data).read_text(encoding="utf-8")
        return path


def where(argument: str) -> Location:
    """The argument as typed, safe to print (as `identifiers` names it in its own messages)."""
    text = argument if argument.isprintable() and argument.strip() else repr(argument)
    return Location(text if len(text) <= 200 else text[:199] + "…")


def listings(days: list[tuple[str, Daily]], hf: HfClient, refresh: bool, report: Report,
              progress: Progress) -> list[Wanted]:
    """The papers of each Daily Papers listing asked for, with what the listing says of them."""
    wanted = []
    for value, day in days:
        progress(f"Daily Papers {day}")
        if day.kind == "day":
            records = hf.daily(date=day.start, refresh=refresh)
        else:
            records = hf.daily(week=str(day), refresh=refresh) if day.kind == "week" else \
                hf.daily(month=str(day), refresh=refresh)
        if not records:
            report.warning(where(value), "W1057", f"Hugging Face lists no Daily Papers for {day}",
                           "there are none on weekends and holidays; a week (2026-W10) or a month (2026-03) has more")
        for record in records:
            arxiv = normalize_id(record.arxiv or record.id)
            wanted.append(Wanted(where(value), f"Daily Papers {day}", arxiv, given=replace(record, arxiv=arxiv)))
    return wanted


def look_up(wanted: list[Wanted], fetcher: Fetcher, refresh: bool, report: Report, progress: Progress) -> None:
    """Ask each source once for all the papers; unknown papers become errors at the argument naming them."""
    dois = [w for w in wanted if w.doi and w.given is None]
    if dois:
        progress("Semantic Scholar")
        found = S2Client(fetcher).batch([f"DOI:{w.doi}" for w in dois], refresh=refresh)
        for w in dois:
            record = found.get(f"DOI:{w.doi}")
            if record is None:
                report.error(w.where, "E1051", f"Semantic Scholar knows no paper with the DOI {w.doi}",
                             f"check it at https://doi.org/{w.doi}; a .bib entry with this DOI imports without "
                             "asking anyone")
                continue
            w.records.append(record)
            w.arxiv = w.arxiv or record.arxiv
    ids = list(dict.fromkeys(w.arxiv for w in wanted if w.arxiv))
    if ids:
        progress(f"arXiv ({len(ids)} ids)")
    papers = _arxiv(wanted, ids, fetcher, refresh, report)
    for w in wanted:
        record = papers.get(w.arxiv) if w.arxiv else None
        if record is None and w.arxiv and w.required:
            report.error(w.where, "E1050", f"arXiv has no paper {w.arxiv}",
                         f"check the id at https://arxiv.org/abs/{w.arxiv}; a new paper is known once announced")
        elif record is not None and _agrees(w, record, report):
            w.records.append(record)
    _hf_pages([w for w in wanted if w.arxiv and w.records and not (w.given and w.given.source == "hf")],
              HfClient(fetcher), refresh, report, progress)


def _arxiv(wanted: list[Wanted], ids: list[str], fetcher: Fetcher, refresh: bool,
           report: Report) -> dict[str, Record]:
    """arXiv's records of the ids; when arXiv cannot be reached and every id came from a .bib entry, none, and
    the entries are imported as their file gives them (an id typed alone still needs arXiv: it says nothing else)."""
    if not ids:
        return {}
    try:
        return ArxivClient(fetcher).by_ids(ids, refresh=refresh)
    except Unreachable as exc:
        from_bib = [w for w in wanted if w.arxiv and w.given is not None and w.given.source == "bibtex"]
        if any(w.arxiv and not (w.given is not None and w.given.source == "bibtex") for w in wanted):
            raise
        for w in from_bib:
            w.required = False
        keys = ", ".join(str(w.given.id) for w in from_bib[:3] if w.given) + (", …" if len(from_bib) > 3 else "")
        report.warning(from_bib[0].where, "W1079", f"arXiv could not be reached ({exc.message}): "
                       f"{len(from_bib)} .bib {'entry is' if len(from_bib) == 1 else 'entries are'} imported as the "
                       f"file gives {'it' if len(from_bib) == 1 else 'them'}, unchecked ({keys})",
                       "import the .bib file again when online: what arXiv adds fills the gaps, and your edits stay")
        return {}


def _agrees(w: Wanted, record: Record, report: Report) -> bool:
    """Whether arXiv's record is the .bib entry's paper (a wrong eprint is worse than none); a warning if not."""
    given = w.given
    if given is None or given.source != "bibtex" or not given.title:
        return True
    scored = assess(Known(given.title, authors=tuple(a.name for a in given.authors), truncated=w.truncated), record)
    if not scored.accepted:
        report.warning(w.where, "W1059", f"arXiv's {record.arxiv} is {record.title!r}, which does not look like this "
                       f"entry's paper ({'; '.join(scored.failures)}); the entry is imported as the file gives it",
                       "check its eprint, doi and url fields")
    return scored.accepted


def _hf_pages(wanted: list[Wanted], hf: HfClient, refresh: bool, report: Report, progress: Progress) -> None:
    """Hugging Face's page of each paper, while Hugging Face answers; its silence costs only its links."""
    pages: dict[str, Record | None] = {}
    for w in wanted:
        paper = str(w.arxiv)
        if not HF_IDS.match(paper):
            continue
        if paper not in pages:
            progress(f"Hugging Face {paper}")
            try:
                pages[paper] = hf.paper(paper, refresh=refresh)
            except EnrichError as exc:
                report.warning(Location("."), "W1058", f"Hugging Face was not asked further: {exc.message}",
                               "the papers are imported without Hugging Face's links and upvotes; `sitegen import "
                               "--update` with the same ids adds them later")
                return
        page = pages[paper]
        if page is not None:
            w.records.append(page)


def _rank(record: Record) -> int:
    return SOURCES.index(record.source) if record.source in SOURCES else len(SOURCES)


def _ids(record: Record) -> set[str]:
    keys = {f"arxiv:{arxiv_key(record.arxiv)}"} if record.arxiv else set()
    return keys | ({f"doi:{record.doi.casefold()}"} if record.doi else set())


def group(wanted: list[Wanted]) -> list[Imported]:
    """One Imported per paper: what names one paper twice (an id and its URL, a DOI and its arXiv id) is merged."""
    groups: list[tuple[set[str], list[Wanted]]] = []
    for w in wanted:
        records = [*w.records, *([w.given] if w.given else [])]
        if not records:
            continue
        keys = set().union(*map(_ids, records)) or {f"item:{id(w)}"}
        joined = [g for g in groups if g[0] & keys]
        merged = (keys.union(*(g[0] for g in joined)), [x for g in joined for x in g[1]] + [w])
        groups = [g for g in groups if all(g is not j for j in joined)] + [merged]
    order = {id(w): i for i, w in enumerate(wanted)}
    return [_imported(members) for _, members in sorted(groups, key=lambda g: min(order[id(w)] for w in g[1]))]


def _imported(members: list[Wanted]) -> Imported:
    every = [r for w in members for r in [*w.records, *([w.given] if w.given else [])]]
    records = sorted(dict.fromkeys(every), key=_rank)
    record = merge_records(records)
    typed = next((w.doi for w in members if w.doi and w.given is None), None)
    if typed:
        record = replace(record, doi=typed)  # the DOI the user gave, whatever another source says
    truncated = any(w.truncated for w in members) and all(r.source == "bibtex" for r in records if r.authors)
    how = "; ".join(dict.fromkeys(w.how for w in members))
    return Imported(record, tuple(records), how, members[0].where, truncated)
