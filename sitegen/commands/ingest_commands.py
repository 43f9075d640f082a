"""The commands that bring papers in: `import` (dumps, or papers by id), `enrich` and `new`."""

from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path
from typing import Any

import click

from ..console import (
    detail,
    failures,
    lookup_progress,
    on_terminal,
    print_diagnostics,
    progress_line,
    quiet,
    rich_console,
    say,
    stages,
    verbose,
    warn,
)
from ..content import config as site_config
from ..content.field_checks import ARXIV_ID, STATUSES
from .options import iso_date, publication_date, root_option, verbosity


@click.command("import")
@root_option
@verbosity
@click.argument("paths", nargs=-1)  # dump files (a folder: the importer says why not), or papers by id
@click.option("--captured", callback=iso_date, metavar="YYYY-MM-DD",
              help="Capture date of the files named (recorded in content/dumps/manifest.yaml).")
@click.option("--update", is_flag=True,
              help="Refresh importer-owned fields a person has not edited (edits are always kept).")
@click.option("--hf-daily", "dailies", multiple=True, metavar="DATE",
              help="Import Hugging Face's Daily Papers of a day (2026-03-06), ISO week (2026-W10) or month (2026-03).")
@click.option("--match-tags", is_flag=True,
              help="With --hf-daily: only the papers site.yaml's tag map gives a tag (its keywords in the title, "
                   "abstract or keywords).")
@click.option("--delay", type=click.FloatRange(0, 3600), default=None, metavar="SECONDS",
              help="Seconds between requests to one source (default: each source's own rule).")
def import_command(root: Path, paths: tuple[str, ...], captured: dt.date | None, update: bool,
                   dailies: tuple[str, ...], match_tags: bool, delay: float | None) -> None:
    """Import dumps (default: every file in content/dumps/), or papers by arXiv id or URL, Hugging Face
    paper URL, DOI or .bib file, into content/papers/*.md."""
    from ..ingest.enrich.by_id import import_papers, missing_message, split_arguments
    from ..ingest.importers.run import run_import

    given = split_arguments(paths)
    if given.missing:
        raise click.UsageError(missing_message(given.missing))
    if given.dumps and (given.named or dailies):
        raise click.UsageError("import dump files and papers named by id (or --hf-daily) in two runs")
    if captured and not given.dumps:
        raise click.UsageError("--captured needs the dump files it applies to")
    if match_tags and not dailies:
        raise click.UsageError("--match-tags chooses among the papers of --hf-daily listings: give a day, week "
                               "or month")
    if given.named or dailies:
        with failures(), progress_line("Looking up") as tick:
            site_config.require(root)
            outcome = import_papers(root, given.named, dailies, update, delay, progress=tick, match_tags=match_tags)
        print_diagnostics(outcome.report.items)
        for kind, shown in [*(("new", s) for s in outcome.new), *(("merged", s) for s in outcome.merged)]:
            say(f"  {kind} {shown}")
        if outcome.report.has_errors:
            say(f"import failed: {len(outcome.report.errors)} error(s); nothing under content/ was changed",
                "bold red", stderr=True, always=True)
            sys.exit(1)
        say(outcome.summary())
        return
    with failures(), stages() as progress:
        result = run_import(root, given.dumps or None, captured, update, progress=progress)
    print_diagnostics(result.report.items)
    if not quiet():
        _import_table(result.entries_per_file)
    for kind, shown in [*(("new", s) for s in result.new), *(("merged", s) for s in result.merged)]:
        detail(f"  {kind} {shown}")
    say(f"{len(result.new)} new, {len(result.merged)} merged, {len(result.unchanged)} unchanged, "
        f"{len(result.skipped)} skipped; {len(result.authors)} author profile(s)")
    for what, why in result.skipped:
        say(f"  skipped {what}: {why}")
    if result.failed:
        say(f"import failed: {len(result.report.errors)} error(s); nothing under content/ was changed",
            "bold red", stderr=True, always=True)
        sys.exit(1)


def _import_table(counts: list[tuple[str, int]]) -> None:
    from rich.table import Table

    table = Table(title="Import summary", show_edge=False)
    table.add_column("file")
    table.add_column("entries", justify="right")
    for name, count in counts:
        table.add_row(name, str(count))
    rich_console().print(table)


