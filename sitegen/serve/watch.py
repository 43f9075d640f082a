"""File watching: watchdog events collected and debounced into one batch per burst.

Editors save through temporary files and `git checkout` touches hundreds of files;
a batch is handed over once no event arrived for `quiet` seconds (or after `limit`).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.polling import PollingObserver

POLL_SECONDS = 0.5  # how often `serve --poll` lists the site's folders


class Debouncer(FileSystemEventHandler):
    """Collects changed paths and calls `on_batch` with them after a quiet period."""

    def __init__(self, on_batch: Callable[[set[Path]], None], quiet: float = 0.03, limit: float = 0.5):
        self.on_batch, self.quiet, self.limit = on_batch, quiet, limit
        self._paths: set[Path] = set()
        self._first = self._last = 0.0
        self._cond = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="sitegen-debounce", daemon=True)
        self._thread.start()

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        paths = [event.src_path, getattr(event, "dest_path", "")]
        self.add(Path(p if isinstance(p, str) else p.decode()) for p in paths if p)

    def add(self, paths: object) -> None:
        with self._cond:
            now = time.monotonic()
            if not self._paths:
                self._first = now
            self._paths.update(paths)  # type: ignore[arg-type]
            self._last = now
            self._cond.notify()

    def waiting(self) -> bool:
        """Whether changes have arrived that are not handed over yet."""
        return bool(self._paths)

    def _run(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._paths or self._stopping)
                if self._stopping:
                    return
                while not self._stopping:
                    now = time.monotonic()
                    due = min(self._last + self.quiet, self._first + self.limit)
                    if now >= due:
                        break
                    self._cond.wait(due - now)
                batch, self._paths = self._paths, set()
            if batch:
                try:
                    self.on_batch(batch)
                except Exception as exc:  # this thread is the only one that ever hands over a change
                    _say_failed(exc)

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify()
        self._thread.join(timeout=5)


def _say_failed(exc: Exception) -> None:
    """Say a batch's handler failed, and go on: the next save gets its own batch."""
    print(f"sitegen: handling a change failed: {type(exc).__name__}: {exc}", file=sys.stderr)


class Watcher:
    """Watches the site's inputs (content/, themes/, site.yaml) with watchdog.

    `poll` lists the folders every `POLL_SECONDS` instead of listening for the system's file
    events, which never arrive in a Docker bind mount, WSL's `/mnt/c` or a network folder.
    """

    def __init__(self, root: Path, on_batch: Callable[[set[Path]], None], poll: bool = False):
        self.debouncer = Debouncer(on_batch)
        self.observer = PollingObserver(timeout=POLL_SECONDS) if poll else Observer()
        for folder in (root / "content", root / "themes"):
            if folder.is_dir():
                self.observer.schedule(self.debouncer, str(folder), recursive=True)
        self.observer.schedule(self.debouncer, str(root), recursive=False)  # site.yaml

    def start(self) -> None:
        self.observer.start()

    def stop(self) -> None:
        self.observer.stop()
        self.observer.join(timeout=5)
        self.debouncer.stop()
