"""Incremental rebuilds are provably right: after any edit sequence, output == a fresh full build."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen import __version__
from sitegen.build import buildstate, incremental
from sitegen.build.build import build
from sitegen.build.incremental import OutputsChanged, SiteState
from sitegen.build.output_check import outputs_intact
from sitegen.common.errors import Location, Report, SitegenError
from sitegen.common.forked import ForkedBytes
from sitegen.content import config as site_config
from sitegen.content.cache import CACHE_DIR, EntryCache
from sitegen.content.loader import Content, load_content
from sitegen.model import model, routes
from sitegen.render.render import Rendered, Renderer
from sitegen.serve.serve import ON_REQUEST, preview_state

from ..site_factory import copy_site, edit_cached_entry, tree_bytes

PAPERS = 8


def _papers(root: Path) -> list[Path]:
    return sorted((root / "content/papers").glob("*.md"))


def _replace_field(path: Path, key: str, value: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith(f"{key}:"):
            lines[i] = f"{key}: {value}\n"
            j = i + 1
            while j < len(lines) and (lines[j].startswith("  ") or lines[j].startswith("- ")):
                del lines[j]
            break
    else:
        lines.insert(1, f"{key}: {value}\n")
    path.write_text("".join(lines))


def apply(root: Path, op: tuple[str, int, int]) -> list[Path]:
    """Perform one edit on the site; return the paths it touched."""
    kind, a, b = op
    papers = _papers(root)
    target = papers[a % len(papers)] if papers else None
    if kind == "title" and target:
        _replace_field(target, "title", f"'Edited title {b}: with a colon & ampersand'")
    elif kind == "date" and target:
        _replace_field(target, "date", f"20{10 + b % 16}-0{1 + b % 9}-1{b % 9}")
    elif kind == "undate" and target:
        _replace_field(target, "date", "null")
    elif kind == "tags" and target:
        _replace_field(target, "tags", f"[topic-{b % 3}, shared]")
    elif kind == "authors" and target:
        _replace_field(target, "authors", f"[Author {b % 4}, Łukasz Kaiser]")
    elif kind == "body" and target:
        target.write_text(target.read_text() + f"\nNote {b} with *emphasis* and $x^{b}$.\n")
    elif kind == "abstract" and target:
        _replace_field(target, "abstract", f"'Abstract {b} with $x<{b}$ & more.'")
    elif kind == "status" and target:  # into the reading queue, within it, or out of it
        _replace_field(target, "status", ("to-read", "reading", "read")[b % 3])
    elif kind == "added" and target:
        _replace_field(target, "added", f"2026-0{1 + b % 9}-01")
    elif kind == "new":
        target = root / f"content/papers/new-paper-{b}.md"
        target.write_text(f"---\ntitle: New paper {b}\nauthors: [Author {b % 4}]\ndate: 2024-05-0{1 + b % 9}\n"
                          f"tags: [topic-{b % 3}]\n---\n")
    elif kind == "delete" and target and len(papers) > 2:
        target.unlink()
    elif kind == "rename" and target:
        moved = target.with_name(f"renamed-{b}-{target.name}")
        target.rename(moved)
        return [target, moved]
    elif kind == "template":
        target = root / "themes/default/templates/partials/item.html"
        target.write_text(target.read_text().replace('class="item"', f'class="item v{b}"', 1)
                          .replace(f'class="item v{b - 1}"', f'class="item v{b}"'))
    elif kind == "config":
        target = root / "site.yaml"
        _replace_field(target, "page_size", str(3 + b % 5))
    elif kind == "css":
        target = root / "themes/default/static/style.css"
        target.write_text(target.read_text() + f"\n.rule-{b} {{ color: red; }}\n")
    return [target] if target else []


OPS = st.tuples(
    st.sampled_from(["title", "date", "undate", "tags", "authors", "body", "abstract", "status", "added", "new",
                     "delete", "rename", "template", "config", "css"]),
    st.integers(0, 50), st.integers(1, 40),
)


@pytest.fixture(scope="module", autouse=True)
def short_recent_page() -> Iterator[None]:
    """Fewer papers on the recently-added page than on the site, so edits move papers on and off it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(routes, "RECENT_SIZE", PAPERS - 3)
        yield


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_site(tmp_path_factory.mktemp("pristine") / "site", papers=PAPERS)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(st.tuples(OPS, st.booleans()), min_size=1, max_size=6), versions=st.booleans())
def test_incremental_equals_full_build(pristine: Path, ops: list[tuple[tuple[str, int, int], bool]],
                                       versions: bool) -> None:
    work = Path(tempfile.mkdtemp(prefix="inc-"))
    try:
        root = work / "site"
        shutil.copytree(pristine, root)
        # without asset versions, as the preview keeps its site (pages other than the edited
        # paper's written after the reload, whole-list downloads on request)
        state = SiteState(root, work / "incremental") if versions else \
            preview_state(root, work / "incremental", work / "scratch")
        state.full()
        for op, settle in ops:
            state.update(apply(root, op))
            if settle:  # the preview writes what waits before the next edit, unless that edit comes first
                state.flush(state.waiting())
        assert versions or all(spec.kind in ON_REQUEST for spec in state.pending.values()) or not all(
            settle for _, settle in ops[-1:])
        state.flush()  # what a request for each pending file does
        fresh = SiteState(root, work / "fresh", asset_versions=versions)
        fresh.full()
        assert tree_bytes(work / "incremental") == tree_bytes(work / "fresh")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_pages_a_patched_edit_moved_a_paper_onto_follow_its_later_edits(tmp_path: Path) -> None:
    """After a date, tag or author edit moves a paper onto other pages, its next edit reaches those pages too.

    Each edit takes its values from other papers, so the site keeps its files and the
    model and plan are patched, not rebuilt.
    """
    root = copy_site(tmp_path / "site", papers=PAPERS)
    _replace_field(root / "site.yaml", "page_size", "2")  # a date edit moves the paper to another home page
    state = SiteState(root, tmp_path / "incremental")
    state.full()
    papers = _papers(root)
    target = papers[0]
    others = [state.entries[p.relative_to(root).as_posix()] for p in papers[1:]]
    dated = [e for e in others if e.date]
    edits = [("date", dated[-1].date.isoformat() if dated[-1].date else ""),
             ("tags", json.dumps(list(others[2].tags))), ("authors", json.dumps(list(others[3].authors))),
             ("date", dated[0].date.isoformat() if dated[0].date else "")]
    for n, (key, value) in enumerate(edits):
        _replace_field(target, key, value)
        state.update([target])
        _replace_field(target, "title", f"'Title after edit {n}'")
        state.update([target])
    fresh = SiteState(root, tmp_path / "fresh")
    fresh.full()
    assert tree_bytes(tmp_path / "incremental") == tree_bytes(tmp_path / "fresh")


