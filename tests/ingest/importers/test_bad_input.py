"""Input that used to end in a traceback: now `path[:line]: error[CODE]: message`, a hint, exit 1, nothing written."""

from __future__ import annotations

import datetime as dt
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sitegen.cli import main
from sitegen.ingest.importers.run import run_import
from sitegen.ingest.importers.source import MAX_DUMP_BYTES

from .conftest import DUMPS, LISTING_A, PROFILE_A, listing, snapshot, write_dump

VTC_KEY = "vtc dnn compilation with virtual tensors for data movement elimination"
STATE_HINT = ("  hint: fix it, or delete it to start afresh (every field then counts as a hand edit, so nothing is "
              "overwritten)")


def sitegen(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def refused(site: Path, *args: str | Path) -> list[str]:
    """Run `sitegen import`, check it failed without changing content/, and return its diagnostics."""
    before = snapshot(site)
    result = sitegen("import", "--root", site, *args)
    assert result.exit_code == 1, result.output
    assert snapshot(site) == before
    said = [line for line in result.stderr.splitlines() if not STAGE_LINE.fullmatch(line)]
    assert said[-1].endswith("nothing under content/ was changed")
    return said[:-1]


STAGE_LINE = re.compile(r"(read|merge|write): \d+\.\d s")  # how far it got, said as each stage ends


# -- content/import-state.json --------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), ids=["syntax", "list", "number", "field", "big", "deep"], argvalues=[
    ("{not json\n", "content/import-state.json:1:2: error[E721]: the import state is not valid JSON: Expecting "
                    "property name enclosed in double quotes"),
    ("[1, 2]\n", "content/import-state.json:1: error[E722]: the import state must be a JSON object of entries, "
                 "found list"),
    (f'{{\n "{VTC_KEY}": 3\n}}\n', f"content/import-state.json:2: error[E722]: the import state of {VTC_KEY[:60]!r} "
                                   "must map field names to fingerprints (text)"),
    (f'{{\n "x": {{}},\n "{VTC_KEY}": {{"title": 5}}\n}}\n',
     f"content/import-state.json:3: error[E722]: the import state of {VTC_KEY[:60]!r} must map field names to "
     "fingerprints (text)"),
    ('{"a": ' + "1" * 5000 + "}", "content/import-state.json:1: error[E721]: the import state is not an import "
                                  "state: it holds a number or nesting far beyond what the importer writes"),
    ("[" * 100_000, "content/import-state.json:1: error[E721]: the import state is not an import state: it holds a "
                    "number or nesting far beyond what the importer writes"),
])
def test_a_damaged_import_state(site: Path, text: str, expected: str) -> None:
    (site / "content" / "import-state.json").write_text(text, encoding="utf-8")
    assert refused(site) == [expected, STATE_HINT]


@pytest.mark.parametrize(("data", "expected"), ids=["latin-1", "folder"], argvalues=[
    (b"\xff\xfe{}", "content/import-state.json:1: error[E720]: the import state is not valid UTF-8 text"),
    (None, "content/import-state.json: error[E720]: cannot read the import state: Is a directory"),
])
def test_an_unreadable_import_state(site: Path, data: bytes | None, expected: str) -> None:
    state = site / "content" / "import-state.json"
    if data is None:
        state.unlink()
        state.mkdir()
    else:
        state.write_bytes(data)
    assert refused(site) == [expected, STATE_HINT]


# -- numbers, sizes, kinds of file ----------------------------------------------------------------

HUGE = "9" * 5000
TOO_LONG = "error[E714]: a number of 5000 digits (99999999…) is far longer than any page shows"


@pytest.mark.parametrize(("text", "line"), ids=["h-index", "paper-count", "score", "authors", "upvotes"], argvalues=[
    ((DUMPS / PROFILE_A).read_text(encoding="utf-8").replace("h-index12", f"h-index{HUGE}"), 4),
    ((DUMPS / PROFILE_A).read_text(encoding="utf-8").replace("\n6 Papers\n", f"\n{HUGE} Papers\n"), 10),
    ((DUMPS / PROFILE_A).read_text(encoding="utf-8").replace("\nDCFeb 11\n", f"\n{HUGE}DCFeb 11\n"), 12),
    (listing(("A Title", "An abstract, long enough for the title before it.", "Feb 2")).replace(
        "• 3 authors", f"• {HUGE} authors"), 9),
    (listing(("A Title", "An abstract, long enough for the title before it.", "Feb 2")).replace(
        "Feb 2 5", f"Feb 2 {HUGE}"), 11),
])
def test_a_number_too_long_for_int(site: Path, text: str, line: int) -> None:
    dump = write_dump(site, "004_big.txt", text)
    lines = refused(site, "--captured", "2026-06-01", dump)
    assert lines[:2] == [f"content/dumps/004_big.txt:{line}: {TOO_LONG}",
                         "  hint: the dump is damaged; copy the page again"]


def test_dev_zero(site: Path) -> None:
    assert refused(site, "--captured", "2026-06-01", "/dev/zero") == [
        "/dev/zero: error[E710]: this is not a regular file (a device, pipe or socket)",
        "  hint: save the dump to a file and import that file"]


