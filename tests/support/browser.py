"""Headless Chromium (Debian's /usr/bin/chromium) through Playwright's sync API, axe-core and screenshots.

Playwright never downloads a browser here: the system Chromium is launched by path. Without it a browser test is
skipped with the reason, except on CI (``CI=true``) where it fails.

    def test_home(page, tmp_site):                       # fixtures from tests/conftest.py
        with serve_directory(tmp_site, "/reading-list/") as base_url:
            page.goto(base_url)
            assert run_axe(page) == []
            screenshot(page, "home")
            page.assert_clean()                         # no console errors, page errors, failed requests
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .env import ARTIFACTS_DIR, AXE_JS, CHROMIUM, missing_tool

# Belt and braces: nothing in the tests may make Playwright fetch a browser build.
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

from playwright.sync_api import (
    Browser,
    ConsoleMessage,
    Error,
    Frame,
    Page,
    Request,
    Response,
    Route,
    sync_playwright,
)

__all__ = [
    "CHROMIUM_ARGS",
    "LOCAL_HOSTS",
    "RecordedPage",
    "describe_violations",
    "launch_chromium",
    "open_page",
    "run_axe",
    "screenshot",
    "sideways_overflow",
]

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
]
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
DEFAULT_CONTEXT_OPTIONS: dict[str, Any] = {
    "viewport": {"width": 1280, "height": 800},
    "locale": "en-US",
    "timezone_id": "UTC",
}


@contextlib.contextmanager
def launch_chromium(**launch_options: Any) -> Iterator[Browser]:
    """Start Playwright and launch /usr/bin/chromium headless; close both on exit (skip/fail when it is missing)."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        missing_tool(f"{CHROMIUM} is missing (apt-get install chromium); browser tests need the system Chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, **launch_options)
        try:
            yield browser
        finally:
            browser.close()


class RecordedPage:
    """A Playwright ``Page`` that records what went wrong while it was used.

    Every attribute of the Playwright page is available directly (``page.goto(...)``, ``page.locator(...)``); the
    raw page is ``page.page``. Recorded, as human-readable strings:

    * ``console_errors``: console messages of type "error" (this includes Chromium's "Failed to load resource");
    * ``page_errors``: uncaught exceptions and unhandled rejections in the page;
    * ``failed_requests``: requests that failed at the network level (refused, blocked, aborted while their page
      stayed) and responses with HTTP status >= 400.

    ``problems`` lists all of them; ``assert_clean()`` fails with the list; ``clear()`` forgets them.
    """

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self._failed: list[str] = []
        self._navigations = 0
        self._made_after: dict[Request, int] = {}
        self._aborted: list[tuple[int, str]] = []
        page.on("console", self._on_console)
        page.on("pageerror", self._on_page_error)
        page.on("request", self._on_request)
        page.on("framenavigated", self._on_navigated)
        page.on("requestfailed", self._on_request_failed)
        page.on("requestfinished", self._on_request_finished)
        page.on("response", self._on_response)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.page, name)

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            location = message.location
            where = f" ({location.get('url')}:{location.get('lineNumber')})" if location.get("url") else ""
            self.console_errors.append(message.text + where)

    def _on_page_error(self, error: Error) -> None:
        self.page_errors.append(f"{error.name}: {error.message}" if error.name else error.message)

    def _on_request(self, request: Request) -> None:
        self._made_after[request] = self._navigations

    def _on_request_finished(self, request: Request) -> None:
        self._made_after.pop(request, None)

    def _on_navigated(self, frame: Frame) -> None:
        if frame == self.page.main_frame:
            self._navigations += 1

    def _on_request_failed(self, request: Request) -> None:
        text = f"{request.method} {request.url}: {request.failure}"
        made_after = self._made_after.pop(request, self._navigations)
        if request.failure == "net::ERR_ABORTED" and not request.is_navigation_request():
            # Chromium aborts what a page still loads when it navigates away; that counts only if the page stayed.
            # Whether it stayed is known once the navigation has been reported, hence the check in ``problems``.
            self._aborted.append((made_after, text))
        else:
            self._failed.append(text)

    def _on_response(self, response: Response) -> None:
        if response.status >= 400:
            self._failed.append(f"{response.request.method} {response.url}: HTTP {response.status}")

    @property
    def failed_requests(self) -> list[str]:
        """Failed requests so far; one aborted while its page stayed counts, one its page left behind does not."""
        return self._failed + [text for made_after, text in self._aborted if made_after == self._navigations]

    @property
    def problems(self) -> list[str]:
        return (
            [f"console error: {text}" for text in self.console_errors]
            + [f"page error: {text}" for text in self.page_errors]
            + [f"failed request: {text}" for text in self.failed_requests]
        )

    def clear(self) -> None:
        self.console_errors.clear()
        self.page_errors.clear()
        self._failed.clear()
        self._aborted.clear()

    def assert_clean(self, *, ignore: Iterable[str] = ()) -> None:
        """Fail when anything was recorded, except problems matching one of the ``ignore`` regular expressions."""
        patterns = [re.compile(pattern) for pattern in ignore]
        problems = [p for p in self.problems if not any(pattern.search(p) for pattern in patterns)]
        assert not problems, f"{len(problems)} browser problem(s) on {self.page.url}:\n" + "\n".join(problems)


