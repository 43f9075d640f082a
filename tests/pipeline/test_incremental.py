"""Incremental rebuilds are provably right: after any edit sequence, output == a fresh full build.

`sitegen build` (the engine with its memo on disk, a new process each time) is held to a
build without the cache here; the engine in one process, with the build's and the
preview's policies, in tests/pipeline/test_site_engine.py.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.common.errors import Location, Report, SitegenError
from sitegen.content.loader import load_content
from sitegen.model import routes
from sitegen.pipeline.build import build
from sitegen.pipeline.persisted import OutputsChanged
from sitegen.pipeline.site_engine import SiteEngine
from sitegen.render.render import Renderer

from ..site_factory import copy_site, tree_bytes

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


def seen(path: Path, *sightings: tuple[str, int]) -> Path:
    """The paper's sources made these sightings on Hugging Face Daily Papers: (day, upvotes) each."""
    records = ", ".join(f"{{format: hf-daily-papers, captured: {day}, upvotes: {n}}}" for day, n in sightings)
    _replace_field(path, "sources", f"[{records}]")
    return path


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
    elif kind == "byline" and target:  # a spelling an author file may name as one of a person's
        _replace_field(target, "authors", f"[Auth {b % 4}, Author {a % 4}]")
    elif kind == "alias":  # one person of two names on the papers, and a third: one page, two redirects
        target = root / "content/authors/author-alias.yaml"
        target.write_text(f"name: Author {b % 4}\naliases: [Auth {b % 4}, Author {(b + 1) % 4}]\nh_index: {b}\n")
    elif kind == "unalias":
        target = root / "content/authors/author-alias.yaml"
        target.unlink(missing_ok=True)
    elif kind == "body" and target:
        target.write_text(target.read_text() + f"\nNote {b} with *emphasis* and $x^{b}$.\n")
    elif kind == "abstract" and target:
        _replace_field(target, "abstract", f"'Abstract {b} with $x<{b}$ & more.'")
    elif kind == "status" and target:  # into the reading queue, within it, or out of it
        _replace_field(target, "status", ("to-read", "reading", "read")[b % 3])
    elif kind == "rating" and target:  # onto the home page's "start here" list (4 and 5), within it, or off it
        _replace_field(target, "rating", str(1 + b % 5))
    elif kind == "pin" and target:
        _replace_field(target, "pinned", ("true", "false")[b % 2])
    elif kind == "summary" and target:  # the take a card shows, in place of the notes' first paragraph
        _replace_field(target, "summary", f"'Take {b}: worth it & more'" if b % 3 else "null")
    elif kind == "mention" and target:  # the notes name another paper (by slug), or one not on the list
        other = papers[b % len(papers)].stem if b % 4 else "no-such-paper"
        target.write_text(target.read_text() + f"\nCompare [[{other}]].\n")
    elif kind == "unmention" and target:
        target.write_text(re.sub(r"\nCompare \[\[[^\]]*\]\]\.\n", "\n", target.read_text()))
    elif kind == "cite" and target:  # cites papers on the list by the DOIs "doi" gives them, and one not on it
        cited = f"['10.1000/p{b % 3}', 10.1000/P{(b + 1) % 3}, '2101.00001']"
        _replace_field(target, "cites", cited if b % 4 else "[]")
    elif kind == "doi" and target:  # a DOI the citations above may name (two papers may share it: the first owns it)
        _replace_field(target, "doi", f"10.1000/p{b % 3}")
    elif kind == "partial" and target:  # a year or a month alone
        _replace_field(target, "date", ("2019", f"2019-0{1 + b % 9}")[b % 2])
    elif kind == "added" and target:
        _replace_field(target, "added", f"2026-0{1 + b % 9}-01")
    elif kind == "sighting" and target:  # seen on other days with other upvotes: its chart, the Rising page
        days = ("2026-04-17", "2026-05-19", "2026-06-20")
        seen = [f"{{format: hf-daily-papers, captured: {days[(a + b) % 3]}, upvotes: {b % 7}}}",
                f"{{format: hf-daily-papers, captured: {days[b % 3]}, upvotes: {b % 4}}}"]
        _replace_field(target, "sources", f"[{', '.join(seen[: 1 + b % 2])}]" if b % 5 else "[]")
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
    st.sampled_from(["title", "date", "undate", "tags", "authors", "byline", "alias", "unalias", "body", "abstract",
                     "status", "rating", "pin", "summary", "partial", "mention", "unmention", "cite", "doi", "added",
                     "sighting", "new", "delete", "rename", "template", "config", "css"]),
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


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(OPS, min_size=1, max_size=5))
def test_cli_rebuilds_with_cache_equal_a_clean_build(pristine: Path, ops: list[tuple[str, int, int]]) -> None:
    """`sitegen build` run after each edit (in place when it can) ends where a cache-less build does."""
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


