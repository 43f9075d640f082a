"""Which of the Records a lookup returned is the entry's paper: a wrong id is worse than none.

A candidate is accepted only when every fact both sides know agrees: the titles (after
LaTeX, case, accents and punctuation are set aside) are near-equal, and equal outright when
short, with the same numbers and negations (near-titles are often other papers: "Llama 2"
and "Llama 3", "… Is All You Need" and "… Is Not All You Need"); the year is within one; the
author count agrees (or reaches the entry's, when its list is cut short); the abstracts and the
author names overlap. Candidates that share an arXiv id or a DOI are one paper, told by several
sources; two different papers that both pass are ambiguous unless exactly one also agrees
clearly (the abstract nearly verbatim, or the date within a month). A hand-set arXiv id pins
the paper: a candidate with another id is never accepted. Pure functions: no I/O.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache
from math import floor

import bibtexparser
from bibtexparser import middlewares as mw
from bibtexparser import model
from rapidfuzz import fuzz
from text_unidecode import unidecode

from .identifiers import arxiv_key
from .record import Record
from .withdrawn import is_notice

TITLE_MIN = 95  # rapidfuzz ratio of the normalized titles
SHORT_TITLE = 4  # titles of fewer words must be equal but for punctuation
ABSTRACT_MIN = 80  # token_set_ratio of the normalized abstracts
ABSTRACT_CLEAR = 95
CLEAR_DAYS = 31
SOURCES = ("arxiv", "s2", "hf", "bibtex")  # whose fields a merged record takes first
LINK_KINDS = ("pdf", "abs", "hf", "code", "project")
NEGATIONS = frozenset({"not", "no", "without"})
ROMAN = frozenset({"ii", "iii", "iv", "vi", "vii", "viii", "ix"})
_MARKUP = re.compile(r"[\\${}~]")
_BARE_PERCENT = re.compile(r"(?<!\\)%")  # in LaTeX a comment: "90% of" would lose the rest
_WORD = re.compile(r"[^\W_]+")
_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True)
class Known:
    """What the entry already says about its paper; None or empty where it says nothing.

    `author_count` is its number of authors; with `truncated` it is only a lower bound (the
    list was cut short). `authors` are the names it lists (possibly only the first few);
    `listed_only` says the count is only how many it lists (no `author_count`, no
    `truncated`): a curator who typed only the first author. `arxiv`, when a curator set it,
    pins the paper.
    """

    title: str
    date: dt.date | None = None
    author_count: int | None = None
    authors: tuple[str, ...] = ()
    abstract: str = ""
    truncated: bool = False
    arxiv: str | None = None
    listed_only: bool = False


@dataclass(frozen=True)
class Scored:
    """One candidate judged: its title score (0-100), the checks it passed, and why it failed (if it did)."""

    record: Record
    score: float
    how: str
    failures: tuple[str, ...] = ()
    clear: bool = False  # the abstract nearly verbatim or the date within a month: tells same-titled papers apart

    @property
    def accepted(self) -> bool:
        return not self.failures


@dataclass(frozen=True)
class Resolved:
    """The entry's paper: `record` merged from every accepted source of it (`records`), best first."""

    record: Record
    score: float
    how: str
    records: tuple[Record, ...]


@dataclass(frozen=True)
class Ambiguous:
    """Different papers (different ids) all passed: nothing is written, the curator chooses."""

    candidates: tuple[Scored, ...]


@dataclass(frozen=True)
class NotFound:
    """No candidate passed; `rejected` says why each failed (empty when there were none)."""

    rejected: tuple[Scored, ...] = ()


Decision = Resolved | Ambiguous | NotFound


@lru_cache(maxsize=1)
def _decoder() -> mw.LatexDecodingMiddleware:
    return mw.LatexDecodingMiddleware(keep_math_mode=False)  # $\alpha$ is α, as a source without LaTeX writes it


@lru_cache(maxsize=8192)
def _latex_text(text: str) -> str:
    """LaTeX markup as the text it prints, through bibtexparser's decoder (pylatexenc); unchanged if it fails."""
    entry = model.Entry("misc", "text", [model.Field("text", _BARE_PERCENT.sub(r"\\%", text))])
    block = _decoder().transform(bibtexparser.Library([entry])).blocks[0]
    return str(block["text"]) if isinstance(block, model.Entry) else text


def normalize(text: str) -> str:
    """Text as compared: LaTeX decoded, NFKC, casefolded, accents dropped, punctuation and spacing one space."""
    if _MARKUP.search(text):
        text = _latex_text(text)
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", text).casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " ".join(_WORD.findall(unicodedata.normalize("NFC", text)))


