"""The preview HTTP server: local, read-only, and strict about what it serves.

GET and HEAD only; the Host header must name this server (DNS-rebinding guard);
only regular files that resolve inside the output directory are served (no '..',
encoded or backslash traversal, no symlink escape, no directory listings). HTML
responses get the live-reload script injected on the fly; nothing is written.
"""

from __future__ import annotations

import errno
import html
import ipaddress
import json
import mimetypes
import re
import socket
import sys
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from ..common.errors import Location, SitegenError

EVENTS_PATH = "__sitegen/events"
LOOPBACK_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}
HOST_NAME = re.compile(r"(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*\.?", re.IGNORECASE)
TYPES = {
    ".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8", ".json": "application/json",
    ".xml": "application/xml", ".svg": "image/svg+xml", ".txt": "text/plain; charset=utf-8",
    ".bib": "text/plain; charset=utf-8", ".ris": "application/x-research-info-systems",
    ".wasm": "application/wasm", ".pagefind": "application/octet-stream",
    ".pf_meta": "application/octet-stream", ".pf_fragment": "application/octet-stream",
    ".pf_index": "application/octet-stream", ".pf_filter": "application/octet-stream",
}

RELOAD_SCRIPT = """<script>(function(){
var KEY="sitegen-scroll:"+location.pathname;
var saved=sessionStorage.getItem(KEY);
if(saved!==null){sessionStorage.removeItem(KEY);addEventListener("load",function(){scrollTo(0,+saved);});}
var source=new EventSource(%s);
source.addEventListener("reload",function(){source.close();sessionStorage.setItem(KEY,String(scrollY));location.reload();});
source.addEventListener("css",function(){document.querySelectorAll('link[rel="stylesheet"]').forEach(function(l){
var u=new URL(l.href);u.searchParams.set("reload",String(Date.now()));l.href=u.href;});});
})();</script>"""


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and 'localhost'."""
    if host in ("localhost", ""):
        return host == "localhost"
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class Broadcaster:
    """Hands build events to every open event stream."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._serial = 0
        self._event = "reload"
        self.closing = False
        self.error_html = ""  # non-empty while the last rebuild failed

    def publish(self, event: str) -> None:
        with self._cond:
            self._serial += 1
            self._event = event
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self.closing = True
            self._cond.notify_all()

    def wait(self, serial: int, timeout: float) -> tuple[int, str | None]:
        """Block until an event newer than `serial` (or timeout); return (serial, event)."""
        with self._cond:
            self._cond.wait_for(lambda: self._serial != serial or self.closing, timeout)
            if self._serial != serial:
                return self._serial, self._event
            return serial, None

    @property
    def serial(self) -> int:
        with self._cond:
            return self._serial


WILDCARDS = frozenset({"", "0.0.0.0", "::", "::0"})  # addresses that mean "every interface"


class PreviewServer(ThreadingHTTPServer):
    """Serves `output` under `base_path`; the handler reads its settings from here.

    One daemon thread per connection. The listen queue holds what the kernel allows (the default,
    5, left a page's burst of parallel requests waiting seconds for the client to retry), and a
    connection idle for `idle_timeout` seconds is closed, so keep-alive clients never hold
    threads for good.
    """

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = max(socket.SOMAXCONN, 1024)
    idle_timeout = 15.0

    def __init__(self, host: str, port: int, output: Path, base_path: str, live_reload: bool = True,
                 prepare: Callable[[str], None] | None = None):
        self.output = output.resolve()
        self.prepare = prepare  # called first with the requested path ('' for the root, a folder without index.html)
        self.base_path = base_path if base_path.endswith("/") else base_path + "/"
        self.live_reload = live_reload
        self.events = Broadcaster()
        self.request_log: Callable[[str], None] | None = None  # each request said, under `serve -v`
        host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
        check_address(host)
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        try:
            super().__init__((host, port), PreviewHandler)
        except OSError as exc:  # the socket is closed again by the base class
            raise listen_error(exc, host, port) from None

    def _host_port(self) -> tuple[str, int]:
        host, port = self.server_address[:2]
        return (host.decode() if isinstance(host, bytes) else str(host)), int(port)

    @property
    def url(self) -> str:
        host, port = self._host_port()
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}{self.base_path}"

    def allowed_hosts(self) -> set[str]:
        """Host header values accepted: this address or a loopback name, with or without port.

        A wildcard bind ("", 0.0.0.0, ::) names no host a browser could have meant: with it
        only the loopback names are accepted, never an empty Host.
        """
        host, port = self._host_port()
        own = {host, f"[{host}]"} if host not in WILDCARDS else set()
        names = own | LOOPBACK_NAMES
        return names | {f"{n}:{port}" for n in names}

    def shutdown(self) -> None:
        self.events.close()
        super().shutdown()

    def handle_error(self, request: object, client_address: object) -> None:
        """A client that went away is no news; anything else is one line, not a traceback per request."""
        exc = sys.exc_info()[1]
        if not isinstance(exc, (ConnectionError, TimeoutError)):
            print(f"sitegen: a request from {client_address} failed: {type(exc).__name__}: {exc}", file=sys.stderr)