def _only_local(route: Route) -> None:
    host = urlsplit(route.request.url).hostname or ""
    if host in LOCAL_HOSTS:
        route.continue_()
    else:
        route.abort("blockedbyclient")


@contextlib.contextmanager
def open_page(browser: Browser, *, block_external: bool = True, **context_options: Any) -> Iterator[RecordedPage]:
    """A fresh browser context and page (1280x800, en-US, UTC unless overridden); closed on exit.

    With ``block_external`` (default) every request to a host other than the loopback is aborted and so shows up
    in ``failed_requests``: a static site that needs the network cannot be tested offline anyway.
    """
    context = browser.new_context(**{**DEFAULT_CONTEXT_OPTIONS, **context_options})
    try:
        context.set_default_timeout(15_000)
        if block_external:
            context.route("**/*", _only_local)
        yield RecordedPage(context.new_page())
    finally:
        context.close()


def _raw(page: Page | RecordedPage) -> Page:
    return page.page if isinstance(page, RecordedPage) else page


def run_axe(
    page: Page | RecordedPage,
    *,
    context: str | Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    impacts: Iterable[str] = ("serious", "critical"),
) -> list[dict[str, Any]]:
    """Run axe-core (node_modules/axe-core/axe.min.js) on the loaded page; return violations of the given impacts.

    ``context`` is axe's context (a selector or ``{"include": [...], "exclude": [...]}``; default the whole
    document) and ``options`` axe's run options (default ``{"resultTypes": ["violations"]}``). Each violation is
    axe's dict: ``id``, ``impact``, ``help``, ``helpUrl``, ``nodes`` (each with ``target`` and ``html``), ...
    """
    if not AXE_JS.is_file():
        missing_tool(f"axe-core not installed: {AXE_JS} is missing (run `npm ci`)")
    raw = _raw(page)
    if not raw.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated through the DevTools protocol, so a page's Content-Security-Policy does not block it.
        raw.evaluate(AXE_JS.read_text(encoding="utf-8") + "\n;undefined")
    run_options = dict(options) if options is not None else {"resultTypes": ["violations"]}
    results = raw.evaluate(
        "async ([context, options]) => await axe.run(context === null ? document : context, options)",
        [context, run_options],
    )
    wanted = set(impacts)
    return [violation for violation in results["violations"] if violation.get("impact") in wanted]


def describe_violations(violations: Iterable[Mapping[str, Any]]) -> str:
    """A readable summary of axe violations for assertion messages."""
    lines: list[str] = []
    for violation in violations:
        lines.append(f"[{violation.get('impact')}] {violation.get('id')}: {violation.get('help')}")
        for node in violation.get("nodes", [])[:5]:
            lines.append(f"    {', '.join(map(str, node.get('target', [])))}: {str(node.get('html', ''))[:160]}")
        more = len(violation.get("nodes", [])) - 5
        if more > 0:
            lines.append(f"    ... and {more} more")
    return f"{sum(1 for line in lines if not line.startswith(' '))} axe violation(s):\n" + "\n".join(lines)


def screenshot(page: Page | RecordedPage, name: str, *, full_page: bool = True, directory: Path | None = None) -> Path:
    """Save a PNG of the page as tests/artifacts/<name>.png (git-ignored) and return its path."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "screenshot"
    if not safe.lower().endswith(".png"):
        safe += ".png"
    target_dir = directory if directory is not None else ARTIFACTS_DIR
    target_dir.mkdir(parents=True, exist_ok=True)
    path = target_dir / safe
    _raw(page).screenshot(path=path, full_page=full_page)
    return path


def sideways_overflow(page: Page | RecordedPage) -> list[str]:
    """Elements reaching past the right edge of the viewport (what makes a phone page scroll sideways), but for
    those inside a region that scrolls on its own: a wide table, code, a row of chips or a menu that scrolls
    sideways (any box whose own `overflow-x` is auto or scroll, and which itself fits)."""
    return page.evaluate(  # type: ignore[no-any-return]
        """() => {
            const width = document.documentElement.clientWidth, out = [];
            const scrolls = el => { for (let p = el.parentElement; p instanceof Element && p !== document.body;
                                         p = p.parentElement) {
                const x = getComputedStyle(p).overflowX;
                if ((x === 'auto' || x === 'scroll') && p.getBoundingClientRect().right <= width + 1) return true;
            } return false; };
            for (const el of document.querySelectorAll('body *')) {
                const box = el.getBoundingClientRect();
                if (box.width && box.right > width + 1 && !el.closest('.table-scroll, pre') && !scrolls(el)) {
                    out.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(box.right)}`);
                }
            }
            const scrolled = document.documentElement.scrollWidth;
            if (scrolled > width) out.unshift(`page scrollWidth=${scrolled}`);
            return out.slice(0, 10);
        }"""
    )