def test_the_rising_page_comes_changes_and_goes_across_builds_as_a_clean_build_has_it(tmp_path: Path) -> None:
    """Each `sitegen build` a new engine over the memo on disk: the Rising list is decoded from it, and the
    page and its menu link appear and vanish with the gains."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    papers = _papers(root)
    build(root, tmp_path / "public", search=False)
    steps = [(papers[0], (("2026-04-17", 2), ("2026-05-19", 9))),  # a gain: the page comes
             (papers[1], (("2026-04-17", 1), ("2026-05-19", 4))),  # another: it changes
             (papers[0], ()),  # the first paper's sightings go: the second's gain is left
             (papers[1], (("2026-05-19", 4),))]  # no paper seen on both days: the page goes
    for n, (paper, sightings) in enumerate(steps):
        seen(paper, *sightings)
        build(root, tmp_path / "public", search=False)
        build(root, tmp_path / f"clean{n}", search=False, use_cache=False)
        assert tree_bytes(tmp_path / "public") == tree_bytes(tmp_path / f"clean{n}"), n
        assert (tmp_path / "public/rising/index.html").exists() == (n < 3)


def test_pages_a_patched_edit_moved_a_paper_onto_follow_its_later_edits(tmp_path: Path) -> None:
    """After a date, tag or author edit moves a paper onto other pages, its next edit reaches those pages too.

    Each edit takes its values from other papers, so the site keeps its files and the
    model is patched, not rebuilt.
    """
    root = copy_site(tmp_path / "site", papers=PAPERS)
    _replace_field(root / "site.yaml", "page_size", "2")  # a date edit moves the paper to another home page
    engine = SiteEngine(root, tmp_path / "incremental")
    engine.build()
    papers = _papers(root)
    target = papers[0]
    entries = {e.source_path: e for e in load_content(root, Report()).entries}
    others = [entries[p.relative_to(root).as_posix()] for p in papers[1:]]
    dated = [e for e in others if e.date]
    edits = [("date", dated[-1].date.isoformat() if dated[-1].date else ""),
             ("tags", json.dumps(list(others[2].tags))), ("authors", json.dumps(list(others[3].authors))),
             ("date", dated[0].date.isoformat() if dated[0].date else "")]
    for n, (key, value) in enumerate(edits):
        _replace_field(target, key, value)
        engine.update([target])
        _replace_field(target, "title", f"'Title after edit {n}'")
        engine.update([target])
    assert tree_bytes(tmp_path / "incremental") == tree_bytes(_clean_build(root, tmp_path / "fresh"))


def test_alias_edits_rebuild_as_a_clean_build(tmp_path: Path) -> None:
    """Bylines naming a person two ways, then an author file merging them, changing its mind and going: each
    `sitegen build` (a new process's engine over the memo) ends where a cache-less build does, redirects and all."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    steps = [("byline", 0, 1), ("authors", 1, 1), ("alias", 0, 1), ("byline", 2, 1), ("title", 3, 1),
             ("alias", 0, 2), ("unalias", 0, 0), ("alias", 0, 1), ("delete", 0, 0), ("byline", 1, 1)]
    redirected = set()
    for n, op in enumerate(steps):
        apply(root, op)
        build(root, tmp_path / "public", search=False)
        redirected |= {p.parent.name for p in (tmp_path / "public/authors").glob("*/index.html")
                       if "http-equiv" in p.read_text(encoding="utf-8")}
        assert tree_bytes(tmp_path / "public") == tree_bytes(_clean_build(root, tmp_path / f"clean-{n}")), op
    assert {"auth-1", "author-2"} <= redirected


