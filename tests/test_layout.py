"""The package's shape: stage packages import nothing on their own, and modules stay small (house rule 8).

Which stage may import which is lint-imports' job (the layers contract in pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

from .site_factory import REPO

PACKAGE = REPO / "sitegen"
LIMIT = 400  # lines
# Over the limit already when the limit got its test: each is to be split, and leaves this list when it is.
OVER: set[str] = set()


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_stage_packages_are_empty() -> None:
    """Importing one module of a stage must not import the rest of it."""
    stages = sorted(p.parent.name for p in PACKAGE.glob("*/__init__.py"))
    assert stages == ["commands", "common", "content", "ingest", "model", "pipeline", "publish", "render", "serve"]
    assert {name: (PACKAGE / name / "__init__.py").read_bytes() for name in stages} == dict.fromkeys(stages, b"")


def test_modules_stay_under_the_limit() -> None:
    over = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if _lines(p) > LIMIT}
    assert over - OVER == set(), f"over {LIMIT} lines: split the module"
    assert OVER - over == set(), f"now under {LIMIT} lines: remove it from OVER"


def test_classes_stay_under_two_hundred_lines() -> None:
    """A class of more than 200 lines holds more than one job (the state the engine replaced had 579)."""
    import ast

    long = [f"{p.relative_to(PACKAGE).as_posix()}:{node.name}" for p in PACKAGE.rglob("*.py")
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
            if isinstance(node, ast.ClassDef) and (node.end_lineno or node.lineno) - node.lineno >= 200]
    assert long == []
