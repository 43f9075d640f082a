"""The preview server as an HTTP client meets it: methods, Host, traversal, types, 404."""

from __future__ import annotations

import http.client
import os
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitegen.common.errors import Location, SitegenError
from sitegen.serve.server import PreviewServer, is_loopback


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[PreviewServer, Path]]:
    tmp_path = tmp_path_factory.mktemp("served")
    out = tmp_path / "out"
    (out / "papers" / "x").mkdir(parents=True)
    (out / "index.html").write_text("<html><body><h1>home</h1></body></html>")
    (out / "papers" / "x" / "index.html").write_text("<html><body>paper x</body></html>")
    (out / "404.html").write_text("<html><body>custom not found</body></html>")
    (out / "style.css").write_text("body{}")
    (out / "feed.xml").write_text("<feed/>")
    (out / "reading-list.bib").write_text("@misc{a,}")
    (tmp_path / "secret.txt").write_text("top secret")
    os.symlink(tmp_path / "secret.txt", out / "link.txt")
    os.symlink(tmp_path, out / "escape")
    server = PreviewServer("127.0.0.1", 0, out, "/rl/")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, out
    server.shutdown()
    server.server_close()
    thread.join(5)
    assert not thread.is_alive()


def request(
    server: PreviewServer, path: str, method: str = "GET", host: str | None = None,
) -> tuple[int, dict[str, str], bytes]:
    port = server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    headers = {"Host": host if host is not None else f"127.0.0.1:{port}"}
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for key, value in headers.items():
        conn.putheader(key, value)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_serves_pages_under_the_base_path_with_reload_script(served: tuple[PreviewServer, Path]) -> None:
    server, _ = served
    status, headers, body = request(server, "/rl/papers/x/")
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert b"paper x" in body and b"__sitegen/events" in body
    assert body.index(b"EventSource") < body.index(b"</body>")


def test_reload_script_is_never_written_to_disk(served: tuple[PreviewServer, Path]) -> None:
    server, out = served
    request(server, "/rl/")
    assert b"EventSource" not in (out / "index.html").read_bytes()


def test_root_redirects_to_base_path_and_directories_get_a_slash(served: tuple[PreviewServer, Path]) -> None:
    server, _ = served
    assert request(server, "/")[0:2][0] == 301
    assert request(server, "/")[1]["location"] == "/rl/"
    status, headers, _ = request(server, "/rl/papers/x")
    assert (status, headers["location"]) == (301, "/rl/papers/x/")


@pytest.mark.parametrize("path,ctype", [
    ("/rl/style.css", "text/css"), ("/rl/feed.xml", "application/xml"), ("/rl/reading-list.bib", "text/plain"),
])
def test_mime_types(served: tuple[PreviewServer, Path], path: str, ctype: str) -> None:
    server, _ = served
    status, headers, _ = request(server, path)
    assert status == 200 and headers["content-type"].startswith(ctype)


def test_missing_path_gets_the_site_404_page(served: tuple[PreviewServer, Path]) -> None:
    server, _ = served
    status, _, body = request(server, "/rl/no/such/page/")
    assert status == 404 and b"custom not found" in body


@pytest.mark.parametrize("path", [
    "/rl/../secret.txt", "/rl/%2e%2e/secret.txt", "/rl/..%2fsecret.txt", "/rl/%2e%2e%2fsecret.txt",
    "/rl/..%5csecret.txt", "/rl/%5c..%5csecret.txt", "/rl/link.txt", "/rl/escape/secret.txt",
    "/rl/papers/../../secret.txt", "/secret.txt", "/rl/%00", "/rl//etc/passwd",
])
def test_traversal_never_leaves_the_output(served: tuple[PreviewServer, Path], path: str) -> None:
    server, _ = served
    status, _, body = request(server, path)
    assert status in (403, 404)
    assert b"top secret" not in body


def test_no_directory_listing(served: tuple[PreviewServer, Path]) -> None:
    server, out = served
    (out / "empty").mkdir()
    (out / "empty" / "file.txt").write_text("x")
    status, _, body = request(server, "/rl/empty/")
    assert status == 404 and b"file.txt" not in body


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head(served: tuple[PreviewServer, Path], method: str) -> None:
    server, _ = served
    status, headers, _ = request(server, "/rl/", method=method)
    assert status == 405 and headers["allow"] == "GET, HEAD"


