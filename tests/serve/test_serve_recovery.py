"""The preview outlives any failure of a rebuild: shown in the browser, and the next good edit recovers."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import jinja2
import pytest

from sitegen.serve.serve import PreviewSession, failure
from sitegen.serve.server import error_overlay
from sitegen.serve.watch import Debouncer

from ..site_factory import copy_site
from .test_serve import VTC, VTC_PAGE, Events, edit, get, rebuilt

TEMPLATE = "themes/default/templates/paper.html"
ROUTE = VTC_PAGE.removesuffix("index.html")


def _extends_itself(root: Path) -> str:
    (root / TEMPLATE).write_text('{% extends "paper.html" %}\n')
    return TEMPLATE


def _not_utf8(root: Path) -> str:
    (root / TEMPLATE).write_bytes(b"\xff\xfe{% extends 'base.html' %}\n")
    return TEMPLATE


def _nested_deep(root: Path) -> str:
    """Front matter nested thousands of lists deep, as a paste gone wrong leaves it."""
    path = root / VTC
    path.write_text(path.read_text().replace("---\n", "---\nkeywords: " + "[" * 5000 + "]" * 5000 + "\n", 1))
    return VTC


def _symlink_loop(root: Path) -> str:
    loop = root / "content/papers/loop.md"
    os.symlink(loop, loop)
    return "content/papers/loop.md"


@pytest.mark.parametrize("break_it", [_extends_itself, _not_utf8, _nested_deep, _symlink_loop],
                         ids=["template-extends-itself", "template-not-utf8", "front-matter-nested-deep",
                              "entry-symlink-loop"])
def test_any_failure_of_a_rebuild_is_shown_and_the_next_edit_recovers(tmp_path: Path,
                                                                      break_it: Callable[[Path], str]) -> None:
    """Inputs that made the rebuild raise more than the usual diagnostics; whatever reports them, the
    preview shows the error over the last good page and rebuilds the next save."""
    root = copy_site(tmp_path / "site")
    saved = {name: (root / name).read_bytes() for name in (TEMPLATE, VTC)}
    with PreviewSession(root, port=0, search=False) as session:
        events = Events(session)
        try:
            count = len(session.history)
            broken = break_it(root)
            assert events.next() == "reload"
            rebuilt(session, count)
            errors = session.history[-1].errors
            assert errors and errors[0].startswith(f"{broken}:") and ": error[E" in errors[0], errors
            status, body = get(session, ROUTE)
            assert status == 200 and "sitegen-error" in body, "the last good page, with the error over it"
            assert f"{broken}:" in body and "VTC: DNN Compilation" in body
            (root / "content/papers/loop.md").unlink(missing_ok=True)
            for name, data in saved.items():
                (root / name).write_bytes(data)
            edit(root / VTC, "title: 'VTC:", "title: 'VTC mended:")
            assert events.next() == "reload"
            deadline = time.monotonic() + 10
            while "VTC mended:" not in (body := get(session, ROUTE)[1]) and time.monotonic() < deadline:
                time.sleep(0.05)  # the restored files and the edit may come in more than one batch
            assert "sitegen-error" not in body and "VTC mended:" in body
        finally:
            events.close()


def test_an_exception_raised_in_a_template_names_the_template_and_line(tmp_path: Path) -> None:
    """Whatever the renderer lets through, the preview says where in the site it was raised."""
    templates = tmp_path / "themes/t/templates"
    templates.mkdir(parents=True)
    (templates / "page.html").write_text("<p>\n{{ 1 // zero }}\n</p>\n")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)), autoescape=True)
    with pytest.raises(ZeroDivisionError) as raised:
        env.get_template("page.html").render(zero=0)
    [diagnostic] = failure(raised.value, tmp_path, {tmp_path / "content/papers/x.md"}).diagnostics
    assert diagnostic.format() == (
        "themes/t/templates/page.html:2: error[E800]: the rebuild failed: ZeroDivisionError: "
        "integer division or modulo by zero; the last good version stays served\n"
        "  hint: sitegen did not expect this; fix the file and save it again")


def test_an_exception_outside_templates_names_the_file_being_rebuilt(tmp_path: Path) -> None:
    loop = tmp_path / "content/papers/loop.md"
    loop.parent.mkdir(parents=True)
    os.symlink(loop, loop)
    with pytest.raises(RuntimeError) as raised:
        loop.resolve(strict=True)
    [diagnostic] = failure(raised.value, tmp_path, {loop.parent, loop}).diagnostics
    assert diagnostic.format().startswith("content/papers/loop.md: error[E800]: the rebuild failed: RuntimeError: ")
    with pytest.raises(OSError) as missing:
        (tmp_path / "content/authors/ada.yaml").read_bytes()
    [diagnostic] = failure(missing.value, tmp_path, {loop}).diagnostics
    assert diagnostic.format().startswith("content/authors/ada.yaml: error[E800]: the rebuild failed: "
                                          "FileNotFoundError: ")


def test_the_overlay_shows_an_unexpected_error_as_text(tmp_path: Path) -> None:
    """An exception's text can quote the site's files: it is escaped, never markup."""
    messages = [d.format() for d in failure(ValueError("<script>alert(1)</script>"), tmp_path, set()).diagnostics]
    overlay = error_overlay(messages)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in overlay and "<script>" not in overlay
    assert messages[0].startswith(".: error[E800]: the rebuild failed: ValueError: <script>")


def test_the_debouncer_keeps_handing_batches_over_after_one_failed(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever a batch's handler raises, the watching thread says so and lives on for the next batch."""
    seen: list[set[Path]] = []
    first, second = threading.Event(), threading.Event()

    def handle(batch: set[Path]) -> None:
        seen.append(batch)
        if len(seen) == 1:
            first.set()
            raise RuntimeError("a handler that fails once")
        second.set()

    debouncer = Debouncer(handle)
    try:
        debouncer.add([tmp_path / "first"])
        assert first.wait(5)
        time.sleep(0.1)  # the failure reported, or the thread dead
        debouncer.add([tmp_path / "second"])
        assert second.wait(5), "the second batch was never handed over"
    finally:
        debouncer.stop()
    assert seen == [{tmp_path / "first"}, {tmp_path / "second"}]
    assert "RuntimeError: a handler that fails once" in capsys.readouterr().err
