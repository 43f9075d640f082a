"""What `sitegen build` remembers between runs (`.sitegen-cache/build.json`), as plain JSON.

It holds no render plan: the plan follows from the entries (see
`SiteState._previous`), and at 10,000 papers it would be most of the file.

With it a new build process can tell that nothing changed (and write nothing), or
re-render only the pages an edited entry appears on, in place, instead of rendering
and swapping in the whole site. On any doubt (another sitegen version, a changed
template, asset, setting or base URL, an output file touched by hand) it reports
no usable state and the caller does a full, atomic build.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import uuid
from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from .. import __version__
from ..common.digest import HEX_LENGTH
from ..common.fsutil import write_atomic
from ..content import config as site_config
from ..content.cache import CACHE_DIR, EntryCache
from ..render.theme import static_files, theme_dirs
from .model_cache import rows_key
from .output_check import Expected, folder_mtimes, folders_of

if TYPE_CHECKING:  # the model-based paths import it; a patched notes edit never does
    from .incremental import SiteState

STATE = "build.json"
OUTPUTS = "outputs.json"
FORMAT = 3  # of the two files: a state of another shape is no state (3: output digests are XXH3-128)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def input_fingerprint(root: Path, output: Path, base_url: str | None, drafts: bool, search: bool) -> dict[str, Any]:
    """Everything besides entries and profiles that a build's output depends on."""
    cfg = site_config.load(root, base_url)
    config_file = root / site_config.CONFIG_FILE
    themes: dict[str, str] = {}
    for directory in theme_dirs(root, cfg.theme):
        for path in sorted((directory / "templates").rglob("*")) if (directory / "templates").is_dir() else []:
            if path.is_file():
                themes[path.as_posix()] = _digest(path)
    static = {name: _digest(path) for name, path in static_files(root, cfg.theme).items()}
    authors = root / "content" / "authors"
    profiles = {p.name: _digest(p) for p in sorted(authors.glob("*.yaml"))} if authors.is_dir() else {}
    return {
        "version": __version__, "output": str(output.resolve()), "base_url": cfg.base_url, "drafts": drafts,
        "search": search, "config": _digest(config_file) if config_file.exists() else "",
        "templates": themes, "static": static, "profiles": profiles,
    }


@dataclass
class Saved:
    """The previous build as remembered.

    The table of output files (64,000 rows at 10,000 papers) lives in its own file and is
    read only when needed: a notes edit patched in place never reads it, it only adds the
    rows of the files it rewrote to `patched`.
    """

    root: Path
    inputs: dict[str, Any]
    entries: dict[str, list[Any]]  # entry path (relative) -> [content hash, size, mtime_ns]
    signature: str
    count: int  # output files
    patched: dict[str, list[Any]]  # output rows rewritten or added since the table was saved
    table: str  # the id of the table of outputs these rows amend
    folders: dict[str, int]  # folder rows (see output_check) read again since the table was saved
    _outputs: dict[str, list[Any]] | None = None
    _columns: _Table | None = None

    @property
    def outputs(self) -> dict[str, list[Any]]:
        """Output path -> [digest, size, mtime_ns] of every file the last build left."""
        if self._outputs is None:
            table = self._table()
            shas = table.hashes()
            self._outputs = {out: [sha, size, mtime] for out, sha, size, mtime
                             in zip(table.path_list(), shas, table.sizes, table.mtimes, strict=True)}
            self._outputs.update(self.patched)
        return self._outputs

    def hash_columns(self) -> tuple[list[str], str]:
        """The table's paths (sorted) and their digests one after the other, not amended by `patched`;
        empty if the table cannot be read. Only these columns are decoded, for a state that wants no more."""
        if self._columns is not None:
            return self._columns.path_list(), self._columns.shas
        try:
            raw = _HASHES.decode((self.root / CACHE_DIR / OUTPUTS).read_bytes())
            paths = raw.path_list()
            if raw.id == self.table and len(paths) * HEX_LENGTH == len(raw.shas):
                return paths, raw.shas
        except (OSError, msgspec.DecodeError):
            pass
        return [], ""

    def expected(self) -> Expected | None:
        """Every file and folder the last build left, for the output check; None if the table cannot be read."""
        table = self._table()
        if not table.id:
            return None
        folders = dict(zip(table.folder_list(), table.folder_mtimes, strict=True))
        folders.update(self.folders)
        return Expected(table.path_list(), table.sizes, table.mtimes, self.patched, folders)

    def _table(self) -> _Table:
        if self._columns is None:
            try:
                raw = _TABLE.decode((self.root / CACHE_DIR / OUTPUTS).read_bytes())
                count = len(raw.path_list())
                ok = (raw.id == self.table and count == len(raw.sizes) == len(raw.mtimes)
                      and count * HEX_LENGTH == len(raw.shas) and len(raw.folder_list()) == len(raw.folder_mtimes))
            except (OSError, msgspec.DecodeError):
                ok = False
            self._columns = raw if ok else _Table("", "", "", [], [], "", [])
        return self._columns


