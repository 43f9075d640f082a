"""The commands that make and show the site: `check`, `build`, `serve`, `init` and `deploy`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..common.errors import Report
from ..console import failures, print_diagnostics, say, stages, verbose, warn
from ..content import config as site_config
from .options import base_url_option, root_option, verbosity


@click.command("check")
@root_option
@verbosity
@click.option("--strict", is_flag=True, help="Fail on warnings too (unknown fields, names that may be one person).")
def check_command(root: Path, strict: bool) -> None:
    """Validate site.yaml, every entry and every author file; list every problem, and names that may be one person."""
    from ..content.loader import load_content
    from ..model import duplicates, mentions
    from ..render.theme_check import check_theme

    report = Report()
    with failures():
        site_config.require(root)
        cfg = site_config.load(root)
        content = load_content(root, report)
        report.extend(duplicates.check(content, root))  # who is who, and names that may be one person
        report.extend(mentions.check(content.entries))  # [[slug]] in notes names a paper of the list
        check_theme(root, cfg, report)  # the theme resolved and every template loaded, as a build would
    print_diagnostics(report.items)
    if report.has_errors:
        say(f"{len(report.errors)} error(s) in content/", "bold red", stderr=True, always=True)
        sys.exit(1)
    warned = len(report.items) - len(report.errors)
    if strict and warned:
        say(f"{warned} warning(s), and --strict fails on warnings", "bold red", stderr=True, always=True)
        sys.exit(1)
    say(f"ok: {len(content.entries)} entries, {len(content.profiles)} author profiles")


@click.command("build")
@root_option
@verbosity
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
    from ..pipeline.build import build

    with failures(), stages() as progress:
        site_config.require(root)
        result = build(root, output, base_url, drafts, progress=progress, search=not no_search, jobs=jobs,
                       use_cache=not no_cache)
    print_diagnostics(result.warnings.items)
    if result.search and not result.search.ok:
        warn(f"warning: {result.search.message}")
    elif result.search:
        say(f"search index: {result.search.files} files, {result.search.size / 1024:.0f} KiB "
            f"in {result.search.seconds:.2f} s")
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(result.pages_by_kind.items()))
    say(f"built {sum(result.pages_by_kind.values())} files into {result.output} in {result.seconds:.2f} s "
        f"({result.written} written, {result.unchanged} unchanged, {result.removed} removed)")
    say(kinds, "dim")
    if result.size is not None:
        say(f"the site: {result.size.said()}")


@click.command("serve")
@root_option
@verbosity
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

    from ..serve.serve import PreviewSession
    from ..serve.server import is_loopback

    with failures():  # a busy port or a --bind that is no address here: a diagnostic, exit status 1
        site_config.require(root)
        from ..publish.writer import recover

        recover(root / "public")  # what a killed build left, finished or removed, as a build's start does
        session = PreviewSession(root, bind, port, drafts, not no_reload, base_url,
                                 log=warn, info=lambda text: say(text, stderr=True),
                                 search=not no_search, poll=poll,
                                 requests=(lambda text: say(text, "dim", stderr=True)) if verbose() else None)
    if not is_loopback(bind):  # said once the address is known to be one this machine listens on
        warn(f"warning: serving on {bind}, which other machines can reach; the preview is meant "
             "for this machine only")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with session:
        say(f"Serving {root.resolve()} at {session.url}  (Ctrl-C to stop)", always=True)  # -q too: where to look
        if open_browser:
            import webbrowser

            webbrowser.open(session.url)
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
    say("stopped")


@click.command("init")
@verbosity
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--title", default="My reading list", show_default=True, help="The site's title.")
@click.option("--curator", default="", help="Your name, shown in the footer and feeds.")
def init_command(directory: Path, title: str, curator: str) -> None:
    """Create a new reading-list site in DIRECTORY (refuses to overwrite one)."""
    from ..ingest.scaffold import init_site

    with failures():
        result = init_site(directory, title, curator)
    for path in result.created:
        say(f"created {path}")
    print_diagnostics(result.warnings)
    say(f"next: cd {directory} && sitegen serve")


@click.command("deploy")
@root_option
@verbosity
@base_url_option
@click.option("--remote", default="origin", show_default=True,
              help="Where to push: a git remote's name, or a repository's URL or path.")
@click.option("--branch", default="gh-pages", show_default=True, help="The branch that holds the site.")
@click.option("--message", default=None, help="Commit message (default names the source commit).")
@click.option("--force", is_flag=True, help="Deploy even with uncommitted changes under content/.")
def deploy_command(root: Path, base_url: str | None, remote: str, branch: str, message: str | None,
                   force: bool) -> None:
    """Build, then commit public/ as the whole tree of the gh-pages branch and push it.

    The branch, the remote and content/ are checked before building (--force skips only
    the content/ check): a branch holding the sources or checked out is always refused.
    """
    from ..pipeline.build import build
    from ..publish.deploy import check_clean, prepare, publish

    with failures():
        site_config.require(root)
        target = prepare(root, remote, branch)
        if not force:
            check_clean(root)
        result = build(root, base_url=base_url)
        deployed = publish(target, result.output, message)
    if deployed.unchanged:
        say(f"already up to date: {deployed.remote} {deployed.branch} holds this site ({deployed.commit[:12]}); "
            "nothing was committed")
        return
    say(f"published {deployed.commit[:12]} to {deployed.remote}/{deployed.branch} "
              f"(built from {deployed.source})")
