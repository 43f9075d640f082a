"""`sitegen serve` end to end: real files edited on disk, real watchdog events, real HTTP."""

from __future__ import annotations

import http.client
import queue
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitegen.model.routes import WHOLE_LIST_FILES
from sitegen.pipeline.build import build
from sitegen.pipeline.site_engine import SiteEngine
from sitegen.serve import serve
from sitegen.serve.serve import BYTES_PER_PAPER, PreviewSession, memory_has_room

from ..site_factory import copy_site, tree_bytes

VTC = "content/papers/vtc-dnn-compilation-with-virtual-tensors-for-data-movement.md"
VTC_PAGE = "papers/vtc-dnn-compilation-with-virtual-tensors-for-data-movement/index.html"


class Events:
    """A server-sent-events client collecting event names in a queue."""

    def __init__(self, session: PreviewSession):
        port = session.server.server_address[1]
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", session.server.base_path + "__sitegen/events")
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type") == "text/event-stream"
        self.queue: queue.Queue[str] = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for raw in self.response:
                line = raw.decode().strip()
                if line.startswith("event: "):
                    self.queue.put(line.removeprefix("event: "))
        except (OSError, ValueError, http.client.HTTPException):
            return

    def next(self, timeout: float = 10) -> str:
        return self.queue.get(timeout=timeout)

    def close(self) -> None:
        self.conn.close()


@pytest.fixture()
def session(tmp_path: Path) -> Iterator[PreviewSession]:
    root = copy_site(tmp_path / "site")
    with PreviewSession(root, port=0) as running:
        yield running
    assert not running.output.exists(), "the temporary output must be deleted on exit"
    assert not any(t.name.startswith("sitegen-") and t.is_alive() for t in threading.enumerate()
                   if t.name != "sitegen-debounce"), "no stray threads"


def get(session: PreviewSession, route: str) -> tuple[int, str]:
    port = session.server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", session.server.base_path + route)
    response = conn.getresponse()
    body = response.read().decode()
    conn.close()
    return response.status, body


def written(session: PreviewSession, timeout: float = 10) -> None:
    """Wait until the pages an edit left for after the reload are written."""
    deadline = time.monotonic() + timeout
    while session.state.waiting() or session.watcher.debouncer.waiting():
        assert time.monotonic() < deadline, "pages still waiting"
        time.sleep(0.01)
    with session._lock:  # the last batch of them is written under the lock
        pass


def rebuilt(session: PreviewSession, count: int, timeout: float = 10) -> None:
    """Wait until the session has finished a rebuild beyond the first `count`."""
    deadline = time.monotonic() + timeout
    while len(session.history) <= count:
        assert time.monotonic() < deadline, "no rebuild"
        time.sleep(0.01)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_edit_reloads_and_changes_the_page(session: PreviewSession) -> None:
    events = Events(session)
    try:
        page = session.output / VTC_PAGE
        untouched = session.output / "papers/speedy-mast3r/index.html"
        before = untouched.stat().st_mtime_ns
        edit(session.root / VTC, "title: 'VTC:", "title: 'VTC renamed:")
        assert events.next() == "reload"
        assert "VTC renamed:" in get(session, VTC_PAGE.removesuffix("index.html"))[1]
        assert "VTC renamed:" in page.read_text()
        assert untouched.stat().st_mtime_ns == before, "pages that do not show the entry are not rewritten"
        _, home_author = get(session, "authors/ahan-gupta/")
        assert "VTC renamed:" in home_author
    finally:
        events.close()


def test_whole_list_downloads_are_written_when_first_asked_for(session: PreviewSession, tmp_path: Path) -> None:
    """A front-matter edit leaves the reading-list downloads to the first request for each; it gets the new list."""
    events = Events(session)
    try:
        before = {name: (session.output / name).read_bytes() for name in WHOLE_LIST_FILES}
        edit(session.root / VTC, "title: 'VTC:", "title: 'VTC renamed:")
        assert events.next() == "reload"
        written(session)
        assert sorted(session.state.pending) == sorted(WHOLE_LIST_FILES)
        assert {name: (session.output / name).read_bytes() for name in WHOLE_LIST_FILES} == before, \
            "not written at the save"
        build(session.root, tmp_path / "clean", search=False, use_cache=False)
        for name in WHOLE_LIST_FILES:
            status, body = get(session, name)
            assert status == 200
            assert body.encode() == (tmp_path / "clean" / name).read_bytes() != before[name], name
            assert (session.output / name).read_bytes() == body.encode()
        assert not session.state.pending
    finally:
        events.close()


