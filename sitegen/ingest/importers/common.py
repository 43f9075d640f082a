"""What every dump parser shares: the paper record, line handling, dates and links."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field

from ...common.errors import Diagnostic, Location

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTH_RE = "|".join(MONTHS)
REPO_URL = re.compile(
    r"https?://(?:www\.)?(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)/[^\s{}()<>\"']+",
    re.IGNORECASE,
)

# No count, score or index on a real page has more digits; int() itself refuses more than 4,300.
MAX_DIGITS = 12
# C0 but tab and newline (CRs are line ends by then), DEL, C1 and the two non-characters
# XML refuses: no text copied from a page holds one, and no entry, feed or page may.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffe\uffff]")

SENTENCE_END = (".", "!", "?", "…", '"', "”", "。", "．", "！", "？", "।", "؟")
TRAILING_URL = re.compile(r"https?://\S+$", re.IGNORECASE)


class DumpError(Exception):
    """A dump cannot be read at all (empty, binary, unknown format)."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic
        super().__init__(diagnostic.format())


@dataclass(frozen=True)
class Line:
    """A non-blank line of a dump with its 1-based line number."""

    number: int
    text: str


@dataclass(frozen=True)
class RawPaper:
    """One paper as a dump shows it, before merging with other sightings."""

    title: str
    abstract: str
    line: int
    authors: tuple[str, ...] = ()
    authors_truncated: bool | None = None
    author_count: int | None = None
    organization: str | None = None
    organization_id: str | None = None
    category: str | None = None
    score: float | None = None
    date: dt.date | None = None
    date_has_year: bool = False
    upvotes: int | None = None
    has_code: bool = False


@dataclass(frozen=True)
class ParsedDump:
    """Everything a dump yields: its format, header facts, papers and problems."""

    path: str
    format: str
    captured: dt.date
    papers: tuple[RawPaper, ...]
    header: dict[str, object] = field(default_factory=dict)
    problems: tuple[Diagnostic, ...] = ()
    name_line: int = 1  # where a profile names its author, for messages about that author


def decode(data: bytes, path: str) -> str:
    """Bytes to text: UTF-8 with or without BOM, any line ending; refuses binary files."""
    if not data.strip():
        raise DumpError(Diagnostic(Location(path, 1), "E301", "the file is empty",
                                   "export the aggregator page again"))
    if b"\x00" in data:  # the whole file is binary: no one line to point at
        raise DumpError(Diagnostic(Location(path, 1), "E302", "this is a binary file, not a text dump",
                                   "import the text copied from the page, saved as UTF-8"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DumpError(Diagnostic(Location(path, line), "E303", "the file is not valid UTF-8 text",
                                   "save the dump as UTF-8")) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    control = CONTROL.search(text)
    if control:
        raise DumpError(Diagnostic(
            Location(path, text.count("\n", 0, control.start()) + 1), "E302",
            f"this is a binary file, not a text dump (it holds the control character U+{ord(control.group()):04X})",
            "import the text copied from the page, saved as UTF-8"))
    return text


def too_long(number: str, where: Location, problems: list[Diagnostic]) -> bool:
    """True, with a diagnostic, for a number longer than any page shows (a damaged dump)."""
    if len(number) <= MAX_DIGITS:
        return False
    problems.append(Diagnostic(where, "E714", f"a number of {len(number)} digits ({number[:8]}…) is far "
                               "longer than any page shows", "the dump is damaged; copy the page again"))
    return True


def clean(text: str) -> str:
    """Collapse runs of white space and strip the ends; dumps carry stray spaces."""
    return " ".join(text.split())


def clean_title(text: str) -> str:
    """A title as people read it: LaTeX-escaped '\\&' becomes '&'."""
    return clean(text.replace("\\&", "&"))


def looks_cut(text: str) -> bool:
    """True when text stops mid-sentence: no closing punctuation and no link at its end."""
    text = text.rstrip()
    return bool(text) and not text.endswith(SENTENCE_END) and not TRAILING_URL.search(text)


def paragraphs(lines: list[str], start: int = 0) -> list[list[Line]]:
    """Group non-blank lines into blank-line separated paragraphs, keeping line numbers."""
    groups: list[list[Line]] = []
    current: list[Line] = []
    for index in range(start, len(lines)):
        if lines[index].strip():
            current.append(Line(index + 1, lines[index]))
        elif current:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def month_date(month: str, day: str, year: str | None, captured: dt.date) -> tuple[dt.date, bool]:
    """Resolve 'Feb 11' against the capture date: same year, or the year before when later."""
    m = MONTHS.index(month) + 1
    if year:
        return dt.date(int(year), m, int(day)), True
    guess = dt.date(captured.year, m, int(day))
    if guess > captured:
        guess = dt.date(captured.year - 1, m, int(day))
    return guess, False


def code_link(abstract: str) -> str | None:
    """The first source-code repository URL an abstract gives, without trailing punctuation."""
    match = REPO_URL.search(abstract)
    if not match:
        return None
    url = match.group(0).rstrip(".,;:!?)]}'\"")
    return url.rstrip("/")
