"""The checks of one field's value: each says what is wrong, with a hint, and carries the JSON Schema of what
it accepts (see `described`), so the schema editors read cannot drift from what `sitegen check` enforces."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Callable
from typing import Any

from . import dates
from .controls import shown

STATUSES = ("to-read", "reading", "read", "skimmed")
# \Z, not $: '$' also matches before a final newline, which would then end a RIS line
ARXIV_ID = re.compile(r"^(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?\Z")
# no space, brace, quote or backslash: a DOI is copied verbatim into BibTeX's `doi = {…}`
DOI = re.compile(r"^10\.\d{4,9}/[^\s{}\"\\]+\Z")
CATEGORY = re.compile(r"^[a-z\-]+(\.[A-Za-z\-]+)?\Z")
URL = re.compile(r"^https?://[^\s/$.?#][^\s]*\Z", re.IGNORECASE)
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}\Z")
# Author ids, each one path segment of its site's profile URL (see pages.PROFILE_SITES)
S2_AUTHOR = re.compile(r"^[1-9]\d{0,11}\Z", re.ASCII)  # Semantic Scholar's authorId: digits
HF_USER = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,94}[A-Za-z0-9_])?\Z")  # a Hub account name
ORCID = re.compile(r"^\d{4}-\d{4}-\d{4}-\d{3}[\dX]\Z", re.ASCII)
ORCID_URL = re.compile(r"^https?://orcid\.org/", re.IGNORECASE)
_ARXIV_PREFIX = re.compile(r"^arxiv:", re.IGNORECASE)  # `arXiv:2205.14135`, as papers cite it
LARGEST = 2**53 - 1  # the largest whole number JSON readers (JavaScript) hold exactly

Checker = Callable[[Any], tuple[Any, str, str]]  # value -> (normalized, error, hint)


def described(fragment: dict[str, Any]) -> Callable[[Checker], Checker]:
    """Give a checker the JSON Schema of what it accepts (see json_schema): the schema editors read is made from
    the same checkers `sitegen check` runs, so the two cannot drift apart."""
    def attach(checker: Checker) -> Checker:
        checker.json_schema = fragment  # type: ignore[attr-defined]
        return checker
    return attach


def ecma(regex: re.Pattern[str]) -> str:
    """A Python pattern as JSON Schema writes it (ECMA-262): `\\Z` is `$` there (no multiline flag)."""
    return regex.pattern.replace("\\Z", "$").replace('\\"', '"')  # `\\"` is no escape in Unicode mode


class ItemError(str):
    """An error about one item of a list or mapping; `at` (its index or key) finds its line."""

    at: int | str

    def __new__(cls, message: str, at: int | str) -> ItemError:
        error = super().__new__(cls, message)
        error.at = at
        return error


class FieldWarning(str):
    """A value accepted as what it surely means, with a warning that says so (see `arxiv_id`)."""


def arxiv_from_number(value: object) -> str | None:
    """The arXiv id an unquoted `arxiv: 2205.14135` stands for, which YAML read as a float; None when not sure.

    Ids since April 2007 are YYMM.NNNN, and YYMM.NNNNN from 2015: the width of the number is
    known from its month, so a zero YAML dropped (2205.1413 for 2205.14130, 704.0001 for
    0704.0001) is put back. Anything else (an exponent, too many digits, no such month) is no id.
    """
    if not isinstance(value, float):
        return None
    month, _, number = repr(value).partition(".")
    month = month.zfill(4)
    if not (month.isdigit() and number.isdigit() and len(month) == 4 and 1 <= int(month[2:]) <= 12):
        return None
    width = 5 if month >= "1501" else 4
    if month < "0704" or len(number) > width:
        return None
    return f"{month}.{number.ljust(width, '0')}"


def _ok(value: Any) -> tuple[Any, str, str]:
    return value, "", ""


@described({"type": "string"})
def text(value: Any) -> tuple[Any, str, str]:
    if isinstance(value, str):
        return value, "", ""
    if isinstance(value, (int, float, bool, dt.date)) and not isinstance(value, bool):
        return value, f"expected text, found the {type(value).__name__} {shown(value)}", \
            "YAML read an unquoted value as a number or date; put it in quotes"
    return value, f"expected text, found {_kind(value)}", "write a single line of text"


@described({"type": "string", "pattern": "\\S"})
def nonempty_text(value: Any) -> tuple[Any, str, str]:
    value, err, hint = text(value)
    if not err and not value.strip():
        return value, "must not be empty", "write the paper's title"
    return value, err, hint


@described({"type": "array", "items": {"type": "string", "pattern": "\\S"}})
def text_list(value: Any) -> tuple[Any, str, str]:
    if value is None:
        return [], "", ""
    if isinstance(value, str):
        return value, f"expected a list, found the text {shown(value)}", \
            "write one item per line starting with '- ', or [a, b]"
    if not isinstance(value, list):
        return value, f"expected a list, found {_kind(value)}", "write one item per line starting with '- '"
    for i, item in enumerate(value):
        if not isinstance(item, str):
            return value, ItemError(f"list item {shown(item)} is {_kind(item)}, not text", i), "quote the item"
        if not item.strip():
            return value, ItemError("list items must not be empty", i), "remove the empty item"
    return list(value), "", ""


@described({"type": "string", "format": "date", "pattern": ecma(DATE)})
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
    return value, f"invalid date {shown(value)}", "write dates as YYYY-MM-DD, e.g. 2025-02-04"


@described({"anyOf": [{"type": "string", "format": "date", "pattern": ecma(DATE)},
                       {"type": "string", "pattern": ecma(dates.PARTIAL)},
                       {"type": "integer", "minimum": dates.FIRST_YEAR, "maximum": dates.LAST_YEAR}]})
def publication_date(value: Any) -> tuple[Any, str, str]:
    """A day, or a month (`2025-03`) or a year (`2025`) alone: what a paper's record often gives."""
    written = dates.partial(value)
    if written is not None:
        return written, "", ""
    value, err, _ = date(value)
    hint = "write YYYY-MM-DD, or YYYY-MM or YYYY when only the month or year is known, e.g. 2025-02-04 or 2025"
    return value, err, hint if err else ""


