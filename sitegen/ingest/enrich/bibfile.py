"""A `.bib` file as Records, so `sitegen import refs.bib` resolves each entry like any other paper.

bibtexparser v2 splits the file and reports each block it cannot read with its line; its
middlewares separate co-authors, split names into their parts and decode LaTeX (`{\\"o}` is
ö) without our own grammar. Identifiers (DOI, eprint, URL) are read verbatim, never decoded:
in LaTeX a `%` starts a comment and would cut a URL short. A bad value (a year "in press", an
eprint that is no arXiv id) is a warning and the field is left out: a wrong id is worse than none.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import bibtexparser
from bibtexparser import middlewares as mw
from bibtexparser import model

from ...common.errors import Diagnostic, Location, SitegenError
from ...common.fsutil import read_regular
from ...content import controls
from ...content.field_checks import CATEGORY, URL
from ..importers.common import REPO_URL
from .identifiers import ArxivId, Doi, parse_arxiv, parse_identifier
from .record import Author, Record

# bibtexparser logs each failed block; we report them as diagnostics instead of printing twice.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())

VERBATIM = frozenset({"doi", "eprint", "archiveprefix", "eprinttype", "primaryclass", "url", "year", "date", "month"})
DECODED = ("title", "abstract", "journal", "journaltitle", "booktitle", "keywords")
PREPRINT_VENUE = re.compile(r"^\s*(arxiv|corr)\b", re.IGNORECASE)
ARXIV_IN_VENUE = re.compile(r"arxiv:\s*(\S+)", re.IGNORECASE)
YEAR = re.compile(r"\d{4}\Z", re.ASCII)
BIBLATEX_DATE = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:/.*)?\Z", re.ASCII)

@dataclass(frozen=True)
class BibEntry:
    """One entry of the file: its key, its 1-based line and the Record read from it.

    `truncated` says the author list ended in `and others` (the count is a lower bound).
    `record.date` is set only when the entry gives the day; `record.year` whenever it gives
    the year, and `record.month` (1-12) when it gives the month but no day: nothing is invented.
    """

    key: str
    line: int
    record: Record
    truncated: bool = False


@dataclass(frozen=True)
class BibResult:
    """What a `.bib` file holds: the entries that could be read and every problem found."""

    entries: tuple[BibEntry, ...]
    diagnostics: tuple[Diagnostic, ...]

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)

    def raise_on_errors(self) -> None:
        """For callers that import nothing when a file has any error (house rule: validate, then stop)."""
        if self.has_errors:
            raise SitegenError([d for d in self.diagnostics if d.severity == "error"])


def read_bibfile(path: Path, shown: str | None = None) -> BibResult:
    """Read the `.bib` file at `path`; `shown` is how messages name it (default: the path as given)."""
    where = shown if shown is not None else path.as_posix()
    try:
        data, _ = read_regular(path)
    except OSError as exc:
        return _failed(Diagnostic(Location(where), "E1030", f"cannot read the BibTeX file: {exc.strerror or exc}",
                                  "give the path of a .bib file"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return _failed(Diagnostic(Location(where, line), "E1030", "the BibTeX file is not valid UTF-8 text",
                                  "save it as UTF-8 (most reference managers offer it on export)"))
    return parse_bib(text, where)


def _failed(diagnostic: Diagnostic) -> BibResult:
    return BibResult((), (diagnostic,))


def parse_bib(text: str, shown: str) -> BibResult:
    """The entries of BibTeX `text` as Records (source "bibtex", id the citation key), with diagnostics."""
    problems: list[Diagnostic] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n")
    cleaned = controls.clean(lines)
    if (bad := controls.first(lines)) is not None:
        problems.append(Diagnostic(Location(shown, lines.count("\n", 0, bad.start()) + 1), "W1037",
                                   f"control character {controls.name(bad.group())} removed", "", "warning"))
    library = bibtexparser.parse_string(cleaned)
    for block in library.failed_blocks:
        problems.append(_block_problem(block, cleaned, shown))
    entries: list[BibEntry] = []
    seen: dict[str, int] = {}
    for entry in library.entries:
        line = (entry.start_line or 0) + 1
        if (first := seen.setdefault(entry.key.casefold(), line)) != line:
            problems.append(Diagnostic(Location(shown, line), "E1032", f"the key '{entry.key}' is used twice",
                                       f"the first is on line {first} (BibTeX ignores case in keys); "
                                       "rename or remove one"))
            continue
        read = _entry(entry, shown, problems)
        if read is not None:
            entries.append(read)
    return BibResult(tuple(entries), tuple(sorted(problems, key=lambda d: (d.location, d.code))))


def _block_problem(block: model.ParsingFailedBlock, text: str, shown: str) -> Diagnostic:
    """What a block bibtexparser could not read is, as a diagnostic at its first line."""
    where = Location(shown, (block.start_line or 0) + 1)
    if isinstance(block, model.DuplicateBlockKeyBlock):
        first = (block.previous_block.start_line or 0) + 1
        return Diagnostic(where, "E1032", f"the key '{block.key}' is used twice",
                          f"the first is on line {first}; rename or remove one")
    if isinstance(block, model.DuplicateFieldKeyBlock):
        keys = ", ".join(sorted(block.duplicate_keys))
        return Diagnostic(where, "E1033", f"the entry gives {keys} twice", "keep one of each field")
    error = block.error
    reason = getattr(error, "abort_reason", "") or str(error) or type(error).__name__
    end = getattr(error, "end_index", None)
    until = f" (line {text.count(chr(10), 0, end) + 1})" if isinstance(end, int) else ""
    return Diagnostic(where, "E1031", f"this block cannot be read: {' '.join(reason.split())}{until}",
                      "check its braces, quotes and commas; each field is `name = {value},`")


def _entry(entry: model.Entry, shown: str, problems: list[Diagnostic]) -> BibEntry | None:
    """One entry as a BibEntry, its problems appended; None when nothing in it names a paper."""
    line = (entry.start_line or 0) + 1
    fields: dict[str, model.Field] = {}
    for field in entry.fields:
        if field.key.lower() in fields:  # `Title` and `title`: bibtexparser sees two fields
            problems.append(Diagnostic(Location(shown, field.start_line + 1), "E1033",
                                       f"the entry gives {field.key.lower()} twice", "keep one of each field"))
            return None
        fields[field.key.lower()] = field
    raw = {key: str(f.value).strip() for key, f in fields.items() if key in VERBATIM}
    at = {key: f.start_line + 1 for key, f in fields.items()}
    decoded = _decode({key: str(fields[key].value) for key in DECODED if key in fields})
    authors, truncated, problem = _authors(fields.get("author"))
    if problem:
        problems.append(Diagnostic(Location(shown, at.get("author", line)), "E1036", problem,
                                   "write names as `Last, First and Last, First`, with balanced braces"))
        return None
    warn = _Warner(shown, at, line, problems)
    year, month, day = _date(raw, warn)
    arxiv, doi = _identifiers(raw, decoded.get("journal", ""), warn)
    title = decoded.get("title", "")
    if not title and arxiv is None and doi is None:
        problems.append(Diagnostic(Location(shown, line), "E1034", f"the entry '{entry.key}' has no title, DOI or "
                                   "arXiv id", "give at least its title; a DOI or eprint makes the match certain"))
        return None
    category = raw.get("primaryclass") or None
    if category is not None and not CATEGORY.match(category):
        warn("primaryclass", f"primaryclass '{category}' is not an arXiv category; left out", "e.g. cs.LG")
        category = None
    venue = decoded.get("journal") or decoded.get("journaltitle") or decoded.get("booktitle") or None
    record = Record(
        source="bibtex", id=entry.key, title=title, authors=tuple(Author(name) for name in authors),
        abstract=decoded.get("abstract", ""), date=day, year=year, month=month if day is None else None,
        arxiv=arxiv, doi=doi, category=category,
        links=_links(raw.get("url", ""), warn), venue=None if venue and PREPRINT_VENUE.match(venue) else venue,
        keywords=tuple(k for k in (k.strip() for k in re.split(r"[,;]", decoded.get("keywords", ""))) if k))
    return BibEntry(entry.key, line, record, truncated)


class _Warner:
    """Appends a warning at a field's line (the entry's when it has no such field)."""

    def __init__(self, shown: str, at: dict[str, int], line: int, problems: list[Diagnostic]):
        self.shown, self.at, self.line, self.problems = shown, at, line, problems

    def __call__(self, key: str, message: str, hint: str = "") -> None:
        where = Location(self.shown, self.at.get(key, self.line))
        self.problems.append(Diagnostic(where, "W1035", message, hint, "warning"))


@lru_cache(maxsize=1)
def _decoder() -> mw.LatexDecodingMiddleware:
    return mw.LatexDecodingMiddleware()  # math kept as written: the site renders $…$


def _decode(values: dict[str, str]) -> dict[str, str]:
    """LaTeX to Unicode through bibtexparser's decoding middleware; spacing collapsed, paragraphs kept."""
    if not values:
        return {}
    entry = model.Entry("misc", "decode", [model.Field(key, value) for key, value in values.items()])
    library = _decoder().transform(bibtexparser.Library([entry]))
    block = library.blocks[0]
    if isinstance(block, model.MiddlewareErrorBlock):  # pylatexenc refused: keep the text as written
        block = block.ignore_error_block or entry
    assert isinstance(block, model.Entry)
    return {f.key: _tidy(str(f.value)) for f in block.fields}


