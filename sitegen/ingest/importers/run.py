"""`sitegen import`: read dumps, merge sightings, and write entries without losing edits.

All or nothing: every dump, entry, author file and the import state are read and checked
first; only an import without errors writes, and then all its files together
(`transaction.apply`). A failed import leaves `content/` exactly as it was.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...common.errors import Diagnostic, Location, Report, relpath
from ...common.progress import Progress, stage
from ...content import config as site_config
from ...content import frontmatter
from ...content.files import entry_files
from ...content.rewrite import rewritten
from ...content.slugs import slugify, unique_slug
from ...content.tagging import Tagger
from . import authors, manifest, parse_dump, transaction
from . import state as import_state
from .common import DumpError, ParsedDump
from .identity import Paper, Papers, abstract_key, choose_key, known_entry, state_keys, strict_key
from .merge import fingerprint, imported_fields, merge_into, ordered, title_key
from .source import read_dump

STATE_FILE = import_state.STATE_FILE
AUTHOR_FIELDS = authors.AUTHOR_FIELDS


@dataclass
class ImportResult:
    """What an import did (or, when it failed, would have done), for the summary and for tests."""

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
    shown: str  # the path as messages show it
    title_line: int = 1


def run_import(root: Path, files: list[Path] | None = None, captured: dt.date | None = None,
               update: bool = False, progress: Progress | None = None) -> ImportResult:
    """Import dumps under `root` (all of content/dumps/ by default) into content/papers/."""
    paths = site_config.Paths(root)
    cfg = site_config.load(root)
    result = ImportResult()
    if not _folders_ok(paths, root, result.report):
        return result
    dump_files = sorted(files) if files else _default_dumps(paths.dumps)
    captures = manifest.load(paths.dumps, relpath(paths.dumps / manifest.MANIFEST, root))
    if captured and files:
        captures.update({f.name: captured for f in files})
    dumps = []
    stage(progress, "read")
    for done, path in enumerate(dump_files):
        if progress:
            progress(done, len(dump_files))
        parsed = _parse_file(path, root, captures, captured if files else None, result)
        if parsed:
            dumps.append(parsed)
    stage(progress, "merge")
    existing = _load_existing(paths.papers, root, result.report)
    people = authors.load(paths.authors, root, result.report)
    state_path = paths.content / STATE_FILE
    problems: list[Diagnostic] = []
    state = import_state.load(state_path, relpath(state_path, root), problems)
    result.report.extend(problems)
    if result.report.has_errors:
        return result  # validate everything, then stop: nothing is written
    writes: dict[Path, str] = {}
    used: set[str] = set()
    _plan_papers(dumps, existing, state, cfg, update, root, used, result, writes)
    result.authors = authors.plan(dumps, people, paths.authors, root, state, used, update, result.report, writes)
    _write_if_changed(writes, state_path, import_state.render(state))
    if captured and files:
        _write_if_changed(writes, paths.dumps / manifest.MANIFEST, manifest.render(captures))
    stage(progress, "write")
    _apply(writes, root, result)
    return result


def _folders_ok(paths: site_config.Paths, root: Path, report: Report) -> bool:
    """Each folder an import writes into is a folder (or absent, to be made)."""
    for folder in (paths.content, paths.papers, paths.authors, paths.dumps):
        if folder.exists() and not folder.is_dir():
            report.error(Location(relpath(folder, root)), "E725", "this is a file, but an import needs a folder here",
                         f"move the file away; {relpath(paths.papers, root)}/ holds one file per paper")
    return not report.has_errors


def _default_dumps(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and not p.name.startswith(".") and p.name != manifest.MANIFEST)


def _shown(path: Path, root: Path) -> str:
    """`relpath`, also for a path that cannot be resolved (a symbolic link to itself)."""
    try:
        return relpath(path, root)
    except (OSError, RuntimeError):
        absolute, top = path.absolute(), root.absolute()
        return absolute.relative_to(top).as_posix() if absolute.is_relative_to(top) else path.as_posix()


def _parse_file(path: Path, root: Path, captures: dict[str, dt.date], given: dt.date | None,
                result: ImportResult) -> ParsedDump | None:
    shown = _shown(path, root)
    try:
        data, mtime = read_dump(path, shown)
        when = given or captures.get(path.name)
        if when is None:
            when = dt.date.fromtimestamp(mtime)
            result.report.warning(Location(shown, 1), "W331",
                                  f"no capture date recorded; using the file's modification date {when}",
                                  "pass --captured YYYY-MM-DD to record the real one")
        parsed = parse_dump(data, shown, when)
    except DumpError as exc:
        result.report.add(exc.diagnostic)
        result.skipped.append((shown, exc.diagnostic.message))
        return None
    result.report.extend(list(parsed.problems))
    for problem in parsed.problems:
        if problem.severity == "error":
            result.skipped.append((str(problem.location), problem.message))
    result.entries_per_file.append((shown, len(parsed.papers)))
    return parsed


def _load_existing(folder: Path, root: Path, report: Report) -> list[_Existing]:
    """Every entry; an unreadable one is an error (whether a paper is already there cannot be told)."""
    return [_Existing(f.path, f.doc.meta, f.doc.body, f.text, f.shown, f.doc.key_lines.get("title", 1))
            for f in entry_files(folder, root, report)]


def _plan_papers(dumps: list[ParsedDump], existing: list[_Existing], state: dict[str, dict[str, str]],
                 cfg: site_config.SiteConfig, update: bool, root: Path, used: set[str],
                 result: ImportResult, writes: dict[Path, str]) -> None:
    tagger = Tagger(cfg.tags)
    papers = Papers(known_entry(i, e.meta, e.meta["title"] if isinstance(e.meta.get("title"), str) else e.path.stem,
                                Location(e.shown, e.title_line)) for i, e in enumerate(existing))
    papers.assign(dumps)
    slugs = {e.path.stem: papers.all[i] for i, e in enumerate(existing)}  # file name -> the paper it holds
    folder = site_config.Paths(root).papers
    for paper in papers.imported():
        fields = imported_fields(paper.sightings, tagger)
        keys = state_keys(title_key(fields["title"]), strict_key(fields["title"]), abstract_key(fields["abstract"]))
        key = choose_key(keys, state, used, existing=paper.entry is not None)
        used.add(key)
        if paper.entry is None:
            path = folder / f"{_new_slug(paper, papers, slugs, root, result.report)}.md"
            writes[path] = frontmatter.render(ordered(fields), "")
            state[key] = {k: fingerprint(v) for k, v in fields.items() if k != "sources"}
            result.new.append(relpath(path, root))
            continue
        entry = existing[paper.entry]
        meta, state[key] = merge_into(entry.meta, fields, state.get(key, {}), update)
        text = _render_keeping_body(meta, entry)
        if text != entry.text:
            writes[entry.path] = text
            result.merged.append(entry.shown)
        else:
            result.unchanged.append(entry.shown)


def _new_slug(paper: Paper, papers: Papers, slugs: dict[str, Paper], root: Path, report: Report) -> str:
    """A file name of its own for a new paper; a warning when another paper looks or is named alike."""
    title = paper.sightings[0].paper.title
    base = slugify(title)
    seed = strict_key(title) + "\n" + abstract_key(paper.sightings[0].paper.abstract)
    slug = unique_slug(base, set(slugs), seed)
    shown = relpath(site_config.Paths(root).papers / f"{slug}.md", root)
    twin = papers.look_alike(paper)
    if twin is not None:
        report.add(Diagnostic(
            paper.location, "W710", f"{title!r} looks like {twin.label!r} ({twin.location}) but is a different "
            f"paper (no source, abstract or date in common), so it gets its own entry {shown}",
            "if they are one paper, merge the two entries by hand and delete one", severity="warning"))
    elif base in slugs:
        other = slugs[base]
        report.add(Diagnostic(
            paper.location, "W711", f"{title!r} would get the file name of {other.label!r} ({other.location}), "
            f"a different paper, so it gets {shown}",
            "rename either file if you like: imports find entries by their sources, not their names",
            severity="warning"))
    slugs[slug] = paper
    return slug


def _render_keeping_body(meta: dict[str, Any], entry: _Existing) -> str:
    """New front matter, with the curator's comments and body kept (or the text as it was, when nothing changed)."""
    return entry.text if meta == entry.meta else rewritten(entry.text, meta)


def _write_if_changed(writes: dict[Path, str], path: Path, text: str) -> None:
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    writes[path] = text


def _apply(writes: dict[Path, str], root: Path, result: ImportResult) -> None:
    """Write the planned files together; if any cannot be written, none is and the import fails."""
    try:
        transaction.apply(writes)
    except OSError as exc:
        where = relpath(Path(exc.filename), root) if exc.filename else relpath(root / "content", root)
        result.report.error(Location(where), "E726", f"cannot write: {exc.strerror or exc}; nothing was changed",
                            "check the folder's permissions and free space, then import again")
        result.new, result.merged, result.authors = [], [], []


__all__ = ["Diagnostic", "ImportResult", "run_import"]
