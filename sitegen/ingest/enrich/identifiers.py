"""What a paper is named by on the command line of `sitegen import` and `sitegen new`.

A user pastes whatever their browser shows: an arXiv id or any of arXiv's URLs, a Hugging
Face paper page, a DOI in any of its spellings, a `.bib` file; `--hf-daily` takes a day, an
ISO week or a month. Each becomes one typed value here, checked as far as its form allows
(an arXiv id's month and digit count, a real calendar date), so a typo is a one-line
diagnostic naming the argument, never a request for a paper that does not exist.
"""

from __future__ import annotations

import datetime as dt
import re
from calendar import monthrange
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal
from urllib.parse import unquote, urlsplit

from ...common.errors import Location, SitegenError
from ...content.controls import shown
from ...content.field_checks import DOI

# The archives of arXiv's identifiers before April 2007 (archive/YYMMNNN); the list is closed.
OLD_ARCHIVES = frozenset({
    "acc-phys", "adap-org", "alg-geom", "ao-sci", "astro-ph", "atom-ph", "bayes-an", "chao-dyn", "chem-ph",
    "cmp-lg", "comp-gas", "cond-mat", "cs", "dg-ga", "funct-an", "gr-qc", "hep-ex", "hep-lat", "hep-ph",
    "hep-th", "math", "math-ph", "mtrl-th", "nlin", "nucl-ex", "nucl-th", "patt-sol", "physics", "plasm-ph",
    "q-alg", "q-bio", "quant-ph", "solv-int", "supr-con",
})
NEW_ID = re.compile(r"(?P<yymm>\d{4})\.(?P<number>\d+)(?:[vV](?P<version>\d+))?\Z", re.ASCII)
OLD_ID = re.compile(r"(?P<archive>[a-zA-Z]+(?:-[a-zA-Z]+)*)(?:\.(?P<subject>[A-Za-z]{2}))?/(?P<yymm>\d{4})"
                    r"(?P<number>\d+)(?:[vV](?P<version>\d+))?\Z", re.ASCII)
ARXIV_PREFIX = re.compile(r"arxiv:\s*", re.IGNORECASE)
DOI_PREFIX = re.compile(r"doi:\s*", re.IGNORECASE)
ARXIV_DOI = re.compile(r"10\.48550/arxiv\.(?P<id>.+)\Z", re.IGNORECASE)
ARXIV_HOSTS = frozenset({"arxiv.org", "export.arxiv.org"})
HF_HOSTS = frozenset({"huggingface.co", "hf.co"})
DOI_HOSTS = frozenset({"doi.org", "dx.doi.org"})
ARXIV_PAGES = ("abs", "pdf", "html")
DAY = re.compile(r"(\d{4})-(\d{2})-(\d{2})\Z", re.ASCII)
WEEK = re.compile(r"(\d{4})-W(\d{2})\Z", re.IGNORECASE | re.ASCII)
MONTH = re.compile(r"(\d{4})-(\d{2})\Z", re.ASCII)

WHAT = "an arXiv id (2507.14417), an arXiv or Hugging Face paper URL, a DOI (10.1145/…) or a .bib file"


@dataclass(frozen=True)
class ArxivId:
    """An arXiv paper, `id` canonical and without version (`2507.14417`, `hep-th/9901001`).

    `via` says how it was named (an "arxiv" id or URL, an "hf" paper page, a "doi"); it is
    not part of the paper's identity, so it does not take part in comparisons.
    """

    id: str
    version: int | None = None
    via: str = field(default="arxiv", compare=False)

    def __str__(self) -> str:
        return self.id if self.version is None else f"{self.id}v{self.version}"


@dataclass(frozen=True)
class Doi:
    """A publisher's DOI as `10.prefix/suffix` (the arXiv DataCite DOI is an ArxivId instead)."""

    doi: str

    def __str__(self) -> str:
        return self.doi


@dataclass(frozen=True)
class BibFile:
    """A BibTeX file whose entries are each a paper to import; read by `enrich.bibfile`."""

    path: Path


