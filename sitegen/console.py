"""What the command line says on the terminal: plain lines, diagnostics, failures, transient progress.

Plain lines go through click, not rich: importing rich costs a quick rebuild more than the
rebuild itself. rich draws the live parts only, the progress bar and the import table.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from .common.errors import Diagnostic, Location, SitegenError, os_error

if TYPE_CHECKING:
    from rich.console import Console

_STYLES: dict[str, dict[str, Any]] = {
    "red": {"fg": "red"}, "yellow": {"fg": "yellow"}, "bold red": {"fg": "red", "bold": True}, "dim": {"dim": True},
}


def say(text: str, style: str | None = None, stderr: bool = False) -> None:
    """One plain line of output (click's colours, dropped when not on a terminal).

    Plain lines do not go through rich: importing it costs a quick rebuild more than the
    rebuild itself. rich draws the live parts only, the progress bar and the import table.
    """
    if os.environ.get("NO_COLOR"):  # https://no-color.org: not even the reset sequence
        click.echo(text, err=stderr)
    else:
        click.secho(text, err=stderr, **_STYLES.get(style or "", {}))


def rich_console(stderr: bool = False) -> Console:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, soft_wrap=True)


def on_terminal() -> bool:
    return sys.stderr.isatty()


def print_diagnostics(items: list[Diagnostic]) -> None:
    """Print diagnostics to stderr, errors in red, warnings in yellow, as plain text lines."""
    for d in sorted(items, key=lambda d: (d.location, d.code)):
        style = "red" if d.severity == "error" else "yellow"
        say(d.format(), style, stderr=True)


@contextmanager
def failures() -> Iterator[None]:
    """Turn any failure into printed diagnostics and exit status 1: never a traceback.

    A SitegenError carries its own; an OSError (a full disk, a read-only folder) is said
    with the file it names; anything else is a bug, said as one (SITEGEN_DEBUG=1 shows
    the traceback).
    """
    try:
        yield
    except SitegenError as exc:
        _fail(exc.diagnostics)
    except OSError as exc:
        _fail([os_error(exc)])
    except (Exception, RecursionError, MemoryError) as exc:
        if os.environ.get("SITEGEN_DEBUG"):
            raise
        _fail([Diagnostic(Location("."), "E999", f"internal error: {type(exc).__name__}: {exc}"[:500],
                          "this is a bug in sitegen: please report it with the command you ran "
                          "(SITEGEN_DEBUG=1 shows the traceback)")])


def _fail(diagnostics: list[Diagnostic]) -> None:
    print_diagnostics(diagnostics)
    say(f"failed: {len(diagnostics)} problem(s)", "bold red", stderr=True)
    sys.exit(1)


@contextmanager
def progress_line(label: str) -> Iterator[Callable[[str], None]]:
    """A transient progress line on a terminal; silent when output is redirected."""
    if not on_terminal():
        yield lambda _: None
        return
    with rich_console(stderr=True).status(label) as status:
        yield lambda name: status.update(f"{label} {name}")


@contextmanager
def render_bar(label: str = "Rendering") -> Iterator[Callable[[int, int], None] | None]:
    """A transient progress bar on a terminal; nothing when output is redirected."""
    if not on_terminal():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=rich_console(stderr=True), transient=True) as bar:
        task = bar.add_task("render", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)
