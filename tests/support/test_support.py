"""Tests of the shared site-checking helpers against tiny hand-written sites."""

from __future__ import annotations

import http.client
import http.server
import socket
import threading
import time
from pathlib import Path

import pytest

from tests.support import (
    RecordedPage,
    SiteURL,
    crawl_links,
    describe_broken,
    describe_violations,
    missing_tool,
    run_axe,
    run_vnu,
    screenshot,
    serve_directory,
)
from tests.support import browser as browser_module
from tests.support import vnu as vnu_module

GOOD_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<link rel="stylesheet" href="{root}style.css">
</head>
<body>
<header><nav aria-label="Main"><a href="{root}">Home</a></nav></header>
<main>
<h1 id="top-heading">{title}</h1>
{body}
</main>
</body>
</html>
"""


def page(title: str, body: str = "", root: str = "/reading-list/") -> str:
    return GOOD_PAGE.format(title=title, body=body, root=root)


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A small valid site meant to be served under /reading-list/, plus a secret file beside it."""
    root = tmp_path / "public"
    write(tmp_path / "secret.txt", "TOP SECRET\n")
    write(root / "style.css", "body { font-family: sans-serif; color: #111; background: #fff; }\n")
    write(root / "app.js", "document.documentElement.dataset.js = 'yes';\n")
    write(root / "data.json", '{"ok": true}\n')
    write(root / "feed.xml", '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"/>\n')
    write(root / "refs.bib", "@article{a, title={A}}\n")
    write(root / "refs.ris", "TY  - JOUR\nER  - \n")
    write(root / "icon.svg", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>\n')
    write(root / "pagefind" / "wasm.en.pagefind", b"\x00pagefind")
    write(root / "pagefind" / "pagefind.wasm", b"\x00asm\x01\x00\x00\x00")
    write(root / "empty-dir" / "note.txt", "no index here\n")
    write(root / "404.html", page("Not found", "<p>NOT-FOUND-PAGE</p>"))
    write(
        root / "index.html",
        page(
            "Reading list",
            """<p id="intro">HOME-PAGE <a href="papers/">Papers</a> <a href="papers">Papers again</a>
<a href="papers/attention/#abstract">Abstract</a> <a href="#intro">Intro</a> <a href="#">Top</a>
<a href="/reading-list/refs.bib">BibTeX</a> <a href="refs.ris">RIS</a> <a href="feed.xml">Feed</a>
<a href="https://arxiv.org/abs/1706.03762">arXiv</a> <a href="mailto:someone@example.org">Mail</a>
<img src="icon.svg" srcset="icon.svg 1x, ./icon.svg 2x" alt="Icon"></p>
<form action="papers/" method="get"><label>Search <input name="q"></label></form>
<script src="app.js"></script>""",
        ),
    )
    write(
        root / "papers" / "index.html",
        page("Papers", '<ul><li><a href="attention/">Attention</a></li><li><a href="../">Home</a></li></ul>'),
    )
    write(
        root / "papers" / "attention" / "index.html",
        page("Attention", '<section id="abstract"><h2>Abstract</h2><p>PAPER-PAGE</p></section>'),
    )
    return root


def request(site_url: SiteURL, raw_path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """Send one request with the path exactly as given (no client-side normalisation of ``..``)."""
    connection = http.client.HTTPConnection("127.0.0.1", int(site_url.origin.rsplit(":", 1)[1]), timeout=10)
    try:
        connection.putrequest(method, raw_path, skip_accept_encoding=True)
        connection.endheaders()
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


# --- serve_directory ---------------------------------------------------------------------------------------------


def test_server_serves_the_site_under_its_sub_path(site: Path) -> None:
    with serve_directory(site, base_path="/reading-list/") as base_url:
        assert base_url.startswith("http://127.0.0.1:")
        assert base_url.endswith("/reading-list/")
        assert base_url.url("papers/") == base_url + "papers/"

        status, headers, body = request(base_url, "/reading-list/")
        assert (status, headers["content-type"]) == (200, "text/html; charset=utf-8")
        assert b"HOME-PAGE" in body
        assert headers["content-length"] == str(len(body))

        status, _, body = request(base_url, "/reading-list/papers/attention/")
        assert status == 200 and b"PAPER-PAGE" in body
        status, _, body = request(base_url, "/reading-list/papers/attention/index.html?x=1")
        assert status == 200 and b"PAPER-PAGE" in body

        # a directory without the slash, and the prefix without it, redirect like a static host
        status, headers, _ = request(base_url, "/reading-list/papers?q=1")
        assert (status, headers["location"]) == (301, "/reading-list/papers/?q=1")
        status, headers, _ = request(base_url, "/reading-list")
        assert (status, headers["location"]) == (301, "/reading-list/")

        # HEAD: same headers, no body
        status, headers, body = request(base_url, "/reading-list/refs.bib", method="HEAD")
        assert (status, body) == (200, b"")
        assert int(headers["content-length"]) == len((site / "refs.bib").read_bytes())

        assert [(r.method, r.path, r.status) for r in base_url.requests][:2] == [
            ("GET", "/reading-list/", 200),
            ("GET", "/reading-list/papers/attention/", 200),
        ]


def test_server_answers_404_with_the_sites_404_page(site: Path) -> None:
    with serve_directory(site, "/reading-list/") as base_url:
        for path in ["/", "/index.html", "/papers/", "/reading-list/missing.html", "/reading-list/empty-dir/"]:
            status, headers, body = request(base_url, path)
            assert status == 404, path
            assert headers["content-type"] == "text/html; charset=utf-8"
            assert b"NOT-FOUND-PAGE" in body, path
        assert request(base_url, "/reading-list/index.html", method="POST")[0] == 501

    (site / "404.html").unlink()
    with serve_directory(site, "/") as base_url:
        status, _, body = request(base_url, "/missing/")
        assert (status, body) == (404, b"404 Not Found\n")
        status, _, body = request(base_url, "/papers/")
        assert status == 200 and b"Papers" in body


@pytest.mark.parametrize(
    ("name", "content_type"),
    [
        ("index.html", "text/html; charset=utf-8"),
        ("style.css", "text/css; charset=utf-8"),
        ("app.js", "text/javascript; charset=utf-8"),
        ("data.json", "application/json; charset=utf-8"),
        ("feed.xml", "application/xml; charset=utf-8"),
        ("refs.bib", "text/plain; charset=utf-8"),
        ("refs.ris", "application/x-research-info-systems; charset=utf-8"),
        ("icon.svg", "image/svg+xml; charset=utf-8"),
        ("pagefind/pagefind.wasm", "application/wasm"),
        ("pagefind/wasm.en.pagefind", "application/octet-stream"),
    ],
)
def test_server_mime_types(site: Path, name: str, content_type: str) -> None:
    with serve_directory(site, "/reading-list/") as base_url:
        status, headers, body = request(base_url, "/reading-list/" + name)
    assert status == 200
    assert headers["content-type"] == content_type
    assert body == (site / name).read_bytes()


@pytest.mark.parametrize(
    "raw_path",
    [
        "/reading-list/../secret.txt",
        "/reading-list/papers/../../secret.txt",
        "/reading-list/%2e%2e/secret.txt",
        "/reading-list/%2E%2E%2Fsecret.txt",
        "/reading-list/..%5csecret.txt",
        "/../secret.txt",
        "/reading-list/./index.html",
        "/reading-list/%00",
        "/reading-list/%ff",
    ],
)
def test_server_refuses_traversal(site: Path, raw_path: str) -> None:
    with serve_directory(site, "/reading-list/") as base_url:
        status, _, body = request(base_url, raw_path)
    assert status == 400
    assert b"TOP SECRET" not in body


def test_server_does_not_follow_symlinks_out_of_the_site(site: Path) -> None:
    (site / "leak.txt").symlink_to(site.parent / "secret.txt")
    (site / "inside.txt").symlink_to(site / "refs.bib")
    with serve_directory(site, "/") as base_url:
        status, _, body = request(base_url, "/leak.txt")
        assert status == 404 and b"TOP SECRET" not in body
        assert request(base_url, "/inside.txt")[0] == 200


def test_server_shuts_down_cleanly_even_with_an_idle_connection(site: Path) -> None:
    threads_before = set(threading.enumerate())
    with serve_directory(site, "/") as base_url:
        port = int(base_url.origin.rsplit(":", 1)[1])
        idle = socket.create_connection(("127.0.0.1", port))  # like a browser's speculative preconnect
        assert request(base_url, "/")[0] == 200
        time.sleep(0.1)  # let the server accept the idle connection
        started = time.monotonic()
    try:
        assert time.monotonic() - started < 5, "shutdown waited for the idle connection"
        assert set(threading.enumerate()) - threads_before == set(), "server threads left running"
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=2).close()
    finally:
        idle.close()


def test_server_rejects_a_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(NotADirectoryError), serve_directory(tmp_path / "nope"):
        pass


# --- crawl_links -------------------------------------------------------------------------------------------------


def test_crawl_links_accepts_a_valid_site(site: Path) -> None:
    assert crawl_links(site, "/reading-list/") == []


def test_crawl_links_finds_broken_links_and_anchors(site: Path) -> None:
    write(
        site / "papers" / "broken" / "index.html",
        page(
            "Broken",
            """<p><a href="../attention/#abstract">fine</a>
<a href="../attention/#no-such-section">bad anchor</a>
<a href="#missing-here">bad local anchor</a>
<a href="../missing-paper/">missing page</a>
<a href="/reading-list/refs.bib">fine</a>
<a href="/elsewhere/">outside the base path</a>
<a href="https://example.org/x">external</a>
<img src="figure.png" alt="missing image">
<img src="../../icon.svg" srcset="../../icon.svg 1x, gone@2x.png 2x" alt="fine">
<link rel="preload" href="/reading-list/fonts/nope.woff2" as="font">
<script src="../../app.js"></script><script src="../../missing.js"></script></p>""",
        ),
    )
    broken = crawl_links(site, "/reading-list/")
    found = {(b.page, b.url, b.kind) for b in broken}
    page_path = "papers/broken/index.html"
    assert found == {
        (page_path, "../attention/#no-such-section", "anchor"),
        (page_path, "#missing-here", "anchor"),
        (page_path, "../missing-paper/", "missing"),
        (page_path, "/elsewhere/", "missing"),
        (page_path, "figure.png", "missing"),
        (page_path, "gone@2x.png", "missing"),
        (page_path, "/reading-list/fonts/nope.woff2", "missing"),
        (page_path, "../../missing.js", "missing"),
    }, describe_broken(broken)
    anchor = next(b for b in broken if b.url == "#missing-here")
    assert anchor.target == "/reading-list/papers/broken/#missing-here"
    assert anchor.line > 1 and "missing-here" in str(anchor)
    assert "8 broken link(s)" in describe_broken(broken)


def test_crawl_links_depends_on_the_base_path(site: Path) -> None:
    # The same site checked as if it were served at the root: every root-relative /reading-list/ link breaks.
    broken = crawl_links(site, "/")
    assert broken
    assert all(b.kind == "missing" and b.target.startswith("/reading-list/") for b in broken)


def test_crawl_links_checks_production_urls_and_the_404_page(site: Path) -> None:
    write(
        site / "about.html",
        page(
            "About",
            '<a href="https://example.org/reading-list/papers/">ok</a>'
            '<a href="https://example.org/reading-list/nope/">gone</a>'
            '<a href="https://example.org/other-site/">another site on the host</a>',
        ),
    )
    write(site / "404.html", page("Not found", '<a href="papers/">relative</a>'))
    broken = crawl_links(site, "/reading-list/", site_url="https://example.org/reading-list/")
    assert {(b.page, b.url, b.kind) for b in broken} == {
        ("about.html", "https://example.org/reading-list/nope/", "missing"),
        ("404.html", "papers/", "relative-in-404"),
    }, describe_broken(broken)


def test_crawl_links_honours_base_href_and_meta_refresh(tmp_path: Path) -> None:
    write(tmp_path / "docs" / "index.html", "<title>x</title><p id=here>")
    write(
        tmp_path / "old" / "index.html",
        '<base href="/docs/"><meta http-equiv="refresh" content="0; url=/docs/#here">'
        '<a href="./#here">ok</a><a href="#gone">bad</a>',
    )
    write(tmp_path / "moved.html", '<meta http-equiv="refresh" content="0;URL=\'/nowhere/\'">')
    broken = crawl_links(tmp_path)
    assert {(b.page, b.url, b.kind) for b in broken} == {
        ("old/index.html", "#gone", "anchor"),
        ("moved.html", "/nowhere/", "missing"),
    }, describe_broken(broken)


# --- run_vnu -----------------------------------------------------------------------------------------------------


def test_vnu_passes_a_valid_page_and_reports_an_invalid_one(tmp_path: Path, site: Path) -> None:
    valid = site / "papers" / "attention" / "index.html"
    invalid = write(
        tmp_path / "invalid.html",
        '<!DOCTYPE html>\n<html lang="en">\n<head><title>Bad</title></head>\n<body>\n'
        '<p id="dup">one</p>\n<p id="dup">two</p>\n<div><span></div>\n</body>\n</html>\n',
    )
    missing = tmp_path / "missing.html"
    errors = run_vnu([valid, invalid, missing, site / "style.css"])
    assert all(error.file != str(valid.resolve()) for error in errors), errors
    invalid_errors = [error for error in errors if error.file == str(invalid.resolve())]
    assert any("Duplicate ID" in error.message and error.line == 6 for error in invalid_errors), invalid_errors
    assert any(error.line == 7 for error in invalid_errors), invalid_errors
    assert [error.file for error in errors if error.type == "non-document-error"] == [str(missing.resolve())]
    assert "invalid.html:6:" in vnu_module.describe_vnu(errors, root=tmp_path)

    assert run_vnu([valid]) == []
    assert run_vnu([site]) == []  # a directory: all its HTML files
    remaining = run_vnu([invalid], ignore=[r"Duplicate ID"])
    assert remaining and not any("Duplicate ID" in error.message for error in remaining)


def test_missing_tools_skip_locally_and_fail_on_ci(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="thing is missing"):
        missing_tool("thing is missing")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="thing is missing"):
        missing_tool("thing is missing")

    monkeypatch.setattr(vnu_module, "VNU_JAR", tmp_path / "no-vnu.jar")
    with pytest.raises(pytest.fail.Exception, match="npm ci"):
        run_vnu([tmp_path])
    monkeypatch.setenv("CI", "false")
    with pytest.raises(pytest.skip.Exception, match="npm ci"):
        run_vnu([tmp_path])

    monkeypatch.setattr(browser_module, "CHROMIUM", tmp_path / "no-chromium")
    with pytest.raises(pytest.skip.Exception, match="apt-get install chromium"), browser_module.launch_chromium():
        pass