@dataclass(frozen=True)
class Daily:
    """The Hugging Face daily papers of a day, an ISO week or a month: `start` to `end`, inclusive."""

    kind: Literal["day", "week", "month"]
    start: dt.date
    end: dt.date

    def __str__(self) -> str:
        if self.kind == "day":
            return self.start.isoformat()
        if self.kind == "week":
            year, week, _ = self.start.isocalendar()
            return f"{year}-W{week:02d}"
        return f"{self.start.year}-{self.start.month:02d}"


Identifier = ArxivId | Doi | BibFile


def _where(argument: str) -> Location:
    """The argument as the user typed it, made safe to print (no control characters, bounded)."""
    text = argument if argument.isprintable() and argument.strip() else repr(argument)
    return Location(text if len(text) <= 200 else text[:199] + "…")


def _fail(argument: str, code: str, message: str, hint: str) -> SitegenError:
    return SitegenError.single(_where(argument), code, message, hint)


def _new_style_problem(yymm: str, number: str) -> str:
    """Why YYMM.NNNNN is no arXiv id ('' if it is one): months 01-12 from 0704, 4 digits until 1412, then 5."""
    year, month = int(yymm[:2]), int(yymm[2:])
    if not 1 <= month <= 12:
        return f"'{yymm[2:]}' is not a month (an arXiv id starts with the year and month, YYMM)"
    if yymm < "0704":
        return "new-style arXiv ids start in April 2007 (0704.NNNN)"
    digits = 4 if yymm < "1501" else 5
    if len(number) != digits:
        since = "from January 2015 on" if digits == 5 else "until December 2014"
        return f"arXiv ids of 20{year:02d}-{month:02d} have {digits} digits after the dot ({since})"
    return ""


def _old_style_problem(archive: str, yymm: str, number: str) -> str:
    """Why archive/YYMMNNN is no arXiv id ('' if it is one): a known archive, August 1991 to March 2007."""
    if archive not in OLD_ARCHIVES:
        return f"'{archive}' is not an arXiv archive of the old-style ids (archive/YYMMNNN)"
    if not 1 <= int(yymm[2:]) <= 12:
        return f"'{yymm[2:]}' is not a month (YYMM after the archive)"
    if "0703" < yymm < "9108":
        return "old-style arXiv ids run from 9108 (August 1991) to 0703 (March 2007)"
    if len(number) != 3 or number == "000":
        return "old-style arXiv ids have 7 digits after the slash (YYMMNNN)"
    return ""


def arxiv_problem(text: str) -> tuple[ArxivId | None, str]:
    """`text` as an ArxivId, or None and why not ('' when it does not even look like one)."""
    if match := NEW_ID.match(text):
        problem = _new_style_problem(match["yymm"], match["number"])
        canonical = f"{match['yymm']}.{match['number']}"
    elif match := OLD_ID.match(text):
        archive = match["archive"].lower()
        problem = _old_style_problem(archive, match["yymm"], match["number"])
        canonical = f"{archive}/{match['yymm']}{match['number']}"
    else:
        return None, ""
    version = match["version"]
    if not problem and version is not None and (int(version) == 0 or version.startswith("0")):
        problem = f"'v{version}' is no version: arXiv counts versions from v1"
    return (None, problem) if problem else (ArxivId(canonical, int(version) if version else None), "")


def parse_arxiv(text: str) -> ArxivId | None:
    """`text` as an arXiv id with optional `arXiv:` prefix and version, or None; never raises."""
    found, _ = arxiv_problem(ARXIV_PREFIX.sub("", text.strip(), count=1))
    return found


def arxiv_key(text: str) -> str:
    """What two spellings of one arXiv paper share: no version, no subject class, no case."""
    found = parse_arxiv(text)
    return found.id if found else text.strip().casefold()


def _arxiv(argument: str, text: str, via: str) -> ArxivId:
    found, problem = arxiv_problem(text)
    if found is None:
        raise _fail(argument, "E1021", problem or f"{shown(text)} is not an arXiv id",
                    "arXiv ids look like 2507.14417 (YYMM.NNNNN, optionally v2) or hep-th/9901001")
    return ArxivId(found.id, found.version, via)


def _doi(argument: str, text: str) -> Identifier:
    text = text.strip()
    if match := ARXIV_DOI.match(text):
        return _arxiv(argument, match["id"], "doi")
    if not DOI.match(text) or not text.isprintable():  # DOI allows what no DOI holds: ESC, DEL
        raise _fail(argument, "E1022", f"{shown(text)} is not a DOI",
                    "a DOI is 10.<digits>/<suffix> without spaces, e.g. 10.1145/3581784.3607040")
    return Doi(text)


