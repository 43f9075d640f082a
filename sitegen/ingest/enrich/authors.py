"""The author ids a lookup found (Semantic Scholar, Hugging Face, ORCID), written into `content/authors/*.yaml`.

An id goes to the profile of the person the entry names, told apart as the importer
tells them apart (`importers.authors`): the same name but for Unicode composition and
spacing, or one of the file's `aliases`; 'Ahán Gupta' is not 'Ahan Gupta'. Nothing is
merged on the strength of an id: an id another profile holds, one a source gives to two
names, or two ids for one name leave the files as they are, with a warning. An id
already in a file stays, whoever wrote it. A profile is created (its name and ids) only
for a name a source gave an id to. Planning is pure: files in, texts to write out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...common.errors import Location, Report
from ...content import frontmatter, schema
from ...content.rewrite import rewritten_yaml
from ..importers.authors import AuthorFile, _new_file, person
from ..importers.authors import load as load_files
from .record import Record

# Record.Author id kind -> the profile field that keeps it, in the order fields are written
ID_FIELDS = {"s2": "semantic_scholar", "hf": "huggingface", "orcid": "orcid"}
SITE_NAMES = {"semantic_scholar": "Semantic Scholar", "huggingface": "Hugging Face", "orcid": "ORCID"}
WHAT = {"semantic_scholar": "author id", "huggingface": "account", "orcid": "iD"}
FOLDER = Path("content") / "authors"


@dataclass(frozen=True)
class Resolved:
    """One entry a lookup settled: its file, the line of its author list, its authors, and its paper's records."""

    shown: str
    line: int
    names: tuple[str, ...]
    records: tuple[Record, ...]


@dataclass(frozen=True)
class _Claim:
    """A source's word that the author the entry calls `name` has this id."""

    field: str
    value: str
    name: str
    where: Location


def load(root: Path, report: Report) -> list[AuthorFile]:
    """The author files as they are; an unreadable one is an error (whose ids it holds cannot be told)."""
    return load_files(root / FOLDER, root, report)


def resolved(shown: str, text: str, meta: dict[str, Any], record: Record, records: Sequence[Record],
             changed: Sequence[str]) -> Resolved:
    """An entry after enrichment: its author list is the record's when enrichment wrote it, else its own."""
    authors = meta.get("authors")
    names = [a.name for a in record.authors] if "authors" in changed else \
        [a for a in authors if isinstance(a, str)] if isinstance(authors, list) else []
    try:
        line = frontmatter.parse(text, shown).key_lines.get("authors", 1)
    except frontmatter.FrontMatterError:
        line = 1
    return Resolved(shown, line, tuple(names), tuple(records))


def plan(papers: Iterable[Resolved], files: list[AuthorFile], root: Path, report: Report) -> dict[Path, str]:
    """The author files to write, and their texts, so that each person's profile holds the ids found."""
    claims = _claims(papers, report)
    known = list(files)
    owners = {person(c.name): file_of(c.name, known) for c in claims}
    added: dict[int, dict[str, str]] = {}  # id(file) -> fields to add
    for group in _by_person(_unclaimed_elsewhere(claims, owners, known, report), owners):
        first = group[0]
        file = owners[person(first.name)]
        value = _one_value(group, file, report)
        if value is None:
            continue
        if file is None:
            file = owners[person(first.name)] = _new_file(first.name, known, root / FOLDER, root, first.where, report)
            file.meta = {"name": first.name}
            known.append(file)
        added.setdefault(id(file), {})[first.field] = value
    writes: dict[Path, str] = {}
    for file in known:
        if id(file) in added:
            meta = file.meta | {f: added[id(file)][f] for f in ID_FIELDS.values() if f in added[id(file)]}
            writes[file.path] = rewritten_yaml(file.text, meta, schema.AUTHOR_FIELDS)
    return writes


def _claims(papers: Iterable[Resolved], report: Report) -> list[_Claim]:
    """Every id the records give an author the entry lists, checked as the schema checks it."""
    claims: list[_Claim] = []
    for paper in sorted(papers, key=lambda p: p.shown):
        names = {person(n): n for n in paper.names}
        where = Location(paper.shown, paper.line)
        for record in paper.records:
            given: dict[tuple[str, str], list[str]] = {}
            for author in record.authors:
                for kind, raw in author.ids:
                    field = ID_FIELDS.get(kind)
                    value = _valid(field, raw, author.name, where, report) if field else None
                    if field and value is not None and person(author.name) not in given.get((field, value), []):
                        given.setdefault((field, value), []).append(person(author.name))
            for (field, value), people in given.items():
                if len(people) > 1:
                    report.warning(where, "W1073", f"{SITE_NAMES[field]} gives the {WHAT[field]} {value!r} to "
                                   f"{' and '.join(map(repr, people))}; recorded for none of them",
                                   "one account is one person: add it to the right profile by hand")
                elif people[0] in names:  # a name the entry spells otherwise is not told apart from others
                    claims.append(_Claim(field, value, names[people[0]], where))
    return claims