def test_pages_waiting_after_the_reload_are_written_first_when_asked_for(tmp_path: Path) -> None:
    """An edit writes the paper's own page before the reload; a request for a page still waiting writes it first."""
    root = copy_site(tmp_path / "site")
    with PreviewSession(root, port=0, search=False) as session:  # no index written beside the comparison below
        session.watcher.stop()  # the test applies the edit itself and lets the pages wait
        edit(session.root / VTC, "title: 'VTC:", "title: 'VTC renamed:")
        state = session.state
        with session._lock:
            change = state.update({session.root / VTC})
        assert change.written == [VTC_PAGE] and change.deferred == len(state.waiting())
        pages = {"authors/ahan-gupta/": "authors/ahan-gupta/index.html", "": "index.html"}
        assert set(pages.values()) <= set(state.waiting())
        assert not any("VTC renamed:" in (session.output / out).read_text() for out in pages.values())
        for route, out in pages.items():
            status, body = get(session, route)
            assert status == 200 and "VTC renamed:" in body, route
            assert out not in state.pending and "VTC renamed:" in (session.output / out).read_text()
        session.rebuild(set())  # a rebuild writes whatever still waits, before anything else
        assert not state.waiting() and sorted(state.pending) == sorted(WHOLE_LIST_FILES)
        state.flush()
        SiteEngine(session.root, tmp_path / "clean", asset_versions=False).build()
        assert tree_bytes(session.output) == tree_bytes(tmp_path / "clean")


def test_a_page_failing_after_the_reload_shows_the_error(session: PreviewSession) -> None:
    """A template failing only on the edited data fails as the waiting pages are written: the overlay says where."""
    item = session.root / "themes/default/templates/partials/item.html"
    events = Events(session)
    try:
        count = len(session.history)
        item.write_text(item.read_text() + "{% if 'EXPLODE' in e.title %}{{ no_such_variable }}{% endif %}\n")
        rebuilt(session, count)  # no page changes: no reload
        count = len(session.history)
        edit(session.root / VTC, "title: 'VTC:", "title: 'VTC EXPLODE:")
        assert events.next() == "reload"  # the paper's own page; the error, from a listing, may come with it
        rebuilt(session, count)
        assert session.history[-1].errors and "partials/item.html:" in session.history[-1].errors[0]
        status, body = get(session, VTC_PAGE.removesuffix("index.html"))
        assert status == 200 and "sitegen-error" in body and "partials/item.html:" in body
        edit(session.root / VTC, "title: 'VTC EXPLODE:", "title: 'VTC calm:")
        assert events.next() == "reload"
        written(session)
        status, body = get(session, "authors/ahan-gupta/")
        assert "sitegen-error" not in body and "VTC calm:" in body
    finally:
        events.close()


def test_added_and_deleted_entries_update_listings(session: PreviewSession) -> None:
    events = Events(session)
    try:
        new = session.root / "content/papers/a-brand-new-paper.md"
        new.write_text("---\ntitle: A Brand New Paper\nauthors: [Ada Lovelace]\ndate: 2026-06-01\n"
                       "tags: [brand-new-tag]\n---\nNotes.\n")
        assert events.next() == "reload"
        assert get(session, "papers/a-brand-new-paper/")[0] == 200
        assert "A Brand New Paper" in get(session, "")[1]
        assert "A Brand New Paper" in get(session, "tags/brand-new-tag/")[1]
        assert "Ada Lovelace" in get(session, "authors/")[1]
        new.unlink()
        assert events.next() == "reload"
        assert get(session, "papers/a-brand-new-paper/")[0] == 404
        assert get(session, "tags/brand-new-tag/")[0] == 404
        assert "A Brand New Paper" not in get(session, "")[1]
        assert not (session.output / "papers/a-brand-new-paper").exists()
    finally:
        events.close()


def test_broken_yaml_shows_error_then_recovers(session: PreviewSession) -> None:
    events = Events(session)
    try:
        path = session.root / VTC
        good = path.read_text()
        path.write_text(good.replace("title: 'VTC: DNN Compilation", "title: VTC: DNN Compilation", 1))
        assert events.next() == "reload"
        status, body = get(session, "")
        assert status == 200, "the last good site stays served"
        assert "sitegen-error" in body
        assert f"{VTC}:2:" in body and "invalid YAML" in body
        path.write_text(good.replace("title: 'VTC:", "title: 'VTC fixed:"))
        assert events.next() == "reload"
        status, body = get(session, VTC_PAGE.removesuffix("index.html"))
        assert "sitegen-error" not in body and "VTC fixed:" in body
    finally:
        events.close()


