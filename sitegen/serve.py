"""`sitegen serve`: build, serve, watch, rebuild what changed, tell browsers to reload."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from . import config as site_config
from .errors import SitegenError
from .incremental import Change, SiteState
from .search import SearchIndex
from .search import refresh as refresh_index
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
        if not (MEMORY_FOLDER.is_dir() and os.access(MEMORY_FOLDER, os.W_OK | os.X_OK)):
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


def preview_state(root: Path, output: Path, scratch: Path, base_url: str | None = None,
                  drafts: bool = False) -> SiteState:
    """The site state a preview keeps: no asset versions, no fsync, whole-list downloads on request,
    and an entry edit's pages other than the edited paper's written after the reload."""
    return SiteState(root, output, base_url, drafts, asset_versions=False, durable=False, scratch=scratch,
                     on_request=ON_REQUEST, write_later=True)


@dataclass
class RebuildRecord:
    """One rebuild as the session saw it (for the terminal and for tests)."""

    paths: int
    seconds: float  # until every file the edit changed was written
    change: Change | None
    errors: list[str]


class PreviewSession:
    """Owns the temporary output, the site state, the HTTP server and the watcher."""

    def __init__(self, root: Path, host: str = "127.0.0.1", port: int = 0, drafts: bool = False,
                 live_reload: bool = True, base_url: str | None = None, log: Log | None = None,
                 search: bool = True):
        self.root = root.resolve()
        self.log = log or (lambda _: None)
        parent = preview_parent(self.root)
        self.output = Path(tempfile.mkdtemp(prefix="sitegen-serve-", dir=parent))
        self.scratch = Path(tempfile.mkdtemp(prefix="sitegen-serve-cache-", dir=parent))  # beside, never served
        self.history: list[RebuildRecord] = []
        self._lock = threading.Lock()
        self.search = search
        self._index_lock = threading.Lock()
        self._index_wanted = threading.Event()
        self._index_thread: threading.Thread | None = None
        try:
            cfg = site_config.load(self.root, base_url)
            self.state = preview_state(self.root, self.output, self.scratch, base_url, drafts)
            self.state.full()
            if search:
                self._report_index(refresh_index(self.output))
            self.server = PreviewServer(host, port, self.output, cfg.base_path, live_reload, self._prepare)
        except BaseException:
            shutil.rmtree(self.output, ignore_errors=True)
            shutil.rmtree(self.scratch, ignore_errors=True)
            raise
        self.watcher = Watcher(self.root, self.rebuild)
        self._thread = threading.Thread(target=self.server.serve_forever, name="sitegen-http", daemon=True)

    @property
    def url(self) -> str:
        return self.server.url

    def start(self) -> PreviewSession:
        self._thread.start()
        self.watcher.start()
        return self

    def rebuild(self, paths: set[Path]) -> None:
        """Apply a batch of changed paths; on failure keep the last good site and show the errors.

        The browser is told to reload as soon as the edited paper's own page is written; the
        other pages the edit changes (its authors', tags', listings) are written right after,
        a few at a time, and a request for one of them first writes it (`_prepare`).
        """
        started = time.perf_counter()
        with self._lock:
            events = self.server.events
            try:
                change = self.state.update(paths)
            except SitegenError as exc:
                self._fail(exc, len(paths), started)
                return
            recovered = bool(events.error_html)
            events.error_html = ""
            if change.written or change.removed or change.deferred or recovered:
                events.publish("css" if change.css_only and not recovered else "reload")
        try:
            change.written += self._write_waiting()
        except SitegenError as exc:
            self._fail(exc, len(paths), started)
            return
        # a full rebuild swaps in a new output folder, without the previous search bundle
        if self.search and (change.full or any(w.endswith(".html") for w in change.written + change.removed)):
            self._schedule_index()
        seconds = time.perf_counter() - started
        self.history.append(RebuildRecord(len(paths), seconds, change, []))
        if change.written or change.removed:
            self.log(f"rebuilt {len(change.written)} file(s), removed {len(change.removed)} "
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
                self.state.flush(wanted)

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
                self._report_index(refresh_index(self.output))

    def _report_index(self, result: SearchIndex) -> None:
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
        shutil.rmtree(self.output, ignore_errors=True)
        shutil.rmtree(self.scratch, ignore_errors=True)

    def __enter__(self) -> PreviewSession:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
