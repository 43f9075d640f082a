"""The parallel build: how the plan is shared out among workers, and what a worker's failure does."""

from __future__ import annotations

import os
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.common.errors import SitegenError
from sitegen.model.routes import PageSpec
from sitegen.pipeline import parallel
from sitegen.pipeline.build import build
from sitegen.pipeline.parallel import FAMILIES, Schedule
from sitegen.render.render import Renderer

from ..site_factory import copy_site

KINDS = ["author", "author-feed", "author-bib", "paper", "cite-bib", "cite-ris", "cite-json", "home", "tag",
         "reading-list-bib", "reading-list-json", "sitemap", "robots"]


def _plan(kinds: list[str]) -> list[PageSpec]:
    return [PageSpec(f"{kind}/{i}", kind) for i, kind in enumerate(kinds)]


def _drain(schedule: Schedule, asks: list[int], workers: int) -> dict[int, list[PageSpec]]:
    """Hand out everything, workers asking in the given order and then in turn; chunks by worker."""
    got: dict[int, list[PageSpec]] = defaultdict(list)
    order = iter(asks)
    while True:
        worker = next(order, None)
        if worker is None:
            break
        chunk = schedule.next(worker % workers)
        if chunk:
            got[worker % workers] += chunk
    idle = 0
    turn = 0
    while idle < workers:  # every worker asks until each has been told there is nothing left
        chunk = schedule.next(turn % workers)
        if chunk is None:
            idle += 1
        else:
            idle = 0
            got[turn % workers] += chunk
        turn += 1
    return got


@settings(max_examples=200, deadline=None)
@given(kinds=st.lists(st.sampled_from(KINDS), max_size=300), workers=st.integers(1, 4),
       asks=st.lists(st.integers(0, 3), max_size=60), chunk=st.integers(1, 20))
def test_every_file_is_handed_out_exactly_once(kinds: list[str], workers: int, asks: list[int], chunk: int) -> None:
    plan = _plan(kinds)
    got = _drain(Schedule(plan, workers, papers=50, chunk=chunk), asks, workers)
    handed = [spec for specs in got.values() for spec in specs]
    assert sorted(handed, key=lambda s: s.output) == sorted(plan, key=lambda s: s.output)


def _cost(spec: PageSpec) -> int:
    return parallel.COSTS.get(spec.kind, parallel.DEFAULT_COST)


def _simulate(schedule: Schedule, workers: int, slower: str = "") -> tuple[dict[int, list[PageSpec]], list[int]]:
    """Workers that ask again as soon as their chunk's cost has passed; chunks and finish times.

    The cost is the schedule's estimate, or five times that for the kind `slower`.
    """
    clock = [0] * workers
    got: dict[int, list[PageSpec]] = defaultdict(list)
    done: set[int] = set()
    while len(done) < workers:
        worker = min((w for w in range(workers) if w not in done), key=lambda w: (clock[w], w))
        chunk = schedule.next(worker)
        if chunk is None:
            done.add(worker)
            continue
        got[worker] += chunk
        clock[worker] += sum(_cost(spec) * (5 if spec.kind == slower else 1) for spec in chunk)
    return got, clock


def test_a_family_stays_with_one_worker_while_other_work_is_left() -> None:
    """List-item pages on one worker, BibTeX-sharing files on the other; shared kinds even out the time."""
    plan = _plan(["author", "author-bib", "paper", "cite-bib", "cite-json", "author-feed"] * 200 + ["robots"] * 400)
    got, clock = _simulate(Schedule(plan, 2, papers=200, chunk=10), 2)
    owners = defaultdict(set)
    for worker, specs in got.items():
        for spec in specs:
            owners[FAMILIES.get(spec.kind, "none")].add(worker)
    assert owners["items"] != owners["bib"]
    assert all(len(owners[family]) == 1 for family in ("items", "bib", "feeds"))
    assert owners["none"] == {0, 1}
    assert abs(clock[0] - clock[1]) <= 10 * parallel.COSTS["author"]  # at most a chunk apart


