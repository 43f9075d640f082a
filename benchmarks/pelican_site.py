"""Turn a generated sitegen corpus into an equivalent Pelican project, and the command that builds it.

The Pelican project is `benchmarks/pelican/` (settings, theme and the local plugin, committed) plus one
`content/papers/<slug>.md` per sitegen entry: the same front matter as Pelican metadata lines (Title, Date, Slug,
Authors, Tags, Added, Abstract) and the same Markdown notes as body. The sitegen theme's CSS, JavaScript and icon
are copied into the theme's static folder, which Pelican writes to `static/` as sitegen does.

    python -m benchmarks.pelican_site SITEGEN_ROOT PELICAN_ROOT
"""

from __future__ import annotations

import datetime as dt
import shutil
import sys
from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from benchmarks.entries import converter_main, split_front_matter, theme_static, write_converted

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "pelican"
OUTPUT = "public"
CACHE = "cache"  # CACHE_PATH in pelicanconf.py (the runner gives each cold build a fresh one)


def _line(value: object) -> str:
    """One metadata value on one line: Python-Markdown's meta extension reads indented lines as list items."""
    return " ".join(str(value).split())


def _list(values: Iterable[object]) -> str:
    """A list for Pelican's Authors/Tags: split on ';' when the value holds one (names may hold commas), so a
    single item gets a trailing ';' too."""
    items = [_line(v) for v in values]
    return "; ".join(items) + (";" if len(items) == 1 else "")


def convert_entry(text: str, slug: str) -> str:
    """A sitegen entry as a Pelican Markdown file with metadata lines."""
    meta, body = split_front_matter(text)
    lines = [f"Title: {_line(meta['title'])}"]
    if isinstance(meta.get("date"), dt.date):
        lines.append(f"Date: {meta['date'].isoformat()}")
    lines.append(f"Slug: {slug}")
    if meta.get("authors"):
        lines.append(f"Authors: {_list(meta['authors'])}")
    if meta.get("tags"):
        lines.append(f"Tags: {_list(meta['tags'])}")
    if meta.get("added"):
        lines.append(f"Added: {meta['added'].isoformat()}")
    if meta.get("abstract"):
        lines.append(f"Abstract: {_line(meta['abstract'])}")
    return "\n".join(lines) + "\n\n" + body.lstrip("\n")


def convert(sitegen_root: Path, pelican_root: Path) -> int:
    """Write the Pelican project for the sitegen site `sitegen_root` into `pelican_root` (replaced); return #papers."""
    shutil.rmtree(pelican_root, ignore_errors=True)
    shutil.copytree(TEMPLATE, pelican_root, ignore=shutil.ignore_patterns("__pycache__", "README.md"))
    shutil.copytree(theme_static(sitegen_root), pelican_root / "theme" / "static")
    return write_converted(sitegen_root, pelican_root / "content" / "papers",
                           lambda path, text: convert_entry(text, path.stem))


def pelican_command(pelican_root: Path, output: Path | None = None, cache: Path | None = None) -> list[str]:
    """Build the project at `pelican_root` into `output` (default `<root>/public`), with its content cache in `cache`
    (default `<root>/cache`): a fresh folder for a cold build, the last build's for a rebuild. Exit non-zero on any
    error Pelican logs.

    Not --quiet: that raises the log level above ERROR, and --fatal only sees errors that are logged. A clean
    build prints one line ("Done: Processed N articles, …"); the plain log handler keeps any message one line.
    """
    return [sys.executable, "-m", "pelican", str(pelican_root / "content"), "--settings",
            str(pelican_root / "pelicanconf.py"), "--output", str(output or pelican_root / OUTPUT),
            "--cache-path", str(cache or pelican_root / CACHE), "--fatal", "errors", "--log-handler", "plain"]


def pelican_version() -> str | None:
    """The installed Pelican's version (None when it is not installed)."""
    try:
        return version("pelican")
    except PackageNotFoundError:
        return None


def main() -> None:
    converter_main(__doc__.splitlines()[0], "pelican", convert)


if __name__ == "__main__":
    main()
