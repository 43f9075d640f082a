"""`sitegen deploy` against a local bare repository standing in for GitHub."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.publish.deploy import dirty_content

from ..site_factory import copy_site, tree_bytes

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
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
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


def refs(repo: Path) -> str:
    return git(repo, "for-each-ref", "--format=%(refname) %(objectname)")


@pytest.mark.parametrize("branch", ["main", "side", "copy", "published-sources"])
def test_refuses_a_branch_that_holds_the_sources(repo: tuple[Path, Path], branch: str) -> None:
    site, remote = repo
    git(site, "branch", "side")  # HEAD's commit, not checked out
    git(site, "branch", "copy", git(site, "commit-tree", "HEAD^{tree}", "-m", "Unrelated copy of the sources"))
    git(site, "push", "-q", "origin", "main:refs/heads/published-sources")  # on the remote only
    before = refs(site), refs(remote)
    code, output = deploy(site, "--branch", branch)
    assert code == 1, output
    assert "error[E605]" in output if branch == "main" else "error[E606]" in output
    assert f"refusing to deploy to '{branch}'" in output and "Traceback" not in output
    assert (refs(site), refs(remote)) == before
    assert not (site / "public").exists()  # refused before building


def test_refuses_a_branch_checked_out_in_another_worktree(repo: tuple[Path, Path], tmp_path: Path) -> None:
    site, remote = repo
    git(site, "worktree", "add", "-q", "--detach", str(tmp_path / "wt"))
    git(tmp_path / "wt", "switch", "-q", "--orphan", "pages")
    git(tmp_path / "wt", "commit", "-q", "--allow-empty", "-m", "An unrelated branch, checked out")
    before = refs(site), refs(remote)
    code, output = deploy(site, "--branch", "pages")
    assert code == 1 and "error[E605]" in output and str(tmp_path / "wt") in output, output
    assert (refs(site), refs(remote)) == before


@pytest.mark.parametrize("branch", ["-h", "--force", "", "HEAD", "FETCH_HEAD", "ORIG_HEAD", "@", "@{-1}",
                                    "refs/heads/gh-pages", "a..b", "pages.lock", "with space", "x~1"])
def test_refuses_names_that_are_not_plain_branches(repo: tuple[Path, Path], branch: str) -> None:
    site, remote = repo
    before = refs(site), refs(remote)
    code, output = deploy(site, f"--branch={branch}")
    assert code == 1 and f".: error[E604]: refusing to deploy to '{branch}'" in output, output
    assert (refs(site), refs(remote)) == before
    assert not (site / "public").exists()


def test_rejected_push_never_moves_the_local_branch(repo: tuple[Path, Path]) -> None:
    site, remote = repo
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'deploys are closed today' >&2\nexit 1\n")
    hook.chmod(0o755)
    code, output = deploy(site)
    assert code == 1 and "error[E608]" in output and "deploys are closed today" in output, output
    assert "no local branch gh-pages was created" in output
    assert not git(site, "branch", "--list", "gh-pages")
    hook.unlink()
    assert deploy(site)[0] == 0
    published = git(site, "rev-parse", "gh-pages")
    assert git(remote, "rev-parse", "gh-pages") == published
    entry = sorted((site / "content/papers").glob("*.md"))[0]  # a site that differs: there is something to push
    entry.write_text(entry.read_text().replace("title: ", "title: Revised ", 1))
    git(site, "commit", "-q", "-am", "Revise a title")
    hook.write_text("#!/bin/sh\nexit 1\n")
    hook.chmod(0o755)
    code, output = deploy(site, "--message", "Second deploy")
    assert code == 1 and f"the local branch gh-pages is still at {published[:12]}" in output, output
    assert git(site, "rev-parse", "gh-pages") == git(remote, "rev-parse", "gh-pages") == published


def test_dirty_content_names_each_path_whole(repo: tuple[Path, Path]) -> None:
    site, _ = repo
    entry = sorted((site / "content/papers").glob("*.md"))[0]
    entry.write_text(entry.read_text() + "\nunsaved note\n")
    odd = site / "content/papers" / 'a "quoted" name.md'
    odd.write_text("---\ntitle: x\n---\n")
    code, output = deploy(site)
    assert code == 1
    lines = output.splitlines()
    for name in (f"content/papers/{entry.name}", 'content/papers/a "quoted" name.md'):
        assert f"{name}: error[E603]: uncommitted changes under content/ would be published without being in git" \
            in lines, output
    assert not (site / "public").exists()


def test_outside_a_git_repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    site = copy_site(tmp_path / "site", papers=2)
    code, output = deploy(site)
    assert code == 1 and ".: error[E600]: the site is not in a git repository" in output, output
    assert not (site / "public").exists()


def test_without_any_remote(repo: tuple[Path, Path]) -> None:
    site, _ = repo
    git(site, "remote", "remove", "origin")
    code, output = deploy(site)
    assert code == 1 and ".: error[E602]: no git remote named 'origin'" in output, output
    assert not (site / "public").exists() and not git(site, "branch", "--list", "gh-pages")


def test_remote_that_does_not_exist(repo: tuple[Path, Path], tmp_path: Path) -> None:
    site, _ = repo
    git(site, "remote", "set-url", "origin", str(tmp_path / "gone.git"))
    code, output = deploy(site)
    assert code == 1 and ".: error[E607]: cannot reach git remote 'origin': " in output, output
    assert str(tmp_path / "gone.git") in output
    assert not (site / "public").exists() and not git(site, "branch", "--list", "gh-pages")


def test_dirty_content_of_a_site_in_a_subfolder_with_a_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    site = copy_site(tmp_path / "repo" / "docs", papers=2)
    git(tmp_path / "repo", "init", "-q", "-b", "main")
    git(tmp_path / "repo", "add", "-A")
    git(tmp_path / "repo", "commit", "-q", "-m", "Sources")
    git(tmp_path, "init", "--bare", "-q", str(tmp_path / "remote.git"))
    git(site, "remote", "add", "origin", str(tmp_path / "remote.git"))
    first = sorted((site / "content/papers").glob("*.md"))[0]
    git(site, "mv", str(first), "content/papers/renamed one.md")
    assert dirty_content(site) == ["content/papers/renamed one.md"]
    git(tmp_path / "repo", "commit", "-q", "-m", "Rename")
    git(tmp_path / "repo", "branch", "copy", git(site, "commit-tree", "HEAD^{tree}", "-m", "Unrelated copy"))
    code, output = deploy(site, "--branch", "copy")
    assert code == 1 and "(its tree has docs/site.yaml)" in output, output


def test_a_redeploy_of_the_same_site_commits_nothing(repo: tuple[Path, Path]) -> None:
    site, remote = repo
    assert deploy(site)[0] == 0
    tip = git(remote, "rev-parse", "gh-pages")
    code, output = deploy(site)
    assert code == 0 and output.startswith(f"already up to date: origin gh-pages holds this site ({tip[:12]})"), output
    assert git(remote, "rev-parse", "gh-pages") == tip and git(remote, "rev-list", "--count", "gh-pages") == "1"


def test_the_remote_may_be_a_path_or_a_url(repo: tuple[Path, Path]) -> None:
    """git pushes to a path or URL as well as to a remote's name; --remote takes what git takes."""
    site, remote = repo
    git(site, "remote", "remove", "origin")
    code, output = deploy(site, "--remote", str(remote))
    assert code == 0, output
    assert tree_of(remote, "gh-pages") == tree_bytes(site / "public")
    entry = sorted((site / "content/papers").glob("*.md"))[0]
    entry.write_text(entry.read_text().replace("title: ", "title: Revised ", 1))
    git(site, "commit", "-q", "-am", "Revise a title")
    code, output = deploy(site, "--remote", remote.as_uri())
    assert code == 0 and output.startswith("published "), output
    assert tree_of(remote, "gh-pages") == tree_bytes(site / "public")
    assert git(remote, "rev-list", "--count", "gh-pages") == "2"  # on top of the first, fetched from the address
