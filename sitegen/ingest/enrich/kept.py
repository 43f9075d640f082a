"""What of an answer is kept in `content/lookups/`: the fields the parsers read, in the shape the source sent.

A Hugging Face answer is mostly what sitegen never reads (avatars, thumbnails, the
submitter, an AI summary, each author's claim status) and repeats the paper's title and
abstract beside it; a stored answer is committed with the site, so that is paid for by
every clone. Each source's answer is cut down to the fields its parser reads, and stays
in its own format (JSON with the same keys, Atom with the same elements and namespaces),
so the parsers read a kept answer and a full one alike, and answers kept whole by older
versions still read as before. tests/ingest/enrich/test_kept.py holds the two to the
same Records for every recorded answer: a parser that starts reading a field fails it
until the field is kept here.

An answer that is not what its source sends (not JSON, not an Atom feed, a document type
declaration) is kept as it came, so that reading it again fails the same way.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from xml.sax.saxutils import escape, quoteattr

ATOM = "http://www.w3.org/2005/Atom"  # arxiv.py's, not imported: it imports the fetcher, which uses the store
ARXIV = "http://arxiv.org/schemas/atom"
# Read by arxiv.py (comment and journal_ref are free text a venue may be read from); every other element is dropped.
_ENTRY = frozenset(f"{{{ATOM}}}{name}" for name in ("id", "title", "summary", "published", "link")) | frozenset(
    f"{{{ARXIV}}}{name}" for name in ("doi", "primary_category", "comment", "journal_ref"))
_AUTHOR = f"{{{ATOM}}}author"
_NAME = f"{{{ATOM}}}name"

# hf.py's paper_record: the paper's fields, and the list item's copies it falls back on.
_HF_PAPER = ("id", "title", "summary", "publishedAt", "authors", "githubRepo", "projectPage", "upvotes",
             "ai_keywords", "organization")
_HF_ITEM = ("title", "summary", "githubRepo", "projectPage", "ai_keywords", "organization")
# s2.py's paper_record (the fields it asks for in FIELDS, but `url`), match_title's score, and what references
# reads (REFERENCE_FIELDS: each reference's ids, with its paperId, which S2 always sends).
_S2_PAPER = ("paperId", "externalIds", "title", "abstract", "year", "publicationDate", "authors", "venue",
             "publicationVenue", "matchScore", "references")
_S2_IDS = ("ArXiv", "DOI")
_SPACE = re.compile(r"\s+")


def kept(source: str, status: int, body: str) -> str:
    """The part of an answer worth keeping: a 200 of a known source cut down, anything else as it came."""
    cut = REDUCERS.get(source)
    return cut(body) if cut is not None and status == 200 else body


def hf(body: str) -> str:
    """A Hugging Face answer: a paper (`/papers/{id}`), or a list of items holding one (search, Daily Papers)."""
    data = _loads(body)
    if isinstance(data, list):
        return _dumps([_hf_item(item) if isinstance(item, dict) else item for item in data])
    return _dumps(_hf_paper(data)) if isinstance(data, dict) else body


def s2(body: str) -> str:
    """A Semantic Scholar answer: a title match (`{"data": [paper]}`) or a batch (a list of papers and nulls)."""
    data = _loads(body)
    if isinstance(data, list):
        return _dumps([_s2_paper(row) if isinstance(row, dict) else row for row in data])
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        return _dumps({"data": [_s2_paper(row) if isinstance(row, dict) else row for row in data["data"]]})
    return body


def arxiv(body: str) -> str:
    """An arXiv Atom feed with only its entries' read elements; the feed's own head is never read."""
    if "<!DOCTYPE" in body or "<!ENTITY" in body:  # refused by the parser; never expanded here
        return body
    try:
        root = ET.fromstring(body)
    except ET.ParseError:
        return body
    if root.tag != f"{{{ATOM}}}feed":
        return body
    entries = "".join(_entry(entry) for entry in root.iterfind(f"{{{ATOM}}}entry"))
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="{ATOM}" xmlns:arxiv="{ARXIV}">\n'
            f"{entries}</feed>\n")


REDUCERS: dict[str, Callable[[str], str]] = {"hf": hf, "s2": s2, "arxiv": arxiv}


def _hf_item(item: dict[str, object]) -> dict[str, object]:
    """A list item: its paper, and the item's copies only where the paper's own would not be used."""
    paper = item.get("paper")
    if not isinstance(paper, dict):  # the item is the paper
        return _hf_paper(item)
    inner = _hf_paper(paper)
    used = {  # what paper_record takes from the paper before looking at the item
        "title": _clean(paper.get("title")),
        "summary": _clean(paper.get("summary")),
        "githubRepo": isinstance(paper.get("githubRepo"), str) and paper.get("githubRepo"),
        "projectPage": isinstance(paper.get("projectPage"), str) and paper.get("projectPage"),
        "ai_keywords": paper.get("ai_keywords"),
        "organization": _hf_organization_name(paper.get("organization")),
    }
    return {"paper": inner, **{k: _hf_value(k, item[k]) for k in _HF_ITEM if k in item and not used[k]}}


def _hf_paper(paper: dict[str, object]) -> dict[str, object]:
    return {k: _hf_value(k, paper[k]) for k in _HF_PAPER if k in paper}


def _hf_value(name: str, value: object) -> object:
    if name == "authors" and isinstance(value, list):
        return [_hf_author(a) if isinstance(a, dict) else a for a in value]
    if name == "organization" and isinstance(value, dict):
        return _only(value, ("fullname", "name"))
    return value


def _hf_author(author: dict[str, object]) -> dict[str, object]:
    """An author's name, and the Hub account that claimed it (`user.user`, or `user.name` in older answers)."""
    kept_author = _only(author, ("name", "user"))
    user = kept_author.get("user")
    if isinstance(user, dict):
        kept_author["user"] = _only(user, ("user", "name"))
    return kept_author


