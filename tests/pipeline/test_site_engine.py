"""The site on the engine equals the old build, cold and after any sequence of edits.

The old-equals-new contract for switching `build` and `serve` to the engine: the
engine's output after random edits, additions, deletions, renames, settings, template
and stylesheet changes is byte for byte what a clean build of the old pipeline writes.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sitegen.common.errors import SitegenError
from sitegen.model import routes
from sitegen.pipeline.build import build
from sitegen.pipeline.site_engine import SiteEngine
from sitegen.serve.serve import ON_REQUEST

from ..site_factory import copy_site, tree_bytes
from .test_incremental import OPS, PAPERS, apply, seen

ALL = 12


@pytest.fixture(scope="module", autouse=True)
def short_recent_page() -> Iterator[None]:
    """Fewer papers on the recently-added page than on the site, so edits move papers on and off it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(routes, "RECENT_SIZE", PAPERS - 3)
        yield


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_site(tmp_path_factory.mktemp("pristine") / "site", papers=PAPERS)


def _clean(root: Path, folder: Path) -> dict[str, bytes]:
    build(root, folder, search=False, use_cache=False)
    return tree_bytes(folder)


def test_a_cold_engine_build_equals_the_old_build(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site")
    engine = SiteEngine(root, tmp_path / "new")
    change = engine.build()
    assert change.rendered == len(engine.last.plan)
    assert tree_bytes(tmp_path / "new") == _clean(root, tmp_path / "old")


# Examples per property, kept to what CI affords (each run draws new ones): a clean build follows every edit
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(OPS, min_size=1, max_size=6))
# author pages made redirects and back, and redirects again
@example(ops=[("byline", 0, 1), ("alias", 0, 0), ("alias", 0, 1), ("unalias", 0, 0), ("byline", 2, 2), ("alias", 0, 2)])
@example(ops=[("sighting", 49, 29), ("unmention", 37, 3), ("title", 27, 20), ("title", 0, 1), ("mention", 27, 21)])
def test_any_edit_sequence_equals_a_clean_build(pristine: Path, ops: list[tuple[str, int, int]]) -> None:
    work = Path(tempfile.mkdtemp(prefix="engine-"))
    try:
        root = work / "site"
        shutil.copytree(pristine, root)
        engine = SiteEngine(root, work / "engine")
        engine.build()
        for op in ops:
            engine.update(apply(root, op))
            assert tree_bytes(work / "engine") == _clean(root, work / "clean"), op
    finally:
        shutil.rmtree(work, ignore_errors=True)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(st.tuples(OPS, st.booleans()), min_size=1, max_size=6))
# an author's page made a redirect by an edit of an author file: a page at the same address, made another way
@example(ops=[(("byline", 0, 1), False), (("alias", 0, 0), True), (("alias", 0, 1), False)])
def test_the_preview_policy_after_any_edit_sequence_equals_a_clean_preview(
        pristine: Path, ops: list[tuple[tuple[str, int, int], bool]]) -> None:
    """Pages left pending (all but the edited paper's after an entry edit, and the whole-list downloads until
    asked for) are written as the site then stands; once flushed, the output is what a new preview shows."""
    work = Path(tempfile.mkdtemp(prefix="engine-"))
    try:
        root = work / "site"
        shutil.copytree(pristine, root)
        engine = SiteEngine(root, work / "engine", asset_versions=False, durable=False, on_request=ON_REQUEST,
                            write_later=True)
        engine.build()
        for op, settle in ops:
            engine.update(apply(root, op))
            assert not set(engine.waiting()) & {out for out, key in engine.pending.items() if key[1] in ON_REQUEST}
            if settle:  # what the preview writes after the reload, unless the next edit comes first
                engine.flush(engine.waiting())
        engine.flush()  # what a request for each pending download does
        fresh = SiteEngine(root, work / "fresh", asset_versions=False)
        fresh.build()
        assert tree_bytes(work / "engine") == tree_bytes(work / "fresh")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_a_notes_edit_renders_only_its_paper_page(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=ALL)
    paper = sorted((root / "content/papers").glob("*.md"))[3]
    paper.write_text(paper.read_text() + "\nMy take, which cards show.\n")
    engine = SiteEngine(root, tmp_path / "out")
    engine.build()
    paper.write_text(paper.read_text() + "\nA new thought.\n")
    change = engine.update([paper])
    page = f"papers/{paper.stem}/index.html"
    assert page in change.written
    assert not [out for out in change.written if out.endswith(".html") and out != page], "no listing shows notes"
    assert all(out.endswith((".xml", ".json")) for out in change.written if out != page)  # feeds carry notes
    pages = [k for k in engine.engine.memo.records if k[0] == "page"]
    assert len(pages) == len(engine.last.plan)
    paper.write_text(paper.read_text().replace("My take, which", "My new take, which"))
    change = engine.update([paper])
    assert "index.html" in change.written  # the first paragraph is the card's take: the lists show it


