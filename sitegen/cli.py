"""The `sitegen` command line: parse options, call one stage, map failures to exit codes."""

from __future__ import annotations

import datetime as dt
import gc
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .common.errors import Report
from .console import (
    build_stages,
    failures,
    lookup_progress,
    on_terminal,
    print_diagnostics,
    progress_line,
    rich_console,
    say,
)
from .content import config as site_config

if TYPE_CHECKING:
    pass

root_option = click.option(
    "--root", type=click.Path(exists=True, file_okay=False, path_type=Path), default=Path("."),
    show_default=True, help="The site directory (holding site.yaml and content/).",
)


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(None, "-V", "--version", package_name="sitegen")
def main() -> None:
    """sitegen: turn paper-aggregator dumps into a curated reading-list website."""
    # A large list is hundreds of thousands of long-lived tuples and dicts, created in bursts;
    # at the default threshold (700) the cyclic collector re-scans them over and over, about
    # a sixth of a front-matter rebuild at 10,000 papers. Collect less often, not never.
    gc.set_threshold(GC_THRESHOLD, 50, 100)


def _captured(_: Any, __: Any, value: str | None) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise click.BadParameter("expected YYYY-MM-DD") from None


@main.command("import")
@root_option
@click.argument("paths", nargs=-1)  # dump files (a folder: the importer says why not), or papers by id
@click.option("--captured", callback=_captured, metavar="YYYY-MM-DD",
              help="Capture date of the files named (recorded in content/dumps/manifest.yaml).")
@click.option("--update", is_flag=True,
              help="Refresh importer-owned fields a person has not edited (edits are always kept).")
@click.option("--hf-daily", "dailies", multiple=True, metavar="DATE",
              help="Import Hugging Face's Daily Papers of a day (2026-03-06), ISO week (2026-W10) or month (2026-03).")
@click.option("--delay", type=click.FloatRange(0, 3600), default=None, metavar="SECONDS",
              help="Seconds between requests to one source (default: each source's own rule).")
def import_command(root: Path, paths: tuple[str, ...], captured: dt.date | None, update: bool,
                   dailies: tuple[str, ...], delay: float | None) -> None:
    """Import dumps (default: every file in content/dumps/), or papers by arXiv id or URL, Hugging Face
    paper URL, DOI or .bib file, into content/papers/*.md."""
    from .ingest.enrich.by_id import import_papers, missing_message, split_arguments
    from .ingest.importers.run import run_import

    given = split_arguments(paths)
    if given.missing:
        raise click.UsageError(missing_message(given.missing))
    if given.dumps and (given.named or dailies):
        raise click.UsageError("import dump files and papers named by id (or --hf-daily) in two runs")
    if captured and not given.dumps:
        raise click.UsageError("--captured needs the dump files it applies to")
    if given.named or dailies:
        with failures(), progress_line("Looking up") as tick:
            site_config.require(root)
            outcome = import_papers(root, given.named, dailies, update, delay, progress=tick)
        print_diagnostics(outcome.report.items)
        for kind, shown in [*(("new", s) for s in outcome.new), *(("merged", s) for s in outcome.merged)]:
            say(f"  {kind} {shown}")
        if outcome.report.has_errors:
            say(f"import failed: {len(outcome.report.errors)} error(s); nothing under content/ was changed",
                "bold red", stderr=True)
            sys.exit(1)
        say(outcome.summary())
        return
    with failures(), progress_line("Importing") as tick:
        result = run_import(root, given.dumps or None, captured, update, progress=tick)
    print_diagnostics(result.report.items)
    from rich.table import Table

    table = Table(title="Import summary", show_edge=False)
    table.add_column("file")
    table.add_column("entries", justify="right")
    for name, count in result.entries_per_file:
        table.add_row(name, str(count))
    rich_console().print(table)
    say(f"{len(result.new)} new, {len(result.merged)} merged, {len(result.unchanged)} unchanged, "
        f"{len(result.skipped)} skipped; {len(result.authors)} author profile(s)")
    for what, why in result.skipped:
        say(f"  skipped {what}: {why}")
    if result.failed:
        say(f"import failed: {len(result.report.errors)} error(s); nothing under content/ was changed",
            "bold red", stderr=True)
        sys.exit(1)


