"""`sitegen serve`: build, serve, watch, rebuild what changed, tell browsers to reload."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..common.errors import Diagnostic, Location, SitegenError, relpath
from ..content import config as site_config
from ..pipeline.site_engine import EngineChange, SiteEngine, search_shards, shard_records
from ..publish.search import PREVIEW_SHARD_SIZE, SearchIndex, Shard
from ..publish.search import refresh as refresh_index
from ..publish.search_records import Record
from .server import PreviewServer, error_overlay
from .watch import Watcher

Log = Callable[[str], None]

# The downloads that join every paper (the reading list as BibTeX, RIS and CSL-JSON, and
# papers.json): 22 MB apiece at 10,000 papers, and any front-matter edit changes them.
# The preview writes them when they are asked for, not at each save, so the browser
# reloads without waiting for 90 MB nobody is looking at. A request for one waits until
# it is written.
ON_REQUEST = frozenset({"reading-list-bib", "reading-list-ris", "reading-list-json", "papers-json"})

# The preview's output goes to a memory file system when one has room, as `hugo server` renders
# to memory: on a disk, creating and renaming the 80 files of a title edit cost more than
# rendering them, and the initial build of 10,000 papers took 33 s where it takes 13 s there.
MEMORY_FOLDER = Path("/dev/shm")
BYTES_PER_PAPER = 3 * 128 * 1024  # three times what a paper adds to the output (about 110 KB with its authors)
MIN_MEMORY_ROOM = 64 * 1024 * 1024


def memory_has_room(free_bytes: int, papers: int) -> bool:
    """Whether a memory file system with this much free space can hold the preview of this many papers."""
    return free_bytes >= max(MIN_MEMORY_ROOM, papers * BYTES_PER_PAPER)


def preview_parent(root: Path) -> str | None:
    """Where the preview's temporary folders go: the memory file system if it has room, else the usual place."""
    try:
        # Linux's /dev/shm; macOS and Windows have no such folder, and the preview goes to the temporary folder
        if not (hasattr(os, "statvfs") and MEMORY_FOLDER.is_dir() and os.access(MEMORY_FOLDER, os.W_OK | os.X_OK)):
            return None
        stats = os.statvfs(MEMORY_FOLDER)
        with os.scandir(root / "content" / "papers") as listing:
            papers = sum(1 for item in listing if item.name.endswith(".md"))
    except OSError:
        return None
    return str(MEMORY_FOLDER) if memory_has_room(stats.f_bavail * stats.f_frsize, papers) else None


# Files written between requests after an edit (see `PreviewSession.rebuild`): a request for one
# of them waits at most for this many renders before its own.
WRITE_CHUNK = 8


def preview_state(root: Path, output: Path, base_url: str | None = None, drafts: bool = False) -> SiteEngine:
    """The site a preview keeps, on the build's own engine: no asset versions, no fsync, whole-list
    downloads on request, and an entry edit's pages other than the edited paper's written after the reload."""
    return SiteEngine(root, output, base_url, drafts, asset_versions=False, durable=False, on_request=ON_REQUEST,
                      write_later=True)


@dataclass
class RebuildRecord:
    """One rebuild as the session saw it (for the terminal and for tests)."""

    paths: int
    seconds: float  # until every file the edit changed was written
    change: EngineChange | None
    errors: list[str]