def _title_check(known: str, found: str) -> tuple[float, str]:
    """The title score and why the titles are not the same paper's ('' when they are)."""
    if not known or not found:
        return 0.0, "no title to compare"
    score = fuzz.ratio(known, found)
    words = min(known.count(" "), found.count(" ")) + 1
    if score < TITLE_MIN:
        return score, f"title {floor(score)} < {TITLE_MIN}"
    if words < SHORT_TITLE and known.replace(" ", "") != found.replace(" ", ""):
        return score, f"short titles differ (title {floor(score)})"
    if _DIGITS.findall(known) != _DIGITS.findall(found) or _marks(known) != _marks(found):
        return score, f"titles differ in a number or a negation (title {floor(score)})"
    return score, ""


def _marks(title: str) -> Counter[str]:
    return Counter(word for word in title.split() if word in NEGATIONS or word in ROMAN)


def _year(record: Record) -> int | None:
    return record.year if record.year is not None else (record.date.year if record.date else None)


def name_tokens(name: str) -> tuple[str, ...]:
    """A name's words as compared: accents and case set aside, Latin letters folded (`_latin_folded`)."""
    return tuple(_latin_folded(normalize(name)).split())


def _latin_folded(text: str) -> str:
    """Latin letters that have no accent to drop (ł, ø, đ, æ, þ) as their ASCII spelling, through text-unidecode:
    `Łukasz Małecki` is typed `Lukasz Malecki`. Other scripts stay as they are: 李 is not "Li"."""
    if text.isascii():
        return text
    return "".join(unidecode(c).lower() if not c.isascii() and unicodedata.name(c, "").startswith("LATIN") else c
                   for c in text)


