"""A small static-file HTTP server that behaves like a static host serving a site under a URL prefix.

    with serve_directory(tmp_path / "public", base_path="/reading-list/") as base_url:
        urllib.request.urlopen(base_url + "papers/")  # -> public/papers/index.html

Rules, as on a static host (GitHub Pages and the like):
  * only paths under ``base_path`` exist; everything else is 404 (with the site's 404.html when it has one);
  * ``dir/`` serves ``dir/index.html``; ``dir`` (no slash) redirects 301 to ``dir/``; no directory listings;
  * dot segments (``/../``, ``/./``, also percent-encoded), backslashes and NUL bytes are refused with 400, and
    nothing outside ``directory`` is ever served (symlinks that leave it are 404);
  * fixed MIME types that do not depend on the machine's /etc/mime.types;
  * only GET and HEAD (anything else is 501), HTTP/1.0 (one request per connection).
"""

from __future__ import annotations

import contextlib
import socket
import socketserver
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from email.utils import formatdate
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urljoin, urlsplit

__all__ = ["MIME_TYPES", "RequestRecord", "SiteURL", "normalize_base_path", "serve_directory"]

_TEXT = "; charset=utf-8"

#: Content-Type by (lower-case) file suffix; anything else is application/octet-stream.
MIME_TYPES: dict[str, str] = {
    ".html": "text/html" + _TEXT,
    ".htm": "text/html" + _TEXT,
    ".css": "text/css" + _TEXT,
    ".js": "text/javascript" + _TEXT,
    ".mjs": "text/javascript" + _TEXT,
    ".json": "application/json" + _TEXT,
    ".map": "application/json" + _TEXT,
    ".webmanifest": "application/manifest+json" + _TEXT,
    ".xml": "application/xml" + _TEXT,
    ".xsl": "application/xml" + _TEXT,
    ".atom": "application/atom+xml" + _TEXT,
    ".rss": "application/rss+xml" + _TEXT,
    ".txt": "text/plain" + _TEXT,
    ".md": "text/plain" + _TEXT,
    ".bib": "text/plain" + _TEXT,
    ".ris": "application/x-research-info-systems" + _TEXT,
    ".csv": "text/csv" + _TEXT,
    ".svg": "image/svg+xml" + _TEXT,
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".avif": "image/avif",
    ".ico": "image/x-icon",
    ".woff": "font/woff",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
    ".pdf": "application/pdf",
    ".wasm": "application/wasm",
    # Pagefind's index chunks (pagefind-entry.json is plain JSON, see above).
    ".pagefind": "application/octet-stream",
    ".pf_meta": "application/octet-stream",
    ".pf_index": "application/octet-stream",
    ".pf_fragment": "application/octet-stream",
}
_DEFAULT_MIME = "application/octet-stream"


def content_type_for(path: Path | PurePosixPath) -> str:
    return MIME_TYPES.get(path.suffix.lower(), _DEFAULT_MIME)


def normalize_base_path(base_path: str) -> str:
    """``"reading-list"``, ``"/reading-list"`` and ``"/reading-list/"`` all become ``"/reading-list/"``."""
    stripped = base_path.strip("/")
    return "/" if not stripped else f"/{stripped}/"


@dataclass(frozen=True)
class RequestRecord:
    method: str
    path: str
    status: int


class SiteURL(str):
    """The base URL of a served site (a plain ``str``), with a few extras for tests.

    ``origin`` is ``http://127.0.0.1:PORT``, ``base_path`` the prefix (``/reading-list/``), ``directory`` the
    served folder, ``requests`` every request answered so far (method, raw path, status), and ``url(rel)`` joins a
    path relative to the base URL (``site.url("papers/")``).
    """

    origin: str
    base_path: str
    directory: Path
    requests: list[RequestRecord]

    def __new__(cls, origin: str, base_path: str, directory: Path, requests: list[RequestRecord]) -> SiteURL:
        self = super().__new__(cls, origin + base_path)
        self.origin = origin
        self.base_path = base_path
        self.directory = directory
        self.requests = requests
        return self

    def url(self, relative: str = "") -> str:
        return urljoin(str(self), relative.lstrip("/"))


