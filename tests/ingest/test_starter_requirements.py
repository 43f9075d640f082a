"""What a new site's Pages workflow installs: this sitegen, pinned, and never PyPI's unrelated `sitegen`."""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from packaging.requirements import Requirement

from sitegen.cli import main
from sitegen.common.distribution import DISTRIBUTION
from sitegen.ingest.scaffold import (
    Requirements,
    init_site,
    installed_direct_url,
    public_git_url,
    starter_requirements,
    starter_workflow,
)

REPO = Path(__file__).resolve().parents[2]
ENV = {"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "Test",
       "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
SHA = "0123456789abcdef0123456789abcdef01234567"


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env=os.environ | ENV).stdout.strip()


def installed(site: Path) -> list[str]:
    """The requirement lines the site's workflow installs, after checking that it installs requirements.txt."""
    flow = yaml.safe_load((site / ".github/workflows/pages.yml").read_text())
    runs = [s.get("run", "") for s in flow["jobs"]["build"]["steps"] if "pip install" in s.get("run", "")]
    assert runs == ["pip install -r requirements.txt"]
    lines = [line.strip() for line in (site / "requirements.txt").read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def pinned(site: Path) -> Requirement:
    (line,) = installed(site)
    requirement = Requirement(line)
    assert requirement.name == "sitegen-papers" and requirement.url and requirement.url.startswith("git+https://")
    return requirement


def stops_pip(site: Path) -> str:
    """pip refuses the requirements.txt before installing anything; its message."""
    run = subprocess.run([sys.executable, "-m", "pip", "install", "--dry-run", "--no-index",
                          "--disable-pip-version-check", "-r", str(site / "requirements.txt")],
                         capture_output=True, text=True, check=False)
    assert run.returncode != 0
    return run.stderr


@pytest.fixture()
def checkout(tmp_path: Path) -> tuple[Path, str]:
    """A git checkout of sitegen with an ssh origin, as a developer's editable install has."""
    source = tmp_path / "sitegen-src"
    source.mkdir()
    git(source, "init", "-q", "-b", "main")
    (source / "pyproject.toml").write_text('[project]\nname = "sitegen-papers"\n')
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "sitegen")
    git(source, "remote", "add", "origin", "git@github.com:example/sitegen.git")
    return source, git(source, "rev-parse", "HEAD")


def test_cli_init_never_installs_a_bare_sitegen(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["init", str(tmp_path / "list")])
    assert result.exit_code == 0, result.output
    lines = installed(tmp_path / "list")
    assert "sitegen" not in lines
    if "warning[E620]" in result.output:  # this sitegen has no public source: the workflow must stop
        assert "requirements.txt" in stops_pip(tmp_path / "list")
    else:
        assert pinned(tmp_path / "list").url


def test_editable_install_pins_the_checkouts_origin_and_head(tmp_path: Path, checkout: tuple[Path, str]) -> None:
    source, head = checkout
    direct_url = {"url": source.as_uri(), "dir_info": {"editable": True}}
    result = init_site(tmp_path / "list", requirements=starter_requirements(direct_url))
    assert pinned(tmp_path / "list").url == f"git+https://github.com/example/sitegen.git@{head}"
    (warning,) = result.warnings  # the commit is not on origin yet
    assert warning.code == "E621" and warning.severity == "warning"
    assert warning.format().startswith(f"{tmp_path / 'list' / 'requirements.txt'}: warning[E621]: ")
    git(source, "update-ref", "refs/remotes/origin/main", head)
    assert init_site(tmp_path / "again", requirements=starter_requirements(direct_url)).warnings == []


def test_a_checkout_in_a_subfolder_names_it(checkout: tuple[Path, str]) -> None:
    source, _ = checkout
    (source / "python").mkdir()
    (source / "python/pyproject.toml").write_text('[project]\nname = "sitegen-papers"\n')
    git(source, "add", "-A")
    git(source, "commit", "-q", "-m", "sitegen in a subfolder")
    line = starter_requirements({"url": (source / "python").as_uri(), "dir_info": {}}).text.splitlines()[-1]
    assert (Requirement(line).url or "").endswith("#subdirectory=python")


def test_vcs_install_pins_its_commit(tmp_path: Path) -> None:
    info = tmp_path / "sitegen-0.2.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sitegen-papers\nVersion: 0.2.0\n")
    (info / "direct_url.json").write_text(json.dumps(
        {"url": "ssh://git@github.com/example/sitegen.git", "vcs_info": {"vcs": "git", "commit_id": SHA}}))
    direct_url = installed_direct_url(importlib.metadata.PathDistribution(info))
    result = init_site(tmp_path / "list", requirements=starter_requirements(direct_url))
    assert pinned(tmp_path / "list").url == f"git+https://github.com/example/sitegen.git@{SHA}"
    assert result.warnings == []


