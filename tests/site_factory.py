"""Copies of the committed reading list for tests that edit, build or serve a site."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def copy_site(destination: Path, papers: int | None = None) -> Path:
    """site.yaml, content/ and themes/ copied into `destination`; optionally only the first N papers."""
    destination.mkdir(parents=True, exist_ok=True)
    shutil.copy2(REPO / "site.yaml", destination / "site.yaml")
    shutil.copytree(REPO / "content", destination / "content")
    shutil.copytree(REPO / "themes", destination / "themes")
    if papers is not None:
        for extra in sorted((destination / "content" / "papers").glob("*.md"))[papers:]:
            extra.unlink()
    return destination


def tree_bytes(folder: Path) -> dict[str, bytes]:
    """Every file below `folder` by relative POSIX path, for byte-for-byte comparisons."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def cached_shard(root: Path, key: str) -> Path:
    """The entry cache's shard file holding `key` (see sitegen.content.cache)."""
    from sitegen.content.cache import CACHE_DIR, ENTRIES, SUFFIX

    return root / CACHE_DIR / ENTRIES / f"{key[:2]}{SUFFIX}"


def edit_cached_entry(root: Path, key: str, field: str, value: object) -> None:
    """Set one field of a cached entry as stored, as a hand or a bug might: the shard's
    first line names its entries and their lengths, each on a line of its own after it."""
    import json

    shard = cached_shard(root, key)
    first, *lines = shard.read_bytes().split(b"\n")
    header = json.loads(first)
    at = header["keys"].index(key)
    entry = json.loads(lines[at])
    entry[field] = value
    lines[at] = json.dumps(entry).encode()
    header["lengths"] = [len(line) for line in lines[:-1]]
    shard.write_bytes(b"\n".join([json.dumps(header).encode(), *lines]))


# A curator's marks on papers at the top of the home page, the compilers tag and Ahan Gupta's page: one paper
# being read, others to read, read or skimmed, some rated (file stem -> (status, rating)), for the list pages'
# badges and the reading queue.
CURATED = {
    "autosp-unlocking-long-context-llm-training-via-compiler": ("reading", 4),
    "statesmix-online-lossless-compression-via-mamba-state-space": ("to-read", None),
    "flashattention-4-algorithm-and-kernel-pipelining-co-design": ("read", 5),
    "vtc-dnn-compilation-with-virtual-tensors-for-data-movement": ("to-read", 3),
    "tawa-automatic-warp-specialization-for-modern-gpus-with": ("skimmed", 2),
    "x-moe-enabling-scalable-training-for-emerging-mixture-of": ("to-read", None),
}


def curate(root: Path, marks: dict[str, tuple[str | None, int | None]] = CURATED,
           notes: dict[str, str] | None = None) -> None:
    """Give entries (by file stem) a reading status and a rating, written into their front matter as a curator
    would, and append `notes` (file stem -> Markdown) to their bodies."""
    for stem, (status, rating) in marks.items():
        path = root / "content" / "papers" / f"{stem}.md"
        head, body = path.read_text(encoding="utf-8").split("\n", 1)
        fields = (f"status: {status}\n" if status else "") + (f"rating: {rating}\n" if rating else "")
        path.write_text(f"{head}\n{fields}{body}", encoding="utf-8")
    for stem, text in (notes or {}).items():
        path = root / "content" / "papers" / f"{stem}.md"
        path.write_text(path.read_text(encoding="utf-8") + f"\n{text}\n", encoding="utf-8")


def without_related_lists(root: Path) -> Path:
    """The site's paper template without its 'More by these authors' and 'Related by shared tags' lists.

    Those lists show other papers, so a paper's page then depends on more of the site than its
    own entry and neighbours; tests of a page that shows only those use a theme without them.
    """
    import re

    template = root / "themes/default/templates/paper.html"
    text = template.read_text(encoding="utf-8")
    trimmed = re.sub(r"\{% for heading_id, heading, papers in .*?</section>\s*\{% endfor %\}", "", text,
                     count=1, flags=re.S)
    assert trimmed != text, "the paper template no longer has its lists of other papers"
    template.write_text(trimmed, encoding="utf-8")
    return root


# Sightings of papers on Hugging Face Daily Papers besides those of the bundled dumps, as further captures would
# record them (file stem -> (day, upvotes) each): charts of upvotes on their pages, and a Rising page of six gains
# between the captures of Apr 17 and May 19 (TPI-LLM's chart has an earlier third day; T3 and TensorBLEU, seen on
# both days with as many upvotes, did not gain).
SIGHTINGS = {
    "tpi-llm-serving-70b-scale-llms-efficiently-on-low-resource": (("2026-03-20", 3), ("2026-05-19", 23)),
    "live-avatar-streaming-real-time-audio-driven-avatar": (("2026-05-19", 19),),
    "streambp-memory-efficient-exact-backpropagation-for-long": (("2026-05-19", 9),),
    "bridging-evolutionary-multiobjective-optimization-and-gpu": (("2026-05-19", 4),),
    "threadweaver-adaptive-threading-for-efficient-parallel": (("2026-04-17", 1),),
    "tensorbleu-vectorized-gpu-based-bleu-score-implementation": (("2026-05-19", 2),),
    "vtc-dnn-compilation-with-virtual-tensors-for-data-movement": (("2026-04-17", 5), ("2026-05-19", 12)),
}


def sight(root: Path, sightings: dict[str, tuple[tuple[str, int], ...]] = SIGHTINGS) -> None:
    """Add these sightings to entries (by file stem) as source records, and their latest upvotes as the entry's,
    as `sitegen import` of the dumps that saw them would."""
    from sitegen.content.frontmatter import parse
    from sitegen.content.rewrite import rewritten

    for stem, seen in sightings.items():
        path = root / "content" / "papers" / f"{stem}.md"
        text = path.read_text(encoding="utf-8")
        meta = parse(text, path.name).meta
        records = [*meta.get("sources", []), *({"file": f"hf-{day}.txt", "format": "hf-daily-papers",
                                               "captured": dt.date.fromisoformat(day), "line": 1,
                                               "title": meta["title"], "upvotes": upvotes} for day, upvotes in seen)]
        records.sort(key=lambda r: (str(r.get("captured", "")), r.get("file", "")))
        meta["sources"] = records
        meta["upvotes"] = next(r["upvotes"] for r in reversed(records) if "upvotes" in r)
        path.write_text(rewritten(text, meta), encoding="utf-8")
