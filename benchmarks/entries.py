"""What the Hugo and Pelican converters share: reading a generated sitegen corpus and writing one file per entry."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import yaml

from sitegen.content import frontmatter

REPO = Path(__file__).resolve().parent.parent
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def split_front_matter(text: str) -> tuple[dict, str]:
    """(front matter, body) of a sitegen entry, split as sitegen splits it."""
    head, body, _ = frontmatter.split(text)
    if head is None:
        raise ValueError("entry does not start with '---'")
    return yaml.load(head, Loader=Loader) or {}, body


def theme_static(sitegen_root: Path) -> Path:
    """The CSS, JavaScript and icon sitegen serves: the site's copy of the default theme, else the repository's."""
    static = sitegen_root / "themes" / "default" / "static"
    return static if static.is_dir() else REPO / "themes" / "default" / "static"


def write_converted(sitegen_root: Path, folder: Path, convert: Callable[[Path, str], str]) -> int:
    """Write `convert(path, text)` of every entry to `folder`/<same name>; return how many."""
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for path in sorted((sitegen_root / "content" / "papers").glob("*.md")):
        (folder / path.name).write_text(convert(path, path.read_text(encoding="utf-8")), encoding="utf-8")
        count += 1
    return count


def converter_main(description: str, tool: str, convert: Callable[[Path, Path], int]) -> None:
    """The command line of a converter script: `python -m benchmarks.<tool>_site SITEGEN_ROOT TOOL_ROOT`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("sitegen_root", type=Path)
    parser.add_argument(f"{tool}_root", type=Path)
    args = parser.parse_args()
    target = getattr(args, f"{tool}_root")
    print(f"{convert(args.sitegen_root, target)} papers written to {target}")
