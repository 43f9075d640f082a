"""`sitegen init` (a new, working reading-list site) and `sitegen new` (one hand-typed entry).

The new site's Pages workflow installs sitegen from its requirements.txt, by its distribution
name `sitegen-papers` (a bare `sitegen` on PyPI is an unrelated project), pinned: to the
release installed from the package index, or to the git URL and commit this sitegen was
installed from (PEP 610 `direct_url.json`). When no public source can be found it writes a
line pip rejects, so the workflow stops at once with a message instead of running other code.
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import importlib.resources
import json
import re
import subprocess
import tomllib
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..common.distribution import DISTRIBUTION, installed_version
from ..common.errors import Diagnostic, Location, SitegenError
from ..common.fsutil import write_atomic
from ..content import frontmatter
from ..content.slugs import slugify, unique_slug
from .curation import Curation
from .editor_setup import MODELINE, editor_files
from .importers.merge import ordered, title_key

SOURCE_TREE = Path(__file__).resolve().parents[2]  # a checkout, when sitegen runs from one
COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
SSH_SCHEMES = ("ssh", "ssh+git", "git")
PINNED_REQUIREMENTS = """\
# What the Pages workflow installs to build this site: the sitegen that created it, pinned
# to one release or commit so every build runs the same code. To upgrade, change the pin.
# sitegen is installed as "sitegen-papers": on PyPI the bare name "sitegen" is an unrelated project.
{requirement}
"""
MISSING_REQUIREMENTS = """\
# What the Pages workflow installs to build this site.
# sitegen init could not tell where this sitegen came from ({reason}),
# so the workflow stops at the next line until you replace it with a pinned source, e.g.
#   sitegen-papers==VERSION
#   sitegen-papers @ git+https://github.com/OWNER/REPO.git@COMMIT
# Never write a bare "sitegen" here: on PyPI that name belongs to an unrelated project.
!!! replace this line with the sitegen to install (see the comments above) !!!
"""

STARTER_CONFIG = MODELINE + """\
# Settings of this reading list. `sitegen check` validates this file (and editors, through the line above).
title: {title}
description: Papers worth reading, with notes.
curator: {curator}
language: en
# Where the site is published; the Pages workflow and `--base-url` override it.
base_url: https://example.github.io/reading-list/
theme: default
page_size: 20

# Topic tags: tag -> keywords matched on each imported paper's title and abstract.
tags:
  attention: [attention, transformer]
  mixture-of-experts: [mixture of experts, moe]
  quantization: [quantization, quantized, low-precision]
  speculative-decoding: [speculative decoding, draft model]
  kv-cache: [kv cache, key-value cache]
  compilers: [compiler, compilation]
  gpu-kernels: [gpu kernel, cuda, triton]
  distributed-training: [data parallelism, tensor parallelism, pipeline parallelism, distributed training]
  llm-serving: [serving, inference system, prefill]
  diffusion-models: [diffusion model, diffusion]
"""

STARTER_README = """\
# {title}

A reading list built with sitegen.

```sh
sitegen new "Paper title" --date 2025-01-31 --tags attention --author "Ada Lovelace"
sitegen import content/dumps/*.txt --captured 2025-01-31   # or import aggregator dumps
sitegen serve      # preview at http://127.0.0.1:8000/ while you edit
sitegen build      # the site in public/
```

Push to GitHub and choose Settings → Pages → Source: "GitHub Actions"; the workflow in
`.github/workflows/pages.yml` publishes every push to main, with the sitegen that
`requirements.txt` pins. Or run `sitegen deploy` to publish to a `gh-pages` branch instead.
"""

EXAMPLE_NOTES = """\
Why this paper is on the list, in Markdown: **what it claims**, what to check, and links.

