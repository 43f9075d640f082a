"""`sitegen build` on the engine: the memo on disk, the inputs found changed by their stats, the output checked.

A build opens the memo the last one saved (`.sitegen-cache/engine/`, stamped with the
digest of sitegen's code and the build's settings), finds the input files whose size or
mtime moved since, and hands them to the engine, which writes in place only the files
whose bytes changed. It falls back to rendering everything (staged and swapped in, the
memo's entries and model still used) when there is no memo, when the output is not as
the last build left it (a file edited, added or removed by hand), or when the settings
or the theme's folders changed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from ..common.code_digest import code_digest
from ..common.digest import digest
from ..common.fsutil import read_regular
from ..content import config as site_config
from ..content.cache import CACHE_DIR
from ..content.folders import FOLDERS
from ..render.theme import theme_dirs
from .engine.memo import Key
from .engine.store import DiskMemo, MemoDamaged
from .output_check import SEARCH_BUNDLE, Expected, folder_mtimes, folders_of

if TYPE_CHECKING:
    from .engine_change import EngineChange
    from .output_check import OutputsCheck
    from .site_engine import SiteEngine

ENGINE = "engine"  # the memo's folder in the cache
TABLE = "table"  # the inputs' stats and the outputs' as the last build left them
# What the routes before the engine kept in the cache: gone with them, removed by the next build
RETIRED = ("build.json", "outputs.json", "model.json", "model-rekeyed.json", "papers", "fragments",
           # and the memo's shards before it was one SQLite file
           *(f"{ENGINE}/{kind}-{shard:02x}" for kind in ("records", "readers") for shard in range(256)),
           f"{ENGINE}/stamp", f"{ENGINE}/{TABLE}")
RACY_NS = 2_000_000_000  # an input changed this close to a scan is read again by the next build (see _row)
Row = tuple[int | str, ...]  # an input file as remembered, its content digest last (see _row, _content)


class OutputsChanged(Exception):
    """The output is not as the last build left it: nothing is written in place."""


@dataclass
class Table:
    """Each input file's stat row (see `_row`), and each output file's (size, mtime_ns) and folder's
    mtime, after the last build."""

    inputs: dict[str, Row] = field(default_factory=dict)
    outputs: dict[str, tuple[int, int]] = field(default_factory=dict)
    folders: dict[str, int] = field(default_factory=dict)

    def expected(self) -> Expected:
        """The outputs as the output check reads them (see output_check.outputs_intact)."""
        paths = sorted(self.outputs)
        return Expected(paths, [self.outputs[p][0] for p in paths], [self.outputs[p][1] for p in paths], {},
                        self.folders)

    @classmethod
    def load(cls, memo: DiskMemo) -> Table | None:
        """The table saved with the memo (its row checked like every other), or None."""
        try:
            saved = msgspec.msgpack.decode(memo.meta[TABLE])
            return cls({k: tuple(v) for k, v in saved["inputs"].items()},  # type: ignore[misc]
                       {k: tuple(v) for k, v in saved["outputs"].items()}, saved["folders"])
        except (msgspec.DecodeError, AttributeError, LookupError, TypeError):
            return None

    def save(self, memo: DiskMemo) -> None:
        """Saved with the memo's next write, in the same transaction."""
        data = {"inputs": self.inputs, "outputs": self.outputs, "folders": self.folders}
        memo.set_meta(TABLE, msgspec.msgpack.encode(data))


def stamp(base_url: str | None, drafts: bool, asset_versions: bool = True, search: bool = False) -> str:
    """What a saved memo holds under: sitegen's code, and every setting of the build that changes its output
    (with `search` turned on, the search index must be made for the whole output first). Not where the site
    or its output are: a copied or moved site keeps its memo (the table says what its output holds)."""
    return digest((code_digest(), base_url, os.environ.get(site_config.BASE_URL_ENV), drafts, asset_versions,
                   search))


def open_memo(root: Path, base_url: str | None, drafts: bool, search: bool = False) -> tuple[DiskMemo, Table | None]:
    """The memo and table the last build saved for these settings (an empty, invalid memo if none)."""
    # how its values are saved is told by the engine made over it (`SiteEngine`): a rebuild with nothing to do
    # reads no value, and does not import the steps' codecs and all they import (a sixth of such a rebuild)
    memo = DiskMemo(root / CACHE_DIR / ENGINE, stamp(base_url, drafts, search=search), None, None)
    return memo, Table.load(memo) if memo.valid else None


