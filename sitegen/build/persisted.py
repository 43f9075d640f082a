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

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

from ..common.fsutil import write_atomic
from ..content import config as site_config
from ..content.cache import CACHE_DIR
from ..render.theme import theme_dirs
from .engine.code_digest import code_digest
from .engine.memo import Key
from .engine.store import DiskMemo
from .output_check import SEARCH_BUNDLE, Expected, folder_mtimes, folders_of
from .steps import codecs
from .steps.sources import FOLDERS, digest

ENGINE = "engine"  # the memo's folder in the cache
TABLE = "table"  # the inputs' stats and the outputs' as the last build left them


class OutputsChanged(Exception):
    """The output is not as the last build left it: nothing is written in place."""


@dataclass
class Table:
    """Each input file's (size, mtime_ns), and each output file's and folder's, after the last build."""

    inputs: dict[str, tuple[int, int]] = field(default_factory=dict)
    outputs: dict[str, tuple[int, int]] = field(default_factory=dict)
    folders: dict[str, int] = field(default_factory=dict)

    def expected(self) -> Expected:
        """The outputs as the output check reads them (see output_check.outputs_intact)."""
        paths = sorted(self.outputs)
        return Expected(paths, [self.outputs[p][0] for p in paths], [self.outputs[p][1] for p in paths], {},
                        self.folders)

    @classmethod
    def load(cls, folder: Path, stamp: str) -> Table | None:
        try:
            saved = msgspec.msgpack.decode((folder / TABLE).read_bytes())
            if saved.get("stamp") != stamp:
                return None
            return cls({k: tuple(v) for k, v in saved["inputs"].items()},  # type: ignore[misc]
                       {k: tuple(v) for k, v in saved["outputs"].items()}, saved["folders"])
        except (OSError, msgspec.DecodeError, AttributeError, LookupError, TypeError):
            return None

    def save(self, folder: Path, stamp: str) -> None:
        data = {"stamp": stamp, "inputs": self.inputs, "outputs": self.outputs, "folders": self.folders}
        write_atomic(folder / TABLE, msgspec.msgpack.encode(data), durable=False)


def stamp(output: Path, base_url: str | None, drafts: bool, asset_versions: bool = True) -> str:
    """What a saved memo holds under: sitegen's code, and every setting of the build that changes its output."""
    return digest((code_digest(), base_url, os.environ.get(site_config.BASE_URL_ENV), drafts, asset_versions,
                   str(output.absolute())))


def open_memo(root: Path, output: Path, base_url: str | None, drafts: bool) -> tuple[DiskMemo, Table | None, str]:
    """The memo and table the last build saved for these settings (an empty, invalid memo if none)."""
    key = stamp(output, base_url, drafts)
    folder = root / CACHE_DIR / ENGINE
    memo = DiskMemo(folder, key, codecs.encode, codecs.decode)
    return memo, Table.load(folder, key) if memo.valid else None, key


def scan_inputs(root: Path, base_url: str | None) -> dict[str, tuple[int, int]]:
    """Every input file's (size, mtime_ns): entries, profiles, settings, and the theme chain's files."""
    found: dict[str, tuple[int, int]] = {}
    for rel, suffix in FOLDERS.items():
        folder = root / rel
        try:
            with os.scandir(folder) as listing:
                for item in listing:
                    if item.name.endswith(suffix) and not item.name.startswith("."):
                        st = item.stat(follow_symlinks=False)
                        found[f"{rel}/{item.name}"] = (st.st_size, st.st_mtime_ns)
        except OSError:
            continue
    try:
        st = os.lstat(root / site_config.CONFIG_FILE)
        found[site_config.CONFIG_FILE] = (st.st_size, st.st_mtime_ns)
    except OSError:
        pass
    for theme in theme_dirs(root, _theme(root, base_url)):
        for part in ("templates", "static"):
            for path in sorted((theme / part).rglob("*")) if (theme / part).is_dir() else ():
                st = os.lstat(path)
                found[str(path.absolute())] = (st.st_size, st.st_mtime_ns)
    return found


def changed_inputs(root: Path, base_url: str | None, before: dict[str, tuple[int, int]],
                   now: dict[str, tuple[int, int]]) -> tuple[list[Path], list[Key]]:
    """The files under the root that changed, came or went, and the theme inputs that moved with them."""
    paths: list[Path] = []
    keys: list[Key] = []
    themes = [t.absolute() for t in theme_dirs(root, _theme(root, base_url))]
    for name in sorted(set(before) ^ set(now) | {n for n in before.keys() & now.keys() if before[n] != now[n]}):
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


def table_after(previous: Table | None, output: Path, inputs: dict[str, tuple[int, int]], change: Any) -> Table:
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


def run_build(root: Path, output: Path, base_url: str | None, drafts: bool, jobs: int | None,
              progress: Any = None, finishing: Any = None, whole: bool = False) -> tuple[Any, bool]:
    """Build or update the output through the engine; the change, and whether it rendered everything.

    `finishing(stage)` runs before a full build's stage is swapped in; `whole` renders
    everything whatever the memo says (after a killed build's leftovers were recovered).
    """
    from .output_check import OutputsCheck
    from .site_engine import SiteEngine

    memo, table, key = open_memo(root, output, base_url, drafts)
    engine = SiteEngine(root, output, base_url, drafts, memo=memo)
    engine.jobs = jobs
    if finishing is not None:
        engine.finishing = finishing
    inputs = scan_inputs(root, base_url)
    change = None
    if table is not None and output.is_dir() and not whole:
        paths, keys = changed_inputs(root, base_url, table.inputs, inputs)
        check = OutputsCheck(table, output, beside=bool(paths or keys))
        engine.staging_marker = check.marker

        def before_writing() -> None:
            if not check.result():
                raise OutputsChanged
        engine.before_writing = before_writing
        try:
            change = engine.update(paths, keys)
            if not change.written and not change.removed and not check.result():
                change = None  # nothing to write, yet the output is not as left: render it all
        except OutputsChanged:
            change = None
        finally:
            check.cancel()
        if change is None:  # the update's changes were undone: everything again, the output swapped whole
            engine.before_writing, engine.staging_marker = (lambda: None), ""
            change = engine.update(paths, keys, everything=True)
    if change is None and table is not None and not whole:  # the memo's entries and model serve still
        paths, keys = changed_inputs(root, base_url, table.inputs, inputs)
        change = engine.update(paths, keys, everything=True)
    if change is None:
        change = engine.build(jobs, progress)
    new_table = table_after(table if change.stage is None else None, output, inputs, change)
    memo.write()
    new_table.save(memo.folder, key)
    engine.cache.save()
    return change, change.stage is not None
