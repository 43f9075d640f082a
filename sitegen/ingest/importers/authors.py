"""Author profiles from profile dumps into `content/authors/*.yaml`, one file per person.

Two names that make the same slug ('Ahán Gupta', 'Ahan Gupta') may be two people: a
profile merges into a file only when the names are the same (but for Unicode
composition and spacing), the file lists the name in its aliases, or the file came from
this very dump under the same name but for case and punctuation. Any other clash gets its own file and a warning.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...common.errors import Diagnostic, Location, Report, relpath
from ...content import frontmatter
from ...content import schema as fields_schema
from ...content.files import read_text
from ...content.rewrite import rewritten_yaml
from ...content.slugs import slugify, unique_slug
from .common import ParsedDump
from .identity import choose_key, state_keys
from .merge import merge_into, title_key

AUTHOR_FIELDS = ("name", "category", "h_index", "papers", "citations", "novelty_percent", "ai_score")
SOURCE_FIELDS = ("source", "captured")  # which profile page the figures come from, and when it was captured


@dataclass
class AuthorFile:
    """An author file as it is (or will be, once this import writes it)."""

    path: Path
    shown: str
    meta: dict[str, Any]
    text: str
    key: str = ""  # its import-state key, once this import has chosen it


def person(name: str) -> str:
    """A name but for Unicode composition and spacing: the same text is the same person."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def load(folder: Path, root: Path, report: Report) -> list[AuthorFile]:
    """Every readable author file; unreadable ones become errors (who they are cannot be told)."""
    files: list[AuthorFile] = []
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        shown = relpath(path, root)
        text = read_text(path, shown, report)  # a FIFO named *.yaml is refused, not waited on
        if text is None:
            continue
        try:
            data, _ = frontmatter.load_yaml(text, shown)
        except frontmatter.FrontMatterError as exc:
            report.add(exc.diagnostic)
            continue
        if data is not None and not isinstance(data, dict):
            report.error(Location(shown, 1), "E103", "an author file must be a mapping of fields",
                         "write one 'key: value' per line")
            continue
        files.append(AuthorFile(path, shown, data or {}, text))
    return files


def plan(dumps: list[ParsedDump], files: list[AuthorFile], folder: Path, root: Path,
         state: dict[str, dict[str, str]], used: set[str], update: bool,
         report: Report, writes: dict[Path, str]) -> list[str]:
    """Merge each profile dump's header into its person's file; return the files it concerns."""
    known = list(files)
    touched: list[str] = []
    for dump in dumps:
        if "name" not in dump.header or "h_index" not in dump.header:
            continue
        fields: dict[str, Any] = {k: dump.header[k] for k in AUTHOR_FIELDS if k in dump.header}
        fields["source"] = dump.path.rsplit("/", 1)[-1]
        fields["captured"] = dump.captured  # the figures are as of then
        name = str(fields["name"])
        target = _find(name, fields["source"], known)
        if target is None:
            target = _new_file(name, known, folder, root, Location(dump.path, dump.name_line), report)
            known.append(target)
        if not target.key:
            keys = state_keys("author:" + title_key(name), person(name))
            target.key = choose_key(keys, state, used, existing=bool(target.text))
            used.add(target.key)
        key = target.key
        meta, state[key] = merge_into(target.meta, fields, state.get(key, {}), update)
        meta = {k: meta[k] for k in (*AUTHOR_FIELDS, *SOURCE_FIELDS) if k in meta} | \
            {k: v for k, v in meta.items() if k not in AUTHOR_FIELDS and k not in SOURCE_FIELDS}
        if not (target.text and meta == target.meta):  # nothing new: the file stays as its curator wrote it
            text = rewritten_yaml(target.text, meta, fields_schema.AUTHOR_FIELDS)
            if text != target.text:
                writes[target.path] = target.text = text
        target.meta = meta
        touched.append(target.shown)
    return touched


def _find(name: str, source: str, files: list[AuthorFile]) -> AuthorFile | None:
    """The file of this person: the same name, one of its aliases (the name a resolved paper's spelling
    replaced), or this dump's file under the name but for case/punctuation."""
    wanted = person(name)
    for file in files:
        if isinstance(file.meta.get("name"), str) and person(file.meta["name"]) == wanted:
            return file
    for file in files:
        aliases = file.meta.get("aliases")
        if isinstance(aliases, list) and any(isinstance(a, str) and person(a) == wanted for a in aliases):
            return file
    for file in files:
        if file.meta.get("source") == source and isinstance(file.meta.get("name"), str) and \
                title_key(file.meta["name"]) == title_key(name) and title_key(name):
            return file
    return None


def _new_file(name: str, files: list[AuthorFile], folder: Path, root: Path, where: Location,
              report: Report) -> AuthorFile:
    base = slugify(name)
    taken = {file.path.stem: file for file in files}
    path = folder / f"{unique_slug(base, set(taken), person(name))}.yaml"
    new = AuthorFile(path, relpath(path, root), {}, "")
    if base in taken:
        other = taken[base]
        other_name = other.meta.get("name")
        report.add(Diagnostic(
            where, "W712", f"author profile {name!r} is not {other_name!r} ({other.shown}), though both make the "
            f"file name {base}.yaml; it gets its own file {new.shown}",
            "if they are one person, merge the two files by hand and delete one", severity="warning"))
    return new
