"""`sitegen serve` where it cannot listen: a diagnostic naming the flag to change, exit status 1, no traceback."""

from __future__ import annotations

import http.client
import socket
import threading
from pathlib import Path

import pytest

from sitegen.serve.server import PreviewServer

from ..site_factory import copy_site
from ..test_cli import _sitegen

FAILED = "failed: 1 problem(s)\n"
BIND_HINT = "  hint: --bind takes an address of this machine, such as 127.0.0.1 (the default) or ::1\n"


def serve(tmp_path: Path, *args: str) -> tuple[int, str]:
    root = copy_site(tmp_path / "site", papers=3)
    done = _sitegen("serve", "--root", str(root), "--no-search", *args)
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, done.stderr


def test_a_busy_port_is_named_with_the_way_out(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, err = serve(tmp_path, "--port", str(port))
    assert code == 1
    assert err == (f"--port: error[E801]: port {port} is in use on 127.0.0.1\n"
                   f"  hint: pass --port 0 to pick a free port, or another port such as --port {port + 1}\n" + FAILED)


def test_a_bind_address_this_machine_does_not_have(tmp_path: Path) -> None:
    """192.0.2.1 is reserved for documentation: never an address of this machine, and nothing is sent to it."""
    code, err = serve(tmp_path, "--bind", "192.0.2.1", "--port", "0")
    assert code == 1
    assert err == ("--bind: error[E802]: 192.0.2.1 is not an address of this machine\n"
                   "  hint: --bind takes one of this machine's own addresses, such as 127.0.0.1 (the default)\n"
                   + FAILED), "and no warning about other machines reaching an address it does not listen on"


@pytest.mark.parametrize("bind", ["not an address", "999.1.1.1", "127.0.0.1:8000", "http://127.0.0.1/", "[::1"])
def test_a_bind_value_that_is_no_address_at_all(tmp_path: Path, bind: str) -> None:
    """Refused as written, without asking any name server."""
    code, err = serve(tmp_path, "--bind", bind, "--port", "0")
    assert code == 1
    assert err == f"--bind: error[E803]: {bind!r} is not an IP address or a host name\n" + BIND_HINT + FAILED


def test_any_other_failure_to_listen_is_said_plainly(tmp_path: Path) -> None:
    """A link-local IPv6 address needs an interface: the system's own reason is given."""
    code, err = serve(tmp_path, "--bind", "fe80::1", "--port", "8000")
    assert code == 1
    first, hint, failed = err.splitlines(keepends=True)
    prefix = "--bind: error[E805]: cannot listen on [fe80::1]:8000: "
    assert first.startswith(prefix) and first[len(prefix):].strip(), "the system's reason follows"
    assert (hint, failed) == ("  hint: check the --bind address and the --port\n", FAILED)


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="this machine has no IPv6 loopback")
@pytest.mark.parametrize("bind", ["::1", "[::1]"])
def test_the_ipv6_loopback_is_served(tmp_path: Path, bind: str) -> None:
    (tmp_path / "index.html").write_text("<html><body>home</body></html>")
    server = PreviewServer(bind, 0, tmp_path, "/")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        assert server.url == f"http://[::1]:{port}/"
        conn = http.client.HTTPConnection("::1", port, timeout=5)
        conn.request("GET", "/")
        response = conn.getresponse()
        assert response.status == 200 and b"home" in response.read()
        conn.close()
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_open_hands_the_preview_address_to_the_browser(tmp_path: Path) -> None:
    """`serve --open` starts the browser named by $BROWSER (here a script that writes down what it was given);
    `-v` says each request served."""
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.parse

    from ..test_cli import PROGRAM

    root = copy_site(tmp_path / "site", papers=3)
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n", encoding="utf-8")
    env = {**os.environ, "BROWSER": f"{sys.executable} {browser} %s"}
    proc = subprocess.Popen([*PROGRAM, "serve", "--root", str(root), "--no-search", "-p", "0", "--open", "-v"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (opened.is_file() and opened.read_text(encoding="utf-8")):
            assert proc.poll() is None and time.monotonic() < deadline, "the browser was never started"
            time.sleep(0.1)
        url = urllib.parse.urlsplit(opened.read_text(encoding="utf-8"))
        assert url.hostname == "127.0.0.1" and url.port
        conn = http.client.HTTPConnection("127.0.0.1", url.port, timeout=10)
        conn.request("GET", url.path)
        assert conn.getresponse().status == 200
        conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert f'"GET {url.path} HTTP/1.1" 200' in err
