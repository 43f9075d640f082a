"""One owner per route: two things that would share a page are an error naming both.

Names become URL slugs, and different names can make the same slug ('cs.LG' and
'cs-lg', the files 'Foo.md' and 'foo.md'): the second page would overwrite the first,
and its papers vanish from the site. Authors and tags whose slugs meet are told
apart by a suffix (`slugs.unique_slug`); anything else that meets is an error here.
arXiv categories that differ only in case are one category: the model lists them
under arXiv's spelling (`categories.canonical`), and `category_spellings` says so.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from ..common.errors import Diagnostic, Location
from ..content import categories, frontmatter
from . import layout

if TYPE_CHECKING:
    from ..content.loader import Entry
    from .site import Site

Claim = tuple[str, str, str, "Entry | None"]  # route, kind ('paper', 'tag' …), name, the entry of a paper
HINTS = {
    "paper": "rename one of the files: a paper's URL comes from its file name",
    "category": "correct the category: arXiv writes them like 'cs.LG' or 'physics.comp-ph'",
}


def routes(site: Site, entries: list[Entry]) -> list[str]:
    """Every route of the site, one per thing that claims it (the papers' from the entries, so a slug
    two entries share is there twice)."""
    return [*layout.RESERVED, *map(layout.home, range(1, site.pages + 1)), *(layout.paper(e.slug) for e in entries),
            *(layout.author(a.slug) for a in site.authors), *(layout.tag(t.slug) for t in site.tags),
            *(layout.category(c.slug) for c in site.categories), *(layout.year(y.slug) for y in site.years)]


def clashes(site: Site, entries: list[Entry], root: Path | None) -> list[Diagnostic]:
    """An error for each route claimed twice, at the second claim's source, naming the first's."""
    found = routes(site, entries)
    if len(set(found)) == len(found):
        return []
    owners: dict[str, Claim] = {}
    problems = []
    for claim in _claims(site, entries):
        route, kind, name, entry = claim
        first = owners.setdefault(route, claim)
        if first is claim:
            continue
        if kind == first[1] == "category" and _arxiv(name) and not _arxiv(first[2]):
            claim, first = first, claim  # told at the file whose category arXiv does not know
            kind, name, entry = claim[1:]
        where = _location(root, *_source(kind, name, entry, entries))
        before = _location(root, *_source(*first[1:], entries))
        source = f" ({before})" if before.path else ""
        problems.append(Diagnostic(where, "E420", f"{kind} '{name}' and {first[1]} '{first[2]}'{source} would both "
                                                  f"be written to {route}",
                                   HINTS.get(kind, "rename one of them: two things cannot share a page")))
    return problems


def _arxiv(category: str) -> bool:
    return categories.expand(category) == category


def _claims(site: Site, entries: list[Entry]) -> Iterator[Claim]:
    """(route, kind, name, entry) of every claim, in the order of `routes`."""
    for route in layout.RESERVED:
        yield route, "sitegen's page", route, None
    for n in range(1, site.pages + 1):
        yield layout.home(n), "home page", str(n), None
    for e in entries:
        yield layout.paper(e.slug), "paper", e.slug, e
    for kind, place, things in (("author", layout.author, site.authors), ("tag", layout.tag, site.tags),
                                ("category", layout.category, site.categories)):
        for thing in things:
            yield place(thing.slug), kind, thing.name, None
    for y in site.years:
        yield layout.year(y.slug), "year", y.label, None


def _source(kind: str, name: str, entry: Entry | None, entries: Iterable[Entry]) -> tuple[str, str, str]:
    """(file, front-matter key, value as written) that named a claim; the file alone for a paper."""
    if entry is not None:
        return entry.source_path, "", ""
    for e in sorted(entries, key=lambda e: e.source_path):
        if kind == "category" and e.category and categories.canonical(e.category) == name:
            return e.source_path, "category", e.category
        if (kind == "tag" and name in e.tags) or (kind == "author" and name in e.authors):
            return e.source_path, f"{kind}s", name
    return "", "", ""


def _location(root: Path | None, path: str, key: str, value: str) -> Location:
    """Where a front-matter value is written: its item's line, else its key's, line 1 for the file itself."""
    if not path or not key:
        return Location(path, 1 if path else 0)
    return Location(path, line_of(root, path, key, value) if root is not None else 0)


def line_of(root: Path, path: str, key: str, value: str) -> int:
    """The line of `key` in an entry's front matter, or of its list item `value`; 0 when not found.

    Read again only to be shown in a message: the model keeps no lines.
    """
    try:
        doc = frontmatter.parse((root / path).read_text(encoding="utf-8-sig"), path)
    except (OSError, ValueError, frontmatter.FrontMatterError):
        return 0
    items = doc.meta.get(key)
    if isinstance(items, list):
        for i, item in enumerate(items):
            if str(item).strip() == value:
                return doc.key_lines.get(f"{key}/{i}", 0)
    return doc.key_lines.get(key, 0)


def category_spellings(entries: Iterable[Entry], root: Path | None) -> list[Diagnostic]:
    """A warning for each category written other than as arXiv writes it, at the first file (by path) doing so."""
    first: dict[str, str] = {}
    count: Counter[str] = Counter()
    for e in entries:
        if e.category:
            count[e.category] += 1
            if e.category not in first or e.source_path < first[e.category]:
                first[e.category] = e.source_path
    warnings = []
    for written in sorted(first):
        spelling = categories.canonical(written)
        if spelling == written:
            continue
        where = _location(root, first[written], "category", written)
        also = f", as {_location(root, first[spelling], 'category', spelling)} writes it" if spelling in first else ""
        more = count[written] - 1
        hint = f"arXiv categories ignore case; write '{spelling}' here" + \
            (f" and in {more} more file{'s' if more > 1 else ''}" if more else "")
        warnings.append(Diagnostic(where, "W421", f"category '{written}' is listed as '{spelling}'{also}", hint,
                                   severity="warning"))
    return warnings
