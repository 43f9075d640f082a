"""An import is all or nothing: a failing one leaves content/ byte for byte as it was."""

from __future__ import annotations

import datetime as dt
import errno
import os
from pathlib import Path

import pytest

from sitegen.ingest.importers import transaction
from sitegen.ingest.importers.run import run_import

from .conftest import DUMPS, LISTING_B, PROFILE_A, listing, snapshot, write_dump

CAPTURED = dt.date(2026, 6, 1)
PAGE = """\
<!DOCTYPE html>
<html lang="en">
<head><title>Daily Papers - Hugging Face</title></head>
<body>
Daily Papers

Mar 2

<div class="x">

<p>A paragraph of the page, longer than the line of markup before it.</p>
</body>
</html>
"""


def _truncated() -> bytes:
    data = (DUMPS / LISTING_B).read_bytes()
    return data[: data.index(b"This paper presents a comprehensive comparison") + 300]


def _concatenated() -> bytes:
    return (DUMPS / PROFILE_A).read_bytes() + b"\n" + (DUMPS / LISTING_B).read_bytes()


BAD = {
    "truncated": (_truncated(), "E323"),
    "html-page": (PAGE.encode(), "E712"),
    "concatenated": (_concatenated(), "E713"),
    "markup-title": (listing(('<div class="x">', "Text of the page that followed the markup, long enough.", "Feb 1"),
                             ("A Real Paper", "Its abstract, which is long enough to be read as one.", "Feb 2"))
                     .encode(), "E716"),
    "control-characters": (listing(("\x1b[1mBold Title\x1b[0m", "An abstract copied from a terminal, with escapes.",
                                    "Feb 1")).encode(), "E302"),
}


@pytest.mark.parametrize("kind", sorted(BAD))
def test_a_failing_import_changes_nothing(site: Path, kind: str) -> None:
    data, code = BAD[kind]
    dump = write_dump(site, "004_bad.txt", data)
    before = snapshot(site)
    result = run_import(site, [dump], captured=CAPTURED)
    assert result.failed and [d.code for d in result.report.errors] == [code]
    assert result.new == [] and result.merged == []
    assert snapshot(site) == before  # entries, authors, import-state.json, dumps/manifest.yaml


def test_one_bad_dump_among_good_ones_stops_them_all(bare_site: Path) -> None:
    write_dump(bare_site, "004_page.txt", PAGE)
    before = snapshot(bare_site)
    result = run_import(bare_site)
    assert result.failed and snapshot(bare_site) == before


def test_an_html_page_is_refused_with_a_clear_error(site: Path) -> None:
    dump = write_dump(site, "004_page.txt", PAGE)
    result = run_import(site, [dump], captured=CAPTURED)
    assert [d.format() for d in result.report.items] == [
        "content/dumps/004_page.txt:1: error[E712]: this is an HTML page (<!DOCTYPE html…), not a text dump\n"
        "  hint: open the page in a browser, select all its text and save that as UTF-8 text"]


def test_two_dumps_pasted_into_one_file_are_refused(site: Path) -> None:
    dump = write_dump(site, "004_both.txt", _concatenated())
    result = run_import(site, [dump], captured=CAPTURED)
    second = (DUMPS / PROFILE_A).read_bytes().count(b"\n") + 1 + 7  # 'Daily Papers' is the 7th line of a listing
    assert [d.format() for d in result.report.items] == [
        f"content/dumps/004_both.txt:{second}: error[E713]: a second dump starts here ('Daily Papers'; the first "
        "at line 4)\n  hint: save each page to its own file and import them together"]


def test_a_title_made_of_markup_is_an_error(site: Path) -> None:
    dump = write_dump(site, "004_markup.txt", BAD["markup-title"][0])
    result = run_import(site, [dump], captured=CAPTURED)
    assert [d.format() for d in result.report.items] == [
        "content/dumps/004_markup.txt:5: error[E716]: expected a paper title, found HTML markup '<div class=\"x\">'\n"
        "  hint: import the text of the page, not its source"]


def test_a_write_that_fails_midway_is_undone(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up after some files are renamed into place: those get their old bytes back."""
    before = snapshot(site)
    dump = write_dump(site, "004_new.txt", listing(
        *[(f"Paper {n}", f"The abstract of paper {n}, which is long enough to be one.", "Feb 1") for n in range(5)]))
    before["content/dumps/004_new.txt"] = dump.read_bytes()
    real, calls = os.replace, []

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        calls.append(dst)
        if len(calls) == 4:
            raise OSError(errno.ENOSPC, "No space left on device", str(dst))
        real(src, dst)

    monkeypatch.setattr(transaction.os, "replace", replace)
    result = run_import(site, [dump], captured=CAPTURED)
    assert len(calls) >= 4
    assert [(d.code, d.message) for d in result.report.errors] == [
        ("E726", "cannot write: No space left on device; nothing was changed")]
    assert result.failed and result.new == []
    monkeypatch.undo()
    assert snapshot(site) == before  # no entry, no temporary file, the state and manifest as they were


def test_transaction_writes_every_file_or_none(tmp_path: Path) -> None:
    kept = tmp_path / "kept.txt"
    kept.write_text("old", encoding="utf-8")
    blocked = tmp_path / "z-blocked"
    blocked.mkdir()  # a folder where a file should go: its rename fails after the others succeeded
    writes = {kept: "new", tmp_path / "made" / "deep" / "new.txt": "x", blocked: "y"}
    with pytest.raises(OSError):
        transaction.apply(writes)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")) == ["kept.txt", "z-blocked"]
    assert kept.read_text(encoding="utf-8") == "old"
    del writes[blocked]
    transaction.apply(writes)
    assert kept.read_text(encoding="utf-8") == "new" and (tmp_path / "made/deep/new.txt").read_text() == "x"
