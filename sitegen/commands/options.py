"""Options shared by the commands: the site's root, the base URL, dates, and -q/-v."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..console import NORMAL, QUIET, VERBOSE, set_verbosity
from ..content import config as site_config
from ..content import dates

F = TypeVar("F", bound=Callable[..., Any])

root_option = click.option(
    "--root", type=click.Path(exists=True, file_okay=False, path_type=Path), default=Path("."),
    show_default=True, help="The site directory (holding site.yaml and content/).",
)

base_url_option = click.option(
    "--base-url", envvar=site_config.BASE_URL_ENV, metavar="URL",
    help=f"Override site.yaml's base_url (also ${site_config.BASE_URL_ENV}).",
)


def _level(level: int) -> Callable[[click.Context, click.Parameter, bool], None]:
    def chosen(_: click.Context, __: click.Parameter, given: bool) -> None:
        if given:
            set_verbosity(level)
    return chosen


def verbosity(command: F) -> F:
    """-q/--quiet and -v/--verbose, taken before the command or after it (`sitegen -q build`,
    `sitegen build -q`); the last one given wins."""
    quiet = click.option("-q", "--quiet", is_flag=True, expose_value=False, callback=_level(QUIET),
                         help="Say only warnings and errors.")
    loud = click.option("-v", "--verbose", is_flag=True, expose_value=False, callback=_level(VERBOSE),
                        help="Say more: each stage's time, each entry written, each request served.")
    return quiet(loud(command))


def reset_verbosity() -> None:
    """Each run starts at the normal level (tests call `main` many times in one process)."""
    set_verbosity(NORMAL)


def publication_date(_: Any, __: Any, value: str | None) -> dt.date | str | int | None:
    """A day, or a month or year alone (`2025-03`, `2025`): as the entry's `date:` takes it."""
    if value is None:
        return None
    written = dates.partial(value)
    if written is not None:
        return int(written) if written.isdigit() else written  # `date: 2025`, not `date: '2025'`
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter("expected YYYY-MM-DD, or YYYY-MM or YYYY when only the month or year is known") \
            from None


def iso_date(_: Any, __: Any, value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter("expected YYYY-MM-DD") from None