def test_failed_update_changes_nothing_and_recovery_catches_up(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    state = SiteState(root, tmp_path / "out")
    state.full()
    before = tree_bytes(tmp_path / "out")
    target = _papers(root)[0]
    good = target.read_text()
    target.write_text(good.replace("title:", "title: [unclosed", 1))
    with pytest.raises(SitegenError) as failure:
        state.update([target])
    assert failure.value.diagnostics[0].location.path.endswith(target.name)
    assert tree_bytes(tmp_path / "out") == before
    target.write_text(good.replace("title: ", "title: Fixed ", 1))
    state.update([target])
    fresh = SiteState(root, tmp_path / "fresh")
    fresh.full()
    assert tree_bytes(tmp_path / "out") == tree_bytes(tmp_path / "fresh")


def test_cli_build_equals_in_memory_full_build(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "cli", search=False)
    state = SiteState(root, tmp_path / "state")
    state.full()
    assert tree_bytes(tmp_path / "cli") == tree_bytes(tmp_path / "state")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(OPS, min_size=1, max_size=5))
def test_cli_rebuilds_with_cache_equal_a_clean_build(pristine: Path, ops: list[tuple[str, int, int]]) -> None:
    """`sitegen build` run after each edit (in-place when it can) ends where a cache-less build does."""
    work = Path(tempfile.mkdtemp(prefix="cli-inc-"))
    try:
        root = work / "site"
        shutil.copytree(pristine, root)
        build(root, work / "public", search=False)
        for op in ops:
            apply(root, op)
            build(root, work / "public", search=False)
        build(root, work / "clean", search=False, use_cache=False)
        assert tree_bytes(work / "public") == tree_bytes(work / "clean")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_noop_rebuild_rewrites_nothing(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "public").rglob("*") if p.is_file()}
    result = build(root, tmp_path / "public", search=False)
    assert result.written == 0 and result.removed == 0
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "public").rglob("*") if p.is_file()} == before