def _valid(field: str, raw: str, name: str, where: Location, report: Report) -> str | None:
    """The id as a profile keeps it, or None (with a warning) when it is not one: it would break the build."""
    value, error, _ = schema.AUTHOR_FIELDS[field](raw)
    if error:
        report.warning(where, "W1072", f"{SITE_NAMES[field]} gives {name!r} the {WHAT[field]} {raw!r}, "
                       "which is not a valid one; not recorded", "if you know their real one, add it to their "
                       "profile by hand")
        return None
    return str(value)


def file_of(name: str, files: list[AuthorFile]) -> AuthorFile | None:
    """This person's profile: the file whose name or one of whose aliases is theirs."""
    wanted = person(name)
    for file in files:
        aliases = file.meta.get("aliases")
        names = [file.meta.get("name"), *(aliases if isinstance(aliases, list) else ())]
        if any(isinstance(n, str) and person(n) == wanted for n in names):
            return file
    return None


def _who(claim: _Claim, owners: dict[str, AuthorFile | None]) -> str:
    """Who a claim is about: their profile file, or (without one) their name."""
    file = owners[person(claim.name)]
    return f"file:{file.shown}" if file else f"name:{person(claim.name)}"


def _unclaimed_elsewhere(claims: list[_Claim], owners: dict[str, AuthorFile | None], files: list[AuthorFile],
                         report: Report) -> list[_Claim]:
    """The claims of ids no other person holds or is given in this run; the rest warned about."""
    holders: dict[tuple[str, str], dict[str, str]] = {}  # (field, id) -> who -> how to name them
    for file in files:
        for field in ID_FIELDS.values():
            value = _held(file, field)
            if value is not None:
                named = f"{file.shown} ({file.meta.get('name')!r})"
                holders.setdefault((field, value), {})[f"file:{file.shown}"] = named
    for claim in claims:
        named = f"{claim.name!r} in {claim.where.path}"
        holders.setdefault((claim.field, claim.value), {}).setdefault(_who(claim, owners), named)
    clashed: set[tuple[str, str]] = set()  # (who, field): a source's word on this person's field is in doubt
    for claim in claims:
        who, others = _who(claim, owners), holders[(claim.field, claim.value)]
        if len(others) > 1 and (who, claim.field) not in clashed and \
                _held(owners[person(claim.name)], claim.field) != claim.value:
            clashed.add((who, claim.field))
            rest = " and ".join(shown for key, shown in sorted(others.items()) if key != who)
            report.warning(claim.where, "W1070", f"{SITE_NAMES[claim.field]} {WHAT[claim.field]} {claim.value!r} of "
                           f"{claim.name!r} belongs also to {rest}; not recorded",
                           f"if they are one person, keep one profile file and list {claim.name!r} in its aliases")
    return [c for c in claims if len(holders[(c.field, c.value)]) == 1 and (_who(c, owners), c.field) not in clashed]


def _held(file: AuthorFile | None, field: str) -> str | None:
    """The id a file holds in `field`, as the schema normalizes it (None: none, or not a valid one)."""
    if file is None or file.meta.get(field) is None:
        return None
    value, error, _ = schema.AUTHOR_FIELDS[field](file.meta[field])
    return None if error else str(value)


def _by_person(claims: list[_Claim], owners: dict[str, AuthorFile | None]) -> list[list[_Claim]]:
    """Claims grouped by person and field, in the order first made."""
    groups: dict[tuple[str, str], list[_Claim]] = {}
    for claim in claims:
        groups.setdefault((_who(claim, owners), claim.field), []).append(claim)
    return list(groups.values())


def _one_value(group: list[_Claim], file: AuthorFile | None, report: Report) -> str | None:
    """The id to add, or None: the file has one already (kept), or the sources give this name two."""
    values = list(dict.fromkeys(c.value for c in group))
    first = group[0]
    field = first.field
    if file is not None and file.meta.get(field) is not None:
        kept = file.meta[field]
        others = [v for v in values if v != _held(file, field)]
        if others:
            line = _key_line(file, field)
            report.warning(Location(file.shown, line), "W1071", f"{field} {kept!r} kept; {SITE_NAMES[field]} gives "
                           f"{first.name!r} the {WHAT[field]} {others[0]!r} in {_where(group, others[0])}",
                           "two people may share the name; correct the file by hand if its id is wrong")
        return None
    if len(values) > 1:
        report.warning(first.where, "W1075", f"{SITE_NAMES[field]} gives {first.name!r} the {WHAT[field]}s "
                       f"{' and '.join(map(repr, values))} (in {', '.join(_where(group, v) for v in values)}); "
                       "recorded neither", "two people may share the name; add the right one to their profile "
                       "by hand")
        return None
    return values[0]


def _where(group: list[_Claim], value: str) -> str:
    return next(c.where.path for c in group if c.value == value)


def _key_line(file: AuthorFile, field: str) -> int:
    """The line of a field in an author file, for a message about it."""
    try:
        _, lines = frontmatter.load_yaml(file.text, file.shown)
    except frontmatter.FrontMatterError:
        return 1
    return lines.get(field, 1)

