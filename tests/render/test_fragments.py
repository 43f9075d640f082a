"""Per-paper fragments saved by one build process and joined by the next one's whole-list files."""

from __future__ import annotations

import errno
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.build.build import build
from sitegen.build.incremental import SiteState
from sitegen.common.fsutil import write_atomic
from sitegen.content.cache import CACHE_DIR
from sitegen.render.fragments import (
    FOLDER,
    ITEMS,
    LAYOUT,
    OUTPUT_OF,
    SUFFIX,
    WHOLE_LIST,
    FingerprintedPapers,
    FragmentStores,
    ItemStore,
    Spliced,
    fingerprint,
    identity,
    piece_digest,
    read_store,
    write_store,
)

from ..site_factory import copy_site, tree_bytes

PAPERS = 8
STORES = sorted(set(WHOLE_LIST.values()))


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    return root


def _store(root: Path, name: str) -> Path:
    return root / CACHE_DIR / FOLDER / f"{name}{SUFFIX}"


def _entries(root: Path) -> list[Path]:
    return sorted((root / "content/papers").glob("*.md"))


def _retitle(entry: Path, title: str) -> None:
    text = entry.read_text(encoding="utf-8")
    entry.write_text(re.sub(r"(?m)^title:.*(\n[ \t]+.*)*$", "title: " + json.dumps(title), text, count=1),
                     encoding="utf-8")


def _clean(root: Path, folder: Path) -> dict[str, bytes]:
    build(root, folder, search=False, use_cache=False)
    return tree_bytes(folder)


def _read(path: Path) -> tuple[str, list[list[str]]]:
    stamp, rows = read_store(path)
    return stamp, [[slug, mark, piece().decode("utf-8")] for slug, mark, piece in rows]


def _write(path: Path, stamp: str, rows: list[list[str]]) -> int:
    return write_store(path, stamp, [(slug, mark, text.encode("utf-8")) for slug, mark, text in rows])


def _drop_layouts(root: Path) -> None:
    """Leave the stores as the only source of pieces for the next build (see the layout tests below)."""
    for path in (root / CACHE_DIR / FOLDER).glob(f"*{LAYOUT}"):
        path.unlink()


def _mark_fragment(root: Path, name: str, slug: str, marker: str) -> None:
    """Append `marker` to one paper's saved fragment (fingerprint and stamp kept); the layouts are dropped."""
    _drop_layouts(root)
    path = _store(root, name)
    stamp, rows = _read(path)
    marked = [row for row in rows if row[0] == slug]
    assert marked, f"no fragment of {slug} in {name}"
    for row in marked:
        row[2] += marker
    _write(path, stamp, rows)


def test_a_full_build_saves_every_store_with_every_paper(site: Path) -> None:
    for name in STORES:
        stamp, rows = _read(_store(site, name))
        slugs = {row[0] for row in rows}
        assert len(slugs) == PAPERS, name
        assert stamp


@pytest.mark.parametrize(("workers", "edit"), [(1, False), (2, False), (2, True)])
def test_the_remembered_identity_and_layout_of_each_whole_list_file_are_its_bytes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int, edit: bool) -> None:
    """The join hands the file's identity (its frame and its pieces' digests) to the outputs table and
    its layout, so the file is never hashed again: they must be the file's, after a full build in any
    number of processes, and after an edit that splices the last build's file."""
    import sitegen.build.parallel as parallel_module
    from sitegen.build import buildstate

    monkeypatch.setattr(parallel_module, "PARALLEL_THRESHOLD", 0)
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False, jobs=workers)
    if edit:
        _retitle(_entries(root)[3], "Identity: a retitled paper & its lists")
        build(root, tmp_path / "public", search=False)
    saved = buildstate.load(root)
    assert saved is not None
    for name, output in OUTPUT_OF.items():
        data = (tmp_path / "public" / output).read_bytes()
        layout = json.loads((root / CACHE_DIR / FOLDER / f"{name}{LAYOUT}").read_text(encoding="utf-8"))
        start = layout["head"]
        pieces, ends = [], []
        for length in layout["lengths"]:
            pieces.append(data[start:start + length])
            ends.append(start + length)
            start += length + layout["gap"]
        frame = (data[:layout["head"]], data[ends[0]:ends[0] + layout["gap"]], data[ends[-1]:])
        sums = [piece_digest(piece) for piece in pieces]
        assert saved.outputs[output][0] == identity(frame, b"".join(sums)) == layout["digest"], name
        assert (bytes.fromhex(layout["digests"]), layout["size"]) == (b"".join(sums), len(data)), name
        if not edit:
            _, rows = _read(_store(root, name))
            assert [row[2].encode("utf-8") for row in rows] == pieces, name  # the store holds the file's pieces


