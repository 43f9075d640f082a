"""Loading content/: the parallel parse of a cold build equals the one-process parse."""

from __future__ import annotations

from pathlib import Path

import pytest

import sitegen.content.files as files
import sitegen.content.loader as loader
from sitegen.common.errors import Diagnostic, Report
from sitegen.content.cache import EntryCache
from sitegen.pipeline.build import build

from ..common.test_forked import _children
from ..site_factory import copy_site


def _broken_site(tmp_path: Path) -> Path:
    root = copy_site(tmp_path / "site")
    papers = sorted((root / "content" / "papers").glob("*.md"))
    papers[3].write_text("---\ntitle: [unclosed\n---\nbody\n", encoding="utf-8")
    papers[40].write_bytes(b"---\ntitle: \xff\n---\n")
    papers[70].write_text(papers[70].read_text(encoding="utf-8").replace("title:", "titel:", 1), encoding="utf-8")
    return root


def _problems(root: Path) -> list[Diagnostic]:
    report = Report()
    loader.load_content(root, report, None, 1)
    return report.items


def _load(root: Path, jobs: int) -> tuple[loader.Content, list[str]]:
    report = Report()
    content = loader.load_content(root, report, None, jobs)
    return content, [str(d) for d in report.items]


def test_parallel_parse_gives_the_same_entries_and_problems_in_file_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _broken_site(tmp_path)
    monkeypatch.setattr(loader, "PARALLEL_PARSE", 1)
    parallel, parallel_problems = _load(root, 2)
    serial, serial_problems = _load(root, 1)
    assert repr(parallel) == repr(serial)  # the same values of the same types (the children send JSON)
    assert any(e.sources for e in serial.entries) and any(e.date for e in serial.entries)
    assert parallel_problems == serial_problems
    assert len(serial.entries) == 103
    paths = [d.location.path for d in _problems(root)]
    assert paths == sorted(paths) and len(set(paths)) == 3


