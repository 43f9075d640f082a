"""What the command line says on the terminal: plain lines, diagnostics, failures, transient progress.

Plain lines go through click, not rich: importing rich costs a quick rebuild more than the
rebuild itself. rich draws the live parts only, the progress bar and the import table.
"""

from __future__ import annotations

import os
import sys
import time
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

QUIET, NORMAL, VERBOSE = 0, 1, 2
_verbosity = NORMAL  # set once per run by -q/-v (see set_verbosity)


def set_verbosity(level: int) -> None:
    """-q: warnings and errors only; -v: also the details a command keeps to itself by default."""
    global _verbosity
    _verbosity = level


def verbose() -> bool:
    return _verbosity >= VERBOSE


def quiet() -> bool:
    return _verbosity <= QUIET


def say(text: str, style: str | None = None, stderr: bool = False, always: bool = False) -> None:
    """One plain line of output (click's colours, dropped when not on a terminal); under -q only the
    lines said `always` (warnings, failures).

    Plain lines do not go through rich: importing it costs a quick rebuild more than the
    rebuild itself. rich draws the live parts only, the progress bar and the import table.
    """
    if quiet() and not always:
        return
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
        say(d.format(), style, stderr=True, always=True)


def detail(text: str) -> None:
    """A line said only under -v."""
    if verbose():
        say(text, "dim")


def warn(text: str) -> None:
    """A warning line on stderr, said even under -q."""
    say(text, "yellow", stderr=True, always=True)


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
    say(f"failed: {len(diagnostics)} problem(s)", "bold red", stderr=True, always=True)
    sys.exit(1)


@contextmanager
def progress_line(label: str) -> Iterator[Callable[[str], None]]:
    """A transient progress line on a terminal; silent when output is redirected (or under -q)."""
    if not on_terminal() or quiet():
        yield lambda _: None
        return
    with rich_console(stderr=True).status(label) as status:
        yield lambda name: status.update(f"{label} {name}")


@contextmanager
def render_bar(label: str = "Rendering") -> Iterator[Callable[[int, int], None] | None]:
    """A transient progress bar on a terminal; nothing when output is redirected (or under -q)."""
    if not on_terminal() or quiet():
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=rich_console(stderr=True), transient=True) as bar:
        task = bar.add_task("render", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


class StageLines:
    """A build's progress where no one watches it live (a log, CI, `nohup`): a line as each named stage ends,
    with its time, and a line every PERIOD seconds of a long stage's count."""

    PERIOD = 15.0

    def __init__(self) -> None:
        self._name = ""
        self._started = self._said = time.perf_counter()

    def stage(self, name: str) -> None:
        self.end()
        self._name, self._started = name, time.perf_counter()
        self._said = self._started

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if now - self._said >= self.PERIOD and done < total:
            say(f"{self._name}: {done:,} of {total:,} files, {now - self._started:.0f} s so far", stderr=True)
            self._said = now

    def end(self) -> None:
        if self._name:
            say(f"{self._name}: {time.perf_counter() - self._started:.1f} s", stderr=True)
        self._name = ""


class _StageBar:
    """The same on a terminal: one transient bar, its label the stage in hand."""

    def __init__(self, bar: Any, task: Any):
        self._bar, self._task = bar, task

    def stage(self, name: str) -> None:
        self._bar.update(self._task, description=name, completed=0, total=None)

    def __call__(self, done: int, total: int) -> None:
        self._bar.update(self._task, completed=done, total=total)


@contextmanager
def stages() -> Iterator[StageLines | _StageBar]:
    """What a long command (`build`, `import`) reports as it goes: its named stages on a terminal's bar, or as
    plain lines elsewhere and under -v (each stage's time); nothing under -q."""
    if quiet():
        yield StageLines()  # says nothing: its lines are not `always`
        return
    if not on_terminal() or verbose():
        lines = StageLines()
        try:
            yield lines
        finally:
            lines.end()
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=rich_console(stderr=True), transient=True) as bar:
        yield _StageBar(bar, bar.add_task("build", total=None))


def _duration(seconds: float) -> str:
    """'40 s', '12 min', '1 h 40 min'."""
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 60 else f"{minutes // 60} h {minutes % 60} min"


class LookupLines:
    """`sitegen enrich`'s progress where no one watches it live: a plain line every PERIOD seconds,
    `1,200/10,000 · 1,130 resolved · 14 doubtful · ETA 1 h 40 min`."""

    PERIOD = 30.0

    def __init__(self) -> None:
        self._started = self._said = time.perf_counter()

    def __call__(self, done: int, total: int, resolved: int, doubtful: int) -> None:
        now = time.perf_counter()
        if now - self._said < self.PERIOD or done >= total:
            return
        self._said = now
        eta = (now - self._started) / done * (total - done) if done else 0.0
        say(f"{done:,}/{total:,} · {resolved:,} resolved · {doubtful:,} doubtful · ETA {_duration(eta)}", stderr=True)


@contextmanager
def lookup_progress() -> Iterator[Callable[[int, int, int, int], None]]:
    """A bar on a terminal, plain periodic lines elsewhere (a log, CI, nohup); nothing under -q."""
    if not on_terminal() or quiet():
        yield LookupLines()
        return
    with render_bar("Looking up") as bar:
        assert bar is not None
        yield lambda done, total, resolved, doubtful: bar(done, total)