class _Server(ThreadingHTTPServer):
    # Handler threads are joined by server_close(), so none outlives the context manager.
    daemon_threads = False
    block_on_close = True
    allow_reuse_address = True

    def __init__(self, root: Path, base_path: str) -> None:
        self.root = root.resolve()
        self.base_path = base_path
        self.requests: list[RequestRecord] = []
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind() calls socket.getfqdn(), a reverse DNS lookup; skip it.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name = str(host)
        self.server_port = int(port)

    def process_request(self, request: socket.socket, client_address: object) -> None:  # type: ignore[override]
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)  # type: ignore[arg-type]

    def shutdown_request(self, request: socket.socket) -> None:  # type: ignore[override]
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request: object, client_address: object) -> None:  # type: ignore[override]
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            return  # a client that went away (or never spoke) is not an error of the site
        super().handle_error(request, client_address)  # type: ignore[arg-type]

    def abort_open_connections(self) -> None:
        """Unblock handler threads still waiting on idle connections (e.g. a browser's speculative preconnect)."""
        with self._open_lock:
            sockets = list(self._open)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.0"
    server_version = "sitegen-test-server"
    sys_version = ""
    timeout = 15  # seconds an idle connection may wait for its request line

    def log_message(self, format: str, *args: object) -> None:
        pass  # keep test output clean; requests are recorded in server.requests

    def do_GET(self) -> None:
        self._serve(send_body=True)

    def do_HEAD(self) -> None:
        self._serve(send_body=False)

    # -- helpers -------------------------------------------------------------------------------------------------

    def _serve(self, *, send_body: bool) -> None:
        self._respond(send_body=send_body)

    def _respond(self, *, send_body: bool) -> int:
        raw_path = urlsplit(self.path).path if "://" in self.path else self.path.split("?", 1)[0].split("#", 1)[0]
        query = urlsplit(self.path).query
        path = _decode_path(raw_path)
        if path is None or not path.startswith("/") or "\\" in path or "\x00" in path:
            return self._send_text(HTTPStatus.BAD_REQUEST, "400 Bad Request\n", send_body)
        if any(segment in {".", ".."} for segment in path.split("/")):
            return self._send_text(HTTPStatus.BAD_REQUEST, "400 Bad Request: dot segments are not allowed\n", send_body)

        base = self.server.base_path
        if path + "/" == base:
            return self._redirect(raw_path + "/", query, send_body)
        if not path.startswith(base):
            return self._send_not_found(send_body)

        parts = [segment for segment in path[len(base) :].split("/") if segment]
        target = self.server.root.joinpath(*parts)
        try:
            resolved = target.resolve()
        except (OSError, RuntimeError):
            return self._send_not_found(send_body)
        if not resolved.is_relative_to(self.server.root):
            return self._send_not_found(send_body)
        if resolved.is_dir():
            if not path.endswith("/"):
                return self._redirect(raw_path + "/", query, send_body)
            resolved = resolved / "index.html"
        if not resolved.is_file():
            return self._send_not_found(send_body)
        try:
            body = resolved.read_bytes()
            mtime = resolved.stat().st_mtime
        except OSError:
            return self._send_not_found(send_body)
        return self._send(HTTPStatus.OK, content_type_for(resolved), body, send_body, last_modified=mtime)

    def _send(
        self,
        status: HTTPStatus,
        content_type: str,
        body: bytes,
        send_body: bool,
        *,
        last_modified: float | None = None,
        location: str | None = None,
    ) -> int:
        # recorded before the client can have its answer: a record appended after the body was sent could
        # land after the next request's, whose handler runs in another thread
        self.server.requests.append(RequestRecord(self.command, self.path, int(status)))
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        if last_modified is not None:
            self.send_header("Last-Modified", formatdate(last_modified, usegmt=True))
        if location is not None:
            self.send_header("Location", location)
        self.end_headers()
        if send_body:
            with contextlib.suppress(ConnectionError):
                self.wfile.write(body)
        return int(status)

    def _send_text(self, status: HTTPStatus, text: str, send_body: bool) -> int:
        return self._send(status, "text/plain" + _TEXT, text.encode(), send_body)

    def _send_not_found(self, send_body: bool) -> int:
        page = self.server.root / "404.html"
        if page.is_file():
            return self._send(HTTPStatus.NOT_FOUND, MIME_TYPES[".html"], page.read_bytes(), send_body)
        return self._send_text(HTTPStatus.NOT_FOUND, "404 Not Found\n", send_body)

    def _redirect(self, raw_path: str, query: str, send_body: bool) -> int:
        location = raw_path + (f"?{query}" if query else "")
        body = f"Moved to {location}\n".encode()
        return self._send(HTTPStatus.MOVED_PERMANENTLY, "text/plain" + _TEXT, body, send_body, location=location)


def _decode_path(raw_path: str) -> str | None:
    """Percent-decode a request path; None when the escapes are not valid UTF-8."""
    try:
        return unquote(raw_path, errors="strict")
    except UnicodeDecodeError:
        return None


@contextlib.contextmanager
def serve_directory(directory: str | Path, base_path: str = "/") -> Iterator[SiteURL]:
    """Serve ``directory`` at ``http://127.0.0.1:<free port><base_path>`` for the duration of the ``with`` block.

    Yields the base URL (a ``str``; see :class:`SiteURL` for its extra attributes). On exit the server stops,
    idle connections are closed and every server thread has been joined.
    """
    root = Path(directory)
    if not root.is_dir():
        raise NotADirectoryError(f"serve_directory: {root} is not a directory")
    server = _Server(root, normalize_base_path(base_path))
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, name=f"serve_directory:{server.server_port}"
    )
    thread.start()
    try:
        yield SiteURL(f"http://127.0.0.1:{server.server_port}", server.base_path, root, server.requests)
    finally:
        server.shutdown()
        thread.join()
        server.abort_open_connections()
        server.server_close()  # closes the listening socket and joins the handler threads
