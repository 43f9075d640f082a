"""The preview server under load: hundreds of local connections at once, idle ones among them."""

from __future__ import annotations

import resource
import selectors
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitegen.serve.server import PreviewServer

IDLE = 100  # connections that never send a byte
KEPT = 50  # keep-alive connections left idle after one request
BURST = 250  # requests sent all at once on top of them
WITHIN = 5.0  # seconds every request of the burst must be answered in


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[PreviewServer]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    need = 4 * (IDLE + KEPT + BURST)  # both ends of each connection, and room to spare
    if soft != resource.RLIM_INFINITY and soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(need, hard), hard))
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").write_text("<html><body>home</body></html>")
    running = PreviewServer("127.0.0.1", 0, out, "/")
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.server_close()
    thread.join(5)
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def request_bytes(port: int, keep_alive: bool) -> bytes:
    connection = "keep-alive" if keep_alive else "close"
    return f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: {connection}\r\n\r\n".encode()


def answered(data: bytes) -> bool:
    """Whether `data` is a whole 200 response carrying the home page."""
    head, blank, body = data.partition(b"\r\n\r\n")
    length = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
    return (head.startswith(b"HTTP/1.1 200 ") and bool(blank) and len(length) == 1
            and len(body) == int(length[0].split(b":")[1]) and b"home" in body)


def read_answer(sock: socket.socket) -> bytes:
    """One whole response from a keep-alive connection."""
    data = b""
    while not answered(data):
        chunk = sock.recv(65536)
        assert chunk, f"connection closed after {data!r}"
        data += chunk
    return data


def burst(port: int, count: int, limit: float) -> list[float | None]:
    """Send `count` requests at once from non-blocking sockets; seconds until each full answer, None if none."""
    selector = selectors.DefaultSelector()
    started = time.monotonic()
    answers: dict[socket.socket, bytearray] = {}
    took: list[float | None] = [None] * count
    for number in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
        answers[sock] = bytearray()
        selector.register(sock, selectors.EVENT_WRITE, number)
    try:
        while selector.get_map() and time.monotonic() - started < limit:
            for key, mask in selector.select(timeout=0.1):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                if mask & selectors.EVENT_WRITE:
                    assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0
                    sock.send(request_bytes(port, keep_alive=False))
                    selector.modify(sock, selectors.EVENT_READ, key.data)
                    continue
                data = sock.recv(65536)
                answers[sock] += data
                if not data:
                    selector.unregister(sock)
                    if answered(bytes(answers[sock])):
                        took[key.data] = time.monotonic() - started
    finally:
        selector.close()
        for sock in answers:
            sock.close()
    return took


def test_hundreds_of_connections_and_idle_ones_all_get_answers(server: PreviewServer) -> None:
    port = server.server_address[1]
    held: list[socket.socket] = []
    try:
        for _ in range(IDLE):
            held.append(socket.create_connection(("127.0.0.1", port), timeout=WITHIN))
        for _ in range(KEPT):
            sock = socket.create_connection(("127.0.0.1", port), timeout=WITHIN)
            held.append(sock)
            sock.sendall(request_bytes(port, keep_alive=True))
            read_answer(sock)
        took = burst(port, BURST, limit=3 * WITHIN)
    finally:
        for sock in held:
            sock.close()
    late = [t for t in took if t is None or t > WITHIN]
    assert not late, f"{len(late)} of {BURST} requests unanswered within {WITHIN} s"


def test_an_idle_connection_is_closed_after_the_idle_timeout(server: PreviewServer) -> None:
    """A keep-alive client that goes quiet, or one that never sends a request, does not hold a thread for good."""
    server.idle_timeout = 0.5
    port = server.server_address[1]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as silent, \
            socket.create_connection(("127.0.0.1", port), timeout=10) as kept:
        kept.sendall(request_bytes(port, keep_alive=True))
        read_answer(kept)
        started = time.monotonic()
        assert silent.recv(1) == b"", "the server closes the silent connection"
        assert kept.recv(1) == b"", "and the idle keep-alive one"
        assert time.monotonic() - started < 5



def test_clients_that_reset_their_connection_print_nothing(server: PreviewServer,
                                                          capfd: pytest.CaptureFixture[str]) -> None:
    """Browsers drop connections all the time; the terminal is for builds, not for their tracebacks."""
    port = server.server_address[1]
    for _ in range(20):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(request_bytes(port, keep_alive=True))
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # with the answer unread: a reset
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(request_bytes(port, keep_alive=True))
        read_answer(sock)
    time.sleep(0.2)
    assert "Traceback" not in capfd.readouterr().err
