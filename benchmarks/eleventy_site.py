"""Turn a generated sitegen corpus into an equivalent Eleventy 3 project, and the command that builds it.

The Eleventy project is `benchmarks/eleventy/` (package.json and its lock, `eleventy.config.js`, the site model in
`reading-list.js` and the Nunjucks templates under `content/`, committed) plus one `content/papers/<slug>.md` per
sitegen entry: the same front matter (title, date, slug — the sitegen file stem —, authors, tags, added, abstract)
and the same Markdown notes as body. The sitegen theme's CSS, JavaScript and icon are copied to `static/`, which
Eleventy copies to `public/static/` as sitegen writes them. Eleventy itself is installed once into
`benchmarks/eleventy/node_modules` (`install_command()`), which each project links to.

    python -m benchmarks.eleventy_site SITEGEN_ROOT ELEVENTY_ROOT
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

from benchmarks.entries import converter_main, split_front_matter, theme_static, write_converted

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "eleventy"
OUTPUT = "public"
PACKAGE = TEMPLATE / "node_modules" / "@11ty" / "eleventy"  # where install_command() puts Eleventy
FIELDS = ("title", "date", "slug", "authors", "tags", "added", "abstract")
# What js-yaml refuses to read raw in a YAML stream and JSON leaves raw: written as \u escapes instead.
NON_PRINTABLE = re.compile("[\x7f-\x84\x86-\x9f\ufffe\uffff]")
# Eleventy keeps every page's data until the build ends: 3.2 GB at 10,000 papers, under Node's default heap limit
# (4.3 GB on a 24 GB machine) but not by much, and more than 8 GB at 30,000 (an 8 GB limit ran out there). A larger
# limit costs nothing measurable at 10,000 papers, so Node may use three quarters of the machine's memory.
HEAP_SHARE = 0.75
MIN_HEAP_MB = 4096


def node_options() -> list[str]:
    """Node's heap limit for an Eleventy build: HEAP_SHARE of the machine's memory, at least MIN_HEAP_MB."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf, or no such name here
        memory = 0
    return [f"--max-old-space-size={max(MIN_HEAP_MB, int(memory * HEAP_SHARE) // 2**20)}"]


def _json(value: Any) -> str:
    """One front-matter value as JSON, which YAML reads as JSON does: no YAML 1.1/1.2 guessing of types (PyYAML
    writes `1e3` or `0o17` plain, which js-yaml reads as numbers). Dates become "YYYY-MM-DD" strings, which
    Eleventy parses as UTC days, so no time zone shifts them."""
    if isinstance(value, dt.date):
        value = value.isoformat()
    text = json.dumps(value, ensure_ascii=False)
    return NON_PRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def convert_entry(text: str, slug: str) -> str:
    """A sitegen entry as an Eleventy Markdown file: YAML front matter with JSON values, the notes as body."""
    meta, body = split_front_matter(text)
    meta = {**meta, "slug": slug}
    header = "".join(f"{key}: {_json(meta[key])}\n" for key in FIELDS if meta.get(key) not in (None, "", []))
    return f"---\n{header}---\n{body}"


def convert(sitegen_root: Path, eleventy_root: Path) -> int:
    """Write the Eleventy project for the sitegen site `sitegen_root` into `eleventy_root` (replaced); #papers."""
    shutil.rmtree(eleventy_root, ignore_errors=True)
    shutil.copytree(TEMPLATE, eleventy_root,
                    ignore=shutil.ignore_patterns("node_modules", "README.md", OUTPUT, ".cache"))
    (eleventy_root / "node_modules").symlink_to(TEMPLATE / "node_modules", target_is_directory=True)
    shutil.copytree(theme_static(sitegen_root), eleventy_root / "static")
    return write_converted(sitegen_root, eleventy_root / "content" / "papers",
                           lambda path, text: convert_entry(text, path.stem))


def eleventy_binary() -> Path | None:
    """Eleventy's command-line entry (the package's `bin`), run with node; None until `install_command()` ran."""
    binary = PACKAGE / "cmd.cjs"
    return binary if binary.is_file() else None


def eleventy_command(eleventy_root: Path, output: Path | None = None) -> list[str]:
    """Build the project at `eleventy_root` into `output` (default `<root>/public`), from any working directory.

    Node directly, not npx (no npm start-up timed); --quiet leaves one summary line, and a template error makes
    Eleventy exit 1. The config sets its input folder from its own place, relative to the working directory,
    because Eleventy 3.1 ignores directory data files (the papers' layout) under an absolute --input; --output
    overrides the output folder it sets.
    """
    binary = PACKAGE / "cmd.cjs"
    config = eleventy_root.resolve() / "eleventy.config.js"
    return ["node", *node_options(), str(binary), f"--config={config}", f"--output={output or eleventy_root / OUTPUT}",
            "--quiet"]


def eleventy_version() -> str | None:
    """The installed Eleventy's version (None when `install_command()` has not run)."""
    try:
        package = json.loads((PACKAGE / "package.json").read_text())
    except (OSError, ValueError):
        return None
    return str(package["version"])


def install_command() -> list[str]:
    """Install the pinned Eleventy and temml into `benchmarks/eleventy/node_modules` from the lock file."""
    return ["npm", "ci", "--ignore-scripts", "--prefix", str(TEMPLATE), "--no-audit", "--no-fund", "--loglevel=error"]


def main() -> None:
    converter_main(__doc__.splitlines()[0], "eleventy", convert)


if __name__ == "__main__":
    main()