def test_what_is_done_meanwhile_runs_once_while_children_parse(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The children are forked before `meanwhile` runs, and they parse what they inherited."""
    import os

    root = copy_site(tmp_path / "site", papers=30)
    monkeypatch.setattr(loader, "PARALLEL_PARSE", 1)
    serial, _ = _load(root, 1)
    parsed_by: set[int] = set()
    original = loader._parse_one

    def parse_one(job: tuple[int, str, str, str, str]) -> tuple[loader.Entry | None, list[Diagnostic]]:
        parsed_by.add(os.getpid())
        return original(job)

    monkeypatch.setattr(loader, "_parse_one", parse_one)
    before = _children()
    calls: list[tuple[set[int], int]] = []
    content = loader.load_content(root, Report(), None, 3,
                                  meanwhile=lambda: calls.append((set(parsed_by), len(_children() - before))))
    assert content == serial
    assert calls == [(set(), 3)]  # once, with the three children forked and nothing parsed here
    assert parsed_by == set() and _children() <= before  # nor after: the children parsed everything, and are gone
    assert loader.load_content(root, Report(), None, 1, meanwhile=lambda: calls.append((set(), 0))) == serial
    assert len(calls) == 2 and parsed_by == {os.getpid()}


def test_a_child_that_fails_has_its_share_parsed_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _broken_site(tmp_path)
    monkeypatch.setattr(loader, "PARALLEL_PARSE", 1)
    serial, serial_problems = _load(root, 1)

    def dies(todo: list[loader._Job], runs: list[tuple[int, int]], queue: int) -> bytes:
        raise MemoryError("the child ran out")

    monkeypatch.setattr(loader, "_parse_runs", dies)
    parallel, parallel_problems = _load(root, 2)
    assert parallel == serial and parallel_problems == serial_problems


def _first_child(marker: Path) -> bool:
    """True in the one process that creates `marker` first (each forked child asks once)."""
    import os

    try:
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def test_runs_a_child_took_and_did_not_answer_for_are_parsed_here(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A child that dies after taking two runs: the other child's runs are kept, its own parsed here."""
    import os

    root = _broken_site(tmp_path)
    monkeypatch.setattr(loader, "PARALLEL_PARSE", 1)
    serial, serial_problems = _load(root, 1)
    original = loader._parse_runs
    marker = tmp_path / "first"

    def dies_after_two_runs(todo: list[loader._Job], runs: list[tuple[int, int]], queue: int) -> bytes:
        if _first_child(marker):
            os.read(queue, 2 * loader._RUN_NUMBER)
            raise MemoryError("the child ran out")
        return original(todo, runs, queue)

    parsed_here: list[str] = []
    parse_one = loader._parse_one

    def counted(job: loader._Job) -> loader._Parsed:
        if os.getpid() == parent:
            parsed_here.append(job.shown)
        return parse_one(job)

    parent = os.getpid()
    monkeypatch.setattr(loader, "_parse_runs", dies_after_two_runs)
    monkeypatch.setattr(loader, "_parse_one", counted)
    parallel, parallel_problems = _load(root, 2)
    assert repr(parallel) == repr(serial) and parallel_problems == serial_problems
    runs = loader._runs(len(serial.entries) + 3, 2)  # the three broken entries are parsed too
    assert 0 < len(parsed_here) <= 2 * max(stop - start for start, stop in runs)


def test_a_slowed_child_leaves_the_runs_to_the_other(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs are taken as each child is free, not shared out beforehand."""
    import os
    import time

    root = copy_site(tmp_path / "site", papers=40)
    monkeypatch.setattr(loader, "PARALLEL_PARSE", 1)
    serial, _ = _load(root, 1)
    assert loader._runs(40, 2) == [(n, n + 1) for n in range(40)]
    parse_one = loader._parse_one
    marker, log = tmp_path / "slow", tmp_path / "parsed"
    slow: list[bool] = []

    def parse_and_note(job: loader._Job) -> loader._Parsed:
        if not slow:
            slow.append(_first_child(marker))  # this child's first entry: is it the slow one?
        if slow[0]:
            time.sleep(0.2)
        with open(log, "a", encoding="utf-8") as file:
            file.write(f"{os.getpid()}\n")
        return parse_one(job)

    monkeypatch.setattr(loader, "_parse_one", parse_and_note)
    parallel, _ = _load(root, 2)
    assert parallel == serial
    counts = sorted(log.read_text(encoding="utf-8").split().count(pid)
                    for pid in set(log.read_text(encoding="utf-8").split()))
    assert sum(counts) == 40 and len(counts) == 2 and counts[0] <= 10, counts


def test_cached_entries_are_not_parsed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_site(tmp_path / "site", papers=10)
    cache = EntryCache(root)
    first = loader.load_content(root, Report(), cache)
    parsed: list[str] = []
    original = loader.entry_from_text
    monkeypatch.setattr(loader, "entry_from_text",
                        lambda text, shown, stem, report: parsed.append(shown) or original(text, shown, stem, report))
    edited = root / "content" / "papers" / first.entries[4].source_path.split("/")[-1]
    edited.write_text(edited.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    second = loader.load_content(root, Report(), cache)
    assert parsed == [first.entries[4].source_path]
    assert second.entries[4].notes.endswith("One more line.\n")
    assert second.entries[:4] == first.entries[:4]


def test_a_full_build_leaves_the_entry_cache_for_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache is saved before rendering and released; the next full build still parses nothing."""
    root = copy_site(tmp_path / "site", papers=10)
    build(root, tmp_path / "public", search=False)
    template = root / "themes/default/templates/paper.html"
    template.write_text(template.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # forces a full build
    parsed: list[str] = []
    original = loader.entry_from_text
    monkeypatch.setattr(loader, "entry_from_text",
                        lambda text, shown, stem, report: parsed.append(shown) or original(text, shown, stem, report))
    build(root, tmp_path / "public", search=False)
    assert parsed == []
    assert build(root, tmp_path / "public", search=False).written == 0, "and the build state knows every entry"


def test_an_edit_outside_the_notes_lends_the_rendered_notes_and_imports_no_markdown(tmp_path: Path) -> None:
    """A front-matter edit re-renders no Markdown: the notes come from the entry as it was,
    and the build's modules import markdown-it-py only when notes are rendered (20 ms of a
    new build process)."""
    import subprocess
    import sys

    text = "---\ntitle: First\nauthors: [Ada Lovelace]\n---\nSome *notes* with a [link](https://example.org).\n"
    before = loader.entry_from_text(text, "content/papers/a.md", "a", Report())
    assert before is not None and "<em>notes</em>" in before.notes_html
    after = loader.entry_from_text(text.replace("First", "Second"), "content/papers/a.md", "a", Report(), before)
    assert after is not None and after.title == "Second"
    assert after.notes_html is before.notes_html and after.notes_text is before.notes_text
    edited = loader.entry_from_text(text.replace("Some", "Other"), "content/papers/a.md", "a", Report(), before)
    assert edited is not None and edited.notes_html.startswith("<p>Other <em>notes</em>")
    probe = ("import sys\nfrom sitegen.pipeline import build, persisted, site_engine\n"
             "from sitegen.content import loader\nfrom sitegen.render import render\n"
             "print('markdown_it' in sys.modules)\nloader.markdown.render_notes('*x*')\n"
             "print('markdown_it' in sys.modules)")
    fresh = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert fresh.stdout.split() == ["False", "True"]


def test_a_cold_parse_reads_the_files_where_it_parses_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With nothing cached, the children read the files too; problems and cache keys are as if read here."""
    import os

    root = _broken_site(tmp_path)
    (root / "content" / "papers" / "zz-a-folder.md").mkdir()  # listed like an entry, unreadable as a file
    monkeypatch.setattr(loader, "PARALLEL_PARSE", 1)
    serial, serial_problems = _load(root, 1)
    assert any("E105" in p and "zz-a-folder.md" in p for p in serial_problems)
    read_by: set[int] = set()
    original = files.read_bytes

    def read_bytes(path: Path, shown: str, report: Report) -> tuple[bytes, loader.FileStat] | None:
        if path.parent.name == "papers":  # (author files are read here: there are few)
            read_by.add(os.getpid())
        return original(path, shown, report)

    monkeypatch.setattr(files, "read_bytes", read_bytes)  # where every entry file is read
    cache = EntryCache(root)
    assert cache.is_empty()
    report = Report()
    cold = loader.load_content(root, report, cache, 2)
    assert cold == serial and [str(d) for d in report.items] == serial_problems
    assert read_by == set()  # every file was read in a child
    cache.save()
    warm = EntryCache(root)
    assert not warm.is_empty()
    parsed: list[str] = []
    parse = loader.entry_from_text
    monkeypatch.setattr(loader, "entry_from_text",
                        lambda text, shown, stem, report: parsed.append(shown) or parse(text, shown, stem, report))
    again = Report()
    assert loader.load_content(root, again, warm, 1) == serial
    assert read_by == {os.getpid()}  # looked up here, where the cache is
    assert [str(d) for d in again.items] == serial_problems
    # only the entries with problems were parsed again (the unreadable two never get that far)
    assert sorted(parsed) == sorted({d.location.path for d in _problems(root) if d.code not in ("E104", "E105")})