# --- browser, axe, screenshots ------------------------------------------------------------------------------------


@pytest.mark.browser
def test_browser_loads_the_site_and_axe_passes(page: RecordedPage, site: Path) -> None:
    with serve_directory(site, "/reading-list/") as base_url:
        response = page.goto(base_url)
        assert response is not None and response.status == 200
        assert page.title() == "Reading list"
        # app.js ran, style.css applied: the page really came from the server under the sub-path
        assert page.evaluate("document.documentElement.dataset.js") == "yes"
        assert page.evaluate("getComputedStyle(document.body).fontFamily") == "sans-serif"
        page.click("text=Papers")
        page.wait_for_url(base_url + "papers/")
        page.goto(base_url)
        violations = run_axe(page)
        assert violations == [], describe_violations(violations)
        path = screenshot(page, "support/home page")
        page.assert_clean()
    assert path.name == "support-home-page.png"
    assert path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert path.stat().st_size > 1000


@pytest.mark.browser
def test_axe_reports_serious_violations(page: RecordedPage, tmp_path: Path) -> None:
    write(
        tmp_path / "index.html",
        '<!DOCTYPE html><html><head><title>Bad</title></head><body><main><img src="data:image/gif;base64,'
        'R0lGODlhAQABAAAAACw=">'
        '<button></button><p style="color:#777;background:#888">low contrast text</p></main></body></html>',
    )
    with serve_directory(tmp_path) as base_url:
        page.goto(base_url)
        violations = run_axe(page)
        ids = {violation["id"] for violation in violations}
        assert {"image-alt", "button-name", "color-contrast"} <= ids, describe_violations(violations)
        assert all(violation["impact"] in {"serious", "critical"} for violation in violations)
        # "html-has-lang" is serious too; a narrower context drops it
        assert "html-has-lang" in ids
        in_main = {violation["id"] for violation in run_axe(page, context="main")}
        assert "html-has-lang" not in in_main and "image-alt" in in_main
        assert "2 axe violation(s)" not in describe_violations(violations[:1])


