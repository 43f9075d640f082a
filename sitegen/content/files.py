"""Reading content files: regular files only, UTF-8, each problem a diagnostic at the file's first line.

A FIFO, a folder or a broken link named like an entry is refused rather than waited on
(see fsutil.read_regular); the stat taken before the read is what a later build compares.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from ..common.errors import Location, Report, relpath
from ..common.fsutil import read_regular
from . import frontmatter
from .field_checks import arxiv_from_number


def content_files(folder: Path, suffix: str) -> list[Path]:
    """The files of a folder whose names end in `suffix`, hidden ones left out, in name order.

    Listed rather than globbed: sorting 10,000 Path objects compares them part by part.
    """
    try:
        names = os.listdir(folder)
    except OSError:  # no such folder, or not a folder
        return []
    return [folder / name for name in sorted(names) if name.endswith(suffix) and not name.startswith(".")]


def decode(data: bytes, shown: str, report: Report) -> str | None:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        report.error(Location(shown, 1), "E104", "the file is not valid UTF-8 text", "save it as UTF-8")
    return None


# (size, mtime_ns, ctime_ns, inode) of an entry file as it was read: what git compares too. `cp -p`,
# `rsync -t` and `touch -r` put back the size and mtime of an edited file, never its ctime or inode.
FileStat = tuple[int, int, int, int]


def file_stat(st: os.stat_result) -> FileStat:
    """What a later build compares to tell an edited entry file from an untouched one."""
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


def read_bytes(path: Path, shown: str, report: Report) -> tuple[bytes, FileStat] | None:
    """The file's bytes, and its stat from before they were read: a file saved again while a
    build reads it then has a newer ctime than the one remembered, and is read again.

    Only regular files are read: a FIFO named `*.md` would block the build forever."""
    try:
        data, st = read_regular(path)
        return data, file_stat(st)
    except OSError as exc:
        report.error(Location(shown, 1), "E105", f"cannot read the file: {exc.strerror or exc}",
                     "entries must be regular files; remove or rename this one")
        return None


def read_hashed(path: Path, shown: str, report: Report) -> tuple[bytes, str, FileStat] | None:
    """The file's bytes, their content hash (the entry cache's key) and its stat (see `read_bytes`)."""
    read = read_bytes(path, shown, report)
    return None if read is None else (read[0], hashlib.sha256(read[0]).hexdigest(), read[1])


@dataclass(frozen=True)
class EntryFile:
    """An entry file as read for rewriting it: its text and its parsed front matter and body."""

    path: Path
    shown: str
    text: str
    doc: frontmatter.Document


def entry_files(folder: Path, root: Path, report: Report) -> list[EntryFile]:
    """Every `*.md` file of `folder` that reads and parses; each one that does not is reported.

    An arXiv id YAML read as a number is the id again here (see `field_checks.arxiv_from_number`).

    What the tools that rewrite entries (the importers, enrich) start from: an entry that
    cannot be read is an error for them, since whether it is the paper cannot be told.
    """
    files = []
    for path in sorted(folder.glob("*.md")) if folder.is_dir() else []:
        shown = relpath(path, root)
        text = read_text(path, shown, report)  # a FIFO named *.md is refused, not waited on
        if text is None:
            continue
        try:
            doc = frontmatter.parse(text, shown)
        except frontmatter.FrontMatterError as exc:
            report.add(exc.diagnostic)
            continue
        recovered = arxiv_from_number(doc.meta.get("arxiv"))
        if recovered is not None:  # `arxiv: 2205.14135` unquoted: found by its id, and written back quoted
            doc.meta["arxiv"] = recovered
        files.append(EntryFile(path, shown, text, doc))
    return files


def read_text(path: Path, shown: str, report: Report) -> str | None:
    """A content file's text, or None with the reason reported (not a regular file, unreadable, not UTF-8)."""
    read = read_bytes(path, shown, report)
    return None if read is None else decode(read[0], shown, report)
