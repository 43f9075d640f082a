"""Read `content/` into validated, immutable Entry and AuthorProfile records.

Every file is parsed once; all problems of all files are collected before anyone
decides to stop, so `sitegen check` and `sitegen build` list them together.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple, Protocol

from ..common import platforms
from ..common.errors import Diagnostic, Location, Report, relpath
from . import categories, dates, frontmatter, markdown, schema, tagging
from .entry import Entry
from .files import FileStat, content_files, decode, read_hashed, read_text
from .profiles import AuthorProfile, load_profile
from .slugs import is_safe_slug, slugify


@dataclass(frozen=True)
class Content:
    """Everything read from content/: entries and profiles sorted by path."""

    entries: tuple[Entry, ...]
    profiles: tuple[AuthorProfile, ...]


class ParseCache(Protocol):
    """Where parsed entries may be remembered between builds (see sitegen.content.cache)."""

    def get(self, key: str, source_path: str, slug: str) -> Entry | None: ...

    def put(self, key: str, entry: Entry) -> None: ...

    def is_empty(self) -> bool: ...


PARALLEL_PARSE = 400  # below this many entries to parse, forking costs more than it saves


def load_content(root: Path, report: Report, cache: ParseCache | None = None, jobs: int | None = None,
                 meanwhile: Callable[[], object] | None = None, stats: dict[str, FileStat] | None = None) -> Content:
    """Read and validate every entry and author file under root/content/.

    `meanwhile` is called once, while forked processes parse the entries when they do
    (this process only waits for them then), else after the entries are read. `stats`
    receives each entry file's size and mtime as read (see `load_entries`).
    """
    papers = root / "content" / "papers"
    authors = root / "content" / "authors"
    check_folders(root, report)
    entries = load_entries(content_files(papers, ".md"), root, report, cache, jobs, meanwhile, stats)
    profiles = [a for p in content_files(authors, ".yaml") if (a := load_profile(p, root, report))]
    _check_unique(entries, report)
    return Content(tuple(entries), tuple(profiles))


def check_folders(root: Path, report: Report, folders: tuple[str, ...] = ("content/papers", "content/authors")) -> None:
    """content/ and its folders are folders: listing a file would find nothing and build an empty site."""
    for folder in (root / "content", *(root / rel for rel in folders)):
        if folder.exists() and not folder.is_dir():
            report.error(Location(relpath(folder, root)), "E106", "expected a folder, found a file",
                         f"move the file away and make {relpath(folder, root)}/ a folder")


class _Job(NamedTuple):
    """One entry file to parse; `text` and `key` are None when the parsing process is to read the file."""

    slot: int
    path: Path
    shown: str
    stem: str
    text: str | None
    key: str | None


# the entry, its problems, its content hash, its file's size and mtime as read (when read with it)
_Parsed = tuple[Entry | None, list[Diagnostic], str | None, FileStat | None]


def load_entries(paths: list[Path], root: Path, report: Report, cache: ParseCache | None,
                  jobs: int | None, meanwhile: Callable[[], object] | None = None,
                  stats: dict[str, FileStat] | None = None, keys: dict[str, str] | None = None) -> list[Entry]:
    """Entries of `paths` in order: cache hits as they are, the rest parsed (in parallel when many).

    `stats` receives each file's size and mtime from before it was read (see `_read_bytes`);
    `keys`, the content hash of each file that gave an entry with nothing to report.
    Problems are reported in file order whichever process found them. With nothing in the
    cache to look up (a cold build) and many entries, the processes that parse the files
    read them too: reading 10,000 files here first took 0.3 s, with the other core idle.
    """
    entries: list[Entry | None] = []
    problems: list[list[Diagnostic]] = []
    todo: list[_Job] = []
    inside = root.resolve()
    prefix = os.path.join(root, "")
    unread = _forks(jobs, len(paths)) and (cache is None or cache.is_empty())
    for path in paths:
        name = str(path)  # a path listed under the root is shown relative to it, without Path.relative_to
        shown = name[len(prefix):].replace(os.sep, "/") if name.startswith(prefix) else _shown(path, root, inside)
        stem = path.stem
        entries.append(None)
        if unread:
            problems.append([])
            todo.append(_Job(len(entries) - 1, path, shown, stem, None, None))
            continue
        found = Report()
        problems.append(found.items)
        read = read_hashed(path, shown, found)
        if read is None:
            continue
        data, key, as_read = read
        if stats is not None:
            stats[shown] = as_read
        if cache is not None:
            cached = cache.get(key, shown, slug_of(stem))
            if cached is not None:
                entries[-1] = cached
                if keys is not None:
                    keys[shown] = key
                continue
        text = decode(data, shown, found)
        if text is not None:
            todo.append(_Job(len(entries) - 1, path, shown, stem, text, key))
    for job, (entry, diagnostics, content_hash, stat) in zip(todo, _parse_all(todo, jobs, meanwhile), strict=True):
        entries[job.slot] = entry
        problems[job.slot].extend(diagnostics)
        if stats is not None and stat is not None:
            stats[job.shown] = stat
        if cache is not None and entry is not None and content_hash is not None and not diagnostics:
            cache.put(content_hash, entry)  # entries with something to say are re-read
        if keys is not None and entry is not None and content_hash is not None and not diagnostics:
            keys[job.shown] = content_hash
    for diagnostics in problems:
        report.extend(diagnostics)
    return [e for e in entries if e is not None]


def _shown(path: Path, root: Path, inside: Path) -> str:
    """relpath() without resolving every file: entry files are listed from inside the root."""
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return relpath(path, inside)


def _parse_one(job: _Job) -> _Parsed:
    found = Report()
    text, key = job.text, job.key
    stat = None
    if text is None:  # a cold build's: read here
        read = read_hashed(job.path, job.shown, found)
        if read is None:
            return None, found.items, None, None
        data, key, stat = read
        text = decode(data, job.shown, found)
        if text is None:
            return None, found.items, key, stat
    return entry_from_text(text, job.shown, job.stem, found), found.items, key, stat


def _forks(jobs: int | None, count: int) -> bool:
    """Whether `count` entries are parsed by forked processes."""
    return (jobs or os.cpu_count() or 1) >= 2 and count >= PARALLEL_PARSE and platforms.FORK


def _parse_all(todo: list[_Job], jobs: int | None, meanwhile: Callable[[], object] | None = None) -> list[_Parsed]:
    """Parse entries, across forked processes when there are many (a cold build).

    The entries are cut into runs (see `_runs`) that the children take one at a time as each
    is free, reading the next run's number from a file this process filled before forking
    them, whose read position they share (a read of a regular file moves it atomically, and
    unlike a pipe's, the file's size is not limited): handed out in shares fixed beforehand,
    one child often finished a third of a second before the other at 10,000 entries,
    whenever something else on the machine slowed it, with this process waiting and a core
    idle. Each child parses the entries (or on a cold build reads their files) it inherited
    and hands back its results at once (see forked.ForkedBytes); a run that no child
    answered for, one having failed, is parsed here, so its errors surface as they would have.
    No thread in this process serves the children, so `meanwhile` runs here at full speed:
    handing out entry texts from a multiprocessing pool's threads, which need the GIL, slowed
    the parsing by a fifth whenever this process did anything else.
    """
    if not _forks(jobs, len(todo)):
        done = [_parse_one(job) for job in todo]
        if meanwhile is not None:
            meanwhile()
        return done
    import pickle
    from functools import partial

    from ..common.forked import ForkedBytes, anonymous_file

    jobs = jobs or os.cpu_count() or 1
    markdown.parser()  # made once here, not in every child
    runs = _runs(len(todo), jobs)
    queue = anonymous_file()
    try:
        numbers = b"".join(n.to_bytes(_RUN_NUMBER, "little") for n in range(len(runs)))
        os.pwrite(queue, numbers, 0)  # a file's write is whole, and leaves the shared read position at 0
        children = [ForkedBytes(partial(_parse_runs, todo, runs, queue)) for _ in range(jobs)]
    finally:
        os.close(queue)
    if meanwhile is not None:
        meanwhile()
    parsed: list[_Parsed | None] = [None] * len(todo)
    for child in children:
        answer = child.result()
        for number, results in pickle.loads(answer) if answer is not None else ():
            start, stop = runs[number]
            parsed[start:stop] = results
    for start, stop in runs:
        if parsed[start] is None:  # its child failed
            parsed[start:stop] = [_parse_one(job) for job in todo[start:stop]]
    return parsed  # type: ignore[return-value]  # every run was answered for


_RUN_NUMBER = 4  # bytes of a run's number in the file the children read them from
RUNS_PER_JOB = 16  # the runs left at the end, when one child may be done and the other not, are short
LONGEST_RUN = 100  # entries: about 30 ms of parsing


def _runs(count: int, jobs: int) -> list[tuple[int, int]]:
    """The [start, stop) ranges the children take one by one."""
    size = max(1, min(LONGEST_RUN, count // (jobs * RUNS_PER_JOB)))
    return [(start, min(start + size, count)) for start in range(0, count, size)]


def _parse_runs(todo: list[_Job], runs: list[tuple[int, int]], queue: int) -> bytes:
    """In a forked child: the runs it took, each parsed, pickled for the parent (which forked it)."""
    import pickle

    taken = []
    while len(number := os.read(queue, _RUN_NUMBER)) == _RUN_NUMBER:
        run = int.from_bytes(number, "little")
        start, stop = runs[run]
        taken.append((run, [_parse_one(job) for job in todo[start:stop]]))
    return pickle.dumps(taken, protocol=pickle.HIGHEST_PROTOCOL)


def load_entry(path: Path, root: Path, report: Report, cache: ParseCache | None = None,
               previous: Entry | None = None) -> Entry | None:
    """Parse and validate one entry file; problems go to `report`. A cache hit skips parsing.

    `previous` is the entry before an edit (see entry_from_text); it is not a cache.
    """
    if previous is not None and cache is None:
        shown = _shown(path, root, root.resolve())
        text = read_text(path, shown, report)
        return None if text is None else entry_from_text(text, shown, path.stem, report, previous)
    found = load_entries([path], root, report, cache, 1)
    return found[0] if found else None


def slug_of(stem: str) -> str:
    """An entry's slug: its file name when that is already a safe slug."""
    return stem if is_safe_slug(stem) else slugify(stem)