def test_a_title_edit_renders_only_the_pages_that_show_the_title(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=ALL)
    engine = SiteEngine(root, tmp_path / "out")
    engine.build()
    paper = sorted((root / "content/papers").glob("*.md"))[3]
    apply(root, ("title", 3, 1))
    change = engine.update([paper])
    assert 0 < change.rendered < len(engine.last.plan) / 4
    assert f"papers/{paper.stem}/index.html" in change.written
    assert not [out for out in change.written if out.startswith("papers/") and paper.stem not in out
                and out.endswith(("cite.bib", "cite.ris", "cite.json"))]  # other papers' citations show no title
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")


def test_sightings_bring_the_rising_page_change_only_what_shows_them_and_take_it_away(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=ALL)
    engine = SiteEngine(root, tmp_path / "out")
    engine.build()
    papers = sorted((root / "content/papers").glob("*.md"))
    rising = tmp_path / "out/rising/index.html"
    assert not rising.exists()
    engine.update([seen(papers[0], ("2026-04-17", 2), ("2026-05-19", 9))])  # the first gain: a page, a menu link
    assert rising.is_file() and 'href="rising/"' in (tmp_path / "out/index.html").read_text()
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")
    change = engine.update([seen(papers[1], ("2026-04-17", 1), ("2026-05-19", 4))])  # a second gain
    pages = {out for out in change.written if out.endswith(".html")}
    assert pages == {"rising/index.html", f"papers/{papers[1].stem}/index.html"}  # nothing else shows sightings
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean2")
    engine.update([seen(papers[0], ("2026-05-19", 9)), seen(papers[1])])  # no paper seen on both days now
    assert not rising.exists() and "rising/" not in (tmp_path / "out/index.html").read_text()
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean3")


def test_a_failed_update_changes_nothing_and_the_next_one_catches_up(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=ALL)
    engine = SiteEngine(root, tmp_path / "out")
    engine.build()
    before = tree_bytes(tmp_path / "out")
    records = dict(engine.engine.memo.records)
    paper = sorted((root / "content/papers").glob("*.md"))[2]
    good = paper.read_text()
    paper.write_text(good.replace("title:", "title: [unclosed", 1))
    with pytest.raises(SitegenError):
        engine.update([paper])
    assert tree_bytes(tmp_path / "out") == before
    assert engine.engine.memo.records == records
    paper.write_text(good.replace("title:", "title: Fixed —", 1))
    engine.update([paper])
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")