def integer(minimum: int = 0, maximum: int = LARGEST) -> Checker:
    def check(value: Any) -> tuple[Any, str, str]:
        if isinstance(value, bool) or not isinstance(value, int):
            return value, f"expected a whole number, found {_kind(value)}", "write digits only, e.g. 3"
        if value > LARGEST:
            return value, f"the number {shown(value)} is too large", f"write a number below {LARGEST + 1}"
        if value < minimum or value > maximum:
            if maximum == LARGEST:
                return value, f"{shown(value)} is less than {minimum}", f"write a number of at least {minimum}"
            return value, f"{shown(value)} is out of range {minimum}–{maximum}", ""
        return value, "", ""
    return described({"type": "integer", "minimum": minimum, "maximum": maximum})(check)


@described({"type": "number"})
def number(value: Any) -> tuple[Any, str, str]:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value, f"expected a number, found {_kind(value)}", "write a number, e.g. 69.4"
    if not _finite(value):
        return value, f"the number {shown(value)} is not finite or too large", "write a number, e.g. 69.4"
    return value, "", ""


@described({"type": "boolean"})
def boolean(value: Any) -> tuple[Any, str, str]:
    if not isinstance(value, bool):
        return value, f"expected true or false, found {_kind(value)}", "write true or false"
    return value, "", ""


