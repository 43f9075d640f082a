"""Shared fixtures; the helpers themselves live in tests/support (``from tests.support import ...``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.support import RecordedPage, launch_chromium, open_page

_BROWSER_FIXTURES = {"browser", "page"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses a browser fixture gets the ``browser`` marker (so ``-m "not browser"`` works)."""
    for item in items:
        if _BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)


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