def _tidy(text: str) -> str:
    paragraphs = re.split(r"\n\s*\n", controls.clean(text))
    return "\n\n".join(p for p in (" ".join(p.split()) for p in paragraphs) if p)


def _authors(field: model.Field | None) -> tuple[list[str], bool, str]:
    """The author names First-name-first, whether `and others` ended the list, and an error ('' if none)."""
    if field is None:
        return [], False, ""
    entry = model.Entry("misc", "names", [model.Field("author", str(field.value))])
    library = bibtexparser.Library([entry])
    for middleware in (mw.SeparateCoAuthors(), mw.SplitNameParts()):
        library = middleware.transform(library)
    block = library.blocks[0]
    if not isinstance(block, model.Entry):
        error = getattr(block, "error", None)
        name, reason = getattr(error, "name", None), getattr(error, "reason", None)
        if isinstance(name, str) and isinstance(reason, str):  # bibtexparser's InvalidNameError
            return [], False, f"the author '{' '.join(name.split())}' cannot be read: {reason.lower()}"
        return [], False, f"the author list cannot be read: {' '.join(str(error).split())}"
    parts: list[Any] = block.fields[0].value
    truncated = any(p.last == ["others"] and not (p.first or p.von or p.jr) for p in parts)
    names = [" ".join([*p.first, *p.von, *p.last, *p.jr]) for p in parts if p.last != ["others"] or p.first]
    decoded = _decode({str(i): name for i, name in enumerate(names)})
    return [n for n in (decoded[str(i)] for i in range(len(names))) if n], truncated, ""