URL_SCHEMA = {"type": "string", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/$.?#][^\\s]*$"}  # URL, any case


@described(URL_SCHEMA)
def url(value: Any) -> tuple[Any, str, str]:
    if isinstance(value, str) and URL.match(value):
        return value, "", ""
    return value, f"not an http(s) URL: {shown(value)}", "links must start with https:// or http://"


@described({"type": "object", "additionalProperties": URL_SCHEMA})
def links(value: Any) -> tuple[Any, str, str]:
    if not isinstance(value, dict):
        return value, f"expected a mapping of links, found {_kind(value)}", "write e.g. links: {code: https://…}"
    for key, link in value.items():
        if not isinstance(key, str):
            return value, ItemError(f"link name {shown(key)} must be text", str(key)), \
                "name each link with a word, e.g. code: https://…"
        _, err, hint = url(link)
        if err:
            return value, ItemError(f"link '{key}': {err}", key), hint
    return dict(value), "", ""


def pattern(regex: re.Pattern[str], what: str, example: str, hint: str = "") -> Checker:
    def check(value: Any) -> tuple[Any, str, str]:
        if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)):
            return value, f"{what} {shown(value)} was read as a number", \
                f"quote it so YAML keeps it as text: '{example}'"
        if isinstance(value, str) and regex.match(value):
            return value, "", ""
        return value, f"invalid {what} {shown(value)}", f"expected something like {example}{hint}"
    return described({"type": "string", "pattern": ecma(regex), "examples": [example]})(check)


@described({"type": "string", "pattern": ecma(ARXIV_ID), "examples": ["2101.00010"]})
def arxiv_id(value: Any) -> tuple[Any, str, str]:
    """An arXiv id; one written unquoted, which YAML reads as a number, is taken when it is surely one id."""
    recovered = arxiv_from_number(value)
    if recovered is not None:
        return recovered, FieldWarning(f"arXiv id {recovered} is unquoted, and YAML reads it as the number "
                                       f"{value!r}"), f"quote it: arxiv: '{recovered}' (sitegen import and enrich " \
            "write it so when they rewrite the entry)"
    return pattern(ARXIV_ID, "arXiv id", "2101.00010")(value)


@described({"type": "array", "items": {"anyOf": [{"type": "string", "pattern": "^(?:[aA][rR][xX][iI][vV]:)?"
                                                                                  + ecma(ARXIV_ID)[1:]},
                                                  {"type": "string", "pattern": ecma(DOI)}]}})
def paper_ids(value: Any) -> tuple[Any, str, str]:
    """The papers an entry cites (`sitegen enrich` writes them from Semantic Scholar): each an arXiv id or a DOI,
    kept as written; the build links those on the list."""
    if value is None:
        return [], "", ""
    if not isinstance(value, list):
        return value, f"expected a list of arXiv ids and DOIs, found {_kind(value)}", \
            "write one id per line starting with '- ', e.g. - '2205.14135'"
    for i, item in enumerate(value):
        if isinstance(item, float) and arxiv_from_number(item) is not None:
            return value, ItemError(f"arXiv id {arxiv_from_number(item)} is unquoted, and YAML reads it as the "
                                    f"number {item!r}", i), f"quote it: - '{arxiv_from_number(item)}'"
        if not (isinstance(item, str) and (ARXIV_ID.match(_ARXIV_PREFIX.sub("", item)) or DOI.match(item))):
            return value, ItemError(f"{shown(item)} is neither an arXiv id nor a DOI", i), \
                "write an arXiv id such as '2205.14135' or a DOI such as 10.1145/3581784.3607040"
    return list(value), "", ""


@described({"anyOf": [{"type": "integer", "minimum": 1, "maximum": 999_999_999_999},
                       {"type": "string", "pattern": ecma(S2_AUTHOR)}]})
def s2_author(value: Any) -> tuple[Any, str, str]:
    """A Semantic Scholar author id; a bare number is one too (YAML reads it as an int, and no digit is lost)."""
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        value = str(value)
    return pattern(S2_AUTHOR, "Semantic Scholar author id", "1741101",
                   " (the number at the end of the author's semanticscholar.org/author/ address)")(value)