def test_head_has_no_body(served: tuple[PreviewServer, Path]) -> None:
    server, _ = served
    status, headers, body = request(server, "/rl/", method="HEAD")
    assert status == 200 and body == b"" and int(headers["content-length"]) > 0


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.2", ""])
def test_foreign_host_header_is_refused(served: tuple[PreviewServer, Path], host: str) -> None:
    server, _ = served
    assert request(server, "/rl/", host=host)[0] == 403


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"])
def test_loopback_host_names_are_accepted(served: tuple[PreviewServer, Path], host: str) -> None:
    server, _ = served
    port = server.server_address[1]
    assert request(server, "/rl/", host=f"{host}:{port}")[0] == 200


def test_is_loopback() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4") and not is_loopback("example.com")


def test_a_file_is_prepared_before_it_is_read_and_a_failure_is_shown(tmp_path: Path) -> None:
    """The preview writes some files when they are asked for; the hook sees the output path first."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "reading-list.bib").write_text("@misc{old,}")
    (out / "index.html").write_text("<html><body>home</body></html>")
    asked: list[str] = []

    def prepare(relative: str) -> None:
        asked.append(relative)
        if relative == "reading-list.bib":
            (out / relative).write_text("@misc{new,}")
        if relative == "broken.json":
            raise SitegenError.single(Location("content/papers/x.md", 3), "E999", "cannot render this file")

    server = PreviewServer("127.0.0.1", 0, out, "/", prepare=prepare)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert request(server, "/reading-list.bib")[2] == b"@misc{new,}"
        status, _, body = request(server, "/broken.json")
        assert status == 500 and b"content/papers/x.md:3" in body and b"cannot render this file" in body
        assert request(server, "/")[0] == 200
        assert request(server, "/papers/x/")[0] == 404
        assert asked == ["reading-list.bib", "broken.json", "", "papers/x"], \
            "asked with the output path; a folder without its index.html, the home page as ''"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_an_unexpected_failure_to_prepare_a_file_is_a_500_answer(tmp_path: Path,
                                                                  capfd: pytest.CaptureFixture[str]) -> None:
    """Whatever writing a file on request raises, the browser gets an answer saying so and the server goes on."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "index.html").write_text("<html><body>home</body></html>")

    def prepare(relative: str) -> None:
        if relative == "papers.json":
            raise RecursionError("maximum recursion depth exceeded")

    server = PreviewServer("127.0.0.1", 0, out, "/", prepare=prepare)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        status, headers, body = request(server, "/papers.json")
        assert status == 500 and headers["content-type"] == "text/plain; charset=utf-8"
        assert body == b"papers.json: RecursionError: maximum recursion depth exceeded\n"
        assert request(server, "/")[0] == 200
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
    assert "Traceback" not in capfd.readouterr().err


@pytest.mark.parametrize("bind", ["", "0.0.0.0"])
def test_a_wildcard_bind_accepts_no_empty_or_wildcard_host(tmp_path: Path, bind: str) -> None:
    """Bound to every address, the server still answers only Host names that are this machine's loopback:
    an empty Host (or none) and the wildcard address name no server a browser could have meant."""
    (tmp_path / "index.html").write_text("<html><body>home</body></html>")
    server = PreviewServer(bind, 0, tmp_path, "/")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        assert request(server, "/", host=f"127.0.0.1:{port}")[0] == 200
        for host in ("", f":{port}", "[]", f"[]:{port}", "0.0.0.0", f"0.0.0.0:{port}"):
            assert request(server, "/", host=host)[0] == 403, host
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def test_a_page_served_before_a_rebuild_hears_of_it_even_if_its_stream_connects_after(
        served: tuple[PreviewServer, Path]) -> None:
    """A page is served, a rebuild finishes, and only then does the page's script open the event stream (a
    reload in progress, a loaded machine): the stream must tell it at once, or the page stays stale (an error
    overlay that never goes away)."""
    server, _ = served
    _, _, body = request(server, "/rl/papers/x/")
    found = re.search(rb'new EventSource\("([^"]+)"\)', body)
    assert found, body
    server.events.publish("reload")  # the rebuild the page has not heard of
    port = server.server_address[1]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", found[1].decode(), headers={"Host": f"127.0.0.1:{port}"})
    response = conn.getresponse()
    first = b""
    while b"event:" not in first:
        line = response.fp.readline()
        assert line, first
        first += line
    conn.close()
    assert b"event: reload" in first