class PreviewSession:
    """Owns the temporary output, the site state, the HTTP server and the watcher."""

    def __init__(self, root: Path, host: str = "127.0.0.1", port: int = 0, drafts: bool = False,
                 live_reload: bool = True, base_url: str | None = None, log: Log | None = None,
                 search: bool = True, poll: bool = False, info: Log | None = None, requests: Log | None = None):
        self.root = root.resolve()
        self.log = log or (lambda _: None)  # warnings and failures
        self.info = info or self.log  # what each rebuild did
        parent = preview_parent(self.root)
        self.output = Path(tempfile.mkdtemp(prefix="sitegen-serve-", dir=parent))
        self.history: list[RebuildRecord] = []
        self.indexed: list[SearchIndex] = []  # each search index made, for the terminal and for tests
        self._lock = threading.Lock()
        self.search = search
        self._index_lock = threading.Lock()
        self._index_wanted = threading.Event()
        self._index_thread: threading.Thread | None = None
        try:
            cfg = site_config.load(self.root, base_url)
            # listening before the build: a busy port is said at once, not after a long first build
            self.server = PreviewServer(host, port, self.output, cfg.base_path, live_reload, self._prepare)
            self.server.request_log = requests
        except BaseException:
            self._remove_folders()
            raise
        try:
            self.state = preview_state(self.root, self.output, base_url, drafts)
            self.state.full()
            if search:
                shards = search_shards(self.state, PREVIEW_SHARD_SIZE)
                self._report_index(refresh_index(self.output, shards, self._shard_records))
        except BaseException:
            self.server.server_close()
            self._remove_folders()
            raise
        self.watcher = Watcher(self.root, self.rebuild, poll)
        self._thread = threading.Thread(target=self.server.serve_forever, name="sitegen-http", daemon=True)

    @property
    def url(self) -> str:
        return self.server.url

    def start(self) -> PreviewSession:
        self._thread.start()
        self.watcher.start()
        return self

    def rebuild(self, paths: set[Path]) -> None:
        """Apply a batch of changed paths; on any failure keep the last good site and show the errors.

        The browser is told to reload as soon as the edited paper's own page is written; the
        other pages the edit changes (its authors', tags', listings) are written right after,
        a few at a time, and a request for one of them first writes it (`_prepare`).
        """
        started = time.perf_counter()
        try:
            self._rebuild(paths, started)
        except Exception as exc:  # whatever it is, the preview lives on to rebuild the next save
            self._fail(failure(exc, self.root, paths), len(paths), started)

    def _rebuild(self, paths: set[Path], started: float) -> None:
        with self._lock:
            events = self.server.events
            change = self.state.update(paths)
            recovered = bool(events.error_html)
            events.error_html = ""
            if change.written or change.removed or change.deferred or recovered:
                events.publish("css" if change.css_only and not recovered else "reload")
        change.written += self._write_waiting()
        # a full rebuild swaps in a new output folder, without the previous search bundle
        if self.search and (change.full or any(w.endswith(".html") for w in change.written + change.removed)):
            self._schedule_index()
        seconds = time.perf_counter() - started
        self.history.append(RebuildRecord(len(paths), seconds, change, []))
        if change.written or change.removed:
            self.info(f"rebuilt {len(change.written)} file(s), removed {len(change.removed)} "
                     f"in {seconds * 1000:.0f} ms")

    def _write_waiting(self) -> list[str]:
        """Write what the last edit left pending, a few files at a time so requests get in between.

        Stops early when more changes have arrived: their rebuild writes what is left, as the
        site then stands.
        """
        written: list[str] = []
        while not self.watcher.debouncer.waiting():
            with self._lock:
                batch = self.state.waiting()[:WRITE_CHUNK]
                if not batch:
                    break
                written += self.state.flush(batch).written
        return written

    def _fail(self, exc: SitegenError, paths: int, started: float) -> None:
        messages = [d.format() for d in exc.diagnostics]
        events = self.server.events
        events.error_html = error_overlay(messages)
        events.publish("reload")
        seconds = time.perf_counter() - started
        self.history.append(RebuildRecord(paths, seconds, None, messages))
        self.log("\n".join(messages))

    def _prepare(self, relative: str) -> None:
        """Before a file is served: write it first if an edit left it pending."""
        page = f"{relative}/index.html" if relative else "index.html"
        wanted = [out for out in (relative, page) if out in self.state.pending]
        if wanted:
            with self._lock:
                try:
                    self.state.flush(wanted)
                except Exception as exc:  # shown as the server shows a SitegenError: a 500 naming the file
                    raise failure(exc, self.root, ()) from None

    def _schedule_index(self) -> None:
        """Refresh the search index after the reload went out, off the rebuild path."""
        self._index_wanted.set()
        if self._index_thread is None or not self._index_thread.is_alive():
            self._index_thread = threading.Thread(target=self._index_loop, name="sitegen-index", daemon=True)
            self._index_thread.start()

    def _index_loop(self) -> None:
        while self._index_wanted.is_set():
            self._index_wanted.clear()
            with self._index_lock:
                try:
                    with self._lock:  # the model as the last rebuild left it, never one being updated
                        shards = search_shards(self.state, PREVIEW_SHARD_SIZE)
                    result = refresh_index(self.output, shards, self._shard_records)
                except Exception as exc:  # the next successful rebuild indexes again
                    self.log(f"warning: search index not refreshed ({exc})")
                    continue
                self._report_index(result)

    def _shard_records(self, shard: Shard) -> list[Record]:
        """A shard's records, made from the engine as the last rebuild left it (a rebuild since then made
        the shard's digest stale, and the index it wants next indexes the shard again)."""
        with self._lock:
            return shard_records(self.state, shard, PREVIEW_SHARD_SIZE)

    def _report_index(self, result: SearchIndex) -> None:
        self.indexed.append(result)
        if not result.ok:
            self.log(f"warning: {result.message}")

    def close(self) -> None:
        """Stop watching and serving, join threads, and delete the temporary output."""
        self.watcher.stop()
        if self._index_thread is not None:
            self._index_thread.join(timeout=30)
        self.server.shutdown()
        self.server.server_close()
        if self._thread.is_alive():
            self._thread.join(timeout=5)
        self._remove_folders()

    def _remove_folders(self) -> None:
        shutil.rmtree(self.output, ignore_errors=True)

    def __enter__(self) -> PreviewSession:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()


def failure(exc: Exception, root: Path, changed: Iterable[Path]) -> SitegenError:
    """Any failure of a rebuild as diagnostics: an unexpected exception becomes one E800 naming a file.

    The file is the innermost site file the traceback passes through (a template's frames carry its
    path and line), else the file an OSError names, else the first file of the batch being rebuilt.
    """
    if isinstance(exc, SitegenError):
        return exc
    frame = _site_frame(exc, root)
    location = frame or Location(_named_file(exc, root, changed))
    hint = ("a template may extend or include itself" if frame and isinstance(exc, RecursionError)
            else "sitegen did not expect this; fix the file and save it again")
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    message = f"the rebuild failed: {text}; the last good version stays served"
    return SitegenError([Diagnostic(location, "E800", message, hint)])


def _site_frame(exc: BaseException, root: Path) -> Location | None:
    """The innermost traceback frame in one of the site's own files (templates, not Python modules)."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        path = Path(frame.filename)
        shown = _shown(path, root) if path.is_absolute() and path.suffix != ".py" else path.as_posix()
        if shown != path.as_posix():
            return Location(shown, frame.lineno or 0)
    return None


def _named_file(exc: Exception, root: Path, changed: Iterable[Path]) -> str:
    """The file an unexpected error is about when no template frame says: an OSError's, or an edited file."""
    if isinstance(exc, OSError) and isinstance(exc.filename, str):
        return _shown(Path(exc.filename), root)
    paths = sorted(changed, key=lambda p: (p.is_dir(), p))  # files before the folders they changed
    return _shown(paths[0], root) if paths else "."


def _shown(path: Path, root: Path) -> str:
    """`relpath`, or the path as written when it cannot be resolved (a symlink loop is one such failure)."""
    try:
        return relpath(path, root)
    except (OSError, RuntimeError):
        return path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()