def _url(argument: str, text: str) -> Identifier:
    try:
        parts = urlsplit(text if "://" in text else "https://" + text)
    except ValueError as exc:  # "https://[" : an unclosed IPv6 host
        raise _fail(argument, "E1020", f"not a URL: {exc}", f"give {WHAT}") from None
    host = (parts.hostname or "").lower().removeprefix("www.")
    path = unquote(parts.path).strip("/")
    if parts.scheme.lower() not in ("http", "https"):
        raise _fail(argument, "E1020", f"{shown(parts.scheme)} URLs name no paper", "use the https:// URL of the paper")
    if host in DOI_HOSTS:
        return _doi(argument, path)
    page, _, rest = path.partition("/")
    if host in ARXIV_HOSTS and page in ARXIV_PAGES and rest:
        return _arxiv(argument, rest.removesuffix(".pdf") if page == "pdf" else rest, "arxiv")
    if host in HF_HOSTS and page == "papers" and rest and "/" not in rest:
        return _arxiv(argument, rest, "hf")
    if host in ARXIV_HOSTS | HF_HOSTS:
        raise _fail(argument, "E1025", "this URL is not a paper's page",
                    "use the paper's page, e.g. https://arxiv.org/abs/2507.14417 or https://huggingface.co/papers/2507.14417")
    raise _fail(argument, "E1020", f"sitegen does not know papers at {shown(host)}", f"give {WHAT}")


def parse_identifier(argument: str) -> Identifier:
    """One argument of `sitegen import`/`sitegen new` as the paper (or .bib file) it names.

    Raises SitegenError (E1020-E1022, E1025) at `Location(argument)` when it names nothing.
    """
    text = argument.strip()
    if text.lower().endswith(".bib"):
        return BibFile(Path(argument))
    lowered = text.lower()
    if "://" in text or lowered.split("/", 1)[0].removeprefix("www.") in ARXIV_HOSTS | HF_HOSTS | DOI_HOSTS:
        return _url(argument, text)
    if prefix := ARXIV_PREFIX.match(text):
        return _arxiv(argument, text[prefix.end():], "arxiv")
    if prefix := DOI_PREFIX.match(text):
        return _doi(argument, text[prefix.end():])
    if text.startswith("10."):
        return _doi(argument, text)
    found, problem = arxiv_problem(text)
    if found is not None:
        return found
    if problem:
        raise _fail(argument, "E1021", problem, "arXiv ids look like 2507.14417 (YYMM.NNNNN, optionally v2)")
    raise _fail(argument, "E1020", "not a paper sitegen can look up", f"give {WHAT}")


def _no_such(argument: str, message: str) -> SitegenError:
    return _fail(argument, "E1024", message, "days are YYYY-MM-DD, ISO weeks YYYY-Www (01-52 or 53), months YYYY-MM")


def parse_daily(argument: str) -> Daily:
    """The `--hf-daily` value: a day `2025-07-21`, an ISO week `2025-W30` or a month `2025-07`.

    Raises SitegenError: E1023 for another form, E1024 for a day, week or month that does not exist.
    """
    text = argument.strip()
    if match := DAY.match(text):
        try:
            day = dt.date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError as exc:
            raise _no_such(argument, f"{text} is not a date: {exc}") from None
        return Daily("day", day, day)
    if match := WEEK.match(text):
        try:
            monday = dt.date.fromisocalendar(int(match[1]), int(match[2]), 1)
        except ValueError:
            raise _no_such(argument, f"{match[1]} has no ISO week {match[2]}") from None
        return Daily("week", monday, monday + dt.timedelta(days=6))
    if match := MONTH.match(text):
        year, month = int(match[1]), int(match[2])
        if not 1 <= month <= 12 or year < 1:
            raise _no_such(argument, f"{text} is not a month")
        return Daily("month", dt.date(year, month, 1), dt.date(year, month, monthrange(year, month)[1]))
    raise _fail(argument, "E1023", "not a day, an ISO week or a month",
                "give a day (2025-07-21), an ISO week (2025-W30) or a month (2025-07)")
