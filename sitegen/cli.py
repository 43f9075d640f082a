"""The `sitegen` command line: parse options, call one stage, map failures to exit codes.

The commands live in `commands/` by kind (`ingest_commands`, `site_commands`, `completion`); this
module is the program and the group they join.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Any

import click

from .commands.completion import completion_command
from .commands.ingest_commands import enrich_command, import_command, new_command
from .commands.options import reset_verbosity, verbosity
from .commands.site_commands import build_command, check_command, deploy_command, init_command, serve_command
from .common.distribution import DISTRIBUTION

GC_THRESHOLD = 100_000  # allocations between young-generation collections


def run() -> None:
    """The `sitegen` program: `main`, then leave without tearing the interpreter down.

    A build of 10,000 papers ends holding a few hundred MB of small objects, and freeing
    them one by one at exit took 0.19 s of a front-matter edit. Every file is closed and
    every child process reaped before `main` returns, so only the memory is left to the
    operating system. (`main` itself, as tests call it, returns as usual.)
    """
    try:
        main()
        code = 0
    except SystemExit as exc:  # how click ends, whatever the outcome
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            code = code or 1
    os._exit(code)


class _Program(click.Group):
    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        reset_verbosity()  # each run starts at the normal level (tests call `main` many times in one process)
        return super().make_context(*args, **kwargs)


@click.group(cls=_Program, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(None, "-V", "--version", package_name=DISTRIBUTION)
@verbosity
def main() -> None:
    """sitegen: turn paper-aggregator dumps into a curated reading-list website."""
    # A large list is hundreds of thousands of long-lived tuples and dicts, created in bursts;
    # at the default threshold (700) the cyclic collector re-scans them over and over, about
    # a sixth of a front-matter rebuild at 10,000 papers. Collect less often, not never.
    gc.set_threshold(GC_THRESHOLD, 50, 100)


for _command in (import_command, enrich_command, new_command, check_command, build_command, serve_command,
                 init_command, deploy_command, completion_command):
    main.add_command(_command)
