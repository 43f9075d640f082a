"""A local HTTP server that replays recorded answers and remembers every request it got.

Bound to 127.0.0.1 on a free port, in a thread, for the length of one test. Answers are
looked up by path and query (the query compared as sorted pairs, so parameter order does
not matter), then by path alone; a queue of answers for one route is served in order, its
last answer repeating. An answer may be a status with a `Retry-After`, or slow (it waits
before answering, longer than a client's timeout). A request for a route with no answer
is recorded as unmatched and answered 418, which no client treats as a paper.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


@dataclass(frozen=True)
class Reply:
    """One answer: status, body, extra headers, and how long to wait before sending it."""

    status: int = 200
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0

    @classmethod
    def fixture(cls, name: str, status: int = 200) -> Reply:
        """A recorded answer from tests/ingest/enrich/fixtures/<name>, typed by its extension."""
        kind = "application/atom+xml; charset=UTF-8" if name.endswith(".xml") else "application/json"
        return cls(status, (FIXTURES / name).read_bytes(), (("Content-Type", kind),))

    @classmethod
    def json(cls, data: object, status: int = 200) -> Reply:
        return cls(status, json.dumps(data).encode(), (("Content-Type", "application/json"),))


@dataclass(frozen=True)
class Seen:
    """A request as the server got it."""

    method: str
    path: str
    query: tuple[tuple[str, str], ...]
    headers: dict[str, str]
    body: bytes
    at: float  # time.monotonic() when it arrived

    def param(self, name: str) -> str | None:
        return dict(self.query).get(name)

    def header(self, name: str) -> str | None:
        """A header by name, in any case (urllib sends `X-api-key` for `x-api-key`)."""
        return next((value for key, value in self.headers.items() if key.lower() == name.lower()), None)


@dataclass
class _State:
    routes: dict[str, list[Reply]] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    unmatched: list[str] = field(default_factory=list)
    in_flight: int = 0
    most_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    stopping: threading.Event = field(default_factory=threading.Event)


def _route(path: str, query: tuple[tuple[str, str], ...] = ()) -> str:
    return f"{path}?{urllib.parse.urlencode(sorted(query))}" if query else path


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        self._answer(b"")

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self._answer(self.rfile.read(length))

    def log_message(self, format: str, *args: object) -> None:  # quiet: tests read `seen`, not stderr
        pass

    def _answer(self, body: bytes) -> None:
        state = self.server.state
        parts = urllib.parse.urlsplit(self.path)
        query = tuple(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
        seen = Seen(self.command, parts.path, query, dict(self.headers.items()), body, time.monotonic())
        with state.lock:
            state.seen.append(seen)
            state.in_flight += 1
            state.most_in_flight = max(state.most_in_flight, state.in_flight)
            reply = self._pick(state, parts.path, query)
        try:
            stopped = bool(reply.delay) and state.stopping.wait(reply.delay)
        finally:
            # Done before the answer goes out: once the client has it, it may send its next
            # request, and that must not be counted as overlapping this one.
            with state.lock:
                state.in_flight -= 1
        if stopped:
            return
        try:
            self.send_response(reply.status)
            for name, value in reply.headers:
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)
        except OSError:  # the client gave up (a timeout test): nothing to answer
            self.close_connection = True

    @staticmethod
    def _pick(state: _State, path: str, query: tuple[tuple[str, str], ...]) -> Reply:
        for key in (_route(path, query), path):
            queue = state.routes.get(key)
            if queue:
                return queue.pop(0) if len(queue) > 1 else queue[0]
        state.unmatched.append(_route(path, query))
        return Reply.json({"error": f"no recorded answer for {_route(path, query)}"}, status=418)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    state: _State


class ReplayServer:
    """The server, its base URL, the answers it will give and the requests it got."""

    def __init__(self) -> None:
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.state = _State()
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def seen(self) -> list[Seen]:
        with self._server.state.lock:
            return list(self._server.state.seen)

    @property
    def unmatched(self) -> list[str]:
        return list(self._server.state.unmatched)

    @property
    def most_in_flight(self) -> int:
        return self._server.state.most_in_flight

    def add(self, path: str, *replies: Reply, query: dict[str, str] | None = None) -> None:
        """Answer requests for `path` (and exactly `query`, when given) with `replies`, in order."""
        key = _route(path, tuple(query.items())) if query else path
        self._server.state.routes.setdefault(key, []).extend(replies)

    def start(self) -> ReplayServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.state.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
