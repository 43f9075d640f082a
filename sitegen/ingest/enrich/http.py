"""A polite HTTP client for the scholarly APIs: paced, retried within bounds, never hanging.

arXiv asks for one request every three seconds over one connection; Semantic Scholar and
Hugging Face throttle with 429 and a `Retry-After`. Every lookup goes through one `Fetcher`
so the pacing holds across clients, and a `Store` (store.py) answers repeated lookups from
the site itself instead of asking again. Only the standard library: nothing to install.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import http.client
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Callable, Mapping
from email.message import Message
from typing import TYPE_CHECKING, Any

from sitegen import __version__
from sitegen.common.distribution import DISTRIBUTION
from sitegen.ingest.enrich.answers import Response, SourceError, Throttled, Unreachable, host_of

if TYPE_CHECKING:
    from sitegen.ingest.enrich.store import Store

def _project_url() -> str | None:
    """Where sitegen lives, as its installed metadata says (`[project.urls]`), if it says."""
    import importlib.metadata

    try:
        urls = importlib.metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    return next((u.split(",", 1)[1].strip() for u in urls if "," in u), None)


def default_user_agent() -> str:
    """`sitegen/<version> (+<project URL>; <contact>)`: who is asking, as the APIs' terms want it said.

    SITEGEN_CONTACT (an e-mail address or a URL) adds the curator's own contact, which
    arXiv and Semantic Scholar ask heavy users for.
    """
    about = [f"+{url}" for url in [_project_url()] if url] + [c for c in [os.environ.get("SITEGEN_CONTACT")] if c]
    return f"sitegen/{__version__}" + (f" ({'; '.join(about)})" if about else "")



# The least time between two requests to one host, in seconds, by source, as each asks:
# arXiv one request every 3 s over a single connection; Hugging Face 500 calls per 5
# minutes; Semantic Scholar's introductory key is 1 request per second, and 1 s is kept
# without a key, where the pool is shared by everyone.
PACING = {"arxiv": 3.0, "s2": 1.0, "hf": 0.6}
SERIAL = frozenset({"arxiv"})  # one connection at a time
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
KEPT_STATUSES = frozenset({200, 404})  # what the store keeps: answers, not failures
# The most one answer may hold, as sent and once decompressed: the largest the sources give (a month of Daily
# Papers, a batch of 500 papers) is a few MB; past this, an answer is refused unread, never held whole in memory.
MAX_ANSWER = 32 * 2**20


def retry_after(value: str | None, now: dt.datetime | None = None) -> float | None:
    """Seconds a `Retry-After` header asks to wait (delta-seconds or an HTTP date), None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    now = now or dt.datetime.now(dt.UTC)
    return max(0.0, (when - now).total_seconds())


class _Host:
    """The pacing state of one host: when its last request started, and the locks that space them."""

    def __init__(self) -> None:
        self.gate = threading.Lock()  # held while waiting for the interval to pass
        self.line = threading.Lock()  # held through a request where one connection at a time is asked
        self.last = -float("inf")