def _row(path: str, st: os.stat_result, now: int, before: Row | None) -> Row:
    """An entry's or profile's row: size, mtime, ctime and inode, as git's index keeps them, and its digest.

    ctime and inode catch copies that keep size and mtime (`cp -p`, `rsync -t`); a file whose
    stat moved is read and counts as changed only if its content digest did (a copy of the
    whole site changes every stat and no content). A file changed within RACY_NS of the scan
    (`now`) may change again without its ctime moving (timestamps advance in clock ticks): its
    size is remembered as -1, so the next build reads it again.
    """
    stat = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    if before is not None and before[0] != -1 and before[:4] == stat:
        return before
    try:
        data, _ = read_regular(path)
        content = hashlib.sha256(data).hexdigest()
    except OSError:
        content = "-"  # not a readable regular file: the engine's entry step says what is wrong
    return (-1 if now - st.st_ctime_ns < RACY_NS else st.st_size, *stat[1:], content)


def _content(path: Path) -> Row:
    """A settings or theme file as remembered: its content digest. Any change to one renders the whole
    site, so a copy of the site (new ctimes and inodes) must not count as one; there are a few dozen."""
    return (hashlib.sha256(path.read_bytes()).hexdigest(),) if path.is_file() else ("-",)


def scan_inputs(root: Path, base_url: str | None, before: dict[str, Row] | None = None) -> dict[str, Row]:
    """Every input file as remembered (see `_row`, `_content`): entries, profiles, settings, the theme's files.

    `before`: the rows the last build saved, whose entries are not read again while their stat holds.
    """
    before = before or {}
    found: dict[str, Row] = {}
    now = time.time_ns()
    for rel, suffix in FOLDERS.items():
        folder = root / rel
        try:
            with os.scandir(folder) as listing:
                for item in listing:
                    if item.name.endswith(suffix) and not item.name.startswith("."):
                        name = f"{rel}/{item.name}"
                        # the path made only for a file read again: 10,000 Paths took a sixth of a no-op's scan
                        found[name] = _row(item.path, item.stat(follow_symlinks=False), now, before.get(name))
        except OSError:
            continue
    found[site_config.CONFIG_FILE] = _content(root / site_config.CONFIG_FILE)
    for theme in theme_dirs(root, _theme(root, base_url)):
        for part in ("templates", "static"):
            for path in sorted((theme / part).rglob("*")) if (theme / part).is_dir() else ():
                found[_name(root, path)] = _content(path)
    return found


def _name(root: Path, path: Path) -> str:
    """A theme file as the table names it: relative to the root when it is in the site (a copied site's
    theme is the same theme), else its absolute path (the theme bundled with sitegen)."""
    full = path.absolute()
    return full.relative_to(root.absolute()).as_posix() if full.is_relative_to(root.absolute()) else str(full)


def changed_inputs(root: Path, base_url: str | None, before: dict[str, Row],
                   now: dict[str, Row]) -> tuple[list[Path], list[Key]]:
    """The files under the root that changed, came or went, and the theme inputs that moved with them."""
    paths: list[Path] = []
    keys: list[Key] = []
    themes = [t.absolute() for t in theme_dirs(root, _theme(root, base_url))]
    for name in sorted(set(before) ^ set(now) | {n for n in before.keys() & now.keys() if before[n][-1] != now[n][-1]}):
        path = Path(name)
        if not path.is_absolute():
            paths.append(root / name)
            continue
        for theme in themes:
            if path.is_relative_to(theme / "templates"):
                keys += [("template_file", path.relative_to(theme / "templates").as_posix()),
                         ("template_names", None)]
            elif path.is_relative_to(theme / "static"):
                keys.append(("static", None))
    return paths, keys


def table_after(previous: Table | None, output: Path, inputs: dict[str, Row], change: Any) -> Table:
    """The table once a build has written: a full build's from its stage, an update's amended."""
    if change.stage is not None:
        outputs = {p: s for p, s in change.stage.stats.items() if not p.startswith(f"{SEARCH_BUNDLE}/")}
        return Table(inputs, outputs, folder_mtimes(output, folders_of(sorted(outputs))))
    assert previous is not None
    outputs = dict(previous.outputs)
    for out in change.removed:
        outputs.pop(out, None)
    outputs.update(change.stats)
    folders = dict(previous.folders)
    moved = folders_of(sorted({*change.written, *change.removed}))  # renames in and out move their mtimes
    for folder in moved:
        folders.pop(folder, None)
    folders.update(folder_mtimes(output, moved))  # those gone with their last file are left out
    return Table(inputs, outputs, folders)


def _theme(root: Path, base_url: str | None) -> str:
    try:
        return site_config.load(root, base_url).theme
    except Exception:  # the settings' own step reports what is wrong with them
        return "default"


def _output_check(table: Table, output: Path) -> OutputsCheck | None:
    """The output checked against `table` in a forked child (None when there is no output folder to check)."""
    from .output_check import OutputsCheck

    return OutputsCheck(table, output) if output.is_dir() else None