def test_failed_update_changes_nothing_and_recovery_catches_up(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    engine = SiteEngine(root, tmp_path / "out")
    engine.build()
    before = tree_bytes(tmp_path / "out")
    target = _papers(root)[0]
    good = target.read_text()
    target.write_text(good.replace("title:", "title: [unclosed", 1))
    with pytest.raises(SitegenError) as failure:
        engine.update([target])
    assert failure.value.diagnostics[0].location.path.endswith(target.name)
    assert tree_bytes(tmp_path / "out") == before
    target.write_text(good.replace("title: ", "title: Fixed ", 1))
    engine.update([target])
    assert tree_bytes(tmp_path / "out") == tree_bytes(_clean_build(root, tmp_path / "fresh"))


def test_a_failed_cli_build_keeps_the_output_and_the_next_one_catches_up(tmp_path: Path) -> None:
    """The memo on disk is written only after a build succeeds: the edit is still new to the next build."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    before = tree_bytes(tmp_path / "public")
    target = _papers(root)[0]
    good = target.read_text()
    target.write_text(good.replace("title:", "title: [unclosed", 1))
    with pytest.raises(SitegenError):
        build(root, tmp_path / "public", search=False)
    assert tree_bytes(tmp_path / "public") == before
    target.write_text(good.replace("title: ", "title: Fixed ", 1))
    build(root, tmp_path / "public", search=False)
    assert tree_bytes(tmp_path / "public") == tree_bytes(_clean_build(root, tmp_path / "fresh"))


def test_cli_build_equals_in_memory_full_build(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "cli", search=False)
    SiteEngine(root, tmp_path / "engine").build()
    assert tree_bytes(tmp_path / "cli") == tree_bytes(tmp_path / "engine")


def test_noop_rebuild_rewrites_nothing(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "public").rglob("*") if p.is_file()}
    result = build(root, tmp_path / "public", search=False)
    assert result.written == 0 and result.removed == 0
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "public").rglob("*") if p.is_file()} == before


def test_a_rebuild_with_nothing_changed_renders_nothing(tmp_path: Path) -> None:
    """A new process that finds nothing changed renders no page and counts every file as unchanged."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    code = ("from pathlib import Path; from sitegen.pipeline.build import build; "
            f"r = build(Path({str(root)!r}), Path({str(tmp_path / 'public')!r}), search=False); "
            "print(r.written, r.unchanged, r.pages_by_kind['rendered'])")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    written, unchanged, rendered = result.stdout.split()
    assert written == "0" and int(unchanged) > PAPERS and rendered == "0"


