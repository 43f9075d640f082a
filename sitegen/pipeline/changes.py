"""From changed files to the engine's inputs, and from an update's results to its warnings."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from ..common.errors import Diagnostic
from ..content.loader import slug_of
from ..model import layout
from .engine.graph import Engine
from .engine.memo import ABSENT, Key
from .steps.sources import Loaded, input_keys
from .steps.structure import Built

# Inputs that any change of settings or theme folders may have moved (which theme, which files it has)
THEME_INPUTS = ("template_file", "template_names", "static")


class InputMap:
    """Which of a memo's inputs a batch of changed files under the root may have moved."""

    def __init__(self, root: Path, engine: Engine):
        self.root, self.engine = root, engine
        self._listed: dict[Key, tuple[object, frozenset[str]]] = {}  # a folder's listing as a set, by listing

    def inputs(self, changed: Iterable[Path]) -> tuple[set[Key], bool]:
        """The inputs these files may have moved, among those the memo holds, and whether the settings or
        the theme folders changed (which may move every input of the theme)."""
        keys: set[Key] = set()
        every = False
        memo = self.engine.memo
        for full in changed:
            if not full.is_relative_to(self.root) or any(p.startswith(".") for p in full.relative_to(self.root).parts):
                continue
            if full.relative_to(self.root).parts[:1] == ("themes",) and full.is_dir():
                continue  # a theme folder's own 'modified' event just echoes its files' events
            found = input_keys(self.root, full)
            keys.update(key for key in found if key[0] != "folder" or self._listing_moved(key, full))
            rel = full.relative_to(self.root).parts
            if rel == ("site.yaml",) or (rel[:1] == ("themes",) and len(rel) <= 3):
                keys.update(k for name in THEME_INPUTS for k in memo.keys_of_step(name))
                every = True
        return {k for k in keys if memo.get(k) is not None}, every

    def _listing_moved(self, folder: Key, path: Path) -> bool:
        """Whether a file's change adds it to its folder's listing or takes it off (an edit leaves it)."""
        listing = self.engine.memoized(*folder)
        if listing is ABSENT:
            return True
        if self._listed.get(folder, (None,))[0] is not listing:
            self._listed[folder] = (listing, frozenset(listing))
        listed = path.relative_to(self.root).as_posix() in self._listed[folder][1]
        return listed != os.path.lexists(path)  # the listing names whatever is there (see content_files)


def warnings(values: Mapping[Key, Any]) -> list[Diagnostic]:
    """The warnings of the entries, profiles and model among these results (those an update made anew)."""
    found: list[Diagnostic] = []
    for (name, _), value in sorted(values.items(), key=lambda kv: repr(kv[0])):
        if name in ("entry", "profile") and isinstance(value, Loaded) and value.value is not None:
            found += value.problems
        elif name == "site" and isinstance(value, Built):
            found += value.warnings
    return found


def deferral(on_request: frozenset[str], write_later: bool, keys: set[Key],
             changed: list[Path]) -> Callable[[Key], bool] | None:
    """Which pages an update leaves pending under the preview's policy, or None for none: the kinds
    written when asked for, and after an edit of entries alone, every page but the edited papers' own."""
    if not on_request and not write_later:
        return None
    later = write_later and all(k[0] in ("file", "folder") and k[1] != "site.yaml" for k in keys)
    first = {f"{layout.paper(slug_of(p.stem))}index.html" for p in changed if p.suffix == ".md"}

    def defer(key: Key) -> bool:
        if key[0] != "page":
            return False
        output, kind = key[1][0], key[1][1]  # type: ignore[index]
        return kind in on_request or (later and output not in first)

    return defer