class _Hashes(msgspec.Struct):
    """outputs.json without its sizes and times.

    The paths are one string, sorted and separated by NUL (which no path holds), and looked up
    by bisection (see SavedHashes): a front-matter edit asks for a hundred of 64,672, where
    decoding them as a list and indexing it in a dict took 25 ms of its main process.
    """

    id: str
    paths: str
    shas: str  # each file's digest in hex (see digest), one after the other, in the order of the paths

    def path_list(self) -> list[str]:
        return self.paths.split("\0") if self.paths else []


class _Table(_Hashes):
    """outputs.json in columns, decoded by msgspec: 64,000 files at 10,000 papers, read by every incremental
    build. A row per file ([digest, size, mtime]) took four times as long to decode."""

    sizes: list[int]
    mtimes: list[int]
    folders: str  # every folder holding the files, NUL-separated, sorted (see output_check)
    folder_mtimes: list[int]

    def folder_list(self) -> list[str]:
        return self.folders.split("\0") if self.folders else []

    def hashes(self) -> list[str]:
        shas = self.shas
        return [shas[i:i + HEX_LENGTH] for i in range(0, len(shas), HEX_LENGTH)]


_TABLE = msgspec.json.Decoder(_Table)
_HASHES = msgspec.json.Decoder(_Hashes)


def load(root: Path) -> Saved | None:
    try:
        raw = msgspec.json.decode((root / CACHE_DIR / STATE).read_bytes())
        if raw["version"] != __version__ or raw.get("format") != FORMAT:
            return None
        return Saved(root, raw["inputs"], raw["entries"], raw["signature"], raw["count"], raw["patched"],
                     raw["table"], raw["folders"])
    except (OSError, ValueError, KeyError, TypeError, msgspec.DecodeError):
        return None


def save(root: Path, state: SiteState, inputs: dict[str, Any], entry_keys: dict[str, list[Any]],
         known: dict[str, list[Any]] | None = None, staged: Mapping[str, tuple[int, int]] | None = None) -> None:
    """Remember this build: its inputs, entries and every output file's identity.

    `known` holds rows of a previous save still true for files this build did not
    write, so an incremental build stats only what it wrote; `staged`, each file's size
    and mtime as a full build staged it (writer.Stage.stats), so it stats none.
    """
    known = known or {}
    staged = staged or {}
    outputs: dict[str, list[Any]] = {}
    folder = str(state.output)
    for out, sha in state.hashes.items():
        row = known.get(out)
        if row is not None and row[0] == sha:
            outputs[out] = row
            continue
        stat = staged.get(out)
        if stat is not None:
            outputs[out] = [sha, stat[0], stat[1]]
            continue
        try:
            st = os.stat(os.path.join(folder, out))
        except OSError:
            continue
        outputs[out] = [sha, st.st_size, st.st_mtime_ns]
    table_id = uuid.uuid4().hex
    paths = sorted(outputs)
    rows = [outputs[out] for out in paths]
    folders = folder_mtimes(state.output, folders_of(paths))  # read last: the files above are all in place
    table = _Table(table_id, "\0".join(paths), "".join(row[0] for row in rows), [row[1] for row in rows],
                   [row[2] for row in rows], "\0".join(folders), list(folders.values()))
    write_atomic(root / CACHE_DIR / OUTPUTS, msgspec.json.encode(table))
    _save_state(root, inputs, entry_keys, state.signature, len(outputs), {}, table_id, {})


def save_patch(root: Path, output: Path, saved: Saved, entry_keys: dict[str, list[Any]], rows: dict[str, list[Any]],
               signature: str | None = None, count: int | None = None) -> None:
    """Remember files rewritten or added in place as rows amending the table of outputs, not a new table,
    with their folders as they now are (renaming a file in moves its folder's mtime).

    At 10,000 papers the table is 10 MB of JSON; a title edit rewrites about 90 files.
    """
    folders = {**saved.folders, **folder_mtimes(output, folders_of(sorted(rows)))}
    _save_state(root, saved.inputs, entry_keys, signature or saved.signature,
                saved.count if count is None else count, {**saved.patched, **rows}, saved.table, folders)