def test_a_release_from_the_package_index_is_pinned_by_its_own_name(tmp_path: Path) -> None:
    """pip records no `direct_url` for an index install: the version it installed is pinned, under the name that is
    this project's on the index (never the bare `sitegen`, another project's)."""
    result = init_site(tmp_path / "list", requirements=starter_requirements(None, release="0.2.0"))
    assert result.warnings == []
    (line,) = installed(tmp_path / "list")
    requirement = Requirement(line)
    assert requirement.name == DISTRIBUTION == "sitegen-papers" and str(requirement.specifier) == "==0.2.0"
    assert requirement.url is None


@pytest.mark.parametrize("direct_url", [
    None,
    {"url": "file:///somewhere/sitegen-0.2.0.tar.gz", "archive_info": {}},
    {"url": "file:///srv/git/sitegen.git", "vcs_info": {"vcs": "git", "commit_id": SHA}},
    {"url": "https://hg.example.org/sitegen", "vcs_info": {"vcs": "hg", "commit_id": SHA}},
    {"url": "file:///nowhere/at/all", "dir_info": {}},
])
def test_no_public_source_stops_the_workflow_and_warns(tmp_path: Path, direct_url: dict[str, object] | None) -> None:
    result = init_site(tmp_path / "list", requirements=starter_requirements(direct_url))
    (warning,) = result.warnings
    assert warning.code == "E620" and "no public source of sitegen found" in warning.message
    assert "sitegen" not in installed(tmp_path / "list")
    said = stops_pip(tmp_path / "list")
    assert "replace this line with the sitegen to install" in said and "requirements.txt" in said


def test_a_checkout_without_a_public_origin_has_no_source(checkout: tuple[Path, str], tmp_path: Path) -> None:
    source, _ = checkout
    git(source, "remote", "set-url", "origin", str(tmp_path / "bare.git"))
    requirements = starter_requirements({"url": source.as_uri(), "dir_info": {"editable": True}})
    assert requirements.code == "E620" and "no public remote named origin" in requirements.message
    git(source, "remote", "remove", "origin")
    assert starter_requirements(None, checkout=source).code == "E620"


def test_an_untracked_folder_inside_some_repository_is_no_checkout(checkout: tuple[Path, str]) -> None:
    source, _ = checkout
    unpacked = source / "build" / "sitegen-0.2.0"
    unpacked.mkdir(parents=True)
    (unpacked / "pyproject.toml").write_text('[project]\nname = "sitegen-papers"\n')
    requirements = starter_requirements({"url": unpacked.as_uri(), "dir_info": {}})
    assert requirements.code == "E620" and "is not a checkout of sitegen's sources" in requirements.message


@pytest.mark.parametrize("url,public", [
    ("git@github.com:owner/repo.git", "https://github.com/owner/repo.git"),
    ("ssh://git@gitlab.com:2222/group/sub/repo.git", "https://gitlab.com/group/sub/repo.git"),
    ("git+ssh://git@github.com/owner/repo", "https://github.com/owner/repo"),
    ("git://example.org/repo.git", "https://example.org/repo.git"),
    ("https://user:token@github.com/owner/repo.git?x=1#frag", "https://github.com/owner/repo.git"),
    ("git+https://github.com/owner/repo.git", "https://github.com/owner/repo.git"),
    ("/home/me/sitegen", None), ("file:///home/me/sitegen", None), ("../sitegen.git", None),
    ("C:\\src\\sitegen", None), ("https://github.com/", None),
])
def test_public_git_url(url: str, public: str | None) -> None:
    assert public_git_url(url) == public


def test_the_starter_workflow_is_the_repos_own_installing_requirements() -> None:
    own = (REPO / ".github/workflows/pages.yml").read_text()
    assert "pip install -e .\n" in own
    assert starter_workflow() == own.replace("pip install -e .\n", "pip install -r requirements.txt\n"), \
        "copy .github/workflows/pages.yml to sitegen/ingest/starter/pages.yml, installing -r requirements.txt"


def test_the_starter_workflow_ships_in_the_package() -> None:
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["sitegen.ingest"]
    shipped = {p for pattern in data for p in (REPO / "sitegen/ingest").glob(pattern)}
    assert REPO / "sitegen/ingest/starter/pages.yml" in shipped


def test_the_starter_workflow_passes_actionlint(tmp_path: Path) -> None:
    exe = shutil.which("actionlint")
    if exe is None:
        pytest.fail("actionlint is not installed (pip install -e '.[test]')")
    init_site(tmp_path / "list", requirements=Requirements("sitegen-papers @ git+https://example.org/s.git@" + SHA))
    run = subprocess.run([exe, "-no-color", str(tmp_path / "list/.github/workflows/pages.yml")],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
