"""The site's inputs and what is read straight from them: settings, entries, profiles, templates, assets.

Inputs (level 0) look at the world: a file's content digest, a folder's listing, the
theme's static files. Everything above reads them only through the engine, so an edit
named to `Engine.update` reaches exactly the steps that read what it changed.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import meta

from ...common.digest import Hasher, digest
from ...common.errors import BuildFailed, Diagnostic, Report, SitegenError
from ...common.fsutil import read_regular
from ...content import config as site_config
from ...content.files import content_files
from ...content.folders import FOLDERS
from ...content.loader import Entry, ParseCache, check_folders, load_entry, load_profile, slug_of
from ...model.cite_keys import cite_base
from ...render.render import asset_hashes, make_environment
from ...render.theme import static_files, theme_dirs
from ..engine.graph import Context, Step
from ..engine.memo import Key


@dataclass(frozen=True)
class Loaded:
    """An entry or profile as read, or None, with what reading it found wrong or worth a warning."""

    value: Any
    problems: tuple[Diagnostic, ...]


class Sources:
    """The input steps of one site, and the steps that read only them."""

    def __init__(self, root: Path, base_url: str | None, drafts: bool, cache: ParseCache | None,
                 watch_templates: bool, asset_versions: bool, keep_compiled: bool = True):
        self.root, self.base_url, self.drafts, self.cache = root, base_url, drafts, cache
        self.watch_templates, self.asset_versions = watch_templates, asset_versions
        self.keep_compiled = keep_compiled  # compiled templates saved for the next process

    def steps(self) -> list[Step]:
        return [
            Step("file", 0, self.file, str, input=True),
            Step("folder", 0, self.folder, digest, input=True),
            Step("template_file", 0, self.template_file, str, input=True),
            Step("template_names", 0, self.template_names, digest, input=True),
            Step("static", 0, self.static, _static_fingerprint, input=True),
            Step("config", 1, self.config, digest),
            Step("entry", 1, self.entry, _loaded_fingerprint),
            Step("profile", 1, self.profile, digest),
            Step("template", 1, self.template, str),
            Step("row", 2, self.row, _row_fingerprint),
            # Its readers follow the templates they use (`template`) and the settings, not the
            # Environment object: a template edit drops the compiled templates instead (SiteEngine).
            Step("environment", 2, self.environment, lambda env: "environment"),
            Step("assets", 2, self.assets, digest),
        ]

    # -- inputs -----------------------------------------------------------------
    def file(self, ctx: Context, rel: str) -> str:
        """The content digest of a file under the root ('-' when it is not a readable regular file)."""
        try:
            data, _ = read_regular(self.root / rel)
        except OSError:
            return "-"
        return hashlib.sha256(data).hexdigest()

    def folder(self, ctx: Context, rel: str) -> tuple[str, ...]:
        """The content files of one folder of content/, as paths relative to the root; a file in its place is E106."""
        report = Report()
        check_folders(self.root, report, (rel,))
        if report.has_errors:
            raise BuildFailed(report.items)
        return tuple(p.relative_to(self.root).as_posix() for p in content_files(self.root / rel, FOLDERS[rel]))

    def template_file(self, ctx: Context, name: str) -> str:
        """Which file of the theme chain a template name finds, and its digest ('-' for none)."""
        for folder in self._template_dirs():
            path = folder / name
            if path.is_file():  # named relative to the root when in it: a copied site finds the same templates
                shown = path.relative_to(self.root) if path.is_relative_to(self.root) else path
                return f"{shown}:{hashlib.sha256(path.read_bytes()).hexdigest()}"
        return "-"

    def template_names(self, ctx: Context, arg: None) -> tuple[str, ...]:
        """Every template name the theme chain has."""
        return tuple(sorted({p.relative_to(folder).as_posix() for folder in self._template_dirs() if folder.is_dir()
                             for p in folder.rglob("*") if p.is_file()}))

    def static(self, ctx: Context, arg: None) -> dict[str, Path]:
        """The theme's static files by published name (their bytes are read by `assets`)."""
        return static_files(self.root, self._theme())

    # -- read from the inputs -----------------------------------------------------
    def config(self, ctx: Context, arg: None) -> site_config.SiteConfig:
        ctx.get("file", site_config.CONFIG_FILE)
        return site_config.load(self.root, self.base_url)

    def entry(self, ctx: Context, rel: str) -> Loaded:
        key = ctx.get("file", rel)  # the content's sha256, which is the entry cache's key too
        if self.cache is not None and key != "-":  # the cache holds entries that had nothing to report
            cached = self.cache.get(key, rel, slug_of(Path(rel).stem))
            if cached is not None:
                return Loaded(cached, ())  # not read again: the model built anew in a new process reads 10,000
        report = Report()
        return Loaded(load_entry(self.root / rel, self.root, report, self.cache), tuple(report.items))

    def profile(self, ctx: Context, rel: str) -> Loaded:
        ctx.get("file", rel)
        report = Report()
        return Loaded(load_profile(self.root / rel, self.root, report), tuple(report.items))

    def template(self, ctx: Context, name: str) -> str:
        """A digest of a template and every template it extends, includes or imports."""
        env = jinja2.Environment()
        hasher, todo, seen = Hasher(), [name], set()
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            found = str(ctx.get("template_file", current))
            hasher.update(f"{current}\x1f{found}\x1e".encode())
            if found == "-":
                continue
            try:
                source = (self.root / found.rpartition(":")[0]).read_text(encoding="utf-8")
                refs = list(meta.find_referenced_templates(env.parse(source)))
            except (OSError, UnicodeDecodeError, jinja2.TemplateError):
                continue  # rendering reports it, at the template's line
            if None in refs:  # a name worked out while rendering: any template may be the one
                todo.extend(ctx.get("template_names"))
            todo.extend(r for r in refs if r)
        return str(hasher.hexdigest())

    def row(self, ctx: Context, rel: str) -> Loaded:
        """An entry, whose fingerprint is only what the model's structure is made of (see `_row_fingerprint`)."""
        loaded: Loaded = ctx.get("entry", rel)
        return loaded

    def environment(self, ctx: Context, arg: None) -> jinja2.Environment:
        cfg: site_config.SiteConfig = ctx.get("config")
        return make_environment(self.root, cfg, watch_templates=self.watch_templates, keep_compiled=self.keep_compiled)

    def assets(self, ctx: Context, arg: None) -> dict[str, str]:
        """Each static file's short content hash, for cache-busting URLs (or 'dev' in the preview)."""
        static: dict[str, Path] = ctx.get("static")
        return asset_hashes(static) if self.asset_versions else {name: "dev" for name in static}

    def _theme(self) -> str:
        try:
            return site_config.load(self.root, self.base_url).theme
        except SitegenError:
            return "default"  # the settings' own step reports what is wrong with them

    def _template_dirs(self) -> list[Path]:
        return [d / "templates" for d in theme_dirs(self.root, self._theme())]


