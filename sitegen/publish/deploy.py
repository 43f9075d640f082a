"""`sitegen deploy`: publish public/ as the whole tree of a gh-pages branch, with git plumbing.

The commit is made from a temporary index (`git add` with `--work-tree=public`,
`write-tree`, `commit-tree`), so the working tree, the current branch and the
real index are never touched. Each deploy is one new commit on top of the last.

The target branch is checked before anything is built (`prepare`): a deploy replaces the
branch's whole tree, so pointing it at a branch that holds the sources would wipe them,
locally and on the remote. The new commit is pushed by its id first; the local branch is
moved only once the remote has accepted it.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..common.errors import Diagnostic, Location, SitegenError

IDENTITY = {"GIT_AUTHOR_NAME": "sitegen", "GIT_AUTHOR_EMAIL": "sitegen@localhost",
            "GIT_COMMITTER_NAME": "sitegen", "GIT_COMMITTER_EMAIL": "sitegen@localhost"}
PSEUDO_REF = re.compile(r"[A-Z_]*HEAD|@")  # HEAD, FETCH_HEAD, ORIG_HEAD, ... and git's "@" for HEAD
SOURCE_MARKS = ("site.yaml", "content")  # what a tree holding this site's sources has at the site's path
HERE = Location(".")


@dataclass(frozen=True)
class Deployed:
    commit: str
    branch: str
    remote: str
    source: str
    pushed: bool
    unchanged: bool = False  # the branch already held this very site: no commit was made


@dataclass(frozen=True)
class Target:
    """Where a deploy goes, checked before building: the tip to build on and the local tip to move."""

    repo: Path
    remote: str
    branch: str
    parent: str  # the remote's tip (else the local one); "" for a first deploy
    local: str  # the local branch's tip, "" when there is none
    push: bool


def _fail(code: str, message: str, hint: str = "") -> SitegenError:
    return SitegenError.single(HERE, code, message, hint)


def _run(root: Path, *args: str, env: dict[str, str] | None = None,
         cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd or root, capture_output=True, text=True, env=env, check=False)


def _git(root: Path, *args: str, env: dict[str, str] | None = None, check: bool = True,
         cwd: Path | None = None) -> str:
    run = _run(root, *args, env=env, cwd=cwd)
    if check and run.returncode != 0:
        message = (run.stderr or run.stdout).strip().splitlines()
        raise _fail("E601", f"git {args[0]} failed: {message[-1] if message else ''}")
    return run.stdout.strip()


def repository_root(root: Path) -> Path:
    """The git work tree that holds the site, or a clear error."""
    run = _run(root, "rev-parse", "--show-toplevel")
    if run.returncode != 0:
        raise _fail("E600", "the site is not in a git repository",
                    "run 'git init' and add a remote, or publish with the Pages workflow")
    return Path(run.stdout.strip())


def dirty_content(root: Path) -> list[str]:
    """Uncommitted changes under content/ (a deploy would publish what git does not have).

    Paths are relative to the site root. `-z` keeps names verbatim (no quoting of spaces
    or quotes) and leaves each record's two status columns intact.
    """
    run = _run(root, "status", "--porcelain", "-z", "--untracked-files=all", "--", "content")
    if run.returncode != 0:
        raise _fail("E601", f"git status failed: {run.stderr.strip()}")
    prefix = _git(root, "rev-parse", "--show-prefix")
    records = iter(run.stdout.split("\0"))
    paths = []
    for record in records:
        if len(record) < 4:
            continue
        if "R" in record[:2] or "C" in record[:2]:
            next(records, None)  # a rename's second field is its old name
        paths.append(record[3:].removeprefix(prefix))
    return paths


def check_clean(root: Path) -> None:
    """Refuse while content/ has uncommitted changes: one diagnostic per path."""
    dirty = dirty_content(root)
    if dirty:
        raise SitegenError([Diagnostic(Location(path), "E603", "uncommitted changes under content/ would be "
                                       "published without being in git", "commit them, or pass --force")
                            for path in dirty])


def check_branch_name(branch: str) -> None:
    """Only a plain branch name: never an option, a symbolic ref, a full ref or a revision like @{-1}."""
    if not branch or branch.startswith("-"):
        reason = "looks like an option, not a branch name"
    elif PSEUDO_REF.fullmatch(branch):
        reason = "is a symbolic name git uses, not a branch"
    elif branch.startswith("refs/"):
        reason = "is a full ref; give the branch name alone (e.g. gh-pages)"
    elif "@{" in branch or any(_run(Path.cwd(), "check-ref-format", *args).returncode
                               for args in (["--branch", branch], [f"refs/heads/{branch}"])):
        reason = "is not a valid branch name"
    else:
        return
    raise _fail("E604", f"refusing to deploy to '{branch}': it {reason}", "the default, gh-pages, is usually right")


def _checked_out_at(repo: Path, branch: str) -> str:
    """The worktree that has `branch` checked out, or ""."""
    worktree = ""
    for line in _git(repo, "worktree", "list", "--porcelain").splitlines():
        if line.startswith("worktree "):
            worktree = line.removeprefix("worktree ")
        elif line == f"branch refs/heads/{branch}":
            return worktree
    return ""


def _source_reason(root: Path, tip: str) -> str:
    """Why the commit `tip` holds this project's sources, or "" when it does not.

    The rule: the tip shares any history with HEAD (HEAD is its ancestor, it is HEAD's, or
    they forked), or its tree has site.yaml or content/ where this site keeps them. A
    branch made by a deploy has a history of its own (its first commit has no parent) and
    holds only a built site, so neither can be true of it; every branch of the sources has
    one or the other, even one that never shared a commit with the current HEAD.
    """
    head = _git(root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}", check=False)
    if head and _run(root, "merge-base", head, tip).returncode == 0:
        return "it shares history with HEAD"
    prefix = _git(root, "rev-parse", "--show-prefix")
    for name in SOURCE_MARKS:
        if _run(root, "cat-file", "-e", f"{tip}:{prefix}{name}").returncode == 0:
            return f"its tree has {prefix}{name}"
    return ""


def is_address(remote: str) -> bool:
    """Whether --remote gives a repository's URL or path rather than a remote's name (git takes all three)."""
    return "://" in remote or bool(re.match(r"^[\w.-]+@[\w.-]+:", remote)) or "/" in remote or "\\" in remote \
        or remote in (".", "..") or Path(remote).expanduser().is_dir()


def _remote_tip(repo: Path, remote: str, branch: str) -> str:
    """The remote branch's tip, fetched (or "" when it does not exist there yet); a clear error if unreachable.
    `remote` is a remote's name, or a repository's URL or path."""
    named = _run(repo, "remote", "get-url", remote).returncode == 0
    if not named and not is_address(remote):
        raise _fail("E602", f"no git remote named '{remote}'",
                    f"pass --remote with a remote's name, or the repository's URL or path; or add a remote with "
                    f"'git remote add {remote} URL'")
    listed = _run(repo, "ls-remote", "--heads", remote, f"refs/heads/{branch}")
    if listed.returncode != 0:
        said = [line for line in listed.stderr.splitlines() if line.startswith("fatal:")] or [listed.stderr.strip()]
        raise _fail("E607", f"cannot reach git remote '{remote}': {said[0].removeprefix('fatal: ')}",
                    "check the URL with 'git remote -v', or pass another --remote")
    if not listed.stdout.strip():
        return ""
    if not named:  # an address: nothing to keep a remote-tracking branch under
        _git(repo, "fetch", "--quiet", remote, f"refs/heads/{branch}")
        return _git(repo, "rev-parse", "--verify", "FETCH_HEAD^{commit}")
    _git(repo, "fetch", "--quiet", remote, f"+refs/heads/{branch}:refs/remotes/{remote}/{branch}")
    return _git(repo, "rev-parse", "--verify", f"refs/remotes/{remote}/{branch}^{{commit}}")


def prepare(root: Path, remote: str = "origin", branch: str = "gh-pages", push: bool = True) -> Target:
    """Every check a deploy needs, made before anything is built; nothing is changed if one fails."""
    check_branch_name(branch)
    repo = repository_root(root)
    where = _checked_out_at(repo, branch)
    if where:
        raise _fail("E605", f"refusing to deploy to '{branch}': it is checked out in {where}; a deploy "
                    "replaces the branch's whole tree", "deploy to a branch of its own, such as gh-pages")
    local = _git(repo, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}^{{commit}}", check=False)
    remote_tip = _remote_tip(repo, remote, branch) if push else ""
    for place, tip in ((f"{remote}/{branch}", remote_tip), (branch, local)):
        reason = _source_reason(root, tip) if tip else ""
        if reason:
            raise _fail("E606", f"refusing to deploy to '{branch}': {place} holds this project's sources "
                        f"({reason}); a deploy replaces the branch's whole tree",
                        "deploy to a branch of its own, such as gh-pages (created on the first deploy)")
    return Target(repo, remote, branch, remote_tip or local, local, push)


def _identity(repo: Path) -> dict[str, str]:
    env = dict(os.environ)
    if not _git(repo, "config", "user.name", check=False) and "GIT_AUTHOR_NAME" not in env:
        env |= IDENTITY
    elif not _git(repo, "config", "user.email", check=False) and "GIT_AUTHOR_EMAIL" not in env:
        env |= {k: v for k, v in IDENTITY.items() if k.endswith("EMAIL")}
    return env


def _tree(repo: Path, site_dir: Path, env: dict[str, str]) -> str:
    """The tree object of `site_dir`, written through a temporary index."""
    with tempfile.TemporaryDirectory(prefix="sitegen-deploy-") as tmp:
        index_env = env | {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        git_dir = _git(repo, "rev-parse", "--absolute-git-dir")
        _git(repo, f"--git-dir={git_dir}", f"--work-tree={site_dir.resolve()}", "add", "--all", "--force", ".",
             env=index_env, cwd=site_dir.resolve())
        return _git(repo, "write-tree", env=index_env)


def _push(target: Target, commit: str, env: dict[str, str]) -> None:
    """Push the commit by its id (no force), so a rejected push leaves every local ref where it was."""
    run = _run(target.repo, "push", "--quiet", target.remote, f"{commit}:refs/heads/{target.branch}", env=env)
    if run.returncode != 0:
        lines = [line.removeprefix("remote:").strip(" !") for line in run.stderr.splitlines()
                 if line.startswith(("remote:", " ! "))] or run.stderr.strip().splitlines()[-1:]
        kept = f"the local branch {target.branch} is still at {target.local[:12]}" if target.local \
            else f"no local branch {target.branch} was created"
        raise _fail("E608", f"pushing to {target.remote}/{target.branch} failed: "
                    f"{'; '.join(line for line in lines if line)}; {kept}",
                    "if someone else deployed meanwhile, run sitegen deploy again")


def publish(target: Target, site_dir: Path, message: str | None = None) -> Deployed:
    """Commit `site_dir` as the whole tree of the target branch on top of its previous tip, then push."""
    repo = target.repo
    env = _identity(repo)
    source = _git(repo, "rev-parse", "--short", "HEAD", check=False) or "no commits"
    tree = _tree(repo, site_dir, env)
    if target.parent and _git(repo, "rev-parse", f"{target.parent}^{{tree}}") == tree:
        return Deployed(target.parent, target.branch, target.remote, source, False, unchanged=True)
    text = message or f"Publish site built from {source}"
    parent = ["-p", target.parent] if target.parent else []
    commit = _git(repo, "commit-tree", tree, *parent, "-m", text, env=env)
    if target.push:
        _push(target, commit, env)
    _git(repo, "update-ref", "-m", "sitegen deploy", f"refs/heads/{target.branch}", commit, target.local)
    return Deployed(commit, target.branch, target.remote, source, target.push)
