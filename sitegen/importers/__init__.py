"""Dump importers: detect a dump's format and parse it into raw paper records."""

from __future__ import annotations

import datetime as dt

from ..errors import Diagnostic, Location
from . import daily_papers, profile
from .common import DumpError, ParsedDump, RawPaper, decode

FORMATS = (profile, daily_papers)

__all__ = ["FORMATS", "DumpError", "ParsedDump", "RawPaper", "parse_dump"]


def parse_dump(data: bytes, path: str, captured: dt.date) -> ParsedDump:
    """Detect the format of a dump and parse it; DumpError when it is in no known format."""
    text = decode(data, path)
    lines = text.split("\n")
    for module in FORMATS:
        if module.looks_like(lines):
            return module.parse(lines, path, captured)
    raise DumpError(Diagnostic(
        Location(path, 1), "E300", "not a known dump format",
        "expected an author-profile page (with an 'h-index' line) or a Hugging Face "
        "Daily Papers listing (with a 'Daily Papers' header)",
    ))