@pytest.mark.parametrize("op", [("title", 1, 2), ("body", 2, 1), ("tags", 3, 1), ("delete", 4, 1), ("new", 0, 7)])
def test_a_build_across_workers_equals_one_process_and_its_memo_serves_later_edits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, op: tuple[str, int, int]) -> None:
    from sitegen.pipeline import parallel

    root = copy_site(tmp_path / "site", papers=ALL)
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 0)
    engine = SiteEngine(root, tmp_path / "out")
    engine.build(jobs=2)
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")
    items = [k for k, r in engine.engine.memo.records.items() if k[0] == "item"]
    assert items and all(isinstance(engine.engine.memoized(*k), str) for k in items)  # shipped, decoded when read
    engine.update(apply(root, op))
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean2")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(OPS, min_size=1, max_size=5))
@example(ops=[("mention", 0, 2)])  # the paper named: its page says where it is mentioned, the model read from disk
def test_builds_in_new_processes_with_the_memo_on_disk_equal_a_clean_build(
        pristine: Path, ops: list[tuple[str, int, int]]) -> None:
    """The build policy: each build opens the memo the last one saved, finds the changed files by their stats,
    and writes in place only what changed; the output always equals a clean build."""
    from sitegen.pipeline.persisted import run_build

    work = Path(tempfile.mkdtemp(prefix="engine-"))
    try:
        root = work / "site"
        shutil.copytree(pristine, root)
        run_build(root, work / "out", None, False, 1)
        for op in ops:
            settings = (root / "site.yaml").read_bytes()
            apply(root, op)
            _, full = run_build(root, work / "out", None, False, 1)
            # settings render it all; a config edit may write the value already there (then nothing moved)
            assert full == ((root / "site.yaml").read_bytes() != settings) or op[0] in ("css", "template")
            assert tree_bytes(work / "out") == _clean(root, work / "clean"), op
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_an_output_edited_by_hand_makes_the_next_build_render_everything(tmp_path: Path) -> None:
    from sitegen.pipeline.persisted import run_build

    root = copy_site(tmp_path / "site", papers=ALL)
    run_build(root, tmp_path / "out", None, False, 1)
    (tmp_path / "out" / "index.html").write_text("edited by hand")
    (tmp_path / "out" / "stray.html").write_text("added by hand")
    apply(root, ("title", 1, 2))
    _, full = run_build(root, tmp_path / "out", None, False, 1)
    assert full
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")
    _, full = run_build(root, tmp_path / "out", None, False, 1)
    assert not full


def test_the_search_shards_wait_for_the_memos_reverse_edges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a preview's first build, a thread makes the memo's reverse edges while the search shards are asked
    for, which adds records to the memo: the shards must wait for the thread, or it reads a dict that changes."""
    import threading
    import time

    from sitegen.pipeline.engine.memo import Memo
    from sitegen.pipeline.site_engine import search_shards
    from sitegen.serve.serve import preview_state

    made = Memo.readers_of
    crashed: list[BaseException] = []

    def slow(memo: Memo, ident: int) -> set[int]:  # the edges of a large list take a while
        if threading.current_thread().name == "sitegen-memo-index":
            try:
                for _ in memo.records.values():  # one record at a time, as a large memo's edges take seconds
                    time.sleep(0.002)
                return made(memo, ident)
            except BaseException as exc:
                crashed.append(exc)
                raise
        return made(memo, ident)
    monkeypatch.setattr(Memo, "readers_of", slow)
    root = copy_site(tmp_path / "site", papers=4)
    state = preview_state(root, tmp_path / "out")
    state.full()
    shards = search_shards(state, 2)
    time.sleep(0.1)
    state.update([])  # waits for the thread as any update does
    assert shards and crashed == []


def test_a_new_mention_renders_the_two_papers_pages_and_no_other(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=ALL)
    papers = sorted((root / "content/papers").glob("*.md"))
    writer, named, other = papers[3], papers[7], papers[5]
    writer.write_text(writer.read_text() + "\nMy take, which cards show.\n")  # a first paragraph: cards unchanged
    engine = SiteEngine(root, tmp_path / "out")
    engine.build()
    writer.write_text(writer.read_text() + f"\nCompare [[{named.stem}|this one]].\n")
    change = engine.update([writer])
    pages = {out for out in change.written if out.endswith(".html")}
    assert pages == {f"papers/{writer.stem}/index.html", f"papers/{named.stem}/index.html"}
    mentioned = (tmp_path / "out" / "papers" / named.stem / "index.html").read_text()
    assert "Mentioned in" in mentioned and f'href="../../papers/{writer.stem}/"' in mentioned
    assert "Mentioned in" not in (tmp_path / "out" / "papers" / other.stem / "index.html").read_text()
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")


def test_a_rebuild_in_a_new_process_links_a_new_mention(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=ALL)
    papers = sorted((root / "content/papers").glob("*.md"))
    writer, named = papers[3], papers[7]
    build(root, tmp_path / "out", search=False)  # the model saved on disk, read back by the next build
    writer.write_text(writer.read_text() + f"\nCompare [[{named.stem}]].\n")
    result = build(root, tmp_path / "out", search=False)
    assert 2 <= result.written < 20  # the two pages, the feeds and data files: not the site
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")
