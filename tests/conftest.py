"""Shared fixtures; the helpers themselves live in tests/support (``from tests.support import ...``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser

from sitegen.pipeline.build import BuildResult, build
from tests.support import RecordedPage, launch_chromium, open_page

REPO = Path(__file__).resolve().parent.parent
SITE_URL = "https://example.github.io/reading-list/"  # served under a project path, as on GitHub Pages
ROOT_URL = "https://example.org/"  # served at a domain root

_BROWSER_FIXTURES = {"browser", "page"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses a browser fixture gets the ``browser`` marker (so ``-m "not browser"`` works); on
    Windows, a test marked ``posix`` (FIFOs, signals, fork, permission bits) is skipped."""
    for item in items:
        if _BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        if os.name == "nt" and item.get_closest_marker("posix") is not None:
            item.add_marker(pytest.mark.skip(reason="needs a POSIX system"))


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless /usr/bin/chromium for the whole session (skipped without it; a failure when CI=true)."""
    with launch_chromium() as chromium:
        yield chromium


@pytest.fixture
def page(browser: Browser) -> Iterator[RecordedPage]:
    """A fresh context and page per test, recording console errors, page errors and failed requests."""
    with open_page(browser) as recorded:
        yield recorded


@dataclass(frozen=True)
class BuiltSite:
    """One build of the committed reading list: where it went, what the build reported, its base URL."""

    output: Path
    result: BuildResult
    base_url: str

    @property
    def base_path(self) -> str:
        return urlsplit(self.base_url).path

    def text(self, relative: str) -> str:
        return (self.output / relative).read_text(encoding="utf-8")


def _build_committed(tmp_path_factory: pytest.TempPathFactory, name: str, base_url: str) -> BuiltSite:
    output = tmp_path_factory.mktemp(name) / "public"
    return BuiltSite(output, build(REPO, output, base_url), base_url)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The committed content built once per session for https://example.github.io/reading-list/ (read-only)."""
    return _build_committed(tmp_path_factory, "site", SITE_URL)


@pytest.fixture(scope="session")
def root_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The committed content built once per session for a domain root, https://example.org/ (read-only)."""
    return _build_committed(tmp_path_factory, "root-site", ROOT_URL)


@pytest.fixture(scope="session")
def rebuilt_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """A second, independent build of the same input as ``built_site`` (for determinism and stable ids)."""
    return _build_committed(tmp_path_factory, "site-again", SITE_URL)
