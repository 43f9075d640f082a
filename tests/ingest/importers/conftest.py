"""Fixtures for the importer tests: the four committed dumps and throw-away copies of the site."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest

from sitegen.ingest.importers import ParsedDump, parse_dump

REPO = Path(__file__).resolve().parents[3]
DUMPS = REPO / "content" / "dumps"
PROFILE_A = "000_5ba3278e7bf0573b.txt"
PROFILE_B = "001_1c5307dff05a53f9.txt"
LISTING_A = "002_fadf736e7f95309e.txt"
LISTING_B = "003_bb22b9fa9b819595.txt"
CAPTURED = {
    PROFILE_A: dt.date(2026, 5, 19),
    PROFILE_B: dt.date(2026, 5, 19),
    LISTING_A: dt.date(2026, 4, 17),
    LISTING_B: dt.date(2026, 5, 19),
}


_HAND_RECORD = re.compile(rb"^- api: hand\n(?:  .*\n)*", re.MULTILINE)
_ARXIV_LINE = re.compile(rb"^arxiv: .*\n", re.MULTILINE)
_AUTHOR_LINES = re.compile(rb"^(?:authors:(?: \[\])?\n(?:- .*\n)*|authors_truncated: .*\n|author_count: .*\n)",
                           re.MULTILINE)


def as_imported(data: bytes) -> bytes:
    """A committed entry as `sitegen import` writes it from the dumps, but for its author list: without the arXiv
    id a curator confirmed by hand afterwards (its `arxiv:` line and its `api: hand` source record)."""
    if not _HAND_RECORD.search(data):
        return data
    return _ARXIV_LINE.sub(b"", _HAND_RECORD.sub(b"", data), count=1)


def hand_edits_aside(imported: dict[str, bytes], committed: dict[str, bytes]) -> tuple[dict[str, bytes],
                                                                                     dict[str, bytes]]:
    """Both sides comparable: the committed entries' hand-confirmed ids taken out, and where a curator also typed
    the paper's whole author list from the page that confirmed the id, the author lines of both sides set aside
    (the importer's own list and count stand in for them in every other entry)."""
    ours, theirs = dict(imported), {name: as_imported(data) for name, data in committed.items()}
    for name, data in committed.items():
        if _HAND_RECORD.search(data) and name in ours and (
                _AUTHOR_LINES.findall(ours[name]) != _AUTHOR_LINES.findall(theirs[name])):
            ours[name], theirs[name] = _AUTHOR_LINES.sub(b"", ours[name]), _AUTHOR_LINES.sub(b"", theirs[name])
    return ours, theirs


def parse_committed(name: str, captured: dt.date | None = None) -> ParsedDump:
    """Parse one committed dump as `sitegen import` does (path shown relative to the site)."""
    return parse_dump((DUMPS / name).read_bytes(), f"content/dumps/{name}", captured or CAPTURED[name])


def copy_site(dest: Path, with_entries: bool = True) -> Path:
    """Copy site.yaml and content/ into `dest`; without entries, papers/authors/state are left out."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy2(REPO / "site.yaml", dest / "site.yaml")
    shutil.copytree(REPO / "content", dest / "content")
    if not with_entries:
        shutil.rmtree(dest / "content" / "papers")
        shutil.rmtree(dest / "content" / "authors")
        (dest / "content" / "import-state.json").unlink()
    return dest


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (relative POSIX path -> bytes), hidden ones included."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="session")
def committed() -> dict[str, ParsedDump]:
    """The four committed dumps, parsed once per session."""
    return {name: parse_committed(name) for name in CAPTURED}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A copy of the site with its committed entries."""
    return copy_site(tmp_path / "site")


@pytest.fixture
def bare_site(tmp_path: Path) -> Path:
    """A copy of the site with only its dumps: nothing imported yet."""
    return copy_site(tmp_path / "site", with_entries=False)


def listing(*papers: tuple[str, str] | tuple[str, str, str], day: str = "Mar 2") -> str:
    """A Daily Papers listing as the aggregator prints it: (title, abstract[, 'Mon D' of its meta block])."""
    parts = ["Daily Papers", "", day, ""]
    for title, abstract, *when in papers:
        parts += [title, "", abstract, ""]
        if when:
            parts += ["  • 3 authors", "·", f"{when[0]} 5", ""]
    return "\n".join(parts)


def write_dump(site: Path, name: str, text: str | bytes) -> Path:
    """A dump file in the site's dumps folder."""
    path = site / "content" / "dumps" / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path