def _sources(_: Any, __: Any, value: str) -> tuple[str, ...]:
    from .ingest.enrich.run import SOURCES

    names = tuple(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
    unknown = [n for n in names if n not in SOURCES]
    if unknown or not names:
        raise click.BadParameter(f"choose from {','.join(SOURCES)}, e.g. --sources hf,arxiv")
    return names


@main.command("enrich")
@root_option
@click.argument("slugs", nargs=-1)
@click.option("--refresh", is_flag=True, help="Look resolved papers up again; update only fields a tool wrote.")
@click.option("--delay", type=click.FloatRange(0, 3600), default=None, metavar="SECONDS",
              help="Seconds between requests to one source (default: each source's own rule).")
@click.option("--sources", default="hf,arxiv,s2", show_default=True, callback=_sources,
              help="Which sources to ask, in order.")
@click.option("--dry-run", is_flag=True, help="Look up and report, but write nothing.")
@click.option("--report", "report_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the outcome of every entry to this Markdown file.")
def enrich_command(root: Path, slugs: tuple[str, ...], refresh: bool, delay: float | None,
                   sources: tuple[str, ...], dry_run: bool, report_file: Path | None) -> None:
    """Find each entry's paper (arXiv id, DOI, authors, links) in scholarly APIs and write it into the entry."""
    from .common.fsutil import write_atomic
    from .ingest.enrich import report
    from .ingest.enrich.run import run_enrich

    with failures():
        site_config.require(root)
        try:
            with lookup_progress() as progress:
                outcome = run_enrich(root, [s.removesuffix(".md") for s in slugs], refresh, delay, sources, dry_run,
                                     progress)
        except KeyboardInterrupt:
            say("interrupted: the batches written before stay written, and the answers stored are kept; run "
                "sitegen enrich again to go on", "yellow", stderr=True)
            sys.exit(130)
        print_diagnostics(outcome.report.items)
        rows = report.rows(outcome)
        if rows and on_terminal() and len(rows) <= TABLE_ROWS:
            _enrich_table(rows)
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


@main.command("check")
@root_option
def check_command(root: Path) -> None:
    """Validate site.yaml, every entry and every author file; list every problem, and names that may be one person."""
    from .content.loader import load_content
    from .model import duplicates
    from .render.theme_check import check_theme

    report = Report()
    with failures():
        site_config.require(root)
        cfg = site_config.load(root)
        content = load_content(root, report)
        report.extend(duplicates.check(content, root))  # who is who, and names that may be one person
        check_theme(root, cfg, report)  # the theme resolved and every template loaded, as a build would
    print_diagnostics(report.items)
    if report.has_errors:
        say(f"{len(report.errors)} error(s) in content/", "bold red", stderr=True)
        sys.exit(1)
    say(f"ok: {len(content.entries)} entries, {len(content.profiles)} author profiles")


base_url_option = click.option(
    "--base-url", envvar=site_config.BASE_URL_ENV, metavar="URL",
    help=f"Override site.yaml's base_url (also ${site_config.BASE_URL_ENV}).",
)


@main.command("build")
@root_option
@click.option("--output", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to write the site (default: ROOT/public).")
@base_url_option
@click.option("--drafts", is_flag=True, help="Include entries marked draft: true.")
@click.option("--no-search", is_flag=True, help="Skip the Pagefind search index.")
@click.option("--jobs", type=click.IntRange(1, 64), default=None,
              help="Processes rendering pages (default: one per CPU; small sites use one).")
@click.option("--no-cache", is_flag=True,
              help="Build from the sources alone and keep no cache for a next build (CI, the Pages workflow).")
def build_command(root: Path, output: Path | None, base_url: str | None, drafts: bool, no_search: bool,
                  jobs: int | None, no_cache: bool) -> None:
    """Build the static site into public/ (atomically: all of it or none of it)."""
    from .pipeline.build import build

    with failures(), build_stages() as progress:
        site_config.require(root)
        result = build(root, output, base_url, drafts, progress=progress, search=not no_search, jobs=jobs,
                       use_cache=not no_cache)
    print_diagnostics(result.warnings.items)
    if result.search and not result.search.ok:
        say(f"warning: {result.search.message}", "yellow", stderr=True)
    elif result.search:
        say(f"search index: {result.search.files} files, {result.search.size / 1024:.0f} KiB "
            f"in {result.search.seconds:.2f} s")
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(result.pages_by_kind.items()))
    say(f"built {sum(result.pages_by_kind.values())} files into {result.output} in {result.seconds:.2f} s "
        f"({result.written} written, {result.unchanged} unchanged, {result.removed} removed)")
    say(kinds, "dim")
    if result.size is not None:
        say(f"the site: {result.size.said()}")


@main.command("serve")
@root_option
@click.option("--bind", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("-p", "--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port (0 picks a free one).")
@base_url_option
@click.option("--drafts", is_flag=True, help="Include entries marked draft: true.")
@click.option("--no-reload", is_flag=True, help="Do not inject the live-reload script.")
@click.option("--no-search", is_flag=True, help="Skip the Pagefind search index.")
@click.option("--poll", is_flag=True,
              help="Look for changes every 0.5 s instead of waiting for file events (Docker, WSL /mnt/c, "
                   "network folders).")
@click.option("--open", "open_browser", is_flag=True, help="Open the preview in the web browser ($BROWSER).")
def serve_command(root: Path, bind: str, port: int, base_url: str | None, drafts: bool, no_reload: bool,
                  no_search: bool, poll: bool, open_browser: bool) -> None:
    """Preview the site locally, rebuilding what changed and reloading the browser."""
    import signal
    import threading

    from .serve.serve import PreviewSession
    from .serve.server import is_loopback

    with failures():  # a busy port or a --bind that is no address here: a diagnostic, exit status 1
        site_config.require(root)
        from .publish.writer import recover

        recover(root / "public")  # what a killed build left, finished or removed, as a build's start does
        session = PreviewSession(root, bind, port, drafts, not no_reload, base_url,
                                 log=lambda text: say(text, stderr=True),
                                 search=not no_search, poll=poll)
    if not is_loopback(bind):  # said once the address is known to be one this machine listens on
        say(f"warning: serving on {bind}, which other machines can reach; the preview is meant "
            "for this machine only", "yellow", stderr=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with session:
        say(f"Serving {root.resolve()} at {session.url}  (Ctrl-C to stop)")
        if open_browser:
            import webbrowser

            webbrowser.open(session.url)
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
    say("stopped")


@main.command("init")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--title", default="My reading list", show_default=True, help="The site's title.")
@click.option("--curator", default="", help="Your name, shown in the footer and feeds.")
def init_command(directory: Path, title: str, curator: str) -> None:
    """Create a new reading-list site in DIRECTORY (refuses to overwrite one)."""
    from .ingest.scaffold import init_site

    with failures():
        result = init_site(directory, title, curator)
    for path in result.created:
        say(f"created {path}")
    print_diagnostics(result.warnings)
    say(f"next: cd {directory} && sitegen serve")


def _date(_: Any, __: Any, value: str | None) -> dt.date | None:
    return _captured(_, __, value)


@main.command("new")
@root_option
@click.argument("title", required=False)
@click.option("--date", callback=_date, metavar="YYYY-MM-DD", help="Publication date.")
@click.option("--tags", default="", help="Comma-separated tags, e.g. attention,kv-cache.")
@click.option("--author", "authors", multiple=True, help="An author (repeat for several).")
@click.option("--arxiv", metavar="ID", help="Fill the entry from arXiv's record of this paper (2507.14417).")
@click.option("--doi", metavar="DOI", help="Fill the entry from Semantic Scholar's record of this DOI.")
@click.option("--url", metavar="URL", help="Fill the entry from the paper at this arXiv, Hugging Face or doi.org URL.")
@click.option("--delay", type=click.FloatRange(0, 3600), default=None, metavar="SECONDS",
              help="Seconds between requests to one source (default: each source's own rule).")
def new_command(root: Path, title: str | None, date: dt.date | None, tags: str, authors: tuple[str, ...],
                arxiv: str | None, doi: str | None, url: str | None, delay: float | None) -> None:
    """Create content/papers/<slug>.md for a paper typed in by hand, or found by --arxiv, --doi or --url."""
    from .ingest.scaffold import new_entry

    named = [(option, value) for option, value in (("arxiv", arxiv), ("doi", doi), ("url", url)) if value]
    if len(named) > 1:
        raise click.UsageError("give one of --arxiv, --doi or --url")
    if not named and title is None:
        raise click.UsageError("give the paper's TITLE, or --arxiv, --doi or --url to look it up")
    tag_list = [t.strip() for t in tags.split(",") if t.strip()]
    with failures():
        if named:
            from .ingest.enrich.by_id import new_paper

            site_config.require(root)
            with progress_line("Looking up") as tick:
                path, warnings = new_paper(root, *named[0], title, date, tag_list, authors, delay, tick)
            print_diagnostics(warnings)
        else:
            path = new_entry(root, title or "", date, tag_list, list(authors))
    say(f"created {path}")


@main.command("deploy")
@root_option
@base_url_option
@click.option("--remote", default="origin", show_default=True, help="The git remote to push to.")
@click.option("--branch", default="gh-pages", show_default=True, help="The branch that holds the site.")
@click.option("--message", default=None, help="Commit message (default names the source commit).")
@click.option("--force", is_flag=True, help="Deploy even with uncommitted changes under content/.")
def deploy_command(root: Path, base_url: str | None, remote: str, branch: str, message: str | None,
                   force: bool) -> None:
    """Build, then commit public/ as the whole tree of the gh-pages branch and push it.

    The branch, the remote and content/ are checked before building (--force skips only
    the content/ check): a branch holding the sources or checked out is always refused.
    """
    from .pipeline.build import build
    from .publish.deploy import check_clean, prepare, publish

    with failures():
        site_config.require(root)
        target = prepare(root, remote, branch)
        if not force:
            check_clean(root)
        result = build(root, base_url=base_url)
        deployed = publish(target, result.output, message)
    say(f"published {deployed.commit[:12]} to {deployed.remote}/{deployed.branch} "
              f"(built from {deployed.source})")
