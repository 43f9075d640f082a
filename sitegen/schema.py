"""The fields an entry and an author file may hold, and their validation.

Validation collects every problem of a file (not just the first), each at the
line of its key, with a hint; it returns the values normalized to plain types.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Callable
from typing import Any

from .errors import Diagnostic, Location

STATUSES = ("to-read", "reading", "read", "skimmed")
ARXIV_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$")
DOI = re.compile(r"^10\.\d{4,9}/\S+$")
CATEGORY = re.compile(r"^[a-z\-]+(\.[A-Za-z\-]+)?$")
URL = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

Checker = Callable[[Any], tuple[Any, str, str]]  # value -> (normalized, error, hint)


class ItemError(str):
    """An error about one item of a list or mapping; `at` (its index or key) finds its line."""

    at: int | str

    def __new__(cls, message: str, at: int | str) -> ItemError:
        error = super().__new__(cls, message)
        error.at = at
        return error


def _ok(value: Any) -> tuple[Any, str, str]:
    return value, "", ""


def text(value: Any) -> tuple[Any, str, str]:
    if isinstance(value, str):
        return value, "", ""
    if isinstance(value, (int, float, bool, dt.date)) and not isinstance(value, bool):
        return value, f"expected text, found the {type(value).__name__} {value!r}", \
            "YAML read an unquoted value as a number or date; put it in quotes"
    return value, f"expected text, found {_kind(value)}", "write a single line of text"


def nonempty_text(value: Any) -> tuple[Any, str, str]:
    value, err, hint = text(value)
    if not err and not value.strip():
        return value, "must not be empty", "write the paper's title"
    return value, err, hint


def text_list(value: Any) -> tuple[Any, str, str]:
    if value is None:
        return [], "", ""
    if isinstance(value, str):
        return value, f"expected a list, found the text {value!r}", \
            "write one item per line starting with '- ', or [a, b]"
    if not isinstance(value, list):
        return value, f"expected a list, found {_kind(value)}", "write one item per line starting with '- '"
    for i, item in enumerate(value):
        if not isinstance(item, str):
            return value, ItemError(f"list item {item!r} is {_kind(item)}, not text", i), "quote the item"
        if not item.strip():
            return value, ItemError("list items must not be empty", i), "remove the empty item"
    return list(value), "", ""


def date(value: Any) -> tuple[Any, str, str]:
    if isinstance(value, dt.datetime):
        return value.date(), "", ""
    if isinstance(value, dt.date):
        return value, "", ""
    if isinstance(value, str) and DATE.match(value):
        try:
            return dt.date.fromisoformat(value), "", ""
        except ValueError:
            pass
    return value, f"invalid date {value!r}", "write dates as YYYY-MM-DD, e.g. 2025-02-04"


def integer(minimum: int | None = None, maximum: int | None = None) -> Checker:
    def check(value: Any) -> tuple[Any, str, str]:
        if isinstance(value, bool) or not isinstance(value, int):
            return value, f"expected a whole number, found {_kind(value)}", "write digits only, e.g. 3"
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            return value, f"{value} is out of range {minimum}–{maximum}", ""
        return value, "", ""
    return check


def number(value: Any) -> tuple[Any, str, str]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value, f"expected a number, found {_kind(value)}", "write a number, e.g. 69.4"
    return value, "", ""


def boolean(value: Any) -> tuple[Any, str, str]:
    if not isinstance(value, bool):
        return value, f"expected true or false, found {_kind(value)}", "write true or false"
    return value, "", ""


def url(value: Any) -> tuple[Any, str, str]:
    if isinstance(value, str) and URL.match(value):
        return value, "", ""
    return value, f"not an http(s) URL: {value!r}", "links must start with https:// or http://"


def links(value: Any) -> tuple[Any, str, str]:
    if not isinstance(value, dict):
        return value, f"expected a mapping of links, found {_kind(value)}", "write e.g. links: {code: https://…}"
    for key, link in value.items():
        if not isinstance(key, str):
            return value, ItemError(f"link name {key!r} must be text", str(key)), ""
        _, err, hint = url(link)
        if err:
            return value, ItemError(f"link '{key}': {err}", key), hint
    return dict(value), "", ""


def pattern(regex: re.Pattern[str], what: str, example: str) -> Checker:
    def check(value: Any) -> tuple[Any, str, str]:
        if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)):
            return value, f"{what} {value!r} was read as a number", \
                f"quote it so YAML keeps it as text: '{example}'"
        if isinstance(value, str) and regex.match(value):
            return value, "", ""
        return value, f"invalid {what} {value!r}", f"expected something like {example}"
    return check


def choice(options: tuple[str, ...]) -> Checker:
    def check(value: Any) -> tuple[Any, str, str]:
        if value in options:
            return value, "", ""
        close = difflib.get_close_matches(str(value), options, n=1)
        hint = f"did you mean '{close[0]}'?" if close else "one of: " + ", ".join(options)
        return value, f"invalid value {value!r}", hint
    return check


def sources(value: Any) -> tuple[Any, str, str]:
    if not isinstance(value, list) or not all(isinstance(s, dict) for s in value):
        return value, "expected a list of source records", "sources are written by 'sitegen import'"
    return value, "", ""


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false"}.get(
        type(value), f"the {type(value).__name__} {value!r}")


ENTRY_FIELDS: dict[str, Checker] = {
    "title": nonempty_text,
    "authors": text_list,
    "authors_truncated": boolean,
    "author_count": integer(0),
    "date": date,
    "category": pattern(CATEGORY, "arXiv category", "cs.DC"),
    "tags": text_list,
    "organization": text,
    "score": number,
    "upvotes": integer(0),
    "links": links,
    "added": date,
    "status": choice(STATUSES),
    "rating": integer(1, 5),
    "arxiv": pattern(ARXIV_ID, "arXiv id", "2101.00010"),
    "doi": pattern(DOI, "DOI", "10.1145/3581784.3607040"),
    "draft": boolean,
    "abstract": text,
    "sources": sources,
}
REQUIRED_ENTRY = ("title",)

AUTHOR_FIELDS: dict[str, Checker] = {
    "name": nonempty_text,
    "category": pattern(CATEGORY, "arXiv category", "cs.LG"),
    "h_index": integer(0),
    "papers": integer(0),
    "citations": integer(0),
    "novelty_percent": integer(0, 100),
    "ai_score": number,
    "affiliation": text,
    "homepage": url,
    "aliases": text_list,
    "source": text,
}
REQUIRED_AUTHOR = ("name",)


def validate(
    meta: dict[str, Any], key_lines: dict[str, int], path: str,
    fields: dict[str, Checker], required: tuple[str, ...],
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Check every field; return normalized values and every problem found."""
    problems: list[Diagnostic] = []
    clean: dict[str, Any] = {}
    for key, value in meta.items():
        line = key_lines.get(str(key), 1)
        checker = fields.get(key) if isinstance(key, str) else None
        if checker is None:
            close = difflib.get_close_matches(str(key), list(fields), n=1)
            hint = f"did you mean '{close[0]}'?" if close else "known fields: " + ", ".join(fields)
            problems.append(Diagnostic(Location(path, line), "E201", f"unknown field '{key}'", hint))
            continue
        if value is None:
            if key in required:
                problems.append(Diagnostic(Location(path, line), "E202", f"'{key}' has no value",
                                           f"write a value after '{key}:'"))
            continue
        normalized, err, hint = checker(value)
        if isinstance(err, ItemError):
            line = key_lines.get(f"{key}/{err.at}", line)
        if err:
            problems.append(Diagnostic(Location(path, line), "E203", f"'{key}': {err}", hint))
        else:
            clean[key] = normalized
    for key in required:
        if key not in meta:
            problems.append(Diagnostic(Location(path, 1), "E200", f"missing required field '{key}'",
                                       f"add a line '{key}: …' to the front matter"))
    return clean, problems


def validate_entry(
    meta: dict[str, Any], key_lines: dict[str, int], path: str,
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Validate a paper entry's front matter."""
    return validate(meta, key_lines, path, ENTRY_FIELDS, REQUIRED_ENTRY)


def validate_author(
    meta: dict[str, Any], key_lines: dict[str, int], path: str,
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Validate an author profile file."""
    return validate(meta, key_lines, path, AUTHOR_FIELDS, REQUIRED_AUTHOR)
