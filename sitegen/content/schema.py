"""The fields an entry and an author file may hold, and their validation.

Validation collects every problem of a file (not just the first), each at the
line of its key, with a hint; it returns the values normalized to plain types, with
control characters removed (and a warning where they were), so no later stage sees one.
"""

from __future__ import annotations

import difflib
from typing import Any

from ..common.errors import Diagnostic, Location
from . import controls
from .field_checks import (
    CATEGORY,
    DOI,
    EXTRA,
    STATUSES,
    Checker,
    FieldWarning,
    ItemError,
    arxiv_id,
    boolean,
    choice,
    date,
    extra_fields,
    hf_user,
    integer,
    links,
    nonempty_text,
    number,
    orcid,
    paper_ids,
    pattern,
    publication_date,
    s2_author,
    sources,
    text,
    text_list,
    url,
)


def _scrub(value: Any) -> tuple[Any, str, int | str | None]:
    """`value` with control characters removed from its text, the first one removed ('' for none),
    and where: the index or key of the item holding it, None for the value itself."""
    if isinstance(value, str):
        found = controls.first(value)
        return (value, "", None) if found is None else (controls.clean(value), found.group(), None)
    if not isinstance(value, (list, dict)):
        return value, "", None
    first, at = "", None
    pairs = []
    for key, item in enumerate(value) if isinstance(value, list) else value.items():
        clean_key, key_char, _ = _scrub(key)
        item, char, _ = _scrub(item)
        if (key_char or char) and not first:
            first, at = key_char or char, key if isinstance(value, list) else str(key)
        pairs.append((clean_key, item))
    if not first:
        return value, "", None
    return ([item for _, item in pairs] if isinstance(value, list) else dict(pairs)), first, at


def _name(key: Any) -> str:
    """A field name as a message shows it: control characters escaped, at most 60 characters."""
    name = str(key)
    if controls.first(name) is not None:
        name = name.encode("unicode_escape").decode("ascii")
    return name if len(name) <= 60 else name[:59] + "…"


ENTRY_FIELDS: dict[str, Checker] = {
    "title": nonempty_text,
    "authors": text_list,
    "authors_truncated": boolean,
    "author_count": integer(),
    "date": publication_date,
    "category": pattern(CATEGORY, "arXiv category", "cs.DC"),
    "tags": text_list,
    "organization": text,
    "score": number,
    "upvotes": integer(),
    "links": links,
    "added": date,
    "status": choice(STATUSES),
    "rating": integer(1, 5),
    "arxiv": arxiv_id,
    "doi": pattern(DOI, "DOI", "10.1145/3581784.3607040", " (no spaces, braces, quotes or backslashes)"),
    "draft": boolean,
    "venue": text,
    "summary": text,  # the curator's one-line take, shown on cards (else the notes' first paragraph)
    "pinned": boolean,  # true: first among the papers the home page says to start with
    "withdrawn": boolean,  # true: the paper was withdrawn (arXiv says so); its page and cards say it
    "cites": paper_ids,  # what the paper cites (enrich writes it): the page links those on the list
    "enrich": boolean,  # false: `sitegen enrich` leaves the entry alone
    "abstract": text,
    "sources": sources,
    EXTRA: extra_fields,
}
REQUIRED_ENTRY = ("title",)

AUTHOR_FIELDS: dict[str, Checker] = {
    "name": nonempty_text,
    "category": pattern(CATEGORY, "arXiv category", "cs.LG"),
    "h_index": integer(),
    "papers": integer(),
    "citations": integer(),
    "novelty_percent": integer(0, 100),
    "ai_score": number,
    "affiliation": text,
    "homepage": url,
    "aliases": text_list,
    "source": text,
    "captured": date,  # when the source's profile page was captured: the date of its figures
    "semantic_scholar": s2_author,
    "huggingface": hf_user,
    "orcid": orcid,
}
REQUIRED_AUTHOR = ("name",)


def validate(
    meta: dict[str, Any], key_lines: dict[str, int], path: str,
    fields: dict[str, Checker], required: tuple[str, ...],
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Check every field; return normalized values and every problem found."""
    problems: list[Diagnostic] = []
    clean: dict[str, Any] = {}
    plain = getattr(key_lines, "plain", False)  # a text without a backslash holds no control character
    for key, value in meta.items():
        line = key_lines.get(str(key), 1)
        checker = fields.get(key) if isinstance(key, str) else None
        if checker is None:  # another tool's (an Obsidian vault's aliases:, cssclasses:) or a typo
            close = difflib.get_close_matches(str(key), list(fields), n=1)
            own = f"; fields of your own go under '{EXTRA}:'" if EXTRA in fields else ""
            hint = (f"did you mean '{close[0]}'?" if close else "known fields: " + ", ".join(fields)) + \
                f" (sitegen ignores it and keeps it as written{own})"
            problems.append(Diagnostic(Location(path, line), "W201", f"unknown field '{_name(key)}'", hint,
                                       severity="warning"))
            continue
        value, char, at = (value, "", None) if plain else _scrub(value)
        if char:
            where = key_lines.get(f"{key}/{at}", line) if at is not None else line
            problems.append(Diagnostic(Location(path, where), "W341",
                                       f"'{key}': control character {controls.name(char)} removed",
                                       "it is invisible, and no feed, page or citation may hold it; "
                                       "delete it from the file", severity="warning"))
        if value is None:
            if key in required:
                problems.append(Diagnostic(Location(path, line), "E202", f"'{key}' has no value",
                                           f"write a value after '{key}:'"))
            continue
        normalized, err, hint = checker(value)
        if isinstance(err, ItemError):
            line = key_lines.get(f"{key}/{err.at}", line)
        if isinstance(err, FieldWarning):
            problems.append(Diagnostic(Location(path, line), "W204", f"'{key}': {err}", hint, severity="warning"))
            clean[key] = normalized
        elif err:
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