def _same_person(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Same surname, in either name order ("Zhang Wei" is "Wei Zhang"); initials do not count as surnames."""
    def surname(tokens: tuple[str, ...]) -> str:
        return next((t for t in reversed(tokens) if len(t) > 1), tokens[-1])
    return surname(a) in b or surname(b) in a


def _shared_authors(known: Iterable[str], found: Iterable[str]) -> tuple[int, int]:
    """How many of the entry's (comparable) names the candidate has, each candidate name used once."""
    mine = [t for t in map(name_tokens, known) if t]
    theirs = [t for t in map(name_tokens, found) if t]
    if not mine or not theirs:
        return 0, 0  # nothing to compare
    matched = 0
    for name in mine:
        hit = next((i for i, other in enumerate(theirs) if _same_person(name, other)), None)
        if hit is not None:
            matched += 1
            del theirs[hit]
    return matched, len(mine)


def assess(known: Known, record: Record) -> Scored:
    """Judge one candidate against the entry: every check both sides can make, with its result."""
    how: list[str] = []
    failures: list[str] = []
    clear = near_date = verbatim = False
    if known.arxiv and record.arxiv and arxiv_key(known.arxiv) != arxiv_key(record.arxiv):
        failures.append(f"arXiv {record.arxiv} is not the entry's {arxiv_key(known.arxiv)}")
    score, problem = _title_check(normalize(known.title), normalize(record.title))
    how.append(f"title {floor(score)}")
    failures += [problem] if problem else []
    year = _year(record)
    if known.date is not None and year is not None:
        how.append(f"year {year}")
        if abs(year - known.date.year) > 1:
            failures.append(f"year {year}, the entry's {known.date.year}")
        if record.date is not None and abs((record.date - known.date).days) <= CLEAR_DAYS:
            clear = near_date = True
    mine, theirs = normalize(known.abstract), normalize("" if is_notice(record.abstract) else record.abstract)
    if mine and theirs:
        similarity = fuzz.token_set_ratio(mine, theirs)
        how.append(f"abstract {floor(similarity)}")
        verbatim = similarity >= ABSTRACT_CLEAR
        clear = clear or verbatim
        if similarity < ABSTRACT_MIN:
            failures.append(f"abstract {floor(similarity)} < {ABSTRACT_MIN}")
    certain = near_date and verbatim and normalize(known.title) == normalize(record.title)
    failures += _author_problems(known, record, how, certain)
    return Scored(record, score, ", ".join(how), tuple(failures), clear)


def _author_problems(known: Known, record: Record, how: list[str], certain: bool = False) -> list[str]:
    """The author count (a lower bound when the entry's list is cut short, or is only the first names typed and
    they lead the paper's list; off by one only when all else is `certain`) and the names in common."""
    problems = []
    count, expected = len(record.authors), known.author_count
    counted = expected is not None and count > 0
    if expected is not None and counted and (count < expected or (count > expected and not known.truncated)):
        said = f"{count} author{'s' * (count != 1)}, the entry's {expected}{'+' * known.truncated}"
        if certain and abs(count - expected) == 1:  # a later version added or dropped one: the rest is exact
            how.append(f"{said} (off by one; all else agrees)")
        elif known.listed_only and count > expected and _leading(known.authors, record):
            how.append(f"the entry lists the first {expected} of {count} (a lower bound)")
        else:
            problems.append(said)
    matched, compared = _shared_authors(known.authors, (a.name for a in record.authors))
    if compared:
        how.append(f"authors {matched}/{compared}")
        if matched * 2 < compared or not matched:
            problems.append(f"authors {matched}/{compared} in common")
    elif counted:
        how.append(f"authors {count}")
    return problems


def _leading(names: tuple[str, ...], record: Record) -> bool:
    """Whether the names are the record's first authors, in order."""
    theirs = [name_tokens(a.name) for a in record.authors[: len(names)]]
    mine = [name_tokens(name) for name in names]
    return bool(mine) and len(theirs) == len(mine) and all(
        a and b and _same_person(a, b) for a, b in zip(mine, theirs, strict=True))


def _keys(record: Record) -> list[str]:
    keys = [f"arxiv:{arxiv_key(record.arxiv)}"] if record.arxiv else []
    return keys + ([f"doi:{record.doi.casefold()}"] if record.doi else [])


def _papers(accepted: list[Scored]) -> list[list[Scored]]:
    """Accepted candidates grouped into papers: sharing an arXiv id or a DOI (transitively) is being one."""
    groups: list[tuple[set[str], list[Scored]]] = []
    for scored in accepted:
        keys = set(_keys(scored.record)) or {f"record:{scored.record.source}:{scored.record.id}:{id(scored)}"}
        joined = [g for g in groups if g[0] & keys]
        merged = (keys.union(*(g[0] for g in joined)), [s for g in joined for s in g[1]] + [scored])
        groups = [g for g in groups if all(g is not j for j in joined)] + [merged]
    return [members for _, members in groups]


def _conflicted(paper: list[Scored]) -> bool:
    """Linked through a DOI yet under two arXiv ids: a source mixed two papers up, so neither is taken."""
    return len({arxiv_key(s.record.arxiv) for s in paper if s.record.arxiv}) > 1


def _rank(scored: Scored) -> tuple[int, float, str]:
    source = scored.record.source
    return (SOURCES.index(source) if source in SOURCES else len(SOURCES), -scored.score, repr(scored.record))


def merge(records: list[Record]) -> Record:
    """One record of one paper from several sources: the first's fields, its gaps filled from the others in order.

    Withdrawn when any source says so; a withdrawal notice as an abstract is a gap to fill.
    """
    base = records[0]
    for other in records[1:]:
        filled = {name: getattr(other, name) for name in ("authors", "abstract", "date", "year", "month", "arxiv",
                                                          "doi", "category", "venue", "upvotes", "organization",
                                                          "keywords")
                  if _gap(base, name) and not _gap(other, name)}
        base = replace(base, **filled)
    links = dict(reversed([link for r in records for link in r.links]))  # the first URL of each kind wins
    ordered = sorted(links.items(), key=lambda kv: LINK_KINDS.index(kv[0]) if kv[0] in LINK_KINDS else len(LINK_KINDS))
    return replace(base, links=tuple(ordered), withdrawn=any(r.withdrawn for r in records))


def _gap(record: Record, name: str) -> bool:
    value = getattr(record, name)
    return value in (None, "", ()) or (name == "abstract" and is_notice(value))


def _resolved(paper: list[Scored], note: str) -> Resolved:
    members = sorted(paper, key=_rank)
    records = tuple(dict.fromkeys(s.record for s in members))
    best = members[0]
    sources = sorted({r.source for r in records}, key=lambda s: (SOURCES.index(s) if s in SOURCES else 99, s))
    how = best.how + (f"; sources {', '.join(sources)}" if len(sources) > 1 else "") + note
    merged = merge(list(records))
    if len({r.doi.casefold() for r in records if r.doi}) > 1:  # one arXiv paper, two DOIs: neither is sure
        merged, how = replace(merged, doi=None), how + "; the sources' DOIs differ, none kept"
    return Resolved(merged, best.score, how, records)


def decide(known: Known, candidates: Iterable[Record]) -> Decision:
    """The entry's paper among the candidates (from any sources), or why none can be chosen; order does not matter."""
    judged = [assess(known, record) for record in sorted(set(candidates), key=repr)]
    accepted = [s for s in judged if s.accepted]
    if not accepted:
        return NotFound(_by_score(judged))
    papers = _papers(accepted)
    if any(map(_conflicted, papers)):
        return Ambiguous(_by_score(accepted))
    if known.arxiv:  # only the pinned paper: the others (no arXiv id) cannot be checked against it
        pinned = [p for p in papers if any(s.record.arxiv for s in p)]
        if pinned:
            return _resolved(pinned[0], "; arXiv id pinned")
        unchecked = ("no arXiv id to check against the entry's",)
        return NotFound(_by_score([s if s.failures else replace(s, failures=unchecked) for s in judged]))
    if len(papers) == 1:
        return _resolved(papers[0], "")
    clear = [p for p in papers if any(s.clear for s in p)]
    if len(clear) == 1:
        return _resolved(clear[0], f"; chosen over {len(papers) - 1} other paper(s) of that title")
    return Ambiguous(_by_score(accepted))


def _by_score(scored: list[Scored]) -> tuple[Scored, ...]:
    return tuple(sorted(scored, key=lambda s: (-s.score, repr(s.record))))
