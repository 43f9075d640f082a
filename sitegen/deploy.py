"""`sitegen deploy`: publish public/ as the whole tree of a gh-pages branch, with git plumbing.

The commit is made from a temporary index (`git add` with `--work-tree=public`,
`write-tree`, `commit-tree`), so the working tree, the current branch and the
real index are never touched. Each deploy is one new commit on top of the last.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .errors import Location, SitegenError

IDENTITY = {"GIT_AUTHOR_NAME": "sitegen", "GIT_AUTHOR_EMAIL": "sitegen@localhost",
            "GIT_COMMITTER_NAME": "sitegen", "GIT_COMMITTER_EMAIL": "sitegen@localhost"}


@dataclass(frozen=True)
class Deployed:
    commit: str
    branch: str
    remote: str
    source: str
    pushed: bool


def _git(root: Path, *args: str, env: dict[str, str] | None = None, check: bool = True,
         cwd: Path | None = None) -> str:
    run = subprocess.run(["git", *args], cwd=cwd or root, capture_output=True, text=True, env=env, check=False)
    if check and run.returncode != 0:
        message = (run.stderr or run.stdout).strip().splitlines()
        raise SitegenError.single(Location("."), "E601", f"git {args[0]} failed: {message[-1] if message else ''}")
    return run.stdout.strip()


def repository_root(root: Path) -> Path:
    """The git work tree that holds the site, or a clear error."""
    run = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=root, capture_output=True, text=True,
                         check=False)
    if run.returncode != 0:
        raise SitegenError.single(Location("."), "E600", "the site is not in a git repository",
                                  "run 'git init' and add a remote, or publish with the Pages workflow")
    return Path(run.stdout.strip())


def dirty_content(root: Path) -> list[str]:
    """Uncommitted changes under content/ (a deploy would publish what git does not have)."""
    status = _git(root, "status", "--porcelain", "--", "content")
    return [line[3:] for line in status.splitlines() if line.strip()]


def _identity(repo: Path) -> dict[str, str]:
    env = dict(os.environ)
    if not _git(repo, "config", "user.name", check=False) and "GIT_AUTHOR_NAME" not in env:
        env |= IDENTITY
    elif not _git(repo, "config", "user.email", check=False) and "GIT_AUTHOR_EMAIL" not in env:
        env |= {k: v for k, v in IDENTITY.items() if k.endswith("EMAIL")}
    return env


def publish(root: Path, site_dir: Path, remote: str = "origin", branch: str = "gh-pages",
            message: str | None = None, push: bool = True) -> Deployed:
    """Commit `site_dir` as the whole tree of `branch` on top of its previous tip, then push."""
    repo = repository_root(root)
    env = _identity(repo)
    has_remote = bool(_git(repo, "remote", "get-url", remote, check=False))
    if push and not has_remote:
        raise SitegenError.single(Location("."), "E602", f"no git remote named '{remote}'",
                                  f"add one with 'git remote add {remote} URL' or pass --remote")
    if has_remote:
        _git(repo, "fetch", "--quiet", remote, f"+refs/heads/{branch}:refs/remotes/{remote}/{branch}", check=False)
    parent = (_git(repo, "rev-parse", "--verify", "--quiet", f"refs/remotes/{remote}/{branch}", check=False)
              or _git(repo, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}", check=False))
    source = _git(repo, "rev-parse", "--short", "HEAD", check=False) or "no commits"
    with tempfile.TemporaryDirectory(prefix="sitegen-deploy-") as tmp:
        index_env = env | {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        git_dir = _git(repo, "rev-parse", "--absolute-git-dir")
        _git(repo, f"--git-dir={git_dir}", f"--work-tree={site_dir.resolve()}", "add", "--all", "--force", ".",
             env=index_env, cwd=site_dir.resolve())
        tree = _git(repo, "write-tree", env=index_env)
    text = message or f"Publish site built from {source}"
    commit = _git(repo, "commit-tree", tree, *(["-p", parent] if parent else []), "-m", text, env=env)
    _git(repo, "update-ref", f"refs/heads/{branch}", commit)
    if push:
        _git(repo, "push", "--quiet", remote, f"refs/heads/{branch}:refs/heads/{branch}", env=env)
    return Deployed(commit, branch, remote, source, push)
