"""Where a site's theme files are: the chosen theme's folder, then the default theme's.

Kept apart from `render` (and so from Jinja): the build lists the theme's files to find
what changed since the last build, which needs no renderer.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from ..common.errors import Diagnostic, Location, SitegenError, relpath


def _package_themes() -> Path:
    """The bundled themes: the checkout's themes/ (a source or editable install), else the
    copy the wheel carries as sitegen/themes/ (see pyproject.toml)."""
    package = Path(__file__).resolve().parent.parent  # sitegen/, from sitegen/render/theme.py
    checkout = package.parent / "themes"
    return checkout if (checkout / "default").is_dir() else package / "themes"


PACKAGE_THEMES = _package_themes()


def theme_dirs(root: Path, name: str) -> list[Path]:
    """The theme's folder, then the default theme's (for files the theme does not override)."""
    candidates = [root / "themes" / name, root / "themes" / "default", PACKAGE_THEMES / "default"]
    seen: list[Path] = []
    for path in candidates:
        if path.is_dir() and path.resolve() not in [s.resolve() for s in seen]:
            seen.append(path)
    return seen


def static_files(root: Path, theme: str) -> dict[str, Path]:
    """Static assets of the theme chain; a theme's file overrides the default theme's.

    Everything found here is published, so a symbolic link may only lead to a file or
    folder inside its own theme: a link to anything else (a key, a home folder) is an
    error, as are links to nothing and loops of links.
    """
    files: dict[str, Path] = {}
    problems: list[Diagnostic] = []
    for directory in reversed(theme_dirs(root, theme)):
        files.update(_StaticWalk(root, directory, problems).files)
    if problems:
        raise SitegenError(problems)
    return files


class _StaticWalk:
    """One theme's static/ folder, in name order, each link checked before it is followed."""

    def __init__(self, root: Path, theme: Path, problems: list[Diagnostic]):
        self.home, self.problems = theme.resolve(), problems
        self.shown = relpath(theme, root) + "/static"  # as messages show it
        self.files: dict[str, Path] = {}
        static = theme / "static"
        if not static.is_symlink() or self._inside(static, ""):
            self._folder(static, "", frozenset())

    def _folder(self, folder: Path, prefix: str, above: frozenset[Path]) -> None:
        """Add the files below `folder` (static path `prefix`); `above`: the real folders it lies in."""
        try:
            names = sorted(os.listdir(folder))
        except OSError:  # no static/ folder, or not a folder: nothing to publish
            return
        real = folder.resolve()
        if real in above:
            self._error(prefix.rstrip("/"), "E412", "symbolic link to a folder it lies in (a loop)",
                        "remove the link; a link may lead to a folder beside it, not above it")
            return
        for name in names:
            path = folder / name
            if name.startswith(".") or (path.is_symlink() and not self._inside(path, prefix + name)):
                continue
            if path.is_dir():
                self._folder(path, f"{prefix}{name}/", above | {real})
            elif path.is_file():
                self.files[prefix + name] = path

    def _inside(self, link: Path, name: str) -> bool:
        """True when the link leads to something inside the theme; else False, and an error."""
        try:
            os.stat(link)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                self._error(name, "E412", "loop of symbolic links", "remove the link or point it at a file")
            else:
                self._error(name, "E411", f"symbolic link to {os.readlink(link)} leads nowhere ({exc.strerror})",
                            "remove the link or point it at a file inside the theme")
            return False
        target = link.resolve()
        if not target.is_relative_to(self.home):
            self._error(name, "E410", f"symbolic link to {target} leads outside the theme (it would be published)",
                        f"copy what is meant to be public into {self.shown}/ rather than linking to it")
            return False
        return True

    def _error(self, name: str, code: str, message: str, hint: str) -> None:
        where = f"{self.shown}/{name}" if name else self.shown
        self.problems.append(Diagnostic(Location(where), code, message, hint))
