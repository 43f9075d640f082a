"""Copies of the committed reading list for tests that edit, build or serve a site."""

from __future__ import annotations

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
