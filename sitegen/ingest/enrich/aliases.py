"""The profiles of people whose names a resolved paper respelled: the old spelling kept as an alias.

When enrich (or import by id) writes the paper's spelling over the importer's ('Tian
Minyang' becomes 'Minyang Tian'), the person keeps one author page and the old spelling's
address still leads there: the profile naming them under either spelling lists the other in
its `aliases` (model/people.py makes that one page, and the redirect). A profile whose name
the importer wrote takes the paper's spelling, the old one becoming an alias; a name a
curator wrote stays, the paper's spelling becoming the alias. Without a profile, one is
made: the name and the alias. Nothing is merged on a guess: a profile for each spelling
stay two, and a spelling the papers write two ways is no one's alias, each with a warning.
Planning is pure: files in, texts to write out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ...common.errors import Location, Report
from ...content import frontmatter
from ...content.rewrite import rewritten_yaml
from ...content.schema import AUTHOR_FIELDS
from ..importers.authors import AuthorFile, _new_file, person
from ..importers.merge import fingerprint, title_key
from .authors import FOLDER, file_of


@dataclass(frozen=True)
class Rename:
    """A name the importer wrote in the entry at `where`, and the paper's spelling of it (maybe the same)."""

    old: str
    new: str
    where: Location


def authors_at(shown: str, text: str) -> Location:
    """Where an entry lists its authors, for a message about them."""
    try:
        return Location(shown, frontmatter.parse(text, shown).key_lines.get("authors", 1))
    except frontmatter.FrontMatterError:
        return Location(shown, 1)


def renames(shown: str, text: str, pairs: Sequence[tuple[str, str]]) -> list[Rename]:
    """The respellings of one entry, placed at its author list."""
    where = authors_at(shown, text) if pairs else Location(shown)
    return [Rename(old, new, where) for old, new in pairs]


def unmatched(kept: Sequence[str]) -> str:
    """Why an importer's list was kept, for the warning and the report: which names are not the paper's."""
    return f"{' and '.join(map(repr, kept))} {'is' if len(kept) == 1 else 'are'} none of the paper's authors"


def plan(renames: Sequence[Rename], files: list[AuthorFile], state: dict[str, dict[str, str]], root: Path,
         report: Report) -> tuple[list[AuthorFile], dict[Path, str]]:
    """The author files as they will be (`files` untouched), and the texts of those that change."""
    known = list(files)
    changed: dict[Path, AuthorFile] = {}
    for rename in _agreed(renames, report):
        file = _merged(rename, known, state, root, report)
        if file is not None:
            at = next((i for i, f in enumerate(known) if f.path == file.path), len(known))
            known[at:at + 1] = [file]
            changed[file.path] = file
    writes = {path: rewritten_yaml(file.text, file.meta, AUTHOR_FIELDS)
              for path, file in changed.items()}
    return known, writes


def _agreed(renames: Sequence[Rename], report: Report) -> list[Rename]:
    """One rename per old spelling the papers all respell alike (those respelled to itself left out)."""
    spellings: dict[str, list[Rename]] = {}
    for rename in renames:
        same = spellings.setdefault(person(rename.old), [])
        if all(person(r.new) != person(rename.new) for r in same):
            same.append(rename)
    agreed = []
    for [first, *others] in spellings.values():
        if others:
            written = " and ".join(repr(r.new) for r in (first, *others))
            report.warning(first.where, "W1078", f"{first.old!r} is written {written} by the papers resolved: "
                           "recorded as no one's alias",
                           "two people may share the name; list it in the aliases of the right profile by hand")
        elif person(first.old) != person(first.new):
            agreed.append(first)
    return agreed


def _merged(rename: Rename, files: list[AuthorFile], state: dict[str, dict[str, str]], root: Path,
            report: Report) -> AuthorFile | None:
    """The person's profile with both spellings, or None: nothing to change, or not sure how."""
    old, new = file_of(rename.old, files), file_of(rename.new, files)
    if old is not None and old is new:
        return None  # one person already
    if old is not None and new is not None:
        shown = ", ".join(sorted((old.shown, new.shown)))
        report.warning(rename.where, "W1077", f"{rename.old!r} is written {rename.new!r} by the paper, and each has "
                       f"a profile ({shown}): two author pages stay",
                       "if they are one person, keep one file and list the other name in its aliases")
        return None
    if new is not None:
        return _with_alias(new, rename.old)
    if old is None:
        made = _new_file(rename.new, files, root / FOLDER, root, rename.where, report)
        return replace(made, meta={"name": rename.new, "aliases": [rename.old]})
    name = old.meta.get("name")
    if isinstance(name, str) and person(name) == person(rename.old) and _importer_named(name, state):
        renamed = _with_alias(old, rename.old)
        return replace(renamed, meta=renamed.meta | {"name": rename.new}) if renamed else None
    return _with_alias(old, rename.new)


def _with_alias(file: AuthorFile, name: str) -> AuthorFile | None:
    """The file with `name` added to its aliases; None when its aliases are no list (`sitegen check` says so)."""
    aliases = file.meta.get("aliases", [])
    if not isinstance(aliases, list):
        return None
    return replace(file, meta=file.meta | {"aliases": [*aliases, name]})


def _importer_named(name: str, state: dict[str, dict[str, str]]) -> bool:
    """Whether a profile's name is still what the importer wrote there (its fingerprint under the author's key)."""
    prefix, written = "author:" + title_key(name), fingerprint(name)
    return any(key.startswith(prefix) and fields.get("name") == written for key, fields in state.items())
