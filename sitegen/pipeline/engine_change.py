"""What a build or an update did to the output (a light module: a rebuild that changes nothing needs no more)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..common.errors import Diagnostic

if TYPE_CHECKING:
    from ..publish.writer import Stage


@dataclass
class EngineChange:
    """What an update did to the output."""

    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    rendered: int = 0
    warnings: list[Diagnostic] = field(default_factory=list)
    full: bool = False  # everything rendered again and swapped in (settings, theme folders)
    deferred: int = 0  # outputs left pending, to be written right after the reload (see `waiting`)
    stage: Stage | None = None  # a full build's staging record: what it wrote, linked unchanged, and their stats
    stats: dict[str, tuple[int, int]] = field(default_factory=dict)  # an update's written files: (size, mtime_ns)
    removed_count: int = 0  # a full build's: files of the output it replaced that it no longer has
    kinds: Counter[str] = field(default_factory=Counter)  # a full build's files by kind of page ("static" too)
    total: int = 0  # the files of the output after the update, where known (see persisted.run_build)
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)  # every output file's (size, mtime_ns) after
    # the update, where known (see persisted.run_build); a full build's are its stage's

    @property
    def css_only(self) -> bool:
        """Only stylesheets changed: the preview swaps them without reloading the page."""
        return bool(self.written) and all(w.endswith(".css") for w in self.written)
