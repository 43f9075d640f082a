"""Reading built pages and committed entries the way an outsider would: html5lib and plain YAML.

The tests compare the built site with the entries' own front matter, parsed here without any
sitegen code, so a bug in the loader or the model cannot hide itself.
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import html5lib
import yaml

REPO = Path(__file__).resolve().parent.parent
PAPERS = REPO / "content" / "papers"


def parse_html(text: str) -> ET.Element:
    """An HTML document parsed as a browser would (html5lib), as an ElementTree without namespaces."""
    return html5lib.parse(text, treebuilder="etree", namespaceHTMLElements=False)  # type: ignore[no-any-return]


@cache
def read_html(path: Path) -> ET.Element:
    """A built page, parsed once per session (the trees are shared: do not modify them)."""
    return parse_html(path.read_text(encoding="utf-8"))


def classes(element: ET.Element) -> set[str]:
    return set((element.get("class") or "").split())


def by_class(root: ET.Element, name: str, tag: str = "*") -> Iterator[ET.Element]:
    """Every descendant element (of `tag`) having the CSS class `name`."""
    for element in root.iter(tag):
        if name in classes(element):
            yield element


def one(root: ET.Element, name: str, tag: str = "*") -> ET.Element:
    found = list(by_class(root, name, tag))
    assert len(found) == 1, f"expected one .{name}, found {len(found)}"
    return found[0]


def main_of(doc: ET.Element) -> ET.Element:
    main = doc.find(".//main")
    assert main is not None, "the page has a <main>"
    return main


def text_of(element: ET.Element) -> str:
    """The element's text content with whitespace collapsed."""
    return " ".join("".join(element.itertext()).split())


def meta_values(doc: ET.Element, name: str) -> list[str]:
    """content of every <meta name=...> (or property=...) with that name, in document order."""
    return [m.get("content", "") for m in doc.iter("meta") if name in (m.get("name"), m.get("property"))]


def last_segment(href: str) -> str:
    """'../../papers/x/' -> 'x'."""
    return href.rstrip("/").rsplit("/", 1)[-1]


def listed_papers(doc: ET.Element) -> list[str]:
    """Slugs of the paper list items on a page, in order."""
    return [last_segment(a.get("href", "")) for heading in by_class(doc, "item-title") for a in heading.iter("a")]


def main_links(doc: ET.Element, prefix: str) -> list[tuple[str, str]]:
    """(text, href) of every link inside <main> whose href contains `prefix` (e.g. 'authors/')."""
    return [(text_of(a), a.get("href", "")) for a in main_of(doc).iter("a") if prefix in a.get("href", "")]


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """(front matter, body) of an entry file."""
    assert text.startswith("---\n"), "an entry starts with '---'"
    head, _, body = text[4:].partition("\n---\n")
    return yaml.safe_load(head) or {}, body


@cache
def committed_entries() -> dict[str, dict[str, Any]]:
    """slug -> front matter of every committed entry (content/papers/<slug>.md)."""
    return {p.stem: split_front_matter(p.read_text(encoding="utf-8"))[0] for p in sorted(PAPERS.glob("*.md"))}


def entry_date(meta: dict[str, Any]) -> dt.date | None:
    value = meta.get("date")
    return value if isinstance(value, dt.date) else None


# An arXiv category, as an entry's tags may name one: the site shows it as the paper's category, never as a tag
ARXIV = re.compile(r"(?:cs|math|stat|eess|q-bio|q-fin|econ|physics)\.[A-Za-z-]+|quant-ph|hep-\w+|gr-qc|nucl-\w+",
                   re.IGNORECASE)


def topic_tags(meta: dict[str, Any]) -> list[str]:
    """An entry's tags as its pages show them: without the arXiv categories."""
    return [t for t in meta.get("tags") or [] if not ARXIV.fullmatch(t)]


def as_shown(meta: dict[str, Any]) -> dict[str, Any]:
    """Front matter as the site reads it: arXiv categories out of the tags, the first one the category if none is."""
    tags = meta.get("tags") or []
    category = meta.get("category") or next((t for t in tags if ARXIV.fullmatch(t)), None)
    return {**meta, "tags": topic_tags(meta), **({"category": category} if category else {})}
