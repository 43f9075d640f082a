"""`sitegen import`: read dumps, merge sightings, and write entries without losing edits."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import config as site_config
from .. import frontmatter
from ..errors import Diagnostic, Location, Report, relpath
from ..fsutil import write_atomic
from ..slugs import slugify, unique_slug
from ..tagging import Tagger
from . import manifest, parse_dump
from .common import DumpError, ParsedDump
from .merge import fingerprint, group, imported_fields, merge_into, ordered, title_key

STATE_FILE = "import-state.json"
AUTHOR_FIELDS = ("name", "category", "h_index", "papers", "citations", "novelty_percent", "ai_score")


@dataclass
class ImportResult:
    """What an import did, for the summary and for tests."""

    entries_per_file: list[tuple[str, int]] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    authors: list[str] = field(default_factory=list)
    report: Report = field(default_factory=Report)

    @property
    def failed(self) -> bool:
        return self.report.has_errors or bool(self.skipped)


@dataclass
class _Existing:
    path: Path
    meta: dict[str, Any]
    body: str
    text: str


def run_import(root: Path, files: list[Path] | None = None, captured: dt.date | None = None,
               update: bool = False, progress: Callable[[str], None] | None = None) -> ImportResult:
    """Import dumps under `root` (all of content/dumps/ by default) into content/papers/."""
    paths = site_config.Paths(root)
    cfg = site_config.load(root)
    result = ImportResult()
    dump_files = sorted(files) if files else _default_dumps(paths.dumps)
    captures = manifest.load(paths.dumps, relpath(paths.dumps / manifest.MANIFEST, root))
    if captured and files:
        captures.update({f.name: captured for f in files})
    dumps = []
    for path in dump_files:
        if progress:
            progress(path.name)
        parsed = _parse_file(path, root, captures, captured if files else None, result)
        if parsed:
            dumps.append(parsed)
    existing, unreadable = _load_existing(paths.papers, root, result.report)
    state = _load_state(paths.content / STATE_FILE)
    _merge_all(dumps, existing, unreadable, state, cfg, update, root, result)
    _write_authors(dumps, paths.authors, update, state, root, result)
    write_if_changed(paths.content / STATE_FILE, json.dumps(state, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    if captured and files:
        manifest.save(paths.dumps, captures)
    return result


def _default_dumps(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and not p.name.startswith(".") and p.name != manifest.MANIFEST)


def _parse_file(path: Path, root: Path, captures: dict[str, dt.date], given: dt.date | None,
                result: ImportResult) -> ParsedDump | None:
    shown = relpath(path, root)
    when = given or captures.get(path.name)
    if when is None:
        when = dt.date.fromtimestamp(path.stat().st_mtime)
        result.report.warning(Location(shown, 1), "W331",
                              f"no capture date recorded; using the file's modification date {when}",
                              "pass --captured YYYY-MM-DD to record the real one")
    try:
        parsed = parse_dump(path.read_bytes(), shown, when)
    except DumpError as exc:
        result.report.add(exc.diagnostic)
        result.skipped.append((shown, exc.diagnostic.message))
        return None
    except OSError as exc:
        result.report.error(Location(shown, 0), "E304", f"cannot read the file: {exc.strerror}")
        result.skipped.append((shown, "unreadable"))
        return None
    result.report.extend(list(parsed.problems))
    for problem in parsed.problems:
        if problem.severity == "error":
            result.skipped.append((str(problem.location), problem.message))
    result.entries_per_file.append((shown, len(parsed.papers)))
    return parsed


def _load_existing(folder: Path, root: Path, report: Report) -> tuple[list[_Existing], list[str]]:
    entries: list[_Existing] = []
    unreadable: list[str] = []
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        shown = relpath(path, root)
        try:
            text = path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            report.error(Location(shown, 1), "E104", "the file is not valid UTF-8 text", "save it as UTF-8")
            unreadable.append(shown)
            continue
        except OSError as exc:
            report.error(Location(shown, 1), "E105", f"cannot read the file: {exc.strerror}")
            unreadable.append(shown)
            continue
        try:
            doc = frontmatter.parse(text, shown)
        except frontmatter.FrontMatterError as exc:
            report.add(exc.diagnostic)
            unreadable.append(shown)
            continue
        entries.append(_Existing(path, doc.meta, doc.body, text))
    return entries, unreadable


def _load_state(path: Path) -> dict[str, dict[str, str]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}  # without state every field counts as edited: safe, never overwrites
    return data if isinstance(data, dict) else {}


def _identity_index(existing: list[_Existing]) -> dict[str, _Existing]:
    """Title keys -> entry, through the titles its sources saw and its current title."""
    index: dict[str, _Existing] = {}
    for entry in existing:
        for record in entry.meta.get("sources") or []:
            if isinstance(record, dict) and isinstance(record.get("title"), str):
                index.setdefault(title_key(record["title"]), entry)
    for entry in existing:
        if isinstance(entry.meta.get("title"), str):
            index.setdefault(title_key(entry.meta["title"]), entry)
    return index


def _merge_all(dumps: list[ParsedDump], existing: list[_Existing], unreadable: list[str],
               state: dict[str, dict[str, str]], cfg: site_config.SiteConfig, update: bool,
               root: Path, result: ImportResult) -> None:
    tagger = Tagger(cfg.tags)
    index = _identity_index(existing)
    taken = {e.path.stem for e in existing} | {Path(u).stem for u in unreadable}
    folder = site_config.Paths(root).papers
    for key, sightings in group(dumps).items():
        fields = imported_fields(sightings, tagger)
        entry = index.get(key)
        if entry is None and unreadable:
            result.skipped.append((fields["title"], f"{unreadable[0]} is unreadable, so it cannot be told "
                                   "whether this paper is already there; fix it and import again"))
            continue
        if entry is None:
            slug = unique_slug(slugify(fields["title"]), taken, key)
            taken.add(slug)
            path = folder / f"{slug}.md"
            write_if_changed(path, frontmatter.render(ordered(fields), ""))
            state[key] = {k: fingerprint(v) for k, v in fields.items() if k != "sources"}
            result.new.append(relpath(path, root))
            continue
        meta, state[key] = merge_into(entry.meta, fields, state.get(key, {}), update)
        text = _render_keeping_body(meta, entry)
        shown = relpath(entry.path, root)
        if write_if_changed(entry.path, text):
            result.merged.append(shown)
        else:
            result.unchanged.append(shown)
        entry.meta = meta


def _render_keeping_body(meta: dict[str, Any], entry: _Existing) -> str:
    """New front matter, with the curator's body kept byte for byte."""
    if meta == entry.meta:
        return entry.text
    old, body, _ = frontmatter.split(entry.text)
    kept = frontmatter.comments(old or "")  # the curator's comments are hand edits too
    return "---\n" + frontmatter.with_comments(frontmatter.dump_yaml(meta), kept) + "---\n" + body


