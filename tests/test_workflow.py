"""The GitHub Pages workflow passes actionlint and keeps its promises."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

WORKFLOWS = Path(__file__).resolve().parent.parent / ".github/workflows"
WORKFLOW = WORKFLOWS / "pages.yml"
TESTS = WORKFLOWS / "tests.yml"
DAILY = Path(__file__).resolve().parent.parent / "sitegen/ingest/starter/daily.yml"  # what `sitegen init` writes


@pytest.mark.parametrize("workflow", [WORKFLOW, TESTS, DAILY], ids=lambda p: p.name)
def test_actionlint_passes(workflow: Path) -> None:
    exe = shutil.which("actionlint")
    if exe is None:
        pytest.fail("actionlint is not installed (pip install -e '.[test]')")
    run = subprocess.run([exe, "-no-color", str(workflow)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_suite_runs_on_linux_macos_and_windows() -> None:
    """Debian runs all of it through .ci/run; each of the three systems runs it without the browser tests, as the
    README's test command would, with the checkers' npm packages and Java in place."""
    flow = yaml.safe_load(TESTS.read_text())
    assert flow["permissions"] == {"contents": "read"}
    debian, suite = flow["jobs"]["debian"], flow["jobs"]["suite"]
    assert debian["container"].startswith("python:3.11-") and debian["container"].endswith("bookworm")
    assert [s["run"] for s in debian["steps"] if "run" in s] == ["bash .ci/run"]
    assert set(suite["strategy"]["matrix"]["os"]) == {"ubuntu-latest", "macos-latest", "windows-latest"}
    assert "3.11" in suite["strategy"]["matrix"]["python"]  # requires-python's floor
    runs = "\n".join(s.get("run", "") for s in suite["steps"])
    assert 'pip install -e ".[test,bench]"' in runs and "npm ci --ignore-scripts" in runs
    assert 'pytest -m "not browser"' in runs
    uses = [s["uses"] for job in flow["jobs"].values() for s in job["steps"] if "uses" in s]
    assert all(len(u.split("@")[1].split()[0]) == 40 for u in uses), "every action pinned to a commit"


def test_least_privilege_pinned_and_serialized() -> None:
    flow = yaml.safe_load(WORKFLOW.read_text())
    assert flow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert flow["concurrency"]["group"] == "pages"
    steps = [s for job in flow["jobs"].values() for s in job["steps"]]
    uses = [s["uses"] for s in steps if "uses" in s]
    assert {u.split("@")[0] for u in uses} >= {"actions/checkout", "actions/configure-pages",
                                               "actions/upload-pages-artifact", "actions/deploy-pages"}
    assert all(len(u.split("@")[1]) == 40 for u in uses), "every action pinned to a commit"
    build = flow["jobs"]["build"]["steps"]
    # a runner is thrown away after the build: nothing cached is read or written (benchmarks/publish_path)
    assert [s["run"] for s in build if "sitegen build" in s.get("run", "")] == ["sitegen build --no-cache"]
    assert any("steps.pages.outputs.base_url" in str(s.get("env", "")) for s in build)


def test_the_daily_proposal_imports_the_matching_papers_and_opens_a_pull_request() -> None:
    flow = yaml.safe_load(DAILY.read_text())
    triggers = flow[True]  # YAML 1.1 reads the key `on` as true
    assert triggers["schedule"][0]["cron"] == "30 7 * * *" and "workflow_dispatch" in triggers
    assert flow["permissions"] == {"contents": "write", "pull-requests": "write"}
    steps = flow["jobs"]["propose"]["steps"]
    runs = [s.get("run", "") for s in steps]
    assert 'sitegen import --hf-daily "$DAY" --match-tags' in runs and "pip install -r requirements.txt" in runs
    proposal = steps[-1]
    assert proposal["uses"].startswith("peter-evans/create-pull-request@")
    assert proposal["with"]["add-paths"] == "content/"
    assert all(len(s["uses"].split("@")[1].split()[0]) == 40 for s in steps if "uses" in s), "pinned to commits"
    assert "${{ inputs.day }}" not in "".join(runs)  # the input reaches the shell as an environment variable
