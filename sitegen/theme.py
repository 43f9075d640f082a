"""Where a site's theme files are: the chosen theme's folder, then the default theme's.

Kept apart from `render` (and so from Jinja): the build fingerprints the theme's files
before it knows whether anything must render, and a cold build forks the processes that
parse the entries before it imports the renderer.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_THEMES = Path(__file__).resolve().parent.parent / "themes"


def theme_dirs(root: Path, name: str) -> list[Path]:
    """The theme's folder, then the default theme's (for files the theme does not override)."""
    candidates = [root / "themes" / name, root / "themes" / "default", PACKAGE_THEMES / "default"]
    seen: list[Path] = []
    for path in candidates:
        if path.is_dir() and path.resolve() not in [s.resolve() for s in seen]:
            seen.append(path)
    return seen


def static_files(root: Path, theme: str) -> dict[str, Path]:
    """Static assets of the theme chain; a theme's file overrides the default theme's."""
    files: dict[str, Path] = {}
    for directory in reversed(theme_dirs(root, theme)):
        static = directory / "static"
        if static.is_dir():
            for path in sorted(static.rglob("*")):
                if path.is_file() and not path.name.startswith("."):
                    files[path.relative_to(static).as_posix()] = path
    return files