def _write_authors(dumps: list[ParsedDump], folder: Path, update: bool,
                   state: dict[str, dict[str, str]], root: Path, result: ImportResult) -> None:
    for dump in dumps:
        if "name" not in dump.header or "h_index" not in dump.header:
            continue
        fields = {k: dump.header[k] for k in AUTHOR_FIELDS if k in dump.header}
        fields["source"] = dump.path.rsplit("/", 1)[-1]
        path = folder / f"{slugify(str(fields['name']))}.yaml"
        key = "author:" + title_key(str(fields["name"]))
        current: Any = {}
        old_text = ""
        shown = relpath(path, root)
        if path.exists():
            try:
                old_text = path.read_text(encoding="utf-8-sig")
                current, _ = frontmatter.load_yaml(old_text, shown)
            except UnicodeDecodeError:
                result.report.error(Location(shown, 1), "E104", "the file is not valid UTF-8 text", "save it as UTF-8")
                result.skipped.append((shown, "unreadable author file"))
                continue
            except OSError as exc:
                result.report.error(Location(shown, 1), "E105", f"cannot read the file: {exc.strerror}")
                result.skipped.append((shown, "unreadable author file"))
                continue
            except frontmatter.FrontMatterError as exc:
                result.report.add(exc.diagnostic)
                result.skipped.append((shown, "unreadable author file"))
                continue
            if current is not None and not isinstance(current, dict):
                result.report.error(Location(shown, 1), "E103", "an author file must be a mapping of fields",
                                    "write one 'key: value' per line")
                result.skipped.append((shown, "unreadable author file"))
                continue
        meta, state[key] = merge_into(current or {}, fields, state.get(key, {}), update)
        meta = {k: meta[k] for k in (*AUTHOR_FIELDS, "source") if k in meta} | \
            {k: v for k, v in meta.items() if k not in AUTHOR_FIELDS and k != "source"}
        if not (old_text and meta == current):  # nothing new: the file stays as its curator wrote it
            write_if_changed(path, frontmatter.with_comments(frontmatter.dump_yaml(meta),
                                                             frontmatter.comments(old_text)))
        result.authors.append(shown)


def write_if_changed(path: Path, text: str) -> bool:
    """Atomically write `text` unless the file already holds exactly it; True if written."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    write_atomic(path, text)
    return True


__all__ = ["Diagnostic", "ImportResult", "run_import"]
