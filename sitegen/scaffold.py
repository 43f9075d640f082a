"""`sitegen init` (a new, working reading-list site) and `sitegen new` (one hand-typed entry)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from . import frontmatter
from .errors import Location, SitegenError
from .fsutil import write_atomic
from .importers.merge import ordered, title_key
from .slugs import slugify, unique_slug

REPO = Path(__file__).resolve().parent.parent

STARTER_CONFIG = """\
# Settings of this reading list. `sitegen check` validates this file.
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
`.github/workflows/pages.yml` publishes every push to main. Or run `sitegen deploy` to
publish to a `gh-pages` branch instead.
"""

EXAMPLE_NOTES = """\
Why this paper is on the list, in Markdown: **what it claims**, what to check, and links.

- Attention with $O(n^2)$ cost in sequence length.
- See also [the annotated version](https://nlp.seas.harvard.edu/annotated-transformer/).
"""


def init_site(target: Path, title: str = "My reading list", curator: str = "") -> list[Path]:
    """Create a new site in `target`; refuses to overwrite an existing one."""
    if (target / "site.yaml").exists() or (target / "content").exists():
        raise SitegenError.single(Location(str(target)), "E701", "a site already exists here; nothing was changed",
                                  "choose an empty or new folder")
    files = {
        "site.yaml": STARTER_CONFIG.format(title=_yaml_text(title), curator=_yaml_text(curator or "me")),
        "README.md": STARTER_README.format(title=title),
        ".gitignore": "/public/\n/.sitegen-cache/\n__pycache__/\n",
        "content/dumps/.gitkeep": "",
        "content/authors/.gitkeep": "",
        "requirements.txt": "# What the Pages workflow installs to build this site. Point it at the sitegen\n"
                            "# you use (a package index name, a git URL or a local path).\nsitegen\n",
        ".github/workflows/pages.yml": (REPO / ".github/workflows/pages.yml").read_text(encoding="utf-8")
        .replace("pip install -e .", "pip install -r requirements.txt"),
    }
    created = []
    for name, text in files.items():
        write_atomic(target / name, text)
        created.append(target / name)
    created.append(new_entry(target, "Attention Is All You Need", dt.date(2017, 6, 12),
                             ["attention"], ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"],
                             body=EXAMPLE_NOTES, added=dt.date(2017, 6, 12), truncated=True))
    return created


def _yaml_text(text: str) -> str:
    return frontmatter.dump_yaml(text).removesuffix("\n...\n").strip()


def new_entry(root: Path, title: str, date: dt.date | None = None, tags: list[str] | None = None,
              authors: list[str] | None = None, body: str = "", added: dt.date | None = None,
              truncated: bool = False) -> Path:
    """Write content/papers/<slug>.md for a paper typed in by hand, with the importer's slug rules."""
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
    meta["status"] = "to-read"
    slug = unique_slug(slugify(title), existing, key)
    path = folder / f"{slug}.md"
    write_atomic(path, frontmatter.render(ordered(meta), body))
    return path