def _in_place(engine: SiteEngine, check: OutputsCheck, paths: list[Path], keys: list[Key]) -> EngineChange | None:
    """The update written in place, or None when the output is not as the last build left it (`check`,
    answered before anything is renamed in)."""
    engine.staging_marker = check.marker

    def before_writing() -> None:
        if not check.result():
            raise OutputsChanged

    engine.before_writing = before_writing
    try:
        change = engine.update(paths, keys)
        if not change.written and not change.removed and not check.result():
            return None  # nothing to write, yet the output is not as left: render it all
        return change
    except OutputsChanged:
        return None  # the update's changes were undone
    finally:
        check.cancel()
        engine.before_writing, engine.staging_marker = (lambda: None), ""


def run_build(root: Path, output: Path, base_url: str | None, drafts: bool, jobs: int | None,
              progress: Any = None, finishing: Any = None, whole: bool = False,
              search: bool = False, after: Any = None) -> tuple[Any, bool]:
    """Build or update the output through the engine; the change, and whether it rendered everything.

    `finishing(stage, engine)` runs before a full build's stage is swapped in, `after(engine, change)`
    once the output is up to date; `whole` renders everything whatever the memo says (after a killed
    build's leftovers were recovered).
    """
    memo, table = open_memo(root, base_url, drafts, search)
    if table is None:
        memo.discard()  # no record of what its records were made from: it reads as empty
    # the output checked in a forked child from here on, beside finding the inputs and what changed:
    # at 10,000 papers its 83,000 stat calls are a third of a rebuild that changes nothing
    check = _output_check(table, output) if table is not None and not whole else None
    try:
        inputs = scan_inputs(root, base_url, table.inputs if table is not None else None)  # before anything is read
        engine: SiteEngine | None = None
        # the memo is as the last build left it: the files changed since are named to it, always
        changed = changed_inputs(root, base_url, table.inputs, inputs) if table is not None else ([], [])
        try:
            change = _unchanged(changed, check)
            if change is None:
                engine, change = _brought_up_to_date(root, output, base_url, drafts, jobs, progress, finishing,
                                                     whole, after, memo, table, changed, check)
        except MemoDamaged:  # a row failed its checksum, or SQLite could not read it: built again from nothing
            memo.discard()
            table = None
            inputs = scan_inputs(root, base_url)
            engine, change = _brought_up_to_date(root, output, base_url, drafts, jobs, progress, finishing, whole,
                                                 after, memo, None, ([], []), None)
    except BaseException:
        memo.close()  # and the parts of a new memo its render workers wrote are removed
        raise
    finally:
        if check is not None:
            check.cancel()
    new_table = table_after(table if change.stage is None else None, output, inputs, change)
    change.total, change.sizes = len(new_table.outputs), new_table.outputs
    new_table.save(memo)
    try:
        memo.write()
    except (sqlite3.Error, OSError):  # a cache that cannot be saved now (a full disk; another build holding it)
        memo.discard()  # the memo and table saved before stand, and the next build renders all they miss
    memo.close()
    if engine is not None:  # else nothing was read
        if table is None:  # a build from an empty memo read every entry: what it did not read is stale
            engine.cache.save()
        else:  # an update read a few entries: the rest are the next model rebuild's, kept
            engine.cache.save_added()
    _remove_retired(root / CACHE_DIR)
    return change, change.stage is not None


def _unchanged(changed: tuple[list[Path], list[Key]], check: OutputsCheck | None) -> EngineChange | None:
    """An empty change when no input changed and the output is as the last build left it: then there is nothing
    to do, and the engine is not even made (importing it and its renderer was a fifth of such a rebuild)."""
    paths, keys = changed
    if check is None or paths or keys or not check.result():
        return None
    from .engine_change import EngineChange

    return EngineChange()


def _brought_up_to_date(root: Path, output: Path, base_url: str | None, drafts: bool, jobs: int | None,
                        progress: Any, finishing: Any, whole: bool, after: Any, memo: DiskMemo,
                        table: Table | None, changed: tuple[list[Path], list[Key]],
                        check: OutputsCheck | None) -> tuple[SiteEngine, EngineChange]:
    """The engine over `memo` and what it did to the output: everything rendered without a table, else an update."""
    from .site_engine import SiteEngine

    engine = SiteEngine(root, output, base_url, drafts, memo=memo)
    engine.jobs = jobs
    if finishing is not None:
        engine.finishing = finishing
    if table is None:
        change = engine.build(jobs, progress)
    else:
        paths, keys = changed
        in_place = _in_place(engine, check, paths, keys) if check is not None else None
        # else the output swapped whole, the memo's entries and model serving still
        change = in_place if in_place is not None else engine.update(paths, keys, everything=True)
    if after is not None:
        after(engine, change)
    return engine, change


def _remove_retired(cache: Path) -> None:
    """Remove the cache files of the routes the engine replaced (hundreds of MB at 10,000 papers)."""
    for name in RETIRED:
        path = cache / name
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        elif path.exists() or path.is_symlink():
            path.unlink(missing_ok=True)