class Fetcher:
    """GET and POST with pacing per host, bounded retries, a timeout, and an optional store.

    `delay` replaces every source's interval (the `--delay` flag; 0 in tests). A status in
    RETRY_STATUSES, a timeout or a dropped connection is tried again, `tries` times in all,
    waiting `backoff`·2ⁿ seconds or what `Retry-After` asks (up to `max_wait`); a refused
    connection or an unknown host is not (asking again a second later changes nothing).
    Throttling (429) without a `Retry-After` waits longer, `throttle_backoff`·2ⁿ seconds, and
    `throttle_tries` times in all: a burst of 429s passes in a minute or two, not in seven
    seconds. Once a host is found unreachable or throttled past that, later requests to it
    fail at once (`Throttled` says which).
    """

    def __init__(
        self,
        *,
        store: Store | None = None,
        delay: float | None = None,
        timeout: float = 30.0,
        tries: int = 4,
        backoff: float = 1.0,
        max_wait: float = 120.0,
        throttle_tries: int = 6,
        throttle_backoff: float = 4.0,
        user_agent: str | None = None,
        today: Callable[[], dt.date] = dt.date.today,
    ):
        self.store = store
        self.delay = delay
        self.timeout = timeout
        self.tries = max(1, tries)
        self.backoff = backoff
        self.max_wait = max_wait
        self.throttle_tries = max(self.tries, throttle_tries)
        self.throttle_backoff = throttle_backoff
        self.user_agent = user_agent or default_user_agent()
        self.today = today
        self._hosts: dict[str, _Host] = {}
        self._dead: dict[str, Unreachable] = {}
        self._lock = threading.Lock()
        self._opener = urllib.request.build_opener()

    def get(
        self, source: str, url: str, *, headers: Mapping[str, str] | None = None, refresh: bool = False
    ) -> Response:
        """The answer to a GET: from the store when it holds one (unless `refresh`), else from the source."""
        return self._fetch(source, url, None, headers or {}, refresh)

    def post_json(
        self,
        source: str,
        url: str,
        payload: object,
        *,
        headers: Mapping[str, str] | None = None,
        refresh: bool = False,
    ) -> Response:
        """The answer to a POST of `payload` as JSON; stored under the URL and the body together."""
        data = json.dumps(payload, sort_keys=True, separators=(",", ":")).encode()
        return self._fetch(source, url, data, {"Content-Type": "application/json", **(headers or {})}, refresh)

    def _fetch(self, source: str, url: str, data: bytes | None, headers: Mapping[str, str], refresh: bool) -> Response:
        if self.store is not None and not refresh:
            kept = self.store.load(source, url, data)
            if kept is not None:
                return kept
        response = self._request(source, url, data, headers)
        if self.store is not None and response.status in KEPT_STATUSES:
            self.store.save(source, response, data)
        return response

    def _request(self, source: str, url: str, data: bytes | None, headers: Mapping[str, str]) -> Response:
        host = host_of(url)
        if host in self._dead:
            raise self._dead[host]
        reason, attempt, throttled = "", 0, False
        while True:
            try:
                status, body, wait = self._attempt(source, url, data, headers)
            except Unreachable as exc:
                self._dead[host] = exc
                raise
            except _Transient as exc:
                reason, wait, throttled = str(exc), None, False
            else:
                if status not in RETRY_STATUSES:
                    return Response(url, status, body, self.today())
                reason, throttled = f"HTTP {status}", status == 429
            attempt += 1
            if attempt >= (self.throttle_tries if throttled else self.tries):
                break
            base = self.throttle_backoff if throttled else self.backoff
            pause = min(base * 2 ** (attempt - 1), self.max_wait) if wait is None else wait
            if pause > self.max_wait:
                reason += f", and it asks to wait {pause:.0f} s"
                break
            time.sleep(pause)
        tried = f"after {attempt} {'try' if attempt == 1 else 'tries'}"
        failure = (Throttled if throttled else Unreachable)(host, f"{reason} ({tried})")
        self._dead[host] = failure
        raise failure

    def _attempt(
        self, source: str, url: str, data: bytes | None, headers: Mapping[str, str]
    ) -> tuple[int, str, float | None]:
        """One request, paced: its status, text and any Retry-After; _Transient or Unreachable when it failed."""
        request = urllib.request.Request(url, data=data, method="POST" if data is not None else "GET")
        request.add_header("User-Agent", self.user_agent)
        request.add_header("Accept-Encoding", "gzip, deflate")
        for name, value in headers.items():
            request.add_header(name, value)
        state = self._host(host_of(url))
        serial = source in SERIAL
        if serial:
            state.line.acquire()
        try:
            self._pace(state, source)
            return self._send(request)
        finally:
            if serial:
                state.line.release()

    def _send(self, request: urllib.request.Request) -> tuple[int, str, float | None]:
        host = host_of(request.full_url)
        try:
            with self._opener.open(request, timeout=self.timeout) as reply:
                return reply.status, _text(_bounded(reply, request.full_url), reply.headers, request.full_url), None
        except urllib.error.HTTPError as exc:
            with exc:
                try:
                    body = _text(_bounded(exc, request.full_url), exc.headers, request.full_url)
                except (OSError, http.client.HTTPException):
                    body = ""
            return exc.code, body, retry_after(exc.headers.get("Retry-After"))
        except urllib.error.URLError as exc:
            raise _classify(host, exc.reason, self.timeout) from None
        except TimeoutError:
            raise _Transient(f"no answer within {self.timeout:g} s") from None
        except (ConnectionError, http.client.HTTPException, OSError) as exc:
            raise _Transient(f"the connection broke ({exc or type(exc).__name__})") from None

    def _host(self, host: str) -> _Host:
        with self._lock:
            return self._hosts.setdefault(host, _Host())

    def _pace(self, state: _Host, source: str) -> None:
        """Wait until the host's interval has passed since its last request started, then claim the slot."""
        interval = self.delay if self.delay is not None else PACING.get(source, 1.0)
        with state.gate:
            wait = state.last + interval - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            state.last = time.monotonic()


class _Transient(Exception):
    """A failure worth one more try: a timeout, a reset, a connection dropped mid-answer."""


def _classify(host: str, reason: object, timeout: float) -> Exception:
    """What a URLError means: a refusal or an unknown host is final, a timeout or a reset is worth retrying."""
    if isinstance(reason, TimeoutError):
        return _Transient(f"no answer within {timeout:g} s")
    if isinstance(reason, socket.gaierror):
        return Unreachable(host, f"the name could not be resolved ({reason.strerror or reason})")
    if isinstance(reason, ConnectionRefusedError):
        return Unreachable(host, "connection refused")
    if isinstance(reason, OSError):
        return _Transient(f"the connection broke ({reason.strerror or reason})")
    return Unreachable(host, str(reason))


def _too_large(url: str) -> SourceError:
    most = f"{MAX_ANSWER // 2**20} MB" if MAX_ANSWER >= 2**20 else f"{MAX_ANSWER // 1024} KB"
    return SourceError(f"{host_of(url)} sent more than {most} for {url}: the answer was not read",
                       "no answer of the sources is that large: a proxy or a changed service may be in the way")


def _bounded(reply: Any, url: str) -> bytes:
    """An answer's bytes, read up to MAX_ANSWER: a larger one is refused, not read whole."""
    raw: bytes = reply.read(MAX_ANSWER + 1)
    if len(raw) > MAX_ANSWER:
        raise _too_large(url)
    return raw


def _text(raw: bytes, headers: Message, url: str = "") -> str:
    """A body as text: undone from gzip or deflate (to MAX_ANSWER at most), decoded by its declared charset
    (UTF-8 when none)."""
    encoding = headers.get("Content-Encoding") or ""
    try:
        if "gzip" in encoding or "deflate" in encoding:
            inflater = zlib.decompressobj(31 if "gzip" in encoding else 15)
            raw = inflater.decompress(raw, MAX_ANSWER + 1)
            if len(raw) > MAX_ANSWER or inflater.unconsumed_tail:
                raise _too_large(url)
            if not inflater.eof:
                raise EOFError("compressed data ended early")
    except (OSError, EOFError, zlib.error) as exc:
        raise _Transient(f"the answer arrived damaged ({exc})") from None
    charset = headers.get_content_charset() or "utf-8"
    try:
        return raw.decode(charset, errors="replace")
    except LookupError:
        return raw.decode("utf-8", errors="replace")
