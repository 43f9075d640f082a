"""sitegen as a wheel installs it (as a new site's Pages workflow does): it must carry its default theme."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from .site_factory import REPO


def test_a_site_builds_with_sitegen_installed_from_its_wheel(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a copy: building writes build/ and egg-info folders into the tree it builds
    for folder in ("sitegen", "themes"):
        shutil.copytree(REPO / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for file in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / file, source / file)
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--no-index", "-w", str(wheels), str(source)], check=True, capture_output=True, timeout=300,
                   cwd=tmp_path)
    wheel = next(wheels.glob("sitegen-*.whl"))
    installed = tmp_path / "installed"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        archive.extractall(installed)
    theme = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "themes" / "default").rglob("*") if p.is_file())
    assert sorted(n.removeprefix("sitegen/") for n in names if n.startswith("sitegen/themes/")) == theme
    # pyproject.toml lists the packages one by one: a stage package left off would be missing from the wheel
    modules = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "sitegen").rglob("*.py"))
    assert sorted(n for n in names if n.endswith(".py")) == modules
    env = os.environ | {"PYTHONPATH": str(installed)}

    def sitegen(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", "from sitegen.cli import run; run()", *args], env=env,
                              cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)

    where = subprocess.run([sys.executable, "-c", "import sitegen; print(sitegen.__file__)"], env=env,
                           capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert where.startswith(str(installed))
    assert sitegen("init", "site").returncode == 0
    run = sitegen("build", "--root", "site", "--no-search")
    assert run.returncode == 0, run.stderr
    page = (tmp_path / "site" / "public" / "index.html").read_text(encoding="utf-8")
    assert "<html" in page and (tmp_path / "site" / "public" / "static").is_dir()
