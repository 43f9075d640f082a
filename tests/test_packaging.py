"""sitegen as it is published: an sdist and a wheel under its own name, installed into a fresh virtualenv offline (as
a user's laptop or a new site's Pages workflow installs it), carrying its default theme and its metadata."""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from sitegen.common.distribution import DISTRIBUTION

from .site_factory import REPO

TOP_FILES = ("pyproject.toml", "README.md", "LICENSE")


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600,
                          check=False)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist, built from a copy of the sources, and the wheel built from that sdist (as pip builds one)."""
    tmp = tmp_path_factory.mktemp("packaging")
    source = tmp / "source"  # a copy: building writes build/ and egg-info folders into the tree it builds
    for folder in ("sitegen", "themes"):
        shutil.copytree(REPO / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for file in TOP_FILES:
        shutil.copy2(REPO / file, source / file)
    dist = tmp / "dist"
    made = _run(sys.executable, "-c", f"from setuptools import build_meta; build_meta.build_sdist({str(dist)!r})",
                cwd=source)
    assert made.returncode == 0, made.stderr
    (sdist,) = dist.glob("*.tar.gz")
    made = _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
                "-w", dist, sdist, cwd=tmp)
    assert made.returncode == 0, made.stderr
    (wheel,) = dist.glob("*.whl")
    return sdist, wheel


def test_the_files_are_named_for_the_distribution_not_the_command(built: tuple[Path, Path]) -> None:
    sdist, wheel = built
    assert DISTRIBUTION == "sitegen-papers"
    assert sdist.name == "sitegen_papers-0.2.0.tar.gz" and wheel.name == "sitegen_papers-0.2.0-py3-none-any.whl"


def test_the_sdist_holds_the_sources_theme_and_license(built: tuple[Path, Path]) -> None:
    sdist, _ = built
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert set(TOP_FILES) <= names
    modules = {p.relative_to(REPO).as_posix() for p in (REPO / "sitegen").rglob("*.py")}
    theme = {p.relative_to(REPO).as_posix() for p in (REPO / "themes" / "default").rglob("*") if p.is_file()}
    assert modules <= names and theme <= names


def test_the_wheel_carries_every_module_the_theme_and_the_metadata(built: tuple[Path, Path]) -> None:
    _, wheel = built
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        info = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(info))
    theme = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "themes" / "default").rglob("*") if p.is_file())
    assert sorted(n.removeprefix("sitegen/") for n in names if n.startswith("sitegen/themes/")) == theme
    # pyproject.toml lists the packages one by one: a stage package left off would be missing from the wheel
    modules = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "sitegen").rglob("*.py"))
    assert sorted(n for n in names if n.endswith(".py")) == modules
    assert "sitegen/py.typed" in names and any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert metadata["Name"] == DISTRIBUTION and metadata["License-Expression"] == "MIT"
    assert metadata["Requires-Python"] == ">=3.11"
    classifiers = metadata.get_all("Classifier") or []
    assert {"Operating System :: MacOS", "Operating System :: Microsoft :: Windows",
            "Operating System :: POSIX :: Linux", "Programming Language :: Python :: 3.11"} <= set(classifiers)
    assert not [c for c in classifiers if c.startswith("License ::")]  # the SPDX expression says it (PEP 639)
    with zipfile.ZipFile(wheel) as archive:
        points = archive.read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "sitegen = sitegen.cli:run" in points  # the command keeps its name


def test_a_site_builds_with_the_wheel_installed_into_a_fresh_virtualenv_offline(built: tuple[Path, Path],
                                                                                 tmp_path: Path) -> None:
    _, wheel = built
    venv = tmp_path / "venv"
    # the dependencies come from this interpreter's site-packages (no index is reachable); sitegen from the wheel
    made = _run(sys.executable, "-m", "venv", "--system-site-packages", venv, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    scripts = venv / ("Scripts" if os.name == "nt" else "bin")
    python = scripts / ("python.exe" if os.name == "nt" else "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    # by name, from a folder standing in for the package index, as `pip install sitegen-papers` finds it
    done = _run(python, "-m", "pip", "install", "--quiet", "--no-index", "--find-links", wheel.parent,
                "--ignore-installed", "--no-deps", f"{DISTRIBUTION}==0.2.0", cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    checked = _run(python, "-m", "pip", "check", cwd=tmp_path, env=env)  # every dependency it declares is there
    assert checked.returncode == 0 or DISTRIBUTION not in checked.stdout, checked.stdout
    where = _run(python, "-c", "import sitegen; print(sitegen.__file__)", cwd=tmp_path, env=env)
    assert where.stdout.startswith(str(venv)), where.stdout
    sitegen = scripts / ("sitegen.exe" if os.name == "nt" else "sitegen")
    shown = _run(sitegen, "-V", cwd=tmp_path, env=env)
    assert shown.returncode == 0 and shown.stdout.strip() == "sitegen, version 0.2.0", shown
    assert _run(sitegen, "init", "site", cwd=tmp_path, env=env).returncode == 0
    built_site = _run(sitegen, "build", "--root", "site", "--no-search", cwd=tmp_path, env=env)
    assert built_site.returncode == 0, built_site.stderr
    page = (tmp_path / "site" / "public" / "index.html").read_text(encoding="utf-8")
    assert "<html" in page and (tmp_path / "site" / "public" / "static").is_dir()
    requirements = (tmp_path / "site" / "requirements.txt").read_text(encoding="utf-8")
    assert f"{DISTRIBUTION}==0.2.0" in requirements.splitlines()  # installed from a release: pinned by its name
