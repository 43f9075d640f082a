"""Dump importers: detect a dump's format and parse it into raw paper records."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

from ...common.errors import Diagnostic, Location
from . import daily_papers, profile
from .common import DumpError, ParsedDump, RawPaper, decode

FORMATS = (profile, daily_papers)

# The skeleton of an HTML document: a saved web page, not the text copied from it.
PAGE_MARKUP = re.compile(r"<(?:!doctype\s+html|/?html[\s>]|/?head[\s>]|/?body[\s>])", re.IGNORECASE)
# A "title" made of nothing but tags, e.g. '<div class="x">': markup, never a paper.
ONLY_TAGS = re.compile(r"(?:\s*</?[A-Za-z][^<>]*>)+\s*")

__all__ = ["FORMATS", "ONLY_TAGS", "DumpError", "ParsedDump", "RawPaper", "parse_dump"]


def parse_dump(data: bytes, path: str, captured: dt.date) -> ParsedDump:
    """Detect the format of a dump and parse it; DumpError when it is in no known format."""
    text = decode(data, path)
    _refuse_page_source(text, path)
    lines = text.split("\n")
    _refuse_several_dumps(lines, path)
    for module in FORMATS:
        if module.looks_like(lines):
            return _without_markup_titles(module.parse(lines, path, captured))
    raise DumpError(Diagnostic(
        Location(path, 1), "E300", "not a known dump format",
        "expected an author-profile page (with an 'h-index' line) or a Hugging Face "
        "Daily Papers listing (with a 'Daily Papers' header)",
    ))


def _refuse_page_source(text: str, path: str) -> None:
    """A saved HTML page would import its tags as papers: refuse it whole."""
    found = PAGE_MARKUP.search(text)
    if found:
        raise DumpError(Diagnostic(
            Location(path, text.count("\n", 0, found.start()) + 1), "E712",
            f"this is an HTML page ({found.group(0)}…), not a text dump",
            "open the page in a browser, select all its text and save that as UTF-8 text"))


def _starts(lines: list[str]) -> list[int]:
    """The 1-based lines where a dump's header marker stands ('Daily Papers', 'h-index<N>')."""
    h_index = profile.HEADER_FIELDS["h_index"]
    return [i + 1 for i, line in enumerate(lines) if line.strip() == "Daily Papers" or h_index.match(line.strip())]


def _refuse_several_dumps(lines: list[str], path: str) -> None:
    """Two pages pasted into one file would be read as one, the second's header as papers."""
    starts = _starts(lines)
    if len(starts) > 1:
        raise DumpError(Diagnostic(
            Location(path, starts[1]), "E713",
            f"a second dump starts here ({lines[starts[1] - 1].strip()!r}; the first at line {starts[0]})",
            "save each page to its own file and import them together"))


def _without_markup_titles(dump: ParsedDump) -> ParsedDump:
    """Drop 'papers' whose title is only HTML tags, each with an error naming its line."""
    junk = [p for p in dump.papers if ONLY_TAGS.fullmatch(p.title)]
    if not junk:
        return dump
    problems = [Diagnostic(Location(dump.path, p.line), "E716", f"expected a paper title, found HTML markup "
                           f"{p.title[:60]!r}", "import the text of the page, not its source") for p in junk]
    return dataclasses.replace(dump, papers=tuple(p for p in dump.papers if p not in junk),
                               problems=dump.problems + tuple(problems))
