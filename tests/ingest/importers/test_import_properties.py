"""Whatever bytes a dump holds, an import ends in diagnostics, never a traceback, and fails without writing."""

from __future__ import annotations

import datetime as dt
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.common.errors import Report, SitegenError
from sitegen.content.loader import load_content
from sitegen.ingest.importers import DumpError, parse_dump
from sitegen.ingest.importers.run import run_import

from .conftest import DUMPS, PROFILE_A, copy_site, snapshot

HUGE = "9" * 5000
LINES = st.sampled_from([
    "", " ", "Daily Papers", "byAK and the research community", "Mar 2", "h-index3", f"h-index{HUGE}", "6papers",
    "6 Papers", f"{HUGE} Papers", "Ahan Gupta", "Ahán Gupta", "LG", "DCFeb 11", "69.4LGApr 29", f"{HUGE}LGApr 29",
    "BMJun 24, 2025Code", "LGFeb 30", "A, B et al.", "C++ Templates", "C# Templates", "!!!", "???", "🚀", "…",
    "VTC: DNN Compilation with Virtual Tensors for Data Movement Elimination", '<div class="x">', "<html>",
    "<!DOCTYPE html>", "</body>", "An abstract that ends, long enough to be an abstract.", "An abstract that stops",
    "  • 7 authors", f"  • {HUGE} authors", "·", "Aug 21, 2025 2", f"Feb 4 {HUGE}", "Feb 29", "furiosa-ai FuriosaAI",
    "Dec 99, 0000 3", "\ufeff", "\t", "\x07", "\x1b[0m", "../../etc/passwd", "title: 'x'", "---",
])
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small site that already holds imported papers, an author and an import state."""
    site = copy_site(tmp_path_factory.mktemp("template") / "site", with_entries=False)
    for dump in (site / "content" / "dumps").glob("0*.txt"):
        if dump.name != PROFILE_A:
            dump.unlink()
    assert not run_import(site).failed
    return site


def _dump_like(lines: list[str], newline: str) -> bytes:
    return newline.join(lines).encode("utf-8")


def _parse_outcome(data: bytes) -> None:
    try:
        parse_dump(data, "d.txt", dt.date(2026, 5, 19))
    except DumpError as exc:
        assert exc.diagnostic.severity == "error" and exc.diagnostic.location.path == "d.txt"


@SETTINGS
@given(st.lists(LINES, max_size=60), st.sampled_from(["\n", "\r\n", "\r"]))
def test_dump_like_lines_never_crash_the_parser(lines: list[str], newline: str) -> None:
    _parse_outcome(_dump_like(lines, newline))


def _import_outcome(template: Path, data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        shutil.copytree(template, site)
        dump = Path(tmp) / "dump.txt"
        dump.write_bytes(data)
        before = snapshot(site)
        try:
            result = run_import(site, [dump], captured=dt.date(2026, 5, 19))
        except SitegenError:
            assert snapshot(site) == before
            return
        if result.failed:
            assert result.report.has_errors and snapshot(site) == before
            return
        report = Report()  # what an import wrote, `sitegen check` accepts without a word
        load_content(site, report)
        assert report.items == [], report.format()


@SETTINGS
@given(st.binary(max_size=3000))
def test_any_bytes_imported_fail_cleanly(template: Path, data: bytes) -> None:
    _import_outcome(template, data)


@SETTINGS
@given(st.lists(LINES, max_size=60), st.sampled_from(["\n", "\r\n"]))
def test_dump_like_text_imported_fails_cleanly_or_imports(template: Path, lines: list[str], newline: str) -> None:
    _import_outcome(template, _dump_like(lines, newline))


@SETTINGS
@given(st.data())
def test_committed_dump_with_damage_fails_cleanly_or_imports(template: Path, data: st.DataObject) -> None:
    """A real dump cut short, or with a line replaced: a plausible damaged export."""
    lines = (DUMPS / PROFILE_A).read_text(encoding="utf-8").split("\n")
    if data.draw(st.booleans()):
        lines = lines[: data.draw(st.integers(0, len(lines)))]
    else:
        lines[data.draw(st.integers(0, len(lines) - 1))] = data.draw(LINES)
    _import_outcome(template, "\n".join(lines).encode("utf-8"))