- Attention with $O(n^2)$ cost in sequence length.
- See also [the annotated version](https://nlp.seas.harvard.edu/annotated-transformer/).
"""


@dataclass(frozen=True)
class Requirements:
    """The starter's requirements.txt, and a warning when the user must edit it."""

    text: str
    code: str = ""
    message: str = ""
    hint: str = ""


@dataclass(frozen=True)
class Initialised:
    """What `sitegen init` created, and what the user should look at."""

    created: list[Path]
    warnings: list[Diagnostic] = field(default_factory=list)


def installed_direct_url(dist: importlib.metadata.Distribution | None = None) -> dict[str, Any] | None:
    """PEP 610 `direct_url.json` of the installed sitegen; None when not recorded (or unreadable)."""
    try:
        text = (dist or importlib.metadata.distribution(DISTRIBUTION)).read_text("direct_url.json")
        data = json.loads(text) if text else None
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def public_git_url(url: str) -> str | None:
    """The https (or http) URL a CI runner can clone `url` from; None for local paths.

    ssh remotes (`git@host:owner/repo.git`, `ssh://git@host/...`) become https on the same
    host and path, as the forges serve both; credentials, ports of ssh and queries are dropped.
    """
    scp = re.fullmatch(r"(?:[\w.-]+@)?([\w.-]+\.[\w.-]+):(?!/)(\S+)", url)
    if scp and "://" not in url:
        return f"https://{scp[1]}/{scp[2]}"
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower().removeprefix("git+")
    host, path = parts.hostname or "", parts.path
    if not host or path.strip("/") == "" or any(c.isspace() for c in url):
        return None
    if scheme in ("https", "http"):
        port = f":{parts.port}" if parts.port else ""
        return f"{scheme}://{host}{port}{path}"
    if scheme in SSH_SCHEMES:
        return f"https://{host}{path}"
    return None


def _pinned(url: str, commit: str, subdirectory: str = "") -> Requirements:
    requirement = f"{DISTRIBUTION} @ git+{url}@{commit}"
    if subdirectory.strip("/"):
        requirement += f"#subdirectory={subdirectory.strip('/')}"
    return Requirements(PINNED_REQUIREMENTS.format(requirement=requirement))


def missing_source(reason: str) -> Requirements:
    """A requirements.txt that stops the workflow (pip rejects its last line) and says why."""
    reason = " ".join(reason.split())
    return Requirements(MISSING_REQUIREMENTS.format(reason=reason), "E620",
                        f"no public source of sitegen found ({reason}); the Pages workflow will stop until "
                        "this file names one", f'write "{DISTRIBUTION}==VERSION" or "{DISTRIBUTION} @ '
                        'git+https://github.com/OWNER/REPO.git@COMMIT" there; a bare "sitegen" would install an '
                        'unrelated project from PyPI')


def _git(directory: Path, *args: str) -> str | None:
    try:
        run = subprocess.run(["git", *args], cwd=directory, capture_output=True, text=True, check=False)
    except OSError:
        return None
    return run.stdout.strip() if run.returncode == 0 else None


def checkout_requirements(directory: Path, remote: str = "origin") -> Requirements:
    """Pin the HEAD commit of the git checkout sitegen was installed from, at its remote's public URL."""
    if not directory.is_dir():
        return missing_source(f"{directory} does not exist")
    commit, url = _git(directory, "rev-parse", "HEAD"), _git(directory, "remote", "get-url", remote)
    if not commit or not COMMIT.fullmatch(commit):
        return missing_source(f"{directory} is not a git checkout with commits")
    if _git(directory, "ls-files", "--error-unmatch", "pyproject.toml") is None:  # not a folder some repo holds
        return missing_source(f"{directory} is not a checkout of sitegen's sources")
    public = public_git_url(url) if url else None
    if not public:
        return missing_source(f"the git checkout {directory} has no public remote named {remote}")
    pinned = _pinned(public, commit, _git(directory, "rev-parse", "--show-prefix") or "")
    if not _git(directory, "for-each-ref", "--contains", commit, "--count=1", f"refs/remotes/{remote}/"):
        return Requirements(pinned.text, "E621", f"requirements.txt pins commit {commit[:12]}, which {remote} "
                            "does not have as far as this clone knows", f"push it to {public} before the "
                            "Pages workflow runs, or the workflow cannot install sitegen")
    return pinned


def starter_requirements(direct_url: Mapping[str, Any] | None, checkout: Path | None = None,
                         release: str | None = None) -> Requirements:
    """requirements.txt for a new site, from how sitegen was installed (PEP 610 `direct_url`).

    A git install pins its URL and commit; a local or editable install pins the HEAD and
    origin of that folder's checkout; with no record at all, `checkout` (the folder
    sitegen runs from, if it is a checkout of sitegen) is tried, then `release` (the version
    pip installed from the package index, which records no `direct_url`). Anything else has
    no public source, and gets a requirements.txt that makes the workflow stop.
    """
    if direct_url is None:
        if checkout:
            return checkout_requirements(checkout)
        if release:
            return Requirements(PINNED_REQUIREMENTS.format(requirement=f"{DISTRIBUTION}=={release}"))
        return missing_source("it was not installed from the package index, a git URL or a local checkout")
    url = str(direct_url.get("url", ""))
    vcs, local = direct_url.get("vcs_info"), direct_url.get("dir_info")
    if isinstance(vcs, Mapping):
        commit, public = str(vcs.get("commit_id", "")), public_git_url(url)
        if vcs.get("vcs") != "git" or not COMMIT.fullmatch(commit):
            return missing_source(f"it was installed from {url} ({vcs.get('vcs')}) without a git commit id")
        if not public:
            return missing_source(f"it was installed from {url}, which is not a public git URL")
        return _pinned(public, commit, str(direct_url.get("subdirectory", "")))
    if isinstance(local, Mapping) and url.startswith("file:"):
        return checkout_requirements(Path(urllib.request.url2pathname(urllib.parse.urlsplit(url).path)))
    return missing_source(f"it was installed from {url or 'an unknown place'}")


def _own_checkout() -> Path | None:
    """The folder sitegen runs from, when it is sitegen's own source tree (not site-packages)."""
    try:
        project = tomllib.loads((SOURCE_TREE / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return None
    return SOURCE_TREE if project.get("project", {}).get("name") == DISTRIBUTION else None


def starter_workflow(name: str = "pages.yml") -> str:
    """A workflow of a new site, shipped inside the package: `pages.yml` publishes (kept in sync with the repo's
    by a test), `daily.yml` proposes each day's matching Daily Papers as a pull request."""
    return importlib.resources.files("sitegen.ingest").joinpath(f"starter/{name}").read_text(encoding="utf-8")


def init_site(target: Path, title: str = "My reading list", curator: str = "",
              requirements: Requirements | None = None) -> Initialised:
    """Create a new site in `target`; refuses to overwrite an existing one.

    `requirements` defaults to the pin of the installed sitegen (see `starter_requirements`).
    """
    if (target / "site.yaml").exists() or (target / "content").exists():
        raise SitegenError.single(Location(str(target)), "E701", "a site already exists here; nothing was changed",
                                  "choose an empty or new folder")
    if requirements is None:
        requirements = starter_requirements(installed_direct_url(), _own_checkout(), installed_version())
    files = {
        "site.yaml": STARTER_CONFIG.format(title=_yaml_text(title), curator=_yaml_text(curator or "me")),
        "README.md": STARTER_README.format(title=title),
        ".gitignore": "/public/\n/.sitegen-cache/\n__pycache__/\n",
        "content/dumps/.gitkeep": "",
        "content/authors/.gitkeep": "",
        "requirements.txt": requirements.text,
        ".github/workflows/pages.yml": starter_workflow(),
        ".github/workflows/daily.yml": starter_workflow("daily.yml"),
        **editor_files(),
    }
    created = []
    for name, text in files.items():
        write_atomic(target / name, text)
        created.append(target / name)
    created.append(new_entry(target, "Attention Is All You Need", dt.date(2017, 6, 12),
                             ["attention"], ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"],
                             body=EXAMPLE_NOTES, added=dt.date(2017, 6, 12), truncated=True))
    warnings = [Diagnostic(Location(str(target / "requirements.txt")), requirements.code, requirements.message,
                           requirements.hint, "warning")] if requirements.code else []
    return Initialised(created, warnings)


def _yaml_text(text: str) -> str:
    return frontmatter.dump_yaml(text).removesuffix("\n...\n").strip()


def new_entry(root: Path, title: str, date: dt.date | str | int | None = None, tags: list[str] | None = None,
              authors: list[str] | None = None, body: str = "", added: dt.date | None = None,
              truncated: bool = False, curation: Curation | None = None) -> Path:
    """Write content/papers/<slug>.md for a paper typed in by hand, with the importer's slug rules; the common
    fields it does not fill are there as comments, to fill in by removing the `# `."""
    if not title.strip():
        raise SitegenError.single(Location("content/papers"), "E702", "the title must not be empty")
    folder = root / "content" / "papers"
    existing = {p.stem for p in folder.glob("*.md")} if folder.is_dir() else set()
    key = title_key(title)
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        try:
            doc = frontmatter.parse(path.read_text(encoding="utf-8"), path.name)
        except frontmatter.FrontMatterError:
            continue
        if isinstance(doc.meta.get("title"), str) and title_key(doc.meta["title"]) == key:
            raise SitegenError.single(Location(f"content/papers/{path.name}", 2), "E703",
                                      "a paper with this title is already on the list", "edit that entry instead")
    meta: dict[str, object] = {"title": " ".join(title.split()), "authors": list(authors or [])}
    if truncated:
        meta["authors_truncated"] = True
    if date:
        meta["date"] = date
    meta["tags"] = list(tags or [])
    meta["added"] = added or dt.date.today()
    curation = curation or Curation()
    meta.update(curation.fields())
    slug = unique_slug(slugify(title), existing, key)
    path = folder / f"{slug}.md"
    text = frontmatter.render(ordered(meta), body or curation.notes)
    hints = "".join(line + "\n" for name, line in PLACEHOLDERS.items() if name not in meta)
    end = text.index("\n---\n", 3) + 1  # the closing line of the front matter (a title is one line)
    write_atomic(path, text[:end] + hints + text[end:])
    return path


# The common fields `sitegen new` leaves for the curator to fill in, as comments in the new entry
PLACEHOLDERS = {
    "date": "# date: 2025-02-04              # when it was published (2025-02 or 2025 if that is all)",
    "arxiv": "# arxiv: '2205.14135'          # its arXiv id, in quotes",
    "doi": "# doi: 10.1145/3581784.3607040",
    "venue": "# venue: NeurIPS 2025",
    "rating": "# rating: 4                    # 1 to 5",
    "links": "# links: {code: https://github.com/owner/repo}",
}