def test_a_worker_left_without_work_takes_over_the_end_of_another_workers_family() -> None:
    """Costs misjudged (paper pages five times slower): the items worker finishes early and helps."""
    plan = _plan(["author", "paper", "cite-json"] * 300)
    got, clock = _simulate(Schedule(plan, 2, papers=300, chunk=10), 2, slower="paper")
    assert {w for w, specs in got.items() if any(s.kind == "paper" for s in specs)} == {0, 1}
    assert abs(clock[0] - clock[1]) <= 10 * 5 * parallel.COSTS["paper"]


def test_large_files_go_first_and_alone() -> None:
    plan = _plan(["paper"] * 30 + ["sitemap", "reading-list-json"] + ["cite-json"] * 30)
    schedule = Schedule(plan, 2, papers=30)
    firsts = [schedule.next(0), schedule.next(1)]
    assert sorted(spec.kind for chunk in firsts if chunk for spec in chunk) == ["reading-list-json", "sitemap"]
    assert all(chunk is not None and len(chunk) == 1 for chunk in firsts)


def test_a_family_larger_than_a_workers_share_is_split() -> None:
    """With four workers and author pages as most of the work, no single worker is left with all of them."""
    plan = _plan(["author"] * 2000 + ["cite-json"] * 100)
    got, clock = _simulate(Schedule(plan, 4, papers=100), 4)
    with_authors = [w for w, specs in got.items() if any(s.kind == "author" for s in specs)]
    assert len(with_authors) == 4
    assert max(clock) - min(clock) <= parallel.CHUNK * parallel.COSTS["author"]


class Unpicklable(Exception):
    """An exception a worker cannot send back as it is (it holds a lambda)."""

    def __init__(self) -> None:
        super().__init__("unpicklable")
        self.hook = lambda: None


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(parallel, "CHUNK", 7)


def _failing_render(kind: str, failure: str) -> object:
    original = Renderer.render
    parent = os.getpid()

    def render(self: Renderer, spec: PageSpec) -> bytes:
        if spec.kind == kind and os.getpid() != parent:
            if failure == "exit":
                os._exit(3)
            if failure == "unpicklable":
                raise Unpicklable
            raise LookupError("lost in a worker")
        return original(self, spec)

    return render


@pytest.mark.usefixtures("forked")
@pytest.mark.parametrize(("failure", "expected"), [("exit", SitegenError), ("raise", LookupError),
                                                    ("unpicklable", RuntimeError)])
def test_a_failing_worker_fails_the_build_and_leaves_the_output_alone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str, expected: type[Exception]) -> None:
    root = copy_site(tmp_path / "site", papers=6)
    public = tmp_path / "public"
    build(root, public, search=False, jobs=2, use_cache=False)
    before = sorted(p.relative_to(public).as_posix() for p in public.rglob("*"))
    monkeypatch.setattr(Renderer, "render", _failing_render("tag", failure))
    with pytest.raises(expected) as caught:
        build(root, public, search=False, jobs=2, use_cache=False)
    if failure == "exit":
        assert "exit code 3" in str(caught.value)
    if failure == "unpicklable":
        assert "Unpicklable" in str(caught.value)
    assert sorted(p.relative_to(public).as_posix() for p in public.rglob("*")) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".public")] == []


@pytest.mark.usefixtures("forked")
def test_a_template_error_in_a_worker_names_the_template(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=6)
    template = root / "themes/default/templates/tag.html"
    text = template.read_text(encoding="utf-8")
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "{{ tag.papers|length" in row)
    broken = text.replace("{{ tag.papers|length", "{{ tag.paprs|length", 1)
    assert broken != text
    template.write_text(broken, encoding="utf-8")
    with pytest.raises(SitegenError) as caught:
        build(root, tmp_path / "public", search=False, jobs=2, use_cache=False)
    assert f"themes/default/templates/tag.html:{line}" in str(caught.value)


