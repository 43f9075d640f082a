"""Author-profile dumps: a profile header, then per paper a glued meta line and its text.

    Ahan Gupta            name
    LG                    primary category (bare arXiv code)
    h-index12 / 6papers / 18citations / Novelty67% / AI Score55
    6 Papers              how many papers follow
    69.4LGApr 29Code      [score]<CATEGORY><Mon D[, YYYY]>[Code], then the title
    A, B, C et al.        authors
    With the widening …   abstract
"""

from __future__ import annotations

import datetime as dt
import re

from ...common.errors import Diagnostic, Location
from ...content import categories
from .common import (
    MONTH_RE,
    Line,
    ParsedDump,
    RawPaper,
    clean,
    clean_title,
    looks_cut,
    month_date,
    paragraphs,
    too_long,
)

FORMAT = "author-profile"
META = re.compile(
    rf"^(?P<score>\d+(?:\.\d+)?)?(?P<cat>[A-Za-z][A-Za-z.\-]*?)(?P<mon>{MONTH_RE}) (?P<day>\d{{1,2}})"
    rf"(?:, (?P<year>\d{{4}}))?(?P<code>Code)?$"
)
HEADER_FIELDS = {
    "h_index": re.compile(r"^h-index\s*(\d+)$"),
    "papers": re.compile(r"^(\d+)\s*papers$"),
    "citations": re.compile(r"^(\d+)\s*citations$"),
    "novelty_percent": re.compile(r"^Novelty\s*(\d+)%$"),
    "ai_score": re.compile(r"^AI Score\s*(\d+(?:\.\d+)?)$"),
}
COUNT = re.compile(r"^(\d+) Papers?$")


def looks_like(lines: list[str]) -> bool:
    """A profile has an 'h-index<N>' line among its first dozen lines."""
    return any(HEADER_FIELDS["h_index"].match(line.strip()) for line in lines[:15])


def parse(lines: list[str], path: str, captured: dt.date) -> ParsedDump:
    """Parse a profile dump; unreadable entries become diagnostics, the rest still count."""
    problems: list[Diagnostic] = []
    header, start, expected = _header(lines, path, problems)
    papers: list[RawPaper] = []
    groups = paragraphs(lines, start)
    i = 0
    while i < len(groups):
        group = groups[i]
        meta = META.match(group[0].text.strip())
        if not meta:
            problems.append(Diagnostic(Location(path, group[0].number), "E310",
                            f"expected a paper's meta line like 'DCFeb 11', found {_quote(group[0].text)}",
                            "each paper starts with [score]<category><date>[Code] and its title"))
            i += 1
            while i < len(groups) and not META.match(groups[i][0].text.strip()):  # the rest of this entry
                i += 1
            continue
        paper, used = _paper(groups, i, meta, path, captured, problems)
        if paper:
            papers.append(paper)
        i += used
    if expected is not None and expected != len(papers) and not any(p.severity == "error" for p in problems):
        problems.append(Diagnostic(Location(path, header.pop("_count_line", 1)), "E311",  # type: ignore[arg-type]
                        f"the header announces {expected} papers but {len(papers)} were found",
                        "the dump may be truncated; copy the whole profile page again"))
    header.pop("_count_line", None)
    name_line = header.pop("_name_line", 1)
    return ParsedDump(path, FORMAT, captured, tuple(papers), header, tuple(problems),
                      name_line=name_line)  # type: ignore[arg-type]


def _header(lines: list[str], path: str, problems: list[Diagnostic]) -> tuple[dict[str, object], int, int | None]:
    header: dict[str, object] = {}
    for index, raw in enumerate(lines):
        text = raw.strip()
        if not text:
            continue
        if "name" not in header:
            header["name"], header["_name_line"] = clean(text), index + 1
            continue
        count = COUNT.match(text)
        if count:
            header["_count_line"] = index + 1
            too_big = too_long(count.group(1), Location(path, index + 1), problems)
            return header, index + 1, None if too_big else int(count.group(1))
        if META.match(text):
            return header, index, None
        for key, pattern in HEADER_FIELDS.items():
            found = pattern.match(text)
            if found:
                value = found.group(1)
                if not too_long(value, Location(path, index + 1), problems):
                    header[key] = float(value) if "." in value else int(value)
                break
        else:
            code = categories.expand(text)
            if code and "category" not in header:
                header["category"] = code
    return header, len(lines), None


def _paper(groups: list[list[Line]], i: int, meta: re.Match[str], path: str, captured: dt.date,
           problems: list[Diagnostic]) -> tuple[RawPaper | None, int]:
    head = groups[i]
    where = Location(path, head[0].number)
    rest = groups[i + 1 : i + 3]
    if len(head) < 2 or len(rest) < 2 or any(META.match(g[0].text.strip()) for g in rest):
        problems.append(Diagnostic(where, "E312", "incomplete paper entry: expected a title, an author line "
                                   "and an abstract after the meta line", "the dump may be truncated"))
        return None, 1 + sum(1 for g in rest if not META.match(g[0].text.strip()))
    try:
        date, has_year = month_date(meta["mon"], meta["day"], meta["year"], captured)
    except ValueError:
        problems.append(Diagnostic(where, "E313", f"impossible date {meta['mon']} {meta['day']}", ""))
        return None, 3
    if meta["score"] and too_long(meta["score"], where, problems):
        return None, 3
    abstract = clean(" ".join(line.text for line in rest[1]))
    if i + 3 >= len(groups) and looks_cut(abstract):
        problems.append(Diagnostic(where, "E315", "the dump ends in the middle of this paper's abstract",
                                   "the dump looks truncated; copy the whole profile page again"))
        return None, 3
    category = categories.expand(meta["cat"])
    if category is None:
        problems.append(Diagnostic(where, "W314", f"unknown arXiv category code {meta['cat']!r}; left out",
                                   "", severity="warning"))
    authors_text = clean(" ".join(line.text for line in rest[0]))
    truncated = authors_text.endswith("et al.")
    if truncated:
        authors_text = authors_text[: -len("et al.")].rstrip(" ,")
    authors = tuple(a.strip() for a in authors_text.split(",") if a.strip())
    paper = RawPaper(
        title=clean_title(" ".join(line.text for line in head[1:])),
        abstract=abstract,
        line=head[0].number,
        authors=authors,
        authors_truncated=truncated,
        category=category,
        score=float(meta["score"]) if meta["score"] else None,
        date=date,
        date_has_year=has_year,
        has_code=bool(meta["code"]),
    )
    return paper, 3


def _quote(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:57] + "…")