def entry_from_text(text: str, shown: str, stem: str, report: Report, previous: Entry | None = None) -> Entry | None:
    """Build an Entry from a file's text (also used by the dev server for one file).

    `previous`, the entry as it was before an edit, lends its rendered title, abstract and
    notes when their text is unchanged: a notes edit then renders only the notes, and a
    front-matter edit no Markdown at all.
    """
    try:
        doc = frontmatter.parse(text, shown)
    except frontmatter.FrontMatterError as exc:
        report.add(exc.diagnostic)
        return None
    report.extend(list(doc.warnings))  # control characters removed from the notes (W341)
    meta, problems = schema.validate_entry(doc.meta, doc.key_lines, shown)
    report.extend(problems)
    if any(p.severity == "error" for p in problems):
        return None
    slug = slug_of(stem)
    written = tuple(dict.fromkeys(t.strip() for t in meta.get("tags", [])))
    tags, category, dropped = categories.topics(written, meta.get("category"))
    for tag in dropped:  # arXiv categories are shown as categories, and an entry has one
        at = next(i for i, t in enumerate(meta["tags"]) if t.strip() == tag)
        line = doc.key_lines.get(f"tags/{at}", doc.key_lines.get("tags", 1))
        report.add(Diagnostic(Location(shown, line), "W342", f"tag '{tag}' is an arXiv category other than "
                              f"this paper's ({category}), and is left out", "tags are topics: make it the "
                              "paper's `category`, or remove it", severity="warning"))
    tags = tagging.one_spelling(tags, meta.get("tags", []), doc.key_lines, shown, report)
    abstract = meta.get("abstract", "")
    title = meta["title"].strip()
    same_title = previous is not None and previous.title == title
    same_abstract = previous is not None and previous.abstract == abstract
    if previous is not None and previous.notes == doc.body and previous.body_line == doc.body_line:
        notes = markdown.Notes(previous.notes_html, previous.notes_text, previous.lead_html,
                               tuple((target, line - doc.body_line) for target, line in previous.mentions))
    else:
        notes = markdown.render_notes(doc.body)
    notes_html, notes_text, lead_html = notes.html, notes.text, notes.lead
    summary = " ".join(meta.get("summary", "").split())
    published, precision = dates.split(meta.get("date"))
    return Entry(
        source_path=shown,
        slug=slug,
        title=title,
        authors=tuple(a.strip() for a in meta.get("authors", [])),
        abstract=abstract,
        notes=doc.body,
        tags=tags,
        date=published,
        date_precision=precision,
        added=meta.get("added"),
        authors_truncated=meta.get("authors_truncated", False),
        author_count=meta.get("author_count"),
        organization=meta.get("organization"),
        category=category,
        score=meta.get("score"),
        upvotes=meta.get("upvotes"),
        links=tuple(sorted(meta.get("links", {}).items())),
        status=meta.get("status"),
        rating=meta.get("rating"),
        arxiv=meta.get("arxiv"),
        doi=meta.get("doi"),
        venue=meta.get("venue"),
        draft=meta.get("draft", False),
        withdrawn=meta.get("withdrawn", False),
        cites=tuple(meta.get("cites", ())),
        sources=tuple(tuple(sorted(s.items())) for s in meta.get("sources", [])),
        extra=meta.get("extra", {}),
        title_html=previous.title_html if previous and same_title else markdown.text_with_math(title),
        abstract_html=previous.abstract_html if previous and same_abstract else markdown.text_with_math(abstract),
        summary_html=previous.summary_html if previous and same_abstract else markdown.summary(abstract),
        notes_html=notes_html,
        notes_text=notes_text,
        summary=summary,
        pinned=meta.get("pinned", False),
        lead_html=lead_html,
        mentions=tuple((target, doc.body_line + line) for target, line in notes.mentions),
        take_html=(previous.take_html if previous and previous.summary == summary else markdown.text_with_math(summary))
        if summary else lead_html,
        digest=hashlib.sha256(text.encode("utf-8")).hexdigest()[:16],
        body_line=doc.body_line,
    )


def same_front_matter(old: Entry, new: Entry) -> bool:
    """Whether two versions of an entry differ at most in their notes (the Markdown body)."""
    return replace(new, notes=old.notes, notes_html=old.notes_html, notes_text=old.notes_text, lead_html=old.lead_html,
                   mentions=old.mentions,
                   digest=old.digest, body_line=old.body_line) == old


def _check_unique(entries: list[Entry], report: Report) -> None:
    seen: dict[str, Entry] = {}
    for entry in entries:
        other = seen.setdefault(entry.slug, entry)
        if other is not entry:
            report.add(Diagnostic(Location(entry.source_path, 1), "E204",
                                  f"this entry's URL slug '{entry.slug}' is also used by {other.source_path}",
                                  "rename one of the files"))