def test_a_whole_list_file_an_edit_leaves_as_it_was_is_not_written_again(site: Path, tmp_path: Path) -> None:
    """A rating, which only papers.json shows, re-renders the paper's pieces of every whole-list file;
    the three whose pieces come out as they were keep their identity, and so their file and its mtime."""
    public = tmp_path / "public"
    before = {output: (public / output).stat().st_mtime_ns for output in OUTPUT_OF.values()}
    entry = _entries(site)[2]
    text = entry.read_text(encoding="utf-8")
    assert "\nrating:" not in text
    end = text.index("\n---", 3)
    entry.write_text(text[:end] + "\nrating: 4" + text[end:], encoding="utf-8")
    build(site, public, search=False)
    after = {output: (public / output).stat().st_mtime_ns for output in OUTPUT_OF.values()}
    assert [output for output in OUTPUT_OF.values() if after[output] != before[output]] == ["papers.json"]
    assert b'"rating":4' in (public / "papers.json").read_bytes()
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


def test_stores_of_older_versions_are_removed(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    folder = root / CACHE_DIR / FOLDER
    folder.mkdir(parents=True)
    for name in ("items.json", "bib.json"):
        (folder / name).write_text('{"stamp": "old"}\n', encoding="utf-8")
    build(root, tmp_path / "public", search=False)
    items = {p.name for p in folder.glob(f"{ITEMS}-0-*{SUFFIX}")}  # the render process's list items, by variant
    assert items and sorted(p.name for p in folder.iterdir() if p.name not in items) == sorted(
        f"{name}{ext}" for name in STORES for ext in (SUFFIX, LAYOUT))


def test_a_front_matter_edit_reuses_the_other_papers_fragments(site: Path, tmp_path: Path) -> None:
    """The next process joins saved fragments: a fragment altered on disk shows up in the rewritten file."""
    edited, other = _entries(site)[2], _entries(site)[5]
    _mark_fragment(site, "bib", other.stem, "% reused from disk\n")
    _retitle(edited, "A retitled paper: caches & fragments")
    build(site, tmp_path / "public", search=False)
    bib = (tmp_path / "public/reading-list.bib").read_text(encoding="utf-8")
    assert "% reused from disk" in bib
    assert "A retitled paper: caches \\& fragments" in bib  # the edited paper's entry is rendered again


def test_edited_papers_fragments_are_not_reused(site: Path, tmp_path: Path) -> None:
    """The edited paper's saved fragments no longer match its fingerprint, whatever they say."""
    edited = _entries(site)[2]
    for name in STORES:
        _mark_fragment(site, name, edited.stem, "STALE-FRAGMENT")
    _retitle(edited, "Another title")
    build(site, tmp_path / "public", search=False)
    assert tree_bytes(tmp_path / "public") == _clean(site, tmp_path / "clean")


def test_stores_of_other_inputs_or_damaged_are_ignored(site: Path, tmp_path: Path) -> None:
    _drop_layouts(site)
    stamped = _store(site, "bib")
    _, rows = _read(stamped)
    _write(stamped, "another build's inputs", [[row[0], row[1], row[2] + "STALE"] for row in rows])
    _store(site, "ris").write_text("{not json", encoding="utf-8")
    _store(site, "records").unlink()
    _retitle(_entries(site)[4], "Retitled once more")
    build(site, tmp_path / "public", search=False)
    assert tree_bytes(tmp_path / "public") == _clean(site, tmp_path / "clean")
    assert _read(_store(site, "records"))[1]  # saved again


def test_one_edit_does_not_rewrite_the_stores(tmp_path: Path) -> None:
    """A store that came almost whole from disk is left as it is: one edit should not rewrite megabytes."""
    root = copy_site(tmp_path / "site", papers=None)
    public = tmp_path / "public"
    build(root, public, search=False)
    before = {name: _store(root, name).stat().st_mtime_ns for name in STORES}
    _retitle(_entries(root)[10], "A single edit")
    build(root, public, search=False)
    assert {name: _store(root, name).stat().st_mtime_ns for name in STORES} == before
    assert tree_bytes(public) == _clean(root, tmp_path / "clean")


def _preview(root: Path, output: Path, scratch: Path) -> SiteState:
    state = SiteState(root, output, asset_versions=False, durable=False, scratch=scratch)
    state.full()
    return state


@pytest.fixture
def parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Render even a small site across forked workers, as a large one is."""
    import sitegen.build.parallel as parallel_module

    monkeypatch.setattr(parallel_module, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(parallel_module, "CHUNK", 37)


@pytest.mark.usefixtures("parallel")
def test_the_previews_first_front_matter_edit_joins_its_workers_pieces(tmp_path: Path) -> None:
    """The preview's initial build renders in workers; their pieces, not the parent's empty caches, serve the edit."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    scratch = tmp_path / "scratch"
    state = _preview(root, tmp_path / "out", scratch)
    edited, other = _entries(root)[2], _entries(root)[5]
    path = scratch / f"bib{SUFFIX}"
    stamp, rows = _read(path)
    for row in rows:
        if row[0] == other.stem:
            row[2] += "% from the initial build\n"
    _write(path, stamp, rows)
    _retitle(edited, "Retitled in the preview")
    state.update([edited])
    bib = (tmp_path / "out/reading-list.bib").read_text(encoding="utf-8")
    assert "% from the initial build" in bib and "Retitled in the preview" in bib


@pytest.mark.usefixtures("parallel")
def test_the_preview_stops_using_pieces_once_a_template_changes(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    state = _preview(root, tmp_path / "out", tmp_path / "scratch")
    item = root / "themes/default/templates/partials/item.html"
    item.write_text(item.read_text(encoding="utf-8").replace("<article", "<article data-edited", 1), encoding="utf-8")
    edited = _entries(root)[1]
    _retitle(edited, "Retitled after a template edit")
    state.update([item])
    state.update([edited])
    recent = (tmp_path / "out/recent/index.html").read_text(encoding="utf-8")
    assert recent.count("data-edited") == PAPERS
    _preview(root, tmp_path / "clean", tmp_path / "scratch-clean")
    assert tree_bytes(tmp_path / "out") == tree_bytes(tmp_path / "clean")


STORE_ROWS = st.lists(st.tuples(st.from_regex(r"[a-z0-9-]{1,12}", fullmatch=True), st.text(max_size=6), st.text()),
                      max_size=12)


@settings(max_examples=200, deadline=None)
@given(rows=STORE_ROWS)
def test_a_store_gives_back_any_text(rows: list[tuple[str, str, str]]) -> None:
    """Line breaks of every kind, digits, JSON and astral characters in a fragment: none of it is structure."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "store"
        assert _write(path, "stamp", [list(row) for row in rows]) == len(rows)
        assert _read(path) == ("stamp", [list(row) for row in rows])


def test_a_store_keeps_line_breaks_of_every_kind(tmp_path: Path) -> None:
    rows = [["a", "m", text] for text in ("a\nb", "c\r\nd\re", "f\u2028g\u2029h\x85i", "", "<p>é & 𝑥</p>", "\n12\n")]
    assert _write(tmp_path / "store", "stamp", rows) == len(rows)
    assert _read(tmp_path / "store") == ("stamp", rows)


def test_a_cut_or_padded_store_is_refused_not_misread(tmp_path: Path) -> None:
    rows = [["one", "m1", "first fragment\n"], ["two", "m2", "sécond"], ["three", "m3", ""]]
    path = tmp_path / "store"
    _write(path, "stamp", rows)
    whole = path.read_bytes()
    index_ends = whole.rindex(b"\n", 0, len(whole) - 1)
    shifted = b"xy" + whole[:index_ends] + b"\n%d\n" % (int(whole[index_ends + 1:]) + 2)  # an index that fits no more
    damaged = [whole[:cut] for cut in range(len(whole) - 1)] + [b"x" + whole, whole[:-2] + b"0\n", shifted]
    for data in damaged:
        path.write_bytes(data)
        try:
            read = _read(path)
        except (ValueError, KeyError, TypeError, IndexError):
            continue
        assert read == ("stamp", rows), data  # the one cut that may still read: the final line break


def _layout(root: Path, name: str) -> dict[str, Any]:
    layout = json.loads((root / CACHE_DIR / FOLDER / f"{name}{LAYOUT}").read_text(encoding="utf-8"))
    assert isinstance(layout, dict)
    return layout


def _start(layout: dict[str, Any], slug: str) -> int:
    """Where a paper's piece starts in the whole-list file, as its layout says."""
    start = layout["head"]
    for other, length in zip(layout["slugs"], layout["lengths"], strict=True):
        if other == slug:
            return int(start)
        start += length + layout["gap"]
    raise AssertionError(f"{slug} is not in the layout")


def _tamper_in_place(path: Path, start: int, old: bytes, new: bytes) -> None:
    """Change bytes without changing the size or modification time: the output check cannot see it."""
    assert len(old) == len(new)
    st = path.stat()
    data = path.read_bytes()
    assert data[start:start + len(old)] == old
    path.write_bytes(data[:start] + new + data[start + len(old):])
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


@pytest.mark.parametrize("name", STORES)
def test_a_front_matter_edit_takes_the_other_papers_pieces_from_the_output(site: Path, tmp_path: Path,
                                                                           name: str) -> None:
    """The pieces come from the whole-list file as the last build wrote it, where its layout says."""
    public = tmp_path / "public"
    edited, other = _entries(site)[2], _entries(site)[5]
    start = _start(_layout(site, name), other.stem)
    first = (public / OUTPUT_OF[name]).read_bytes()[start:start + 1]
    _tamper_in_place(public / OUTPUT_OF[name], start, first, b"~")
    _retitle(edited, "A retitled paper: pieces & layouts")
    build(site, public, search=False)
    data = (public / OUTPUT_OF[name]).read_bytes()
    assert data[_start(_layout(site, name), other.stem)] == ord("~")
    assert b"A retitled paper: pieces" in data  # the edited paper's piece is rendered again


def test_a_layout_of_other_bytes_is_not_used(site: Path, tmp_path: Path) -> None:
    """A whole-list file rewritten since its layout was saved: the stores' fingerprinted pieces serve."""
    public = tmp_path / "public"
    for name in STORES:
        layout = _layout(site, name)
        layout["digest"] = "0" * 64
        (site / CACHE_DIR / FOLDER / f"{name}{LAYOUT}").write_text(json.dumps(layout), encoding="utf-8")
    _retitle(_entries(site)[3], "Retitled with layouts that lie")
    build(site, public, search=False)
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")
    assert all(_layout(site, name)["digest"] != "0" * 64 for name in STORES), "saved again by the join"


def test_pieces_from_the_output_follow_a_date_edit_that_moves_the_paper(site: Path, tmp_path: Path) -> None:
    public = tmp_path / "public"
    entry = _entries(site)[1]
    text = entry.read_text(encoding="utf-8")
    entry.write_text(re.sub(r"(?m)^date: .*$", "date: 2017-03-04", text, count=1), encoding="utf-8")
    build(site, public, search=False)
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


def _spliced_source(tmp_path: Path) -> tuple[Path, bytes]:
    source = tmp_path / "last.bib"
    data = bytes(range(256)) * 9000  # 2.3 MB: spans over several of the copy's buffers
    source.write_bytes(data)
    return source, data


@pytest.mark.parametrize("kernel_copies", [True, False])
def test_a_spliced_file_writes_its_spans_and_new_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   kernel_copies: bool) -> None:
    """Spans of the last build's file and new bytes, in order; where the kernel cannot copy between
    the files (another file system), through a buffer, to the same bytes."""
    if not kernel_copies:
        def refused(*args: object) -> int:
            raise OSError(errno.EXDEV, "Invalid cross-device link")

        monkeypatch.setattr(os, "copy_file_range", refused)
    source, data = _spliced_source(tmp_path)
    parts: list[bytes | tuple[int, int]] = [b"[\n", (5, 1_500_000), b"\xc3\xa9 new", (1_600_000, 700_001), b"\n]\n"]
    expected = b"[\n" + data[5:1_500_005] + "é new".encode() + data[1_600_000:2_300_001] + b"\n]\n"
    spliced = Spliced(source, parts)
    assert len(spliced) == len(expected) and bytes(spliced) == expected
    target = tmp_path / "public" / "reading-list.bib"
    write_atomic(target, spliced)
    assert target.read_bytes() == expected
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".tmp")]