def test_a_rebuild_with_nothing_changed_loads_neither_the_renderer_nor_jinja(tmp_path: Path) -> None:
    """A new process that finds nothing to do stops before the renderer is imported (30 ms of Jinja)."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    code = ("import sys; from pathlib import Path; from sitegen.build.build import build; "
            f"r = build(Path({str(root)!r}), Path({str(tmp_path / 'public')!r}), search=False); "
            "print(r.written, r.unchanged, sorted(m for m in ('jinja2', 'sitegen.render.render') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    written, unchanged, loaded = result.stdout.split(" ", 2)
    assert written == "0" and int(unchanged) > PAPERS
    assert loaded.strip() == "[]"


def test_output_touched_by_hand_forces_a_full_build(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    page = tmp_path / "public" / "index.html"
    page.write_text("tampered")
    build(root, tmp_path / "public", search=False)
    assert page.read_text() != "tampered"


def test_output_touched_by_hand_forces_a_full_build_after_an_edit_too(tmp_path: Path) -> None:
    """The check runs beside the entry restore; its answer still comes before anything is written."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    page = tmp_path / "public" / "tags" / "index.html"
    page.write_text("tampered")
    apply(root, ("title", 1, 2))
    build(root, tmp_path / "public", search=False)
    assert page.read_text() != "tampered"
    assert tree_bytes(tmp_path / "public") == tree_bytes(_clean_build(root, tmp_path / "clean"))


def _built_and_restored(folder: Path, name: str) -> tuple[Path, Path, buildstate.Saved, SiteState]:
    """A site built into folder/public, and the state a new build process restores from it."""
    root = copy_site(folder / name, papers=PAPERS)
    output = folder / "public"
    build(root, output, search=False)
    saved = buildstate.load(root)
    assert saved is not None
    state = buildstate.restore(root, output, saved, EntryCache(root), None, False)
    assert state is not None
    return root, output, saved, state


@pytest.mark.parametrize("op", [("title", 1, 2), ("body", 2, 1), ("tags", 3, 1)])
def test_an_update_told_the_output_changed_writes_nothing(tmp_path: Path, op: tuple[str, int, int]) -> None:
    """`sitegen build` renders while the output is checked; a failed check stops it before the first write."""
    root, output, _, state = _built_and_restored(tmp_path, "site")
    asked: list[int] = []
    state.before_writing = lambda: bool(asked.append(1))
    before = tree_bytes(output)
    with pytest.raises(OutputsChanged):
        state.update(apply(root, op))
    assert asked == [1] and tree_bytes(output) == before