def rows(state: SiteState, outputs: list[str]) -> dict[str, list[Any]]:
    """Table rows ([digest, size, mtime_ns]) for these output files as they now are."""
    found: dict[str, list[Any]] = {}
    for out in outputs:
        st = os.stat(os.path.join(state.output, out))
        found[out] = [state.hashes[out], st.st_size, st.st_mtime_ns]
    return found


def _save_state(root: Path, inputs: dict[str, Any], entry_keys: dict[str, list[Any]], signature: str, count: int,
                patched: dict[str, list[Any]], table: str, folders: dict[str, int]) -> None:
    data = {"version": __version__, "format": FORMAT, "inputs": inputs, "entries": entry_keys,
            "signature": signature, "count": count, "patched": patched, "table": table, "folders": folders}
    write_atomic(root / CACHE_DIR / STATE, msgspec.json.encode(data))  # at 10,000 entries 4 times faster than json


def restore(root: Path, output: Path, saved: Saved, cache: EntryCache, base_url: str | None,
            drafts: bool) -> SiteState | None:
    """A SiteState as the last build left it, without rendering anything; None when not possible."""
    from ..render.render import make_environment
    from .incremental import SiteState

    state = SiteState(root, output, base_url, drafts)
    state.cfg = site_config.load(root, base_url)
    state.env = make_environment(root, state.cfg)
    state.static = static_files(root, state.cfg.theme)
    from ..content.loader import slug_of

    # the slug the loader gives, as in a full build (the stem by string: a Path per entry costs 30 ms)
    slugs = {path: slug_of(path.rpartition("/")[2].removesuffix(".md")) for path in saved.entries}
    entries = cache.lazy({path: row[0] for path, row in saved.entries.items()}, slugs)
    if entries is None:
        return None
    state.entries = entries
    from ..common.errors import Report
    from ..content.loader import load_profile

    report = Report()
    for profile_path in sorted((root / "content" / "authors").glob("*.yaml")):
        profile = load_profile(profile_path, root, report)
        if profile:
            state.profiles[profile.source_path] = profile
    state.plan = None
    state.signature = saved.signature
    state.model_key = rows_key(saved.inputs, saved.entries)
    state.render_beside = True  # the state ends with this process
    state.hashes = SavedHashes(saved)
    return state


class SavedHashes(MutableMapping[str, str]):
    """Output path -> digest, from the saved table of outputs, read when first asked.

    64,672 files at 10,000 papers: a front-matter edit asks for a hundred of them. The table's
    paths are sorted, found by bisection, and a hash is cut from its column when asked for,
    where a dict of 64,672 hash strings took longer than decoding the file; the decode happens in the
    edit's render, where this process has time while a child renders the pages. Changes
    made here are kept apart from the table.
    """

    def __init__(self, saved: Saved):
        self._saved = saved
        self._paths: list[str] | None = None  # the table's, sorted
        self._shas = ""
        self._changed: dict[str, str] = {}  # rows amended since the table, and set here
        self._removed: set[str] = set()  # paths of the table removed here

    def _table(self) -> list[str]:
        if self._paths is None:
            self._paths, self._shas = self._saved.hash_columns()
            self._changed = {out: row[0] for out, row in self._saved.patched.items()} | self._changed
        return self._paths

    def _place(self, out: object) -> int:
        """Where `out` is in the table, or -1."""
        paths = self._table()
        if not isinstance(out, str):
            return -1
        i = bisect.bisect_left(paths, out)
        return i if i < len(paths) and paths[i] == out else -1

    def __getitem__(self, out: str) -> str:
        at = self._place(out)
        if out in self._changed:
            return self._changed[out]
        if out in self._removed or at < 0:
            raise KeyError(out)
        return self._shas[at * HEX_LENGTH:(at + 1) * HEX_LENGTH]

    def __setitem__(self, out: str, sha: str) -> None:
        self._table()
        self._changed[out] = sha
        self._removed.discard(out)

    def __delitem__(self, out: str) -> None:
        if out not in self:
            raise KeyError(out)
        self._changed.pop(out, None)
        if self._place(out) >= 0:
            self._removed.add(out)

    def __contains__(self, out: object) -> bool:
        at = self._place(out)
        return out in self._changed or (at >= 0 and out not in self._removed)

    def __iter__(self) -> Iterator[str]:
        paths = self._table()
        changed, removed = self._changed, self._removed
        yield from (out for out in paths if out not in changed and out not in removed)
        yield from changed

    def __len__(self) -> int:
        paths = self._table()
        return len(paths) - len(self._removed) + sum(1 for out in self._changed if self._place(out) < 0)

    def get(self, out: str, default: Any = None) -> Any:  # one lookup, not the mixin's two
        try:
            return self[out]
        except KeyError:
            return default