class PreviewHandler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"
    server_version = "sitegen"
    sys_version = ""

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.idle_timeout)  # a read or write idle this long ends the connection

    def log_message(self, format: str, *args: object) -> None:
        """Each request, under `serve -v` (the server's `request_log`); otherwise the CLI prints builds alone."""
        if self.server.request_log is not None:
            self.server.request_log(f"{self.address_string()} {format % args}")

    # -- methods ---------------------------------------------------------------
    def do_GET(self) -> None:
        self._respond(head=False)

    def do_HEAD(self) -> None:
        self._respond(head=True)

    def _refuse(self) -> None:
        self._plain(HTTPStatus.METHOD_NOT_ALLOWED, "only GET and HEAD are served\n", {"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

    # -- routing ---------------------------------------------------------------
    def _respond(self, head: bool) -> None:
        if self.headers.get("Host", "") not in self.server.allowed_hosts():
            self._plain(HTTPStatus.FORBIDDEN, "unexpected Host header\n")
            return
        raw_path = urlsplit(self.path).path
        path = unquote(raw_path)
        base = self.server.base_path
        if base != "/" and path in ("/", base.rstrip("/")):
            self._redirect(base)
            return
        if not path.startswith(base) or "\\" in path or "\x00" in path:
            self._not_found(head)
            return
        relative = path[len(base):]
        if relative == EVENTS_PATH:
            self._events(_since(urlsplit(self.path).query))
            return
        # what the page will be told it is as of: read before the page, so a rebuild that ends after it reaches it
        self._serial, self._error_html = self.server.events.serial, self.server.events.error_html
        parts = [p for p in relative.split("/") if p]
        if any(p in (".", "..") for p in parts):
            self._not_found(head)
            return
        if self.server.prepare is not None:
            try:
                self.server.prepare("/".join(parts))
            except SitegenError as exc:
                self._plain(HTTPStatus.INTERNAL_SERVER_ERROR, "\n".join(d.format() for d in exc.diagnostics) + "\n")
                return
            except Exception as exc:  # an answer, never a dropped connection
                self._plain(HTTPStatus.INTERNAL_SERVER_ERROR, f"{relative}: {type(exc).__name__}: {exc}\n")
                return
        target = self._resolve(parts, relative.endswith("/") or not parts)
        if target is None:
            self._not_found(head)
        elif target.is_dir():
            self._redirect(raw_path + "/")
        else:
            self._file(target, HTTPStatus.OK, head)

    def _resolve(self, parts: list[str], wants_dir: bool) -> Path | None:
        root = self.server.output
        candidate = root.joinpath(*parts)
        try:
            resolved = candidate.resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        if not resolved.is_relative_to(root):
            return None
        if resolved.is_dir():
            index = (resolved / "index.html").resolve()
            if not wants_dir:
                return resolved if index.is_file() else None
            return index if index.is_file() and index.is_relative_to(root) else None
        return resolved if resolved.is_file() and not wants_dir else None

    # -- responses -------------------------------------------------------------
    def _file(self, path: Path, status: HTTPStatus, head: bool) -> None:
        try:
            body = path.read_bytes()
        except OSError:
            self._plain(HTTPStatus.NOT_FOUND, "not found\n")
            return
        ctype = TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if ctype.startswith("text/html"):
            body = self._decorate(body)
        self._send(status, body, ctype, head)

    def _decorate(self, body: bytes) -> bytes:
        extra = ""
        serial, error_html = getattr(self, "_serial", None), getattr(self, "_error_html", "")
        if error_html:
            extra += error_html
        if self.server.live_reload:
            events = self.server.base_path + EVENTS_PATH + (f"?since={serial}" if serial is not None else "")
            extra += RELOAD_SCRIPT % json.dumps(events).replace("<", "\\u003c")
        if not extra:
            return body
        marker = b"</body>"
        index = body.rfind(marker)
        data = extra.encode("utf-8")
        return body[:index] + data + body[index:] if index >= 0 else body + data

    def _not_found(self, head: bool) -> None:
        page = self.server.output / "404.html"
        if page.is_file():
            self._file(page, HTTPStatus.NOT_FOUND, head)
        else:
            self._plain(HTTPStatus.NOT_FOUND, "not found\n")

    def _redirect(self, location: str) -> None:
        self.send_response(HTTPStatus.MOVED_PERMANENTLY)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _plain(self, status: HTTPStatus, text: str, headers: dict[str, str] | None = None) -> None:
        self._send(status, text.encode(), "text/plain; charset=utf-8", self.command == "HEAD", headers)

    def _send(self, status: HTTPStatus, body: bytes, ctype: str, head: bool,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _events(self, since: int | None = None) -> None:
        """Server-sent events: one 'reload' or 'css' event per finished rebuild; a 'reload' at once for a page
        served before the last rebuild (`since`, the rebuild it was served after), which it would otherwise miss."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        events = self.server.events
        serial = events.serial
        try:
            self.wfile.write(b"retry: 500\n: connected\n\n")
            if since is not None and since != serial:
                self.wfile.write(f"event: reload\ndata: {serial}\n\n".encode())
            self.wfile.flush()
            while not events.closing:
                serial, event = events.wait(serial, timeout=15)
                if events.closing:
                    break
                self.wfile.write(f"event: {event}\ndata: {serial}\n\n".encode() if event else b": ping\n\n")
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return


def _since(query: str) -> int | None:
    """The serial a page's event stream asks to be told about after (`?since=N`); None when absent or not one."""
    value = parse_qs(query).get("since", [""])[0]
    return int(value) if value.isdigit() else None


def check_address(host: str) -> None:
    """Refuse a --bind value that is neither an IP address nor a host name, before any name lookup."""
    try:
        ipaddress.ip_address(host)
        return
    except ValueError:
        pass
    numeric_end = host.rstrip(".").rpartition(".")[2].isdigit()  # a mistyped IPv4 address, not a name
    if host and (numeric_end or len(host) > 253 or not HOST_NAME.fullmatch(host)):
        raise SitegenError.single(Location("--bind"), "E803", f"{host!r} is not an IP address or a host name",
                                  "--bind takes an address of this machine, such as 127.0.0.1 (the default) or ::1")


def listen_error(exc: OSError, host: str, port: int) -> SitegenError:
    """Why the server could not listen, as a diagnostic naming the flag to change."""
    shown = f"[{host}]" if ":" in host else host or "every address"
    if exc.errno == errno.EADDRINUSE:
        other = port % 65535 + 1
        return SitegenError.single(Location("--port"), "E801", f"port {port} is in use on {shown}",
                                   f"pass --port 0 to pick a free port, or another port such as --port {other}")
    if exc.errno == errno.EACCES:
        return SitegenError.single(Location("--port"), "E804", f"no permission to listen on port {port}",
                                   "ports below 1024 need administrator rights; pass --port 0 or a port above 1023")
    if exc.errno == errno.EADDRNOTAVAIL:
        return SitegenError.single(Location("--bind"), "E802", f"{host} is not an address of this machine",
                                   "--bind takes one of this machine's own addresses, such as 127.0.0.1 (the default)")
    if isinstance(exc, socket.gaierror):
        return SitegenError.single(Location("--bind"), "E803", f"the host name {host!r} does not resolve",
                                   "--bind takes an address of this machine, such as 127.0.0.1 (the default) or ::1")
    return SitegenError.single(Location("--bind"), "E805", f"cannot listen on {shown}:{port}: {exc.strerror or exc}",
                               "check the --bind address and the --port")


def error_overlay(messages: list[str]) -> str:
    """An escaped, fixed panel listing build errors, shown over the last good page."""
    items = "".join(f"<li><pre>{html.escape(m)}</pre></li>" for m in messages)
    return (
        '<div id="sitegen-error" role="alert" style="position:fixed;inset:auto 1rem 1rem 1rem;z-index:2147483647;'
        "max-height:60vh;overflow:auto;background:#2b0d0d;color:#ffe4e4;border:2px solid #ff6b6b;"
        'border-radius:8px;padding:1rem 1.25rem;font:14px/1.5 ui-monospace,monospace">'
        "<strong>sitegen: the last change could not be built; showing the last good version.</strong>"
        f'<ul style="margin:.5rem 0 0;padding-left:1.2rem">{items}</ul></div>'
    )
