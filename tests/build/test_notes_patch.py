"""A notes edit patched in place by a new build process ends exactly where a clean build does."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import sitegen.build.build as build_module
from sitegen.build.build import build
from sitegen.build.notes_patch import RECORDS
from sitegen.content.cache import CACHE_DIR

from ..site_factory import copy_site, tree_bytes, without_related_lists

PAPERS = 8


def _mtimes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def _entry(root: Path, index: int = 3) -> Path:
    return sorted((root / "content/papers").glob("*.md"))[index]


def _append_note(entry: Path, text: str) -> None:
    entry.write_text(entry.read_text(encoding="utf-8") + f"\n{text}\n", encoding="utf-8")


def _no_model_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the model-based paths fail loudly, so a passing build proves the patch did the work."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the build took the model-based path")

    monkeypatch.setattr(build_module, "_incremental", refuse)
    monkeypatch.setattr(build_module, "_full", refuse)


def _notes_files(entry: Path) -> list[str]:
    """What a notes edit rewrites: the paper's page, its line of papers.json and its entries in the full-text
    feeds (all eight papers are in the newest fifty, and those with a date added in the recently added)."""
    recent = ["recent/feed.xml"] if "\nadded: " in entry.read_text(encoding="utf-8") else []
    return sorted(["feed.xml", "papers.json", f"papers/{entry.stem}/index.html", *recent])


def _clean(root: Path, folder: Path) -> dict[str, bytes]:
    build(root, folder, search=False, use_cache=False)
    return tree_bytes(folder)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """The list with a paper template that shows no other papers (the default one's panel lists some, which
    a notes edit cannot patch from the records: see test_a_page_listing_other_papers_takes_the_model_path)."""
    root = without_related_lists(copy_site(tmp_path / "site", papers=PAPERS))
    build(root, tmp_path / "public", search=False)
    return root


def test_a_page_listing_other_papers_takes_the_model_path_and_ends_where_a_clean_build_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    calls: list[int] = []
    real = build_module._incremental
    monkeypatch.setattr(build_module, "_incremental", lambda *a, **k: calls.append(1) or real(*a, **k))
    _append_note(_entry(root), "A note.")
    build(root, tmp_path / "public", search=False)
    assert calls, "the default paper page lists other papers: its notes edit is not patched from the records"
    assert tree_bytes(tmp_path / "public") == _clean(root, tmp_path / "clean")


def test_notes_edit_rewrites_only_the_files_that_show_the_notes(site: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    public = tmp_path / "public"
    before = _mtimes(public)
    entry = _entry(site)
    _append_note(entry, "A new note with *emphasis*, a [link](https://example.org) and `code` & <tags>.")
    with monkeypatch.context() as patched:
        _no_model_path(patched)
        result = build(site, public, search=False)
    assert result.written == len(_notes_files(entry)) == 4
    after = _mtimes(public)
    assert sorted(path for path in after if after[path] != before.get(path)) == _notes_files(entry)
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


def test_a_feed_not_as_this_theme_renders_it_is_rebuilt_from_the_model(site: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The paper's old entry must be in each feed listing it as rendered again: else the model path writes it."""
    public, entry = tmp_path / "public", _entry(site)
    feed = public / "feed.xml"
    link = f'/papers/{entry.stem}/"/>'
    assert feed.read_text(encoding="utf-8").count(link) == 1
    feed.write_text(feed.read_text(encoding="utf-8").replace(link, link.replace('"/>', '" />')), encoding="utf-8")
    _append_note(entry, "A note.")
    calls: list[int] = []
    real = build_module._incremental

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "_incremental", counting)
    build(site, public, search=False)
    assert calls
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


def test_after_a_patch_a_noop_writes_nothing_and_later_edits_still_converge(
        site: Path, tmp_path: Path) -> None:
    public = tmp_path / "public"
    _append_note(_entry(site, 2), "First note.")
    build(site, public, search=False)
    _append_note(_entry(site, 5), "Second note.")
    build(site, public, search=False)
    settled = _mtimes(public)
    assert build(site, public, search=False).written == 0
    assert _mtimes(public) == settled
    entry = _entry(site, 2)  # a front-matter edit after patches: the model path must know the patched rows
    entry.write_text(entry.read_text(encoding="utf-8").replace("title: ", "title: Retitled ", 1), encoding="utf-8")
    build(site, public, search=False)
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