def _hf_organization_name(value: object) -> str:
    if not isinstance(value, dict):
        return ""
    return _clean(value.get("fullname")) or _clean(value.get("name"))


def _s2_paper(paper: dict[str, object]) -> dict[str, object]:
    kept_paper = _only(paper, _S2_PAPER)
    for name, fields in (("externalIds", _S2_IDS), ("publicationVenue", ("name",))):
        value = kept_paper.get(name)
        if isinstance(value, dict):
            kept_paper[name] = _only(value, fields)
    authors = kept_paper.get("authors")
    if isinstance(authors, list):
        kept_paper["authors"] = [_only(a, ("authorId", "name")) if isinstance(a, dict) else a for a in authors]
    cited = kept_paper.get("references")
    if isinstance(cited, list):
        kept_paper["references"] = [_s2_reference(r) if isinstance(r, dict) else r for r in cited]
    return kept_paper


def _s2_reference(reference: dict[str, object]) -> dict[str, object]:
    """A cited paper: its S2 id, and the ids an entry may name it by (null when S2 did not resolve it)."""
    kept_reference = _only(reference, ("paperId", "externalIds"))
    ids = kept_reference.get("externalIds")
    if isinstance(ids, dict):
        kept_reference["externalIds"] = _only(ids, _S2_IDS)
    return kept_reference


def _entry(entry: ET.Element) -> str:
    """One entry's read elements, in feed order (the parser takes the first of each), text and attributes verbatim."""
    parts = []
    for child in entry:
        if child.tag == _AUTHOR:
            names = "".join(_element(name) for name in child.iterfind(_NAME))
            parts.append(f"<author>{names}</author>\n")
        elif child.tag in _ENTRY:
            parts.append(_element(child) + "\n")
    return "<entry>\n" + "".join(parts) + "</entry>\n"


def _element(element: ET.Element) -> str:
    """An element with its own text (not its children's: the parser reads `.text`) and unqualified attributes."""
    namespace, _, local = element.tag[1:].partition("}")
    name = local if namespace == ATOM else f"arxiv:{local}"
    attributes = "".join(f" {k}={quoteattr(v)}" for k, v in element.attrib.items() if not k.startswith("{"))
    if not element.text:
        return f"<{name}{attributes}/>"
    return f"<{name}{attributes}>{escape(element.text, {chr(13): '&#13;'})}</{name}>"


def _only(data: dict[str, object], names: tuple[str, ...]) -> dict[str, object]:
    return {k: data[k] for k in names if k in data}


def _clean(value: object) -> str:
    return _SPACE.sub(" ", value).strip() if isinstance(value, str) else ""


def _loads(body: str) -> object:
    """The JSON of a body, None when it is not JSON (then kept as it came, for the parser to refuse)."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):  # nested past the interpreter's limit: the parser fails on it too
        return None


def _dumps(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