def _date(raw: dict[str, str], warn: _Warner) -> tuple[int | None, int | None, dt.date | None]:
    """The year, month and day the entry gives (biblatex `date`, else `year` and `month`), as far as it gives them."""
    if value := raw.get("date"):
        match = BIBLATEX_DATE.match(value)
        try:
            if match:
                day = dt.date(int(match[1]), int(match[2] or 1), int(match[3] or 1))  # checks month and day
                return day.year, int(match[2]) if match[2] else None, day if match[3] else None
        except ValueError:
            pass
        warn("date", f"date '{value}' is not YYYY, YYYY-MM or YYYY-MM-DD; the entry has no date")
        return None, None, None
    written = raw.get("year", "")
    if not written:
        return None, None, None
    if not YEAR.match(written) or written == "0000":
        warn("year", f"year '{written}' is not a year; the entry has no date", "a year is four digits, e.g. 2025")
        return None, None, None
    month = _month(raw.get("month", ""))
    if month is None and raw.get("month"):
        warn("month", f"month '{raw['month']}' is not a month; only the year is kept", "e.g. month = jul or 7")
    return int(written), month, None


def _month(value: str) -> int | None:
    """A BibTeX month (7, 07, jul, July) as 1-12 through bibtexparser's month middleware, else None."""
    if not value:
        return None
    entry = model.Entry("misc", "month", [model.Field("month", value)])
    block = mw.MonthIntMiddleware().transform(bibtexparser.Library([entry])).blocks[0]
    number = block["month"] if isinstance(block, model.Entry) else None
    if isinstance(number, str) and number.isascii() and number.isdigit():
        number = int(number)
    return number if isinstance(number, int) and 1 <= number <= 12 else None


def _identifiers(raw: dict[str, str], journal: str, warn: _Warner) -> tuple[str | None, str | None]:
    """The arXiv id (from eprint, DOI, URL or a Google Scholar journal) and the publisher DOI; a conflict is neither."""
    found: dict[str, str] = {}
    prefix = (raw.get("archiveprefix") or raw.get("eprinttype") or "arxiv").lower()
    if (eprint := raw.get("eprint")) and prefix == "arxiv":
        if (parsed := parse_arxiv(eprint)) is None:
            warn("eprint", f"eprint '{eprint}' is not an arXiv id; left out", "e.g. eprint = {2507.14417}")
        else:
            found["eprint"] = parsed.id
    doi: str | None = None
    if value := raw.get("doi"):
        named = _named(value)
        if isinstance(named, ArxivId):
            found["doi"] = named.id
        elif isinstance(named, Doi):
            doi = named.doi
        else:
            warn("doi", f"doi '{value}' is not a DOI; left out", "e.g. doi = {10.1145/3581784.3607040}")
    if (named := _named(raw.get("url", ""))) and isinstance(named, ArxivId):
        found["url"] = named.id
    if (match := ARXIV_IN_VENUE.search(journal)) and (parsed := parse_arxiv(match[1])):
        found["journal"] = parsed.id
    ids = sorted(set(found.values()))
    if len(ids) > 1:
        warn("eprint", f"the entry names different arXiv papers ({', '.join(ids)}); no arXiv id kept",
             "keep the right one in eprint and remove the others")
        return None, doi
    return (ids[0] if ids else None), doi


def _named(value: str) -> ArxivId | Doi | None:
    if not value:
        return None
    try:
        named = parse_identifier(value)
    except SitegenError:
        return None
    return named if isinstance(named, ArxivId | Doi) else None


def _links(url: str, warn: _Warner) -> tuple[tuple[str, str], ...]:
    """The entry's URL as one of Record's link kinds: a PDF, a Hugging Face page, code, else the paper's page."""
    if not url:
        return ()
    if not URL.match(url):
        warn("url", f"url '{url}' is not an http(s) URL; left out")
        return ()
    lowered = url.lower()
    if "huggingface.co/papers/" in lowered:
        return (("hf", url),)
    if lowered.split("?")[0].endswith(".pdf") or "arxiv.org/pdf/" in lowered:
        return (("pdf", url),)
    if REPO_URL.match(url):
        return (("code", url),)
    return (("abs", url),)
