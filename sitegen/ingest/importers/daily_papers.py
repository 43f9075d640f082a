"""Hugging Face Daily Papers listings: a short page header ending in a date, then papers.

Each paper is a title paragraph, an abstract paragraph and an optional meta block:

      • 7 authors           (or an organization line: 'furiosa-ai FuriosaAI')
    ·
    Aug 21, 2025 2          Mon D[, YYYY] [upvotes]

When the meta block is missing the next title follows the abstract directly.
"""

from __future__ import annotations

import datetime as dt
import re

from ...common.errors import Diagnostic, Location
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

FORMAT = "hf-daily-papers"
HEADER_DATE = re.compile(rf"^(?P<mon>{MONTH_RE}) (?P<day>\d{{1,2}})(?:, (?P<year>\d{{4}}))?$")
META_DATE = re.compile(rf"^(?P<mon>{MONTH_RE}) (?P<day>\d{{1,2}})(?:, (?P<year>\d{{4}}))?(?: (?P<up>\d+))?$")
AUTHOR_COUNT = re.compile(r"^•\s*(\d+)\s+authors?$")
SEPARATOR = "·"


def looks_like(lines: list[str]) -> bool:
    """A listing's header says 'Daily Papers' within its first lines."""
    return any(line.strip() == "Daily Papers" for line in lines[:12])


def parse(lines: list[str], path: str, captured: dt.date) -> ParsedDump:
    """Parse a listing; unreadable entries become diagnostics, the rest still count."""
    problems: list[Diagnostic] = []
    start, header = _header(lines)
    groups = paragraphs(lines, start)
    papers: list[RawPaper] = []
    i = 0
    while i < len(groups):
        title = groups[i]
        if len(title) == 1 and not _is_meta(title) and (i + 1 >= len(groups) or _is_meta(groups[i + 1])):
            problems.append(Diagnostic(Location(path, title[0].number), "E321",
                            f"paper {_quote(title[0].text)} has no abstract",
                            "the dump may be truncated; copy the whole listing again"))
            i += 2 if i + 1 < len(groups) else 1
            continue
        if len(title) == 1 and not _is_partial_meta(title) and i + 2 == len(groups) and \
                looks_cut(clean(groups[i + 1][-1].text)):
            problems.append(Diagnostic(Location(path, title[0].number), "E323",
                            f"the dump ends in the middle of the abstract of {_quote(title[0].text)}",
                            "the dump looks truncated; copy the whole listing again"))
            break
        if not _is_title(groups, i):
            found = f"{len(title)} lines starting {_quote(title[0].text)}" if len(title) > 1 else \
                f"{_quote(title[0].text)}, which is not followed by an abstract"
            problems.append(Diagnostic(Location(path, title[0].number), "E320",
                            f"expected a one-line paper title, found {found}",
                            "each paper is its title on one line, its abstract, then an optional meta block"))
            i = _next_title(groups, i + 1)  # skip the rest of the broken entry, not misread it as papers
            continue
        meta = groups[i + 2] if i + 2 < len(groups) and _is_meta(groups[i + 2]) else None
        if meta is None and i + 2 < len(groups) and _is_partial_meta(groups[i + 2]):
            problems.append(Diagnostic(Location(path, groups[i + 2][0].number), "E324",
                            f"incomplete meta block after paper {_quote(title[0].text)}",
                            "expected '• N authors' or an organization, then '·', then 'Mon D[, YYYY] [upvotes]'"))
            i = _next_title(groups, i + 2)
            continue
        paper = _paper(title[0], groups[i + 1], meta, path, captured, problems)
        if paper:
            papers.append(paper)
        i += 3 if meta else 2
    return ParsedDump(path, FORMAT, captured, tuple(papers), header, tuple(problems))


def _header(lines: list[str]) -> tuple[int, dict[str, object]]:
    for index, raw in enumerate(lines[:20]):
        found = HEADER_DATE.match(raw.strip())
        if found:
            return index + 1, {"listing_date": found.group(0)}
    seen = 0
    for index, raw in enumerate(lines):  # no date: skip the fixed page furniture
        if raw.strip() == "Daily Papers" or raw.strip().startswith("byAK"):
            seen = index + 1
    return seen, {}


def _is_meta(group: list[Line]) -> bool:
    return len(group) == 3 and group[1].text.strip() == SEPARATOR


def _is_partial_meta(group: list[Line]) -> bool:
    """Part of a meta block cut apart: its '• N authors' line, its '·', or its date line."""
    return group[0].text.strip().startswith("•") or bool(META_DATE.match(clean(group[0].text))) or \
        any(line.text.strip() == SEPARATOR for line in group)


def _is_title(groups: list[list[Line]], i: int) -> bool:
    """One line followed by an abstract: a paragraph, not a meta block, at least as long as the title."""
    group = groups[i]
    if len(group) != 1 or _is_partial_meta(group) or i + 1 >= len(groups) or _is_meta(groups[i + 1]):
        return False
    return sum(len(line.text.strip()) for line in groups[i + 1]) >= len(group[0].text.strip())


def _next_title(groups: list[list[Line]], i: int) -> int:
    """The first paragraph from `i` on that can start a paper (past what is left of a broken one)."""
    while i < len(groups) and not _is_title(groups, i):
        i += 1
    return i


def _paper(title: Line, abstract: list[Line], meta: list[Line] | None, path: str,
           captured: dt.date, problems: list[Diagnostic]) -> RawPaper | None:
    fields: dict[str, object] = {}
    if meta:
        who = clean(meta[0].text)
        count = AUTHOR_COUNT.match(who)
        if count:
            if too_long(count.group(1), Location(path, meta[0].number), problems):
                return None
            fields["author_count"] = int(count.group(1))
        else:
            org_id, _, name = who.partition(" ")
            fields["organization"] = name or org_id
            fields["organization_id"] = org_id
        when = META_DATE.match(clean(meta[2].text))
        if not when:
            problems.append(Diagnostic(Location(path, meta[2].number), "E322",
                            f"expected 'Mon D[, YYYY] [upvotes]', found {_quote(meta[2].text)}", ""))
            return None
        try:
            fields["date"], fields["date_has_year"] = month_date(when["mon"], when["day"], when["year"], captured)
        except ValueError:
            problems.append(Diagnostic(Location(path, meta[2].number), "E313",
                            f"impossible date {when['mon']} {when['day']}", ""))
            return None
        if when["up"]:
            if too_long(when["up"], Location(path, meta[2].number), problems):
                return None
            fields["upvotes"] = int(when["up"])
    return RawPaper(
        title=clean_title(title.text),
        abstract=clean(" ".join(line.text for line in abstract)),
        line=title.number,
        **fields,  # type: ignore[arg-type]
    )


def _quote(text: str) -> str:
    text = text.strip()
    return repr(text if len(text) <= 60 else text[:57] + "…")