def test_a_chunk_reaches_a_worker_with_all_that_rendering_reads(tmp_path: Path) -> None:
    """Chunks travel as tuples; the specs made again from them are the plan's but for the dependency
    sets, which rendering never reads, and render to the same bytes."""
    import pickle

    from sitegen.common.errors import Report
    from sitegen.content import config as site_config
    from sitegen.content.loader import load_content
    from sitegen.model import model, routes
    from sitegen.render.render import asset_hashes, make_environment
    from sitegen.render.theme import static_files

    root = copy_site(tmp_path / "site", papers=6)
    cfg = site_config.load(root, None)
    site = model.build_site(cfg, load_content(root, Report(), None), False)
    specs = list(routes.plan(site))
    assert any(spec.shape for spec in specs)
    received = parallel._from_wire(pickle.loads(pickle.dumps(parallel._to_wire(specs))))
    assert received == specs
    env = make_environment(root, cfg)
    renderer = Renderer(site, env, root, asset_hashes(static_files(root, cfg.theme)))
    assert all(renderer.render(a) == renderer.render(b) for a, b in zip(specs, received, strict=True))


def test_large_files_are_dealt_in_turn_the_costliest_first_whoever_asks() -> None:
    """Which worker joins which whole-list file sets its peak memory: it must not depend on
    which worker happened to ask first."""
    plan = _plan(["paper", "sitemap", "reading-list-json", "authors", "papers-json", "robots", "home"])
    for first in (0, 1):
        schedule = Schedule(plan, workers=2, papers=1000)
        mine = [schedule.next(first), schedule.next(first)]
        theirs = [schedule.next(1 - first), schedule.next(1 - first)]
        by_worker = {first: mine, 1 - first: theirs}
        assert [c[0].kind for c in by_worker[0] if c] == ["reading-list-json", "sitemap"]
        assert [c[0].kind for c in by_worker[1] if c] == ["papers-json", "authors"]
    schedule = Schedule(plan, workers=2, papers=1000)
    taken = [schedule.next(1) for _ in range(4)]  # a worker left alone takes the other's large files too
    assert {c[0].kind for c in taken if c} == {"reading-list-json", "papers-json", "sitemap", "authors"}


@pytest.mark.usefixtures("forked")
def test_a_throwaway_build_renders_the_same_site_with_workers_sending_back_no_records(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`use_cache=False` (`sitegen build --no-cache`) across forked workers: every file as a cached build
    writes it, while the records its workers made stay with them (nothing would read them)."""
    from sitegen.pipeline.page_renderer import PageRenderer

    from ..site_factory import tree_bytes

    root = copy_site(tmp_path / "site", papers=8)
    build(root, tmp_path / "kept", search=False, jobs=2)
    (root / ".sitegen-cache").rename(tmp_path / "moved-cache")
    sent: list[bytes | None] = []
    monkeypatch.setattr(PageRenderer, "absorb", lambda self, data: sent.append(data))
    build(root, tmp_path / "thrown", search=False, jobs=2, use_cache=False)
    assert sent == []  # absorbed nothing: each chunk came back without records
    assert not (root / ".sitegen-cache").exists()
    assert tree_bytes(tmp_path / "thrown") == tree_bytes(tmp_path / "kept")
    build(root, tmp_path / "kept-again", search=False, jobs=2)
    assert sent and all(sent)  # a kept build's workers do send their records back


@pytest.mark.usefixtures("forked")
def test_workers_left_behind_by_a_failure_leave_quietly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capfd: pytest.CaptureFixture[str]) -> None:
    """Every worker fails; the parent raises the first failure and stops listening, and the others, finding no
    one to tell, leave without a traceback on the terminal (the user sees one error, never a worker's stack)."""
    root = copy_site(tmp_path / "site", papers=30)
    monkeypatch.setattr(Renderer, "render", _failing_render("paper", "raise"))
    for _ in range(3):
        with pytest.raises(LookupError):
            build(root, tmp_path / "public", search=False, jobs=2, use_cache=False)
    assert "Traceback" not in capfd.readouterr().err