def test_template_syntax_error_names_template_and_line(session: PreviewSession) -> None:
    events = Events(session)
    try:
        template = session.root / "themes/default/templates/paper.html"
        good = template.read_text()
        lines = good.splitlines(keepends=True)
        lines.insert(4, "{% if %}\n")
        template.write_text("".join(lines))
        assert events.next() == "reload"
        body = get(session, "")[1]
        assert "themes/default/templates/paper.html:5" in body
        template.write_text(good.replace("<h2 id=\"abstract-heading\">Abstract</h2>",
                                         "<h2 id=\"abstract-heading\">Summary</h2>"))
        assert events.next() == "reload"
        body = get(session, VTC_PAGE.removesuffix("index.html"))[1]
        assert "sitegen-error" not in body and ">Summary</h2>" in body
    finally:
        events.close()


def test_css_change_sends_css_event_and_copies_only_that_file(session: PreviewSession) -> None:
    events = Events(session)
    try:
        page = session.output / "index.html"
        before = page.stat().st_mtime_ns
        css = session.root / "themes/default/static/style.css"
        css.write_text(css.read_text() + "\n.added-rule { color: red; }\n")
        assert events.next() == "css"
        assert ".added-rule" in get(session, "static/style.css")[1]
        assert page.stat().st_mtime_ns == before
    finally:
        events.close()


def test_burst_of_changes_is_one_rebuild(session: PreviewSession) -> None:
    events = Events(session)
    try:
        papers = sorted((session.root / "content/papers").glob("*.md"))[:20]
        count = len(session.history)
        for path in papers:
            path.write_text(path.read_text() + "\nTouched.\n")
        assert events.next() == "reload"
        time.sleep(0.3)
        batches = session.history[count:]
        assert len(batches) <= 2 and sum(b.paths for b in batches) >= 20
    finally:
        events.close()


def test_the_preview_needs_room_for_three_times_its_output_in_memory() -> None:
    assert memory_has_room(24 * 2**30, 10_000)  # a 24 GiB memory file system and a large list
    assert not memory_has_room(64 * 2**20, 1_000)  # a container's 64 MiB /dev/shm
    assert memory_has_room(64 * 2**20, 100) and not memory_has_room(64 * 2**20 - 1, 0)
    need = 5_000 * BYTES_PER_PAPER
    assert memory_has_room(need, 5_000) and not memory_has_room(need - 1, 5_000)


def test_the_preview_builds_in_memory_when_there_is_room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_site(tmp_path / "site")
    memory = tmp_path / "memory"  # stands in for /dev/shm: the choice, not the file system, is tested here
    memory.mkdir()
    monkeypatch.setattr(serve, "MEMORY_FOLDER", memory)
    with PreviewSession(root, port=0, search=False) as running:
        assert running.output.parent == memory
        assert (running.output / VTC_PAGE).is_file()
    assert list(memory.iterdir()) == []
    monkeypatch.setattr(serve, "MIN_MEMORY_ROOM", 2**62)  # no room: the usual temporary folder
    with PreviewSession(root, port=0, search=False) as running:
        assert running.output.parent == Path(tempfile.gettempdir())
    monkeypatch.setattr(serve, "MEMORY_FOLDER", tmp_path / "missing")
    with PreviewSession(root, port=0, search=False) as running:
        assert running.output.parent == Path(tempfile.gettempdir())


def test_a_polling_preview_sees_an_edit_no_file_event_announced(tmp_path: Path) -> None:
    """`serve --poll`: the folders are listed, as where file events never arrive (Docker, WSL, network folders)."""
    from watchdog.observers.polling import PollingObserver

    root = copy_site(tmp_path / "site")
    with PreviewSession(root, port=0, search=False, poll=True) as running:
        assert isinstance(running.watcher.observer, PollingObserver)
        count = len(running.history)
        edit(running.root / VTC, "title: 'VTC:", "title: 'VTC polled:")
        rebuilt(running, count)
        written(running)
        assert "VTC polled:" in (running.output / VTC_PAGE).read_text()
