"""Where the test tools live, and how a missing tool is reported (skip locally, fail on CI)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NoReturn

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = REPO_ROOT / "node_modules"
VNU_JAR = NODE_MODULES / "vnu-jar" / "build" / "dist" / "vnu.jar"
AXE_JS = NODE_MODULES / "axe-core" / "axe.min.js"
ARTIFACTS_DIR = REPO_ROOT / "tests" / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")


def on_ci() -> bool:
    """True when the environment variable CI is set to a true value (CI=true, CI=1, ...)."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes", "on"}


def missing_tool(reason: str) -> NoReturn:
    """Skip the current test because a tool is missing; on CI (CI=true) fail instead, so nothing is silently lost."""
    if on_ci():
        pytest.fail(f"{reason} (CI=true, so this is an error rather than a skip)", pytrace=False)
    pytest.skip(reason)


def find_java() -> str | None:
    """The java executable on PATH (or under $JAVA_HOME/bin), or None."""
    java_home = os.environ.get("JAVA_HOME")
    if java_home:
        candidate = Path(java_home) / "bin" / "java"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("java")
