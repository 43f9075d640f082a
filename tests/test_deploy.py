"""`sitegen deploy` against a local bare repository standing in for GitHub."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main

from .site_factory import copy_site, tree_bytes

ENV = {"GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "Test",
       "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env=os.environ | ENV).stdout.strip()


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    site = copy_site(tmp_path / "site", papers=12)
    (site / ".gitignore").write_text("/public/\n/.sitegen-cache/\n")
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "--bare", "-q", "-b", "main", str(remote))
    git(site, "init", "-q", "-b", "main")
    git(site, "add", "-A")
    git(site, "commit", "-q", "-m", "Initial reading list")
    git(site, "remote", "add", "origin", str(remote))
    git(site, "push", "-q", "origin", "main")
    return site, remote


def deploy(site: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["deploy", "--root", str(site), "--base-url",
                                       "https://example.github.io/reading-list/", *args])
    return result.exit_code, result.output


def tree_of(remote: Path, ref: str) -> dict[str, bytes]:
    names = git(remote, "ls-tree", "-r", "--name-only", ref).splitlines()
    return {n: subprocess.run(["git", "show", f"{ref}:{n}"], cwd=remote, check=True, capture_output=True).stdout
            for n in names}


def test_deploy_twice_publishes_public_exactly(repo: tuple[Path, Path]) -> None:
    site, remote = repo
    head, status = git(site, "rev-parse", "HEAD"), git(site, "status", "--porcelain")
    code, output = deploy(site)
    assert code == 0, output
    published = tree_bytes(site / "public")
    assert tree_of(remote, "gh-pages") == published
    assert ".nojekyll" in published
    entry = sorted((site / "content/papers").glob("*.md"))[0]
    entry.write_text(entry.read_text().replace("title: ", "title: Revised ", 1))
    git(site, "commit", "-q", "-am", "Revise a title")
    code, output = deploy(site)
    assert code == 0, output
    assert tree_of(remote, "gh-pages") == tree_bytes(site / "public")
    log = git(remote, "log", "--format=%s", "gh-pages").splitlines()
    assert len(log) == 2
    assert git(site, "rev-parse", "--short", "HEAD") in log[0]
    assert git(site, "rev-parse", "--abbrev-ref", "HEAD") == "main"
    assert git(site, "rev-parse", "HEAD") != head  # our own commit, not the deploy's
    assert git(site, "status", "--porcelain") == status
    assert git(remote, "rev-parse", "main") == git(site, "rev-parse", "HEAD^")


def test_refuses_uncommitted_content_unless_forced(repo: tuple[Path, Path]) -> None:
    site, remote = repo
    entry = sorted((site / "content/papers").glob("*.md"))[0]
    entry.write_text(entry.read_text() + "\nunsaved note\n")
    code, output = deploy(site)
    assert code != 0 and "uncommitted changes under content/" in output
    assert "gh-pages" not in git(remote, "branch", "--list")
    code, output = deploy(site, "--force")
    assert code == 0, output
    assert "gh-pages" in git(remote, "branch", "--list")


def test_cname_written_for_custom_domain(repo: tuple[Path, Path]) -> None:
    site, remote = repo
    config = site / "site.yaml"
    config.write_text(config.read_text() + "domain: papers.example.org\n")
    git(site, "commit", "-q", "-am", "Custom domain")
    code, output = deploy(site, "--message", "Publish with domain")
    assert code == 0, output
    published = tree_of(remote, "gh-pages")
    assert published["CNAME"] == b"papers.example.org\n"
    assert git(remote, "log", "-1", "--format=%s", "gh-pages") == "Publish with domain"


def test_no_remote_is_a_clear_error(repo: tuple[Path, Path]) -> None:
    site, _ = repo
    code, output = deploy(site, "--remote", "nowhere")
    assert code != 0 and "no git remote named 'nowhere'" in output