def _sources(_: Any, __: Any, value: str) -> tuple[str, ...]:
    from ..ingest.enrich.run import SOURCES

    names = tuple(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
    unknown = [n for n in names if n not in SOURCES]
    if unknown or not names:
        raise click.BadParameter(f"choose from {','.join(SOURCES)}, e.g. --sources hf,arxiv")
    return names


@click.command("enrich")
@root_option
@verbosity
@click.argument("slugs", nargs=-1)
@click.option("--refresh", is_flag=True, help="Look resolved papers up again; update only fields a tool wrote.")
@click.option("--delay", type=click.FloatRange(0, 3600), default=None, metavar="SECONDS",
              help="Seconds between requests to one source (default: each source's own rule).")
@click.option("--sources", default="hf,arxiv,s2", show_default=True, callback=_sources,
              help="Which sources to ask, in order.")
@click.option("--dry-run", is_flag=True, help="Look up and report, but write nothing.")
@click.option("--no-citations", is_flag=True,
              help="Do not ask Semantic Scholar which papers each entry cites (its `cites:` list).")
@click.option("--report", "report_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the outcome of every entry to this Markdown file.")
def enrich_command(root: Path, slugs: tuple[str, ...], refresh: bool, delay: float | None,
                   sources: tuple[str, ...], dry_run: bool, no_citations: bool, report_file: Path | None) -> None:
    """Find each entry's paper (arXiv id, DOI, authors, links, the papers it cites) in scholarly APIs and write it
    into the entry."""
    from ..common.fsutil import write_atomic
    from ..ingest.enrich import report
    from ..ingest.enrich.run import run_enrich

    with failures():
        site_config.require(root)
        try:
            with lookup_progress() as progress:
                outcome = run_enrich(root, [s.removesuffix(".md") for s in slugs], refresh, delay, sources, dry_run,
                                     progress, citations=not no_citations)
        except KeyboardInterrupt:
            warn("interrupted: the batches written before stay written, and the answers stored are kept; run "
                 "sitegen enrich again to go on")
            sys.exit(130)
        print_diagnostics(outcome.report.items)
        rows = report.rows(outcome)
        if rows and on_terminal() and (len(rows) <= TABLE_ROWS or verbose()) and not quiet():
            _enrich_table(rows)
        elif rows and verbose():  # not on a terminal: a plain line each
            for row in rows:
                say(" · ".join(cell for cell in row if cell))
        elif rows and report_file is None:
            say(f"{len(rows):,} entries: add --report FILE for what became of each", "dim")
        if report_file is not None:
            write_atomic(report_file, report.markdown(outcome))
    say(("dry run: " if dry_run else "") + report.summary(outcome))
    if outcome.report.has_errors:
        sys.exit(1)


TABLE_ROWS = 200  # more entries than this are a report file's job, not a terminal's


def _enrich_table(rows: list[tuple[str, str, str]]) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(title="Enrich", show_edge=False)
    for name in ("entry", "outcome", "detail"):
        table.add_column(name)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))  # titles are data, never rich markup
    rich_console().print(table)


@click.command("new")
@root_option
@verbosity
@click.argument("title", required=False)
@click.option("--date", callback=publication_date, metavar="YYYY-MM-DD",
              help="Publication date; YYYY-MM or YYYY when only the month or year is known.")
@click.option("--tags", default="", help="Comma-separated tags, e.g. attention,kv-cache.")
@click.option("--author", "authors", multiple=True, help="An author (repeat for several).")
@click.option("--arxiv", metavar="ID", help="Fill the entry from arXiv's record of this paper (2507.14417).")
@click.option("--doi", metavar="DOI", help="Fill the entry from Semantic Scholar's record of this DOI.")
@click.option("--url", metavar="URL", help="Fill the entry from the paper at this arXiv, Hugging Face or doi.org URL.")
@click.option("--delay", type=click.FloatRange(0, 3600), default=None, metavar="SECONDS",
              help="Seconds between requests to one source (default: each source's own rule).")
@click.option("--status", type=click.Choice(STATUSES), default="to-read", show_default=True,
              help="Where you are with it.")
@click.option("--rating", type=click.IntRange(1, 5), default=None, help="Your rating, 1 to 5.")
@click.option("--notes", default="", help="Your notes (Markdown), the entry's body.")
@click.option("--open", "open_editor", is_flag=True, help="Open the new entry in your editor ($VISUAL, $EDITOR).")
def new_command(root: Path, title: str | None, date: dt.date | str | int | None, tags: str, authors: tuple[str, ...],
                arxiv: str | None, doi: str | None, url: str | None, delay: float | None, status: str,
                rating: int | None, notes: str, open_editor: bool) -> None:
    """Create content/papers/<slug>.md for a paper typed in by hand, or found by --arxiv, --doi or --url."""
    from ..ingest.curation import Curation
    from ..ingest.scaffold import new_entry

    named = [(option, value) for option, value in (("arxiv", arxiv), ("doi", doi), ("url", url)) if value]
    if len(named) > 1:
        raise click.UsageError("give one of --arxiv, --doi or --url")
    if not named and title is None:
        raise click.UsageError("give the paper's TITLE, or --arxiv, --doi or --url to look it up")
    if not named and (option := identifier_option(title or "")):
        raise click.UsageError(f"{title!r} looks like {option[1]}, not a title: to fill the entry from it, run "
                               f"sitegen new {option[0]} {(title or '').strip()}")
    tag_list = [t.strip() for t in tags.split(",") if t.strip()]
    curation = Curation(status, rating, notes)
    with failures():
        if named:
            from ..ingest.enrich.by_id import new_paper

            site_config.require(root)
            with progress_line("Looking up") as tick:
                path, warnings = new_paper(root, *named[0], title, date, tag_list, authors, delay, tick, curation)
            print_diagnostics(warnings)
        else:
            path = new_entry(root, title or "", date, tag_list, list(authors), curation=curation)
    say(f"created {path}")
    if open_editor:
        click.edit(filename=str(path))


def identifier_option(title: str) -> tuple[str, str] | None:
    """The option a 'title' that is an arXiv id or a URL was meant for, and what it looks like."""
    text = title.strip()
    if ARXIV_ID.match(text.removeprefix("arXiv:").removeprefix("arxiv:")):
        return "--arxiv", "an arXiv id"
    if text.lower().startswith(("http://", "https://")) and " " not in text:
        return "--url", "a URL"
    return None