def test_a_theme_reading_the_neighbours_links_is_patched_exactly(site: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    public = tmp_path / "public"
    template = site / "themes/default/templates/paper.html"
    template.write_text(template.read_text(encoding="utf-8").replace(
        "{% block main %}", "{% block main %}<p>Next: {{ newer.newer if newer else '' }}</p>", 1), encoding="utf-8")
    build(site, public, search=False)
    _append_note(_entry(site), "A note.")
    with monkeypatch.context() as patched:
        _no_model_path(patched)
        build(site, public, search=False)
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


def test_a_paper_page_edited_by_hand_is_rebuilt_from_the_model(site: Path, tmp_path: Path) -> None:
    public = tmp_path / "public"
    entry = _entry(site)
    page = public / "papers" / entry.stem / "index.html"
    page.write_text(page.read_text(encoding="utf-8").replace("</main>", "<p>hand edit</p></main>"), encoding="utf-8")
    _append_note(entry, "A note.")
    build(site, public, search=False)
    assert "hand edit" not in page.read_text(encoding="utf-8")
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


def test_notes_edit_with_a_front_matter_edit_takes_the_model_path(site: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    public = tmp_path / "public"
    _append_note(_entry(site, 1), "Only notes here.")
    other = _entry(site, 4)
    other.write_text(other.read_text(encoding="utf-8").replace("title: ", "title: Renamed ", 1), encoding="utf-8")
    calls: list[int] = []
    real = build_module._incremental

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "_incremental", counting)
    build(site, public, search=False)
    assert calls
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


@pytest.mark.parametrize("edit", ["abstract", "date"])
def test_a_notes_edit_after_a_front_matter_edit_is_still_patched(site: Path, tmp_path: Path, edit: str,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The records a front-matter edit leaves serve the next notes edit: rewritten when the paper moved, else kept."""
    public, records = tmp_path / "public", site / CACHE_DIR / RECORDS
    entry = _entry(site, 4)
    text = entry.read_text(encoding="utf-8")
    if edit == "abstract":  # no link, key or neighbour changes: the records stay as they were
        entry.write_text(text.replace("abstract: ", "abstract: Revised. ", 1), encoding="utf-8")
    else:  # the paper moves in time: its neighbours' records change
        entry.write_text(re.sub(r"(?m)^date: .*$", "date: 2017-01-02", text, count=1), encoding="utf-8")
    assert entry.read_text(encoding="utf-8") != text
    kept = _mtimes(records)
    build(site, public, search=False)
    assert (_mtimes(records) == kept) == (edit == "abstract")
    _append_note(_entry(site, 2), "A note after the front-matter edit.")
    with monkeypatch.context() as patched:
        _no_model_path(patched)
        assert build(site, public, search=False).written == len(_notes_files(_entry(site, 2)))
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


@pytest.mark.parametrize("edit", ["title", "date"])
def test_records_after_a_patched_front_matter_edit_equal_a_clean_builds(site: Path, tmp_path: Path,
                                                                        edit: str) -> None:
    """Only the moved papers' shards are rewritten, and the folder ends as a clean build leaves it."""
    public, records = tmp_path / "public", site / CACHE_DIR / RECORDS
    entry = _entry(site, 4)
    text = entry.read_text(encoding="utf-8")
    if edit == "title":  # the cite key follows the title's first word
        entry.write_text(re.sub(r"(?m)^title: .*$", "title: Zymurgy of attention", text, count=1), encoding="utf-8")
    else:
        entry.write_text(re.sub(r"(?m)^date: .*$", "date: 2017-01-02", text, count=1), encoding="utf-8")
    kept = _mtimes(records)
    build(site, public, search=False)
    rewritten = {name for name, mtime in _mtimes(records).items() if kept.get(name) != mtime}
    assert "signature.json" in rewritten
    assert 1 < len(rewritten) < len(kept)
    clean = tmp_path / "clean-site"
    shutil.copytree(site, clean, ignore=shutil.ignore_patterns(CACHE_DIR))
    build(clean, tmp_path / "clean-public", search=False)
    assert tree_bytes(records) == tree_bytes(clean / CACHE_DIR / RECORDS)