@described({"type": "string", "pattern": ecma(HF_USER)})
def hf_user(value: Any) -> tuple[Any, str, str]:
    """A Hugging Face account name: it becomes a path segment of a link, so only the Hub's own characters."""
    return pattern(HF_USER, "Hugging Face user name", "mtian8", " (the name in the account's huggingface.co/ address)")(
        value)


@described({"type": "string", "pattern": "^([Hh][Tt][Tt][Pp][Ss]?://orcid\\.org/)?" + ecma(ORCID)[1:]})
def orcid(value: Any) -> tuple[Any, str, str]:
    """An ORCID iD (the https://orcid.org/ address is taken too), its check digit verified: a typo is caught here."""
    if isinstance(value, str) and ORCID_URL.match(value):
        value = ORCID_URL.sub("", value)
    value, err, hint = pattern(ORCID, "ORCID iD", "0000-0002-1825-0097")(value)
    if not err and orcid_check_digit(value[:-1]) != value[-1]:
        return value, f"ORCID iD {shown(value)} has a wrong check digit (it should end in " \
            f"{orcid_check_digit(value[:-1])})", "copy the iD again from the person's orcid.org page"
    return value, err, hint


def orcid_check_digit(base: str) -> str:
    """ISO 7064 MOD 11-2 over the iD's first 15 digits, as ORCID computes its last character."""
    total = 0
    for digit in base.replace("-", ""):
        total = (total + int(digit)) * 2
    result = (12 - total % 11) % 11
    return "X" if result == 10 else str(result)


def choice(options: tuple[str, ...]) -> Checker:
    def check(value: Any) -> tuple[Any, str, str]:
        if value in options:
            return value, "", ""
        close = difflib.get_close_matches(value, options, n=1) if isinstance(value, str) else []
        hint = f"did you mean '{close[0]}'?" if close else "one of: " + ", ".join(options)
        return value, f"invalid value {shown(value)}", hint
    return described({"enum": list(options)})(check)


# what 'sitegen import' writes into a source record: single values (numbers are checked on their own)
_SOURCE_VALUES = frozenset({str, dt.date, bool, type(None)})


@described({"type": "array", "items": {"type": "object", "additionalProperties": {
    "type": ["string", "number", "boolean", "null"]}}})
def sources(value: Any) -> tuple[Any, str, str]:
    hint = "sources are written by 'sitegen import'; each is a mapping of names to single values"
    if not isinstance(value, list) or not all(isinstance(s, dict) for s in value):
        return value, "expected a list of source records", hint
    for i, record in enumerate(value):
        for key, item in record.items():
            if type(key) is not str:
                return value, ItemError(f"source record {i + 1}: the name {shown(key)} is not text", i), hint
            if type(item) not in _SOURCE_VALUES and not _finite(item):
                return value, ItemError(f"source record {i + 1}: '{key}' is {_kind(item)}", i), hint
    return value, "", ""


EXTRA = "extra"  # an entry's own fields, for templates: never checked, never rewritten


@described({"type": "object", "description": "Fields of your own, passed to templates as `extra`; never checked."})
def extra_fields(value: Any) -> tuple[Any, str, str]:
    """Anything, under names of the curator's choosing; dates become ISO text, so a template sees one type whether the
    entry was parsed now or read back from the cache."""
    if not isinstance(value, dict):
        return value, f"expected a mapping of your own fields, found {_kind(value)}", \
            "write e.g. extra: {venue_slides: https://…, reviewed_by: Ada}"
    return _plain_json(value), "", ""


def _plain_json(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain_json(v) for v in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _finite(value: Any) -> bool:
    """Whether `value` is a number JSON holds: finite, and no larger than LARGEST (NaN compares false)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) <= LARGEST


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    return {dict: "a mapping", list: "a list", str: "text", bool: "true/false"}.get(
        type(value), f"the {type(value).__name__} {shown(value)}")
