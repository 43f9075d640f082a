"""Live reload as a curator sees it: edit an entry on disk, the open page updates by itself."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sitegen.serve.serve import PreviewSession
from tests.support import RecordedPage

from ..site_factory import copy_site

ENTRY = "content/papers/vtc-dnn-compilation-with-virtual-tensors-for-data-movement.md"
ROUTE = "papers/vtc-dnn-compilation-with-virtual-tensors-for-data-movement/"


@pytest.fixture()
def session(tmp_path: Path) -> Iterator[PreviewSession]:
    with PreviewSession(copy_site(tmp_path / "site"), port=0, search=False) as running:
        yield running


def test_page_updates_itself_after_an_edit_and_keeps_scroll(session: PreviewSession, page: RecordedPage) -> None:
    page.set_viewport_size({"width": 1280, "height": 600})
    page.goto(session.url + ROUTE)
    page.wait_for_function("window.EventSource !== undefined")
    page.evaluate("window.scrollTo(0, 400)")
    page.wait_for_timeout(300)  # let the event stream connect
    path = session.root / ENTRY
    path.write_text(path.read_text().replace("title: 'VTC:", "title: 'Live edited VTC:"))
    page.wait_for_function("document.querySelector('h1').textContent.includes('Live edited VTC')", timeout=15000)
    page.wait_for_function("window.scrollY > 300", timeout=5000)
    page.assert_clean(ignore=[r"__sitegen/events: net::ERR_ABORTED"])  # the stream ends when the page reloads


def test_css_edit_swaps_the_stylesheet_without_reload(session: PreviewSession, page: RecordedPage) -> None:
    page.goto(session.url)
    page.evaluate("window.__marker = 'still here'")
    page.wait_for_timeout(300)
    css = session.root / "themes/default/static/style.css"
    css.write_text(css.read_text() + "\nbody { outline: 7px solid rgb(1, 2, 3); }\n")
    page.wait_for_function("getComputedStyle(document.body).outlineWidth === '7px'", timeout=15000)
    assert page.evaluate("window.__marker") == "still here", "a CSS change must not reload the page"
    page.assert_clean(ignore=[r"__sitegen/events: net::ERR_ABORTED"])  # the stream ends when the page reloads


def test_broken_entry_shows_error_in_browser_then_recovers(session: PreviewSession, page: RecordedPage) -> None:
    page.goto(session.url + ROUTE)
    page.wait_for_timeout(300)
    path = session.root / ENTRY
    good = path.read_text()
    path.write_text(good.replace("date: 2026-02-11", "date: 2026-02-31"))
    page.wait_for_selector("#sitegen-error", timeout=15000)
    assert f"{ENTRY}:" in page.text_content("#sitegen-error") and "invalid date" in page.text_content("#sitegen-error")
    path.write_text(good)
    page.wait_for_selector("#sitegen-error", state="detached", timeout=15000)