def test_output_touched_by_hand_forces_a_full_build(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    page = tmp_path / "public" / "index.html"
    page.write_text("tampered")
    build(root, tmp_path / "public", search=False)
    assert page.read_text() != "tampered"


def test_output_touched_by_hand_forces_a_full_build_after_an_edit_too(tmp_path: Path) -> None:
    """The check runs beside the update; its answer still comes before anything is written."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    build(root, tmp_path / "public", search=False)
    page = tmp_path / "public" / "tags" / "index.html"
    page.write_text("tampered")
    apply(root, ("title", 1, 2))
    build(root, tmp_path / "public", search=False)
    assert page.read_text() != "tampered"
    assert tree_bytes(tmp_path / "public") == tree_bytes(_clean_build(root, tmp_path / "clean"))


@pytest.mark.parametrize("op", [("title", 1, 2), ("body", 2, 1), ("tags", 3, 1)])
def test_an_update_told_the_output_changed_writes_nothing(tmp_path: Path, op: tuple[str, int, int]) -> None:
    """`sitegen build` renders while the output is checked; a failed check stops it before the first write."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    output = tmp_path / "public"
    engine = SiteEngine(root, output)
    engine.build()
    asked: list[int] = []

    def changed() -> None:
        asked.append(1)
        raise OutputsChanged

    engine.before_writing = changed
    before = tree_bytes(output)
    with pytest.raises(OutputsChanged):
        engine.update(apply(root, op))
    assert asked == [1] and tree_bytes(output) == before


def _fail_rendering(monkeypatch: pytest.MonkeyPatch, kind: str) -> list[str]:
    """Make rendering a page of this kind fail with a template error; the kinds rendered, in order."""
    rendered: list[str] = []
    real = Renderer.render

    def failing(self: Renderer, spec: routes.PageSpec) -> bytes | bytearray:
        rendered.append(spec.kind)
        if spec.kind == kind:
            raise SitegenError.single(Location(f"themes/default/templates/{kind}.html", 1), "E401", "boom", "")
        return real(self, spec)

    monkeypatch.setattr(Renderer, "render", failing)
    return rendered


def test_an_update_that_fails_while_rendering_replaces_nothing_and_leaves_no_temporaries(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages are staged as they render; a failure in a later one drops them all."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    output = tmp_path / "public"
    build(root, output, search=False)
    before = tree_bytes(output)
    rendered = _fail_rendering(monkeypatch, "tag")
    apply(root, ("title", 1, 2))
    with pytest.raises(SitegenError):
        build(root, output, search=False)
    assert "tag" in rendered and rendered.index("tag") > 0  # other pages rendered before the failure
    assert tree_bytes(output) == before
    assert not [p for p in output.rglob("*") if p.name.endswith(".tmp")]
    monkeypatch.undo()
    build(root, output, search=False)
    assert tree_bytes(output) == tree_bytes(_clean_build(root, tmp_path / "clean"))


def test_parallel_build_equals_single_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sitegen.pipeline.parallel as parallel_module

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
    engine = SiteEngine(root, tmp_path / "out")
    total = engine.build().rendered
    target = _papers(root)[len(_papers(root)) // 2]
    _replace_field(target, "title", "'A retitled paper: same authors & date'")
    change = engine.update([target])
    assert 0 < len(change.written) < total / 4
    assert tree_bytes(tmp_path / "out") == tree_bytes(_clean_build(root, tmp_path / "fresh"))


def test_cli_title_edit_keeping_key_and_order_re_renders_few_pages(tmp_path: Path) -> None:
    """The same in a new `sitegen build`, for an edit that leaves the cite key and the order as they were."""
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
    assert 0 < result.written < total / 4
    assert tree_bytes(tmp_path / "public") == tree_bytes(_clean_build(root, tmp_path / "clean"))


def _clean_build(root: Path, folder: Path) -> Path:
    build(root, folder, search=False, use_cache=False)
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


def test_a_memo_saved_by_other_code_means_a_full_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo is stamped with the digest of sitegen's own code: another version's memo is not trusted."""
    from sitegen.pipeline import persisted

    root, public = copy_site(tmp_path / "site", papers=PAPERS), tmp_path / "public"
    build(root, public, search=False)
    _replace_field(_papers(root)[1], "title", "'Edited after an upgrade'")
    monkeypatch.setattr(persisted, "code_digest", lambda: "another version")
    result = build(root, public, search=False)
    assert "rendered" not in result.pages_by_kind  # a full build
    assert tree_bytes(public) == tree_bytes(_clean_build(root, tmp_path / "clean"))


def test_the_cache_files_of_the_routes_before_the_engine_are_removed(tmp_path: Path) -> None:
    """A site built by an older sitegen keeps its cache folder; what the engine no longer reads goes."""
    from sitegen.content.cache import CACHE_DIR
    from sitegen.pipeline.persisted import RETIRED

    root = copy_site(tmp_path / "site", papers=PAPERS)
    cache = root / CACHE_DIR
    (cache / "fragments").mkdir(parents=True)
    (cache / "fragments" / "bib.store").write_text("pieces")
    (cache / "build.json").write_text("{}")
    (cache / "mine.txt").write_text("not sitegen's")
    build(root, tmp_path / "public", search=False)
    assert not any((cache / name).exists() for name in RETIRED)
    assert (cache / "mine.txt").read_text() == "not sitegen's" and (cache / "engine" / "memo.sqlite").is_file()