@pytest.mark.posix
def test_a_named_pipe(site: Path, tmp_path: Path) -> None:
    pipe = tmp_path / "dump.txt"
    os.mkfifo(pipe)
    assert refused(site, "--captured", "2026-06-01", pipe)[0] == \
        f"{pipe.as_posix()}: error[E710]: this is not a regular file (a device, pipe or socket)"


def test_a_socket(site: Path, tmp_path: Path) -> None:
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        result = run_import(site, [path], captured=dt.date(2026, 6, 1))
    assert [d.code for d in result.report.errors] == ["E710"]


def test_a_folder_given_as_a_dump(site: Path) -> None:
    assert refused(site, "--captured", "2026-06-01", site / "content" / "papers") == [
        "content/papers: error[E710]: this is a folder, not a dump file",
        "  hint: name the dump files in it, or put them in content/dumps/ and run 'sitegen import' without file "
        "names"]


def test_a_huge_file(site: Path, tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:  # sparse: no disk space used
        handle.truncate(MAX_DUMP_BYTES + 1)
    assert refused(site, "--captured", "2026-06-01", big)[0] == \
        f"{big.as_posix()}: error[E711]: the file is larger than 32 MB; no aggregator page is that long"


@pytest.mark.parametrize(("data", "line", "message"), ids=["nul", "bell", "latin-1"], argvalues=[
    ((DUMPS / LISTING_A).read_bytes() + b"\x00\x01\x02", 1, "this is a binary file, not a text dump"),
    ((DUMPS / LISTING_A).read_bytes().replace(b"EasySpec", b"Easy\x07Spec", 1), 21,
     "this is a binary file, not a text dump (it holds the control character U+0007)"),
    ((DUMPS / LISTING_A).read_bytes().replace(b"EasySpec", b"Easy\xe9Spec", 1), 21,
     "the file is not valid UTF-8 text"),
])
def test_binary_or_non_utf8_content(bare_site: Path, data: bytes, line: int, message: str) -> None:
    """Among the good dumps, one damaged file: nothing is imported, not even the good ones."""
    write_dump(bare_site, LISTING_A, data)
    lines = refused(bare_site)
    assert f"content/dumps/{LISTING_A}:{line}: error[{'E303' if 'UTF-8' in message else 'E302'}]: {message}" in lines


def test_content_papers_is_a_file(site: Path) -> None:
    papers = site / "content" / "papers"
    for path in papers.iterdir():
        path.unlink()
    papers.rmdir()
    papers.write_text("not a folder\n", encoding="utf-8")
    assert refused(site) == [
        "content/papers: error[E725]: this is a file, but an import needs a folder here",
        "  hint: move the file away; content/papers/ holds one file per paper"]


def test_a_dump_that_cannot_be_read(site: Path) -> None:
    loop = site / "content" / "dumps" / "004_loop.txt"
    os.symlink(loop.name, loop)  # a link to itself: opening it fails (ELOOP), whoever runs the test
    before = snapshot(site)
    result = run_import(site, [loop])
    assert [d.format() for d in result.report.items] == [
        "content/dumps/004_loop.txt: error[E304]: cannot read the file: Too many levels of symbolic links\n"
        "  hint: check that the file exists and that you may read it"]
    assert result.failed and snapshot(site) == before


@pytest.mark.posix
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_a_dump_without_read_permission(site: Path) -> None:
    dump = write_dump(site, "004_secret.txt", (DUMPS / LISTING_A).read_bytes())
    dump.chmod(0)
    try:
        assert refused(site, "--captured", "2026-06-01", dump)[0] == \
            "content/dumps/004_secret.txt: error[E304]: cannot read the file: Permission denied"
    finally:
        dump.chmod(0o644)


def test_existing_entries_with_fields_of_any_type(site: Path) -> None:
    """Hand edits may leave any YAML in an entry; telling papers apart must not trip over it."""
    papers = site / "content" / "papers"
    (papers / "odd.md").write_text("---\ntitle: [a, list]\ndate: [2026, 1]\nabstract: {a: b}\nsources:\n- [x]\n"
                                   "- {file: [f], title: {t: 1}, date: [d]}\n- 3\n---\n", encoding="utf-8")
    (papers / "odder.md").write_text("---\ntitle: VTC\ndate: {y: 1}\nsources: 7\n---\n", encoding="utf-8")
    paper = ("VTC", "A paper called VTC, a different one, long enough.", "Feb 1")
    dump = write_dump(site, "004_new.txt", listing(paper))
    result = run_import(site, [dump], captured=dt.date(2026, 6, 1))
    assert not result.failed and len(result.new) == 1


@pytest.mark.posix
@pytest.mark.parametrize("folder", ["papers", "authors"])
def test_a_fifo_among_the_content_files_is_refused_not_waited_on(site: Path, folder: str) -> None:
    suffix = ".md" if folder == "papers" else ".yaml"
    os.mkfifo(site / "content" / folder / f"pipe{suffix}")
    before = snapshot(site)
    run = subprocess.run([sys.executable, "-c", "from sitegen.cli import run; run()", "import", "--root", str(site)],
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert f"content/{folder}/pipe{suffix}:1: error[E105]: cannot read the file" in run.stderr
    assert snapshot(site) == before
