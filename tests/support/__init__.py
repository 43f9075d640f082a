"""Shared helpers for tests that check a built static site.

    from tests.support import crawl_links, run_axe, run_vnu, screenshot, serve_directory

* ``serve_directory(directory, base_path="/")``: context manager, a local static host; yields the base URL.
* ``crawl_links(directory, base_path="/", *, site_url=None)``: broken internal links and #anchors.
* ``run_vnu(paths, *, ignore=(), also_check_css=False)``: Nu Html Checker errors of many files, one JVM.
* ``run_axe(page, *, context=None, options=None, impacts=("serious", "critical"))``: axe-core violations.
* ``screenshot(page, name, *, full_page=True)``: PNG under tests/artifacts/.
* fixtures in tests/conftest.py: ``browser`` (session, headless /usr/bin/chromium) and ``page`` (a
  ``RecordedPage``: a Playwright page that records console errors, page errors and failed requests).
"""

from .browser import (
    CHROMIUM_ARGS,
    RecordedPage,
    describe_violations,
    launch_chromium,
    open_page,
    run_axe,
    screenshot,
    sideways_overflow,
)
from .env import ARTIFACTS_DIR, AXE_JS, CHROMIUM, NODE_MODULES, REPO_ROOT, VNU_JAR, missing_tool, on_ci
from .links import BrokenLink, crawl_links, describe_broken, parse_page
from .server import MIME_TYPES, RequestRecord, SiteURL, normalize_base_path, serve_directory
from .vnu import VnuError, describe_vnu, run_vnu

__all__ = [
    "ARTIFACTS_DIR",
    "AXE_JS",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "MIME_TYPES",
    "NODE_MODULES",
    "REPO_ROOT",
    "VNU_JAR",
    "BrokenLink",
    "RecordedPage",
    "RequestRecord",
    "SiteURL",
    "VnuError",
    "crawl_links",
    "describe_broken",
    "describe_violations",
    "describe_vnu",
    "launch_chromium",
    "missing_tool",
    "normalize_base_path",
    "on_ci",
    "open_page",
    "parse_page",
    "run_axe",
    "run_vnu",
    "screenshot",
    "serve_directory",
    "sideways_overflow",
]