def _static_fingerprint(static: dict[str, Path]) -> str:
    """The static files' names and contents (a handful of small files)."""
    return digest(sorted((name, hashlib.sha256(path.read_bytes()).hexdigest()) for name, path in static.items()))


def _loaded_fingerprint(loaded: Loaded) -> str:
    entry = loaded.value
    if isinstance(entry, Entry) and not loaded.problems:
        return entry.digest
    return digest((getattr(entry, "digest", None), [repr(p) for p in loaded.problems]))


def row_of(entry: Entry) -> tuple[Any, ...]:
    """What the model's structure is made of, of one entry: order, groups (a year alone is in no month), the
    reading queue and where to start (status, rating, pinned), the notes' mentions and the arXiv id they may
    name a paper by, the papers it cites and the DOI it is cited by, cite-key base, routes."""
    return (entry.slug, entry.source_path, entry.title, entry.date, entry.date_precision, entry.added, entry.authors,
            entry.tags, entry.category, entry.draft, entry.sources, entry.status, entry.rating, entry.pinned,
            entry.arxiv, entry.mentions, entry.doi, entry.cites, cite_base(entry))


def _row_fingerprint(loaded: Loaded) -> str:
    """An entry's row; for an entry in error, its problems (the model reports them)."""
    entry = loaded.value
    return digest([repr(p) for p in loaded.problems]) if entry is None else digest(row_of(entry))


def input_keys(root: Path, path: Path) -> list[Key]:
    """The input keys a changed file under the root may have changed."""
    rel = path.relative_to(root) if path.is_absolute() else path
    parts = rel.parts
    keys: list[Key] = [("file", rel.as_posix())]
    if len(parts) == 3 and "/".join(parts[:2]) in FOLDERS:
        keys.append(("folder", "/".join(parts[:2])))
    if len(parts) > 3 and parts[0] == "themes" and parts[2] == "templates":
        keys += [("template_file", "/".join(parts[3:])), ("template_names", None)]
    if len(parts) > 3 and parts[0] == "themes" and parts[2] == "static":
        keys.append(("static", None))
    return keys