@pytest.mark.browser
def test_page_records_errors_and_failed_requests(page: RecordedPage, tmp_path: Path) -> None:
    write(
        tmp_path / "index.html",
        '<!DOCTYPE html><html lang="en"><head><title>Errors</title></head><body>'
        '<img src="missing.png" alt="gone"><img src="https://example.org/remote.png" alt="remote">'
        "<script>console.error('custom console error'); undefinedFunction();</script></body></html>",
    )
    with serve_directory(tmp_path) as base_url:
        page.goto(base_url)
        page.wait_for_load_state("load")
    assert any("custom console error" in text for text in page.console_errors), page.console_errors
    assert any("undefinedFunction" in text for text in page.page_errors), page.page_errors
    assert any("missing.png: HTTP 404" in text for text in page.failed_requests), page.failed_requests
    assert any("example.org/remote.png" in text for text in page.failed_requests), page.failed_requests
    with pytest.raises(AssertionError, match="undefinedFunction"):
        page.assert_clean()
    page.assert_clean(ignore=[r"missing\.png", "example.org", "custom console error", "undefinedFunction", "404"])
    page.clear()
    page.assert_clean()


class _SlowImage(http.server.BaseHTTPRequestHandler):
    """Serves two pages; ``/slow.png`` answers only after ``release`` is set, so the page leaves while it loads."""

    release = threading.Event()

    def do_GET(self) -> None:
        if self.path == "/slow.png":
            self.release.wait(10)
            body, kind = b"", "image/png"
        else:
            title = "One" if self.path == "/" else "Two"
            body = page(title, '<img src="/slow.png" alt=""><a href="/two">Two</a>', root="/").encode()
            kind = "text/html; charset=utf-8"
        try:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass  # the browser gave up on it: that is the point

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.mark.browser
def test_a_request_cut_short_by_leaving_the_page_is_no_problem(page: RecordedPage) -> None:
    """Chromium aborts what a page was still loading when it navigates away (a late favicon, a slow image): that
    is the browser's housekeeping, not a broken site. A request that fails while its page stays is still one."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _SlowImage)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _SlowImage.release.clear()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        page.goto(base + "/", wait_until="domcontentloaded")
        page.get_by_role("link", name="Two").click()
        page.wait_for_url("**/two", wait_until="domcontentloaded")
        _SlowImage.release.set()
        page.wait_for_load_state("load")
        page.assert_clean()
        page.evaluate("() => fetch('http://127.0.0.1:1/refused').catch(() => null)")
        page.wait_for_timeout(200)
        assert any("127.0.0.1:1/refused" in text for text in page.failed_requests), page.failed_requests
    finally:
        _SlowImage.release.set()
        server.shutdown()
        server.server_close()
