"""The GitHub Pages workflow passes actionlint and keeps its promises."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

WORKFLOW = Path(__file__).resolve().parent.parent / ".github/workflows/pages.yml"


def test_actionlint_passes() -> None:
    exe = shutil.which("actionlint")
    if exe is None:
        pytest.fail("actionlint is not installed (pip install -e '.[test]')")
    run = subprocess.run([exe, "-no-color", str(WORKFLOW)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


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