def _count_render_children(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the render children an update forks from now on (0: the work ran here)."""
    children: list[int] = []

    class Counted(ForkedBytes):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            children.append(self.pid)

    monkeypatch.setattr(incremental, "ForkedBytes", Counted)
    return children


@pytest.mark.parametrize("op", [("title", 1, 2), ("authors", 4, 3), ("tags", 3, 1), ("date", 2, 5)])
@pytest.mark.parametrize("child_fails", [False, True])
def test_pages_rendered_in_a_forked_child_beside_the_whole_list_files_equal_a_clean_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, op: tuple[str, int, int], child_fails: bool) -> None:
    """A large list's front-matter edit renders its pages in a child; if the child fails, they render here."""
    monkeypatch.setattr(incremental, "RENDER_BESIDE_PAPERS", 0)
    children = _count_render_children(monkeypatch)
    if child_fails:
        def fails(*args: object) -> bytes:
            raise RuntimeError("the child fails")

        monkeypatch.setattr(incremental, "_rendered", fails)
    root = copy_site(tmp_path / "site", papers=PAPERS)
    output = tmp_path / "public"
    build(root, output, search=False)
    apply(root, op)
    result = build(root, output, search=False)
    assert "rendered" in result.pages_by_kind and children and all(children)  # in place, and in a child
    assert tree_bytes(output) == tree_bytes(_clean_build(root, tmp_path / "clean"))


def _fail_rendering(monkeypatch: pytest.MonkeyPatch, kind: str) -> list[str]:
    """Make rendering a page of this kind fail with a template error; the kinds rendered, in order."""
    rendered: list[str] = []
    real = Renderer.render_file

    def failing(self: Renderer, spec: routes.PageSpec) -> Rendered:
        rendered.append(spec.kind)
        if spec.kind == kind:
            raise SitegenError.single(Location(f"themes/default/templates/{kind}.html", 1), "E401", "boom", "")
        return real(self, spec)

    monkeypatch.setattr(Renderer, "render_file", failing)  # what `render` renders with
    return rendered


def test_a_failure_beside_the_render_child_still_reaps_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(incremental, "RENDER_BESIDE_PAPERS", 0)
    children = _count_render_children(monkeypatch)
    root = copy_site(tmp_path / "site", papers=PAPERS)
    output = tmp_path / "public"
    build(root, output, search=False)
    before = tree_bytes(output)
    _fail_rendering(monkeypatch, "reading-list-ris")  # rendered here, while the child renders the pages
    apply(root, ("title", 1, 2))
    with pytest.raises(SitegenError):
        build(root, output, search=False)
    assert children and all(children)
    for pid in children:  # waited for: no zombie left
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
    assert tree_bytes(output) == before


def test_an_update_that_fails_after_staging_files_replaces_none_and_leaves_no_temporaries(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole-list files are written to temporaries while the pages after them render; a failure drops them."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    output = tmp_path / "public"
    build(root, output, search=False)
    before = tree_bytes(output)
    rendered = _fail_rendering(monkeypatch, "tag")
    apply(root, ("title", 1, 2))
    with pytest.raises(SitegenError):
        build(root, output, search=False)
    assert "reading-list-bib" in rendered[: rendered.index("tag")]  # staged before the failure
    assert tree_bytes(output) == before
    assert not [p for p in output.rglob("*") if p.name.endswith(".tmp")]
    monkeypatch.undo()
    build(root, output, search=False)
    assert tree_bytes(output) == tree_bytes(_clean_build(root, tmp_path / "clean"))


@pytest.mark.parametrize("op", [("title", 1, 2), ("date", 2, 5), ("tags", 3, 1), ("authors", 4, 3),
                                ("abstract", 5, 1), ("added", 6, 2), ("undate", 0, 1)])
def test_a_restored_state_plans_only_the_edited_sections_and_renders_the_same(
        tmp_path: Path, op: tuple[str, int, int]) -> None:
    """A new build process plans the sections showing the edited papers, not 64,000 pages; it must
    select exactly what a scan of the whole plan selects."""
    changes = []
    for name, whole_plan in (("scoped", False), ("whole", True)):
        root, output, _, state = _built_and_restored(tmp_path / name, "site")
        if whole_plan:
            site = state._current_site()
            assert site is not None
            state.plan = {spec.output: spec for spec in routes.plan(site)}
        changes.append(state.update(apply(root, op)))
        assert tree_bytes(output) == tree_bytes(_clean_build(root, tmp_path / name / "clean"))
    scoped, whole = changes
    assert (scoped.papers is None) == (whole.papers is None)
    if op[0] in ("title", "abstract", "added"):
        assert scoped.papers is not None, "the model patch did the work"
    assert (scoped.rendered, scoped.written) == (whole.rendered, whole.written)


def test_parallel_build_equals_single_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sitegen.build.parallel as parallel_module

    root = copy_site(tmp_path / "site")
    monkeypatch.setattr(parallel_module, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(parallel_module, "CHUNK", 37)
    build(root, tmp_path / "parallel", search=False, jobs=2, use_cache=False)
    build(root, tmp_path / "single", search=False, jobs=1, use_cache=False)
    assert tree_bytes(tmp_path / "parallel") == tree_bytes(tmp_path / "single")


def test_stray_file_in_output_disappears_on_rebuild(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    stray = tmp_path / "public" / "papers" / "left-over.html"
    stray.write_text("not from this build")
    build(root, tmp_path / "public", search=False)
    assert not stray.exists()


def test_a_title_edit_re_renders_its_own_pages_not_the_whole_site(tmp_path: Path) -> None:
    """A title takes part in cite keys and in ordering ties, yet changes only the pages that show it."""
    root = copy_site(tmp_path / "site")
    state = SiteState(root, tmp_path / "out")
    total = state.full().rendered
    target = _papers(root)[len(_papers(root)) // 2]
    _replace_field(target, "title", "'A retitled paper: same authors & date'")
    change = state.update([target])
    assert 0 < change.rendered < total / 4
    fresh = SiteState(root, tmp_path / "fresh")
    fresh.full()
    assert tree_bytes(tmp_path / "out") == tree_bytes(tmp_path / "fresh")


def test_cli_title_edit_keeping_key_and_order_re_renders_few_pages(tmp_path: Path) -> None:
    """The same in a new `sitegen build`, for an edit that leaves the list signature as it was."""
    root = copy_site(tmp_path / "site")
    total = sum(build(root, tmp_path / "public", search=False).pages_by_kind.values())
    target = _papers(root)[len(_papers(root)) // 2]
    text = target.read_text(encoding="utf-8")
    start = text.index("\ntitle:") + len("\ntitle:")
    end = text.index("\n", start)
    title = text[start:end].strip()
    quote = title[0] if title[0] in "'\"" else ""
    edited = f"{title[:-1]} (revised){quote}" if quote else f"{title} (revised)"
    target.write_text(text[:start] + " " + edited + text[end:], encoding="utf-8")
    result = build(root, tmp_path / "public", search=False)
    assert 0 < result.pages_by_kind["rendered"] < total / 4
    assert tree_bytes(tmp_path / "public") == tree_bytes(_clean_build(root, tmp_path / "clean"))


def _clean_build(root: Path, folder: Path) -> Path:
    build(root, folder, search=False, use_cache=False)
    return folder


def _clean_preview(root: Path, folder: Path) -> Path:
    """What a preview started now would show: its pages link unversioned assets."""
    SiteState(root, folder, asset_versions=False).full()
    return folder


def test_rebuilds_with_a_relative_root_see_the_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    monkeypatch.chdir(tmp_path)
    build(Path("site"), search=False)
    target = _papers(root)[2]
    _replace_field(target, "title", "'Seen through a relative root'")
    build(Path("site"), search=False)
    assert "Seen through a relative root" in (root / "public/papers" / target.stem / "index.html").read_text()
    assert tree_bytes(root / "public") == tree_bytes(_clean_build(root, tmp_path / "clean"))


def test_a_rebuild_keeps_the_slug_of_an_entry_whose_file_name_is_not_one(tmp_path: Path) -> None:
    """'My Paper (2017).md' is served as papers/my-paper-2017/ by every kind of build, the quick ones too."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    odd = _papers(root)[1]
    odd = odd.rename(odd.with_name("My Paper (2017).md"))
    build(root, tmp_path / "public", search=False)
    assert (tmp_path / "public/papers/my-paper-2017/index.html").is_file()
    other = next(p for p in _papers(root) if p != odd)
    _replace_field(other, "title", "'Retitled beside an oddly named file'")
    build(root, tmp_path / "public", search=False)
    assert tree_bytes(tmp_path / "public") == tree_bytes(_clean_build(root, tmp_path / "clean"))


def test_downloads_left_pending_are_written_as_the_site_stands_after_a_failed_edit(tmp_path: Path) -> None:
    """A failed edit may leave pieces of itself in the renderer's caches; pending downloads must not show them."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    state = preview_state(root, tmp_path / "out", tmp_path / "scratch")
    state.full()
    first, second = _papers(root)[1], _papers(root)[4]
    _replace_field(first, "title", "'A first title edit'")
    state.update([first])
    assert state.pending, "the downloads wait for a request"
    template = root / "themes/default/templates/paper.html"  # the edited paper's page: rendered in the update
    good_template, good_second = template.read_text(), second.read_text()
    template.write_text(good_template.replace("{% block main %}", "{% block main %}{{ no_such_variable }}", 1))
    _replace_field(second, "title", "'A title edit that fails'")
    with pytest.raises(SitegenError):
        state.update([second])  # the preview reloads templates as it renders: the paper's page fails
    template.write_text(good_template)
    state.flush()
    second.write_text(good_second)
    clean = _clean_build(root, tmp_path / "clean")
    for name in routes.WHOLE_LIST_FILES:
        assert (tmp_path / "out" / name).read_bytes() == (clean / name).read_bytes(), name


def test_the_preview_writes_an_edited_papers_page_first_and_the_rest_after(tmp_path: Path) -> None:
    """The update renders the edited paper's own page; its other pages wait, unchanged on disk, for `flush`."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    out = tmp_path / "out"
    state = preview_state(root, out, tmp_path / "scratch")
    state.full()
    edited = _papers(root)[2]
    _replace_field(edited, "title", "'Written first'")
    slug = next(e.slug for e in state.entries.values() if e.source_path.endswith(edited.name))
    authors = [a.slug for a in state.site.papers[slug].authors]
    before = {f: (out / f).read_bytes() for f in (routes.author_page(a) for a in authors)}
    change = state.update([edited])
    assert change.written == [routes.paper_page(slug)], "only the edited paper's own page before the reload"
    assert "Written first" in (out / routes.paper_page(slug)).read_text()
    waiting = state.waiting()
    assert change.deferred == len(waiting) > 0 and set(before) <= set(waiting)
    assert not set(waiting) & set(routes.WHOLE_LIST_FILES), "downloads still wait for a request"
    assert {f: (out / f).read_bytes() for f in before} == before, "not written yet"
    written = state.flush(waiting).written
    assert set(before) <= set(written) and not state.waiting()
    assert all("Written first" in (out / f).read_text() for f in before)
    state.flush()
    assert tree_bytes(out) == tree_bytes(_clean_preview(root, tmp_path / "clean"))


def test_a_page_that_fails_after_the_reload_stays_pending_until_it_renders(tmp_path: Path) -> None:
    """A template that fails only on the edited data fails in `flush`: the old page stays, the error names the line."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    out = tmp_path / "out"
    state = preview_state(root, out, tmp_path / "scratch")
    state.full()
    item = root / "themes/default/templates/partials/item.html"
    good = item.read_text()
    item.write_text(good + "{% if 'EXPLODE' in e.title %}{{ no_such_variable }}{% endif %}\n")
    state.update([item])  # no paper's title has it yet: every listing renders
    edited = _papers(root)[2]
    _replace_field(edited, "title", "'EXPLODE on the listings'")
    change = state.update([edited])
    assert change.deferred and change.written, "the paper's own page shows no list item of itself"
    tags = [f for f in state.waiting() if f.startswith("tags/") and f.endswith("index.html")]
    before = (out / tags[0]).read_bytes()
    with pytest.raises(SitegenError) as failed:
        state.flush(tags[:1])
    assert "themes/default/templates/partials/item.html:" in str(failed.value.diagnostics[0].format())
    assert tags[0] in state.waiting() and (out / tags[0]).read_bytes() == before
    item.write_text(good)
    state.update([item])
    state.flush()
    assert not state.pending
    assert tree_bytes(out) == tree_bytes(_clean_preview(root, tmp_path / "clean"))


def test_a_rebuild_in_place_amends_the_table_of_outputs_instead_of_rewriting_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The saved rows of the files a title edit rewrote are trusted by the next build as much as the table."""
    import sitegen.build.build as build_module

    root, public = copy_site(tmp_path / "site", papers=PAPERS), tmp_path / "public"
    table = root / CACHE_DIR / buildstate.OUTPUTS
    build(root, public, search=False)
    before = table.read_bytes()
    target = _papers(root)[3]
    _replace_field(target, "title", "'Retitled in place'")
    written = build(root, public, search=False).written
    assert written > 0 and table.read_bytes() == before
    saved = buildstate.load(root)
    assert saved is not None and len(saved.patched) == written
    assert build(root, public, search=False).written == 0
    assert table.read_bytes() == before, "the amended table still says the output is intact: no full build"
    edited_page = public / next(out for out in saved.patched if out.endswith(".html"))
    edited_page.write_text("touched by hand")
    build(root, public, search=False)
    assert edited_page.read_text() != "touched by hand", "a rewritten file is checked against its amended row"
    monkeypatch.setattr(build_module, "MAX_PATCHED_ROWS", 0)
    _replace_field(target, "title", "'Retitled once more'")
    build(root, public, search=False)
    assert table.read_bytes() != before and buildstate.load(root).patched == {}  # type: ignore[union-attr]
    assert tree_bytes(public) == tree_bytes(_clean_build(root, tmp_path / "clean"))


@pytest.mark.parametrize("op", [("title", 1, 2), ("title", 2, 7), ("date", 2, 5), ("tags", 3, 1), ("authors", 4, 3),
                                ("abstract", 5, 1), ("added", 6, 2), ("undate", 0, 1)])
def test_an_edit_said_to_keep_the_list_signature_keeps_it(tmp_path: Path, op: tuple[str, int, int]) -> None:
    """`same_signature` may only say yes where working the signature out again gives the same digest."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    for first in range(2):  # the second edit of a title keeps its cite-key base
        before = _site_content(root)
        apply(root, (op[0], op[1], op[2] + first))
        after = _site_content(root)
        old_site, new_site = (model.build_site(site_config.load(root), c) for c in (before, after))
        old_entries = {e.source_path: e for e in before.entries}
        edits = [(old_entries[e.source_path], e) for e in after.entries if old_entries[e.source_path] != e]
        same = incremental.same_signature(edits, False, old_site.order, new_site.order)
        if same:
            assert incremental.list_signature(before, False) == incremental.list_signature(after, False)
        if incremental.same_rows(edits, False):  # the order and cite keys worked out again, the rows kept
            again = incremental.resigned(incremental.list_signature(before, False), after.profiles, new_site,
                                         len(after.entries))
            assert again == incremental.list_signature(after, False)
        if op[0] == "title" and not first:
            assert incremental.same_rows(edits, False) and not same  # a new first word: a new cite-key base
        if op[0] in {"title", "abstract"} and first:
            assert same  # a title or abstract edit that moves nothing and renames no key
        if op[0] in {"date", "tags", "authors", "added", "undate"} and edits:
            assert not same


@pytest.mark.parametrize("beside", [True, False])
def test_a_title_edit_that_renames_a_cite_key_works_the_signature_out_without_every_entry(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside: bool) -> None:
    """A new first word changes the paper's cite-key base, and so the list signature: a new process
    works it out from the saved signature and the patched model, not from every entry, and saves
    what a full build would have; the pages rendered beside it in a child or not."""
    monkeypatch.setattr(incremental, "RENDER_BESIDE_PAPERS", 0 if beside else 10**9)
    root = copy_site(tmp_path / "site", papers=PAPERS)
    public = tmp_path / "public"
    build(root, public, search=False)
    decoded: list[int] = []
    real = incremental.SiteState._content

    def counted(self: incremental.SiteState, *args: Any, **kwargs: Any) -> Content:
        decoded.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(incremental.SiteState, "_content", counted)
    _replace_field(_papers(root)[2], "title", "'Zymurgy of retitled papers'")
    build(root, public, search=False)
    saved = buildstate.load(root)
    assert saved is not None and not decoded
    assert saved.signature == incremental.list_signature(_site_content(root), False)
    assert tree_bytes(public) == tree_bytes(_clean_build(root, tmp_path / "clean"))
    _papers(root)[5].unlink()  # with a paper gone, the rows are not the saved signature's
    _replace_field(_papers(root)[2], "title", "'Aardvarks of retitled papers'")
    build(root, public, search=False)
    saved = buildstate.load(root)
    assert saved is not None and saved.signature == incremental.list_signature(_site_content(root), False)
    assert tree_bytes(public) == tree_bytes(_clean_build(root, tmp_path / "clean2"))


def _site_content(root: Path) -> Content:
    report = Report()
    content = load_content(root, report)
    assert not report.has_errors
    return content


def test_a_restored_states_output_hashes_are_the_saved_tables_and_take_changes(tmp_path: Path) -> None:
    """Read from the saved table of outputs when first asked (see buildstate.SavedHashes), then a plain mapping."""
    _, _, saved, state = _built_and_restored(tmp_path, "site")
    expected = {out: row[0] for out, row in saved.outputs.items()}
    hashes = state.hashes
    assert len(hashes) == len(expected) > 50 and dict(hashes) == expected
    some = next(iter(expected))
    assert hashes.get(some) == expected[some] and hashes.get("nowhere.html") is None and "nowhere.html" not in hashes
    first, last = min(expected), max(expected)  # found by bisection in the sorted table: its ends, and beside them
    assert hashes[first] == expected[first] and hashes[last] == expected[last]
    assert not any(out in hashes for out in ("", first[:-1], last + "\0", last + "x", "\uffff", 7))
    hashes["new.html"] = "0" * 64
    assert hashes.pop(some) == expected[some] and hashes.pop(some, None) is None
    assert set(hashes) == set(expected) - {some} | {"new.html"}


def test_saved_hashes_amended_in_place_and_then_changed_here_stay_a_mapping(tmp_path: Path) -> None:
    """The table's rows, the rows an in-place rebuild amended, and changes made in this process, in any order."""
    root, output, _, _ = _built_and_restored(tmp_path, "site")
    _replace_field(_papers(root)[3], "title", "'Amended in place'")
    build(root, output, search=False)  # rewrites some files in place: rows amending the table
    saved = buildstate.load(root)
    assert saved is not None and saved.patched
    hashes, reference = buildstate.SavedHashes(saved), {out: row[0] for out, row in saved.outputs.items()}
    assert dict(hashes) == reference and len(hashes) == len(reference)
    amended = next(iter(saved.patched))
    table = next(out for out in reference if out not in saved.patched)
    steps: list[tuple[str, str]] = [("del", amended), ("set", amended), ("del", table), ("set", "added.html"),
                                    ("del", "added.html"), ("set", table), ("del", amended), ("set", "added.html")]
    for i, (step, out) in enumerate(steps):
        if step == "set":
            hashes[out] = reference[out] = f"{i:064d}"
        else:
            del hashes[out], reference[out]
        assert dict(hashes) == reference and len(hashes) == len(reference), (i, step, out)
        assert all((out in hashes) == (out in reference) for out in (amended, table, "added.html"))
    with pytest.raises(KeyError):
        del hashes[amended]


@pytest.mark.parametrize("damage", ["rows", "cut", "short hashes"])
def test_a_table_of_outputs_in_another_shape_is_not_misread(tmp_path: Path, damage: str) -> None:
    """A table of another version (a row per file), cut short or with hashes missing: no file is trusted,
    and the next build is a full one."""
    root, public = copy_site(tmp_path / "site", papers=PAPERS), tmp_path / "public"
    build(root, public, search=False)
    table = root / CACHE_DIR / buildstate.OUTPUTS
    saved = buildstate.load(root)
    assert saved is not None and len(buildstate.SavedHashes(saved)) == len(saved.outputs) > 50
    raw = json.loads(table.read_text(encoding="utf-8"))
    if damage == "rows":
        raw = {"id": raw["id"], "outputs": {p: [s, 1, 2] for p, s in buildstate.SavedHashes(saved).items()}}
        table.write_text(json.dumps(raw), encoding="utf-8")
    elif damage == "cut":
        table.write_bytes(table.read_bytes()[:-100])
    else:
        raw["shas"] = raw["shas"][:-64]
        table.write_text(json.dumps(raw), encoding="utf-8")
    saved = buildstate.load(root)
    assert saved is not None and dict(buildstate.SavedHashes(saved)) == {} and saved.expected() is None
    assert not outputs_intact(saved, public)
    _replace_field(_papers(root)[2], "title", "'After the table was damaged'")
    result = build(root, public, search=False)
    assert "rendered" not in result.pages_by_kind  # a full build
    assert tree_bytes(public) == tree_bytes(_clean_build(root, tmp_path / "clean"))


def test_an_entry_the_cache_cannot_decode_when_read_means_a_full_build(tmp_path: Path) -> None:
    """A state restored by a new build process decodes cached entries when read: one that cannot
    be decoded then (valid JSON of the wrong shape) is no reason to fail, only to build in full."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    public = tmp_path / "public"
    build(root, public, search=False)
    target = _papers(root)[3]
    saved = buildstate.load(root)
    assert saved is not None
    edited = saved.entries[target.relative_to(root).as_posix()][0]
    damaged = 0
    for key in (row[0] for row in saved.entries.values()):  # the others, where the edit's own shard is not
        if key[:2] != edited[:2]:  # (that one is read whole, by the notes check, and misses)
            edit_cached_entry(root, key, "title", 42)
            damaged += 1
    assert damaged >= PAPERS - 2
    _replace_field(target, "title", "'Edited while other cached entries were damaged'")
    result = build(root, public, search=False)
    assert "rendered" not in result.pages_by_kind  # a full build
    assert tree_bytes(public) == tree_bytes(_clean_build(root, tmp_path / "clean"))


def test_a_build_state_of_another_sitegen_version_means_a_full_build(tmp_path: Path) -> None:
    """A new version may write other bytes for the same inputs (0.2.0's BibTeX has no abstract):
    what an older version saved is not patched, the next build is a full one."""
    root, public = copy_site(tmp_path / "site", papers=PAPERS), tmp_path / "public"
    build(root, public, search=False)
    state = root / CACHE_DIR / buildstate.STATE
    raw = json.loads(state.read_text(encoding="utf-8"))
    assert raw["version"] == __version__
    state.write_text(json.dumps({**raw, "version": "0.1.0"}), encoding="utf-8")
    assert buildstate.load(root) is None
    _replace_field(_papers(root)[1], "title", "'Edited after an upgrade'")
    result = build(root, public, search=False)
    assert "rendered" not in result.pages_by_kind  # a full build
    assert tree_bytes(public) == tree_bytes(_clean_build(root, tmp_path / "clean"))
