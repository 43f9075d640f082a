"""How a long command tells the console how far it got, without knowing how it is shown."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[int, int], None]  # (done, in all); may also have `stage(name)` (see `stage`)


def stage(progress: object, name: str) -> None:
    """Tell a command's progress that a named stage begins (parse, model, render, search, write), if it listens."""
    begin = getattr(progress, "stage", None)
    if begin is not None:
        begin(name)