def test_a_spliced_file_whose_source_was_cut_short_is_refused(tmp_path: Path) -> None:
    source, data = _spliced_source(tmp_path)
    spliced = Spliced(source, [b"x", (1_000_000, 1_000_000)])
    source.write_bytes(data[:1_500_000])
    target = tmp_path / "public" / "reading-list.bib"
    target.parent.mkdir()
    target.write_bytes(b"as it was")
    with pytest.raises(OSError, match="cut short"):
        write_atomic(target, spliced)
    assert target.read_bytes() == b"as it was" and len(list(target.parent.iterdir())) == 1


def test_a_front_matter_edit_splices_the_whole_list_files_from_the_last_build(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The four whole-list files of a new build process's edit are written from the output's own, by the kernel."""
    written: list[str] = []
    real = Spliced.write_to

    def counted(self: Spliced, fd: int) -> None:
        written.append(self.source.name)
        real(self, fd)

    monkeypatch.setattr(Spliced, "write_to", counted)
    public = tmp_path / "public"
    _retitle(_entries(site)[4], "Spliced: a retitled paper & its lists")
    build(site, public, search=False)
    assert sorted(written) == sorted(OUTPUT_OF.values())
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


def _item_hits(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """(slug, taken from a store) for every list item or feed entry an update asks the item stores for."""
    asked: list[tuple[str, bool]] = []
    real = ItemStore.get

    def counted(self: ItemStore, key: tuple[str, str, int], papers: Any) -> str | None:
        found = real(self, key, papers)
        asked.append((key[0], found is not None))
        return found

    monkeypatch.setattr(ItemStore, "get", counted)
    return asked


@pytest.mark.parametrize("workers", [1, 2])
def test_a_front_matter_edit_takes_the_other_papers_list_items_from_the_last_full_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    """Every render process of a full build saves its list items and feed entries; an edit in a new process
    takes those of the papers it did not change, and renders the edited paper's again."""
    import sitegen.build.parallel as parallel_module

    monkeypatch.setattr(parallel_module, "PARALLEL_THRESHOLD", 0)
    root = copy_site(tmp_path / "site", papers=PAPERS)
    public = tmp_path / "public"
    build(root, public, search=False, jobs=workers)
    stores = sorted(p.name for p in (root / CACHE_DIR / FOLDER).glob(f"{ITEMS}-*{SUFFIX}"))
    # one store per render process that rendered any list item or feed entry: with two, which of
    # them renders some depends on how the schedule's chunks fall, so both need not have one
    assert stores and {name.split("-")[1] for name in stores} <= {str(i) for i in range(workers)}
    asked = _item_hits(monkeypatch)
    edited = _entries(root)[3]
    _retitle(edited, "Items: a retitled paper & its lists")
    build(root, public, search=False)
    taken = {slug for slug, hit in asked if hit}
    assert taken and edited.stem not in taken
    assert (edited.stem, False) in asked  # asked, and rendered again: its fingerprint moved
    assert tree_bytes(public) == _clean(root, tmp_path / "clean")


def test_stored_items_are_taken_by_saved_fingerprints_without_making_the_papers(site: Path) -> None:
    """A saved model's papers carry the fingerprints they were saved with (model_cache.SavedPapers):
    a paper not made since is matched by that, and never made; a paper set since, by its own."""
    from sitegen.common.errors import Report
    from sitegen.content import config as site_config
    from sitegen.content.loader import load_content
    from sitegen.model import model

    built = model.build_site(site_config.load(site), load_content(site, Report(), None, 1))
    saved = sorted((site / CACHE_DIR / FOLDER).glob(f"{ITEMS}-*{SUFFIX}"))
    stores = FragmentStores(site / CACHE_DIR / FOLDER, read_store(saved[0])[0])  # the full build's inputs
    every = {slug: built.papers[slug] for slug in built.order}
    variant = next(v for v in (("feed", 1), ("feed", 0), ("../../", 3), ("../../", 2), ("", 2))
                   if all(stores.items().get((slug, *v), every) for slug in built.order))
    key = ("", *variant)
    made: list[str] = []

    def make(slug: str) -> model.Paper:
        made.append(slug)
        return built.papers[slug]

    papers = FingerprintedPapers(built.order, make)
    papers.marks = {slug: fingerprint(paper) for slug, paper in built.papers.items()}
    first, second, third = built.order[:3]
    found = {slug: stores.items().get((slug, *key[1:]), papers) for slug in built.order}
    assert all(found.values()) and not made  # every feed entry matched, no paper made
    assert stores.mark_of(first, papers) == papers.marks[first] and not made

    papers.marks[second] = "0" * 20  # as saved before an edit: its stored item was saved for another paper
    assert stores.items().get((second, *key[1:]), papers) is None and not made
    papers[second] = built.papers[second]  # set by an edit's patch: checked by its own fingerprint again
    assert stores.items().get((second, *key[1:]), papers) == found[second] and not made
    assert papers.saved_mark(second) is None
    assert papers[third] is built.papers[third] and made == [third]  # made when read: its saved mark no longer says
    assert papers.saved_mark(third) is None and stores.mark_of(third, papers) == fingerprint(built.papers[third])
    stores.close()


@pytest.mark.parametrize("damage", ["stamp", "cut", "marked"])
def test_item_stores_of_other_inputs_or_damaged_are_not_used(site: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    public = tmp_path / "public"
    paths = sorted((site / CACHE_DIR / FOLDER).glob(f"{ITEMS}-*{SUFFIX}"))
    assert paths
    for path in paths:
        stamp, rows = _read(path)
        if damage == "stamp":
            _write(path, "another build's inputs", rows)
        elif damage == "cut":
            path.write_bytes(path.read_bytes()[:-7])
        else:  # a fingerprint no paper has: the item is not the one saved for the paper as it is
            _write(path, stamp, [[slug, "0" * 20, text + "MARKER"] for slug, _, text in rows])
    asked = _item_hits(monkeypatch)
    _retitle(_entries(site)[2], "Retitled beside damaged item stores")
    build(site, public, search=False)
    assert asked and not any(hit for _, hit in asked)
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


def test_an_edit_that_renders_many_pieces_again_reads_the_rest_into_the_file_and_saves_the_stores(
        site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where an edit renders enough pieces again that the stores are worth saving, the file is joined in a
    buffer (the pieces saved as views of it), the last build's runs read straight into it."""
    spliced: list[Path] = []
    monkeypatch.setattr(Spliced, "write_to", lambda self, fd: spliced.append(self.source))
    monkeypatch.setattr(FragmentStores, "worth_saving", lambda self, name, held: True)
    public = tmp_path / "public"
    before = {name: _store(site, name).stat().st_mtime_ns for name in STORES}
    _retitle(_entries(site)[5], "Joined in a buffer: many pieces & a retitled paper")
    build(site, public, search=False)
    assert not spliced
    assert all(_store(site, name).stat().st_mtime_ns != before[name] for name in STORES)  # saved again
    assert tree_bytes(public) == _clean(site, tmp_path / "clean")


def test_a_full_build_replaces_the_item_stores_and_what_an_unfinished_save_left(site: Path, tmp_path: Path) -> None:
    folder = site / CACHE_DIR / FOLDER
    stale = [folder / f"{ITEMS}-7-0123456789{SUFFIX}", folder / f".{ITEMS}-1-0123456789{SUFFIX}.4242.tmp"]
    for path in stale:
        path.write_bytes(b"left by an earlier build")
    build(site, tmp_path / "again", search=False)  # another output: a full build
    assert not any(path.exists() for path in stale)
    assert list(folder.glob(f"{ITEMS}-0-*{SUFFIX}"))


@settings(max_examples=150, deadline=None)
@given(count=st.integers(1, 40), data=st.data())
def test_a_whole_list_file_in_parts_is_the_same_by_order_or_by_place(count: int, data: st.DataObject) -> None:
    """`FilePieces.moved` finds what differs by comparing the orders; whatever moved, went stale
    or was made anew, the parts join to the same file as looking each paper up gives, and
    that file is the pieces in the new order."""
    from sitegen.render.fragments import DIGEST_SIZE, FilePieces, piece_digest
    from sitegen.render.render import _filled, _parts, _parts_by_place

    slugs = [f"paper-{i}" for i in range(count)]
    old = {slug: f"@{slug}{{{'x' * (i % 7)}}}".encode() for i, slug in enumerate(slugs)}
    head, gap = b"[\n", b",\n"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "list.json"
        path.write_bytes(head + gap.join(old[s] for s in slugs) + b"\n]\n")
        order = list(slugs)
        for _ in range(data.draw(st.integers(0, 3))):  # papers moving among their neighbours
            if len(order) > 1:
                i = data.draw(st.integers(0, len(order) - 2))
                order[i], order[i + 1] = order[i + 1], order[i]
        change = data.draw(st.sampled_from(["none", "added", "removed", "one for another"]))
        if change in ("removed", "one for another") and len(order) > 1:
            order.remove(data.draw(st.sampled_from(order)))
        if change in ("added", "one for another"):
            order.insert(data.draw(st.integers(0, len(order))), "paper-new")
        stale = set(data.draw(st.lists(st.sampled_from(slugs), max_size=3))) if slugs else set()
        fresh = set(data.draw(st.lists(st.sampled_from(order), max_size=2))) if order else set()
        new = {slug: f"@{slug}{{new}}".encode() for slug in order}

        def joined(split: Any) -> tuple[bytes, list[int], bytes]:
            with open(path, "rb") as handle:
                pieces = FilePieces(handle, path.stat().st_size, len(head), len(gap), slugs,
                                    [len(old[s]) for s in slugs], b"".join(piece_digest(old[s]) for s in slugs), stale)
                lengths: list[int] = []
                sums = bytearray()
                parts = split(tuple(order), pieces, {s: new[s] for s in fresh}, new.__getitem__, lengths, sums)
                return bytes(_filled(parts, pieces, head, gap, b"\n]\n")), lengths, bytes(sums)

        by_order, by_place = joined(_parts), joined(_parts_by_place)
        assert by_order == by_place
        expected = [old[s] if s in old and s not in stale and s not in fresh else new[s] for s in order]
        assert by_order[0] == head + gap.join(expected) + b"\n]\n"
        assert by_order[1] == [len(piece) for piece in expected]
        assert by_order[2] == b"".join(piece_digest(piece) for piece in expected)
        assert len(by_order[2]) == DIGEST_SIZE * len(order)
