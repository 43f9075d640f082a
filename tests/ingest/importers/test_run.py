"""`run_import` end to end, on throw-away copies of the site: golden output, idempotence, edits, bad input."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from sitegen.common.errors import Report, SitegenError
from sitegen.content import frontmatter
from sitegen.content.loader import load_content
from sitegen.ingest.importers import manifest
from sitegen.ingest.importers.run import ImportResult, run_import

from .conftest import DUMPS, LISTING_A, LISTING_B, PROFILE_A, REPO, hand_edits_aside, snapshot

PAPERS = REPO / "content" / "papers"
VTC = "vtc-dnn-compilation-with-virtual-tensors-for-data-movement.md"
SPLAT = "splat-a-framework-for-optimised-gpu-code-generation-for.md"


def imported(root: Path) -> dict[str, bytes]:
    """What an import owns: entries, author files and the import state."""
    content = root / "content"
    files = {f"papers/{k}": v for k, v in snapshot(content / "papers").items()} if (content / "papers").exists() else {}
    if (content / "authors").exists():
        files.update({f"authors/{k}": v for k, v in snapshot(content / "authors").items()})
    state = content / "import-state.json"
    if state.exists():
        files["import-state.json"] = state.read_bytes()
    return files


def assert_committed(files: dict[str, bytes]) -> None:
    """The files an import wrote are the committed ones, but for what a curator confirmed by hand afterwards."""
    ours, theirs = hand_edits_aside(files, imported(REPO))
    assert ours == theirs


def leftovers(root: Path) -> list[str]:
    """Temporary or hidden files anywhere under content/: an atomic writer leaves none."""
    return [p.name for p in (root / "content").rglob("*") if p.name.startswith(".") or p.name.endswith(".tmp")]


def meta(path: Path) -> dict[str, Any]:
    return frontmatter.parse(path.read_text(encoding="utf-8"), path.name).meta


def errors(result: ImportResult) -> list[str]:
    return [d.format().splitlines()[0] for d in result.report.errors]


def check(root: Path) -> Report:
    report = Report()
    load_content(root, report)
    return report


# -- the committed output ---------------------------------------------------------------------


def test_import_reproduces_the_committed_files(bare_site: Path) -> None:
    result = run_import(bare_site)
    assert not result.failed and result.report.items == []
    assert result.entries_per_file == [(f"content/dumps/{n}", c) for n, c in
                                       ((PROFILE_A, 6), ("001_1c5307dff05a53f9.txt", 4), (LISTING_A, 49),
                                        (LISTING_B, 56))]
    assert (len(result.new), len(result.merged), len(result.unchanged), result.skipped) == (106, 0, 0, [])
    assert sorted(result.authors) == ["content/authors/ahan-gupta.yaml", "content/authors/vima-gupta.yaml"]
    assert_committed(imported(bare_site))
    assert leftovers(bare_site) == []


def test_committed_entries_are_up_to_date(site: Path) -> None:
    before = imported(site)
    result = run_import(site)
    assert not result.failed and (len(result.new), len(result.merged), len(result.unchanged)) == (0, 0, 106)
    assert imported(site) == before
    result = run_import(site, update=True)
    assert not result.failed and len(result.unchanged) == 106 and imported(site) == before


def test_importing_twice_changes_nothing(bare_site: Path) -> None:
    run_import(bare_site)
    first = snapshot(bare_site)
    mtimes = {p: p.stat().st_mtime_ns for p in (bare_site / "content" / "papers").iterdir()}
    second = run_import(bare_site)
    assert second.new == [] and second.merged == [] and len(second.unchanged) == 106
    assert snapshot(bare_site) == first
    assert {p: p.stat().st_mtime_ns for p in (bare_site / "content" / "papers").iterdir()} == mtimes


def test_importer_output_passes_check(bare_site: Path) -> None:
    run_import(bare_site)
    report = check(bare_site)
    assert report.items == []


def test_two_author_profiles(bare_site: Path) -> None:
    run_import(bare_site)
    data, _ = frontmatter.load_yaml((bare_site / "content/authors/ahan-gupta.yaml").read_text(), "a")
    assert data == {"name": "Ahan Gupta", "category": "cs.LG", "h_index": 12, "papers": 6, "citations": 18,
                    "novelty_percent": 67, "ai_score": 55, "source": PROFILE_A,
                    "captured": dt.date(2026, 5, 19)}  # the figures are as of the page's capture


def test_golden_sample_entries(bare_site: Path) -> None:
    run_import(bare_site)
    papers = bare_site / "content" / "papers"
    vtc = meta(papers / VTC)
    assert (vtc["date"], vtc["category"], vtc["added"]) == (dt.date(2026, 2, 11), "cs.DC", dt.date(2026, 5, 19))
    assert [s["file"] for s in vtc["sources"]] == [PROFILE_A, "001_1c5307dff05a53f9.txt"]
    megafold = meta(papers / "megafold-system-level-optimizations-for-accelerating-protein.md")
    assert megafold["links"] == {"code": "https://github.com/Supercomputing-System-AI-Lab/MegaFold"}
    assert meta(papers / "autosp-unlocking-long-context-llm-training-via-compiler.md")["score"] == 69.4
    bench = meta(papers / "parallelbench-understanding-the-trade-offs-of-parallel.md")
    assert bench["organization"] == "FuriosaAI" and bench["upvotes"] == 2 and bench["date"] == dt.date(2025, 10, 6)
    batch = meta(papers / "batch-speculative-decoding-done-right.md")
    assert "date" not in batch and "author_count" not in batch and batch["authors"] == []
    statesmix = meta(papers / "statesmix-online-lossless-compression-via-mamba-state-space.md")
    assert (statesmix["date"], statesmix["upvotes"]) == (dt.date(2026, 4, 4), 2)
    tpla = meta(papers / "tpla-tensor-parallel-latent-attention-for-efficient.md")
    assert "Prefill & Decode" in tpla["title"] and "\\&" not in tpla["title"]
    for path in papers.glob("*.md"):
        text = path.read_text(encoding="utf-8")
        assert text.endswith("---\n") and not any(line != line.rstrip() for line in text.splitlines())


# -- edits are never lost ---------------------------------------------------------------------


def _hand_edit(site: Path) -> Path:
    """Change VTC's title, tags and body, and rename its file; return the new path."""
    old = site / "content" / "papers" / VTC
    text = old.read_text(encoding="utf-8")
    text = text.replace("title: 'VTC: DNN Compilation with Virtual Tensors for Data Movement Elimination'",
                        "title: 'VTC — my own title'", 1)
    text = text.replace("tags:\n- compilers\n- gpu-kernels\n", "tags:\n- my-tag\n", 1)
    text += "\n## Notes\n\nRead this twice.   \n"
    new = old.with_name("vtc-notes.md")
    new.write_text(text, encoding="utf-8")
    old.unlink()
    return new


@pytest.mark.parametrize("update", [False, True])
def test_edits_survive_reimport(site: Path, update: bool) -> None:
    edited = _hand_edit(site)
    before = edited.read_bytes()
    result = run_import(site, update=update)
    assert not result.failed
    assert result.new == [] and "content/papers/vtc-notes.md" in result.unchanged
    assert edited.read_bytes() == before  # byte for byte, body included
    assert not (site / "content" / "papers" / VTC).exists()
    assert len(list((site / "content" / "papers").glob("*.md"))) == 106


def test_new_source_is_added_to_an_edited_entry(site: Path) -> None:
    edited = _hand_edit(site)
    third = DUMPS.joinpath(PROFILE_A).read_text(encoding="utf-8").replace("Ahan Gupta\n", "Third Person\n", 1)
    dump = site / "content" / "dumps" / "004_third.txt"
    dump.write_text(third, encoding="utf-8")
    result = run_import(site, [dump], captured=dt.date(2026, 6, 1))
    assert not result.failed and "content/papers/vtc-notes.md" in result.merged
    data = meta(edited)
    assert data["title"] == "VTC — my own title" and data["tags"][0] == "my-tag"
    assert [s["file"] for s in data["sources"]][-1] == "004_third.txt"
    assert edited.read_text(encoding="utf-8").endswith("\n## Notes\n\nRead this twice.   \n")
    assert len(list((site / "content" / "papers").glob("*.md"))) == 106


def test_update_refreshes_only_unedited_importer_fields(site: Path) -> None:
    edited = _hand_edit(site)
    config = site / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace(
        "  robotics: [motion planning, robot, robotics]\n",
        "  robotics: [motion planning, robot, robotics]\n  virtual-tensors: [virtual tensor, sparse format]\n"),
        encoding="utf-8")
    splat = site / "content" / "papers" / SPLAT
    assert "virtual-tensors" not in meta(splat)["tags"]
    plain = run_import(site)  # without --update nothing importer-owned changes
    assert plain.merged == [] and "virtual-tensors" not in meta(splat)["tags"]
    result = run_import(site, update=True)
    assert not result.failed and result.merged == [f"content/papers/{SPLAT}"]
    assert meta(splat)["tags"][-2:] == ["virtual-tensors", "cs.PL"]
    assert meta(edited)["tags"][0] == "my-tag" and "virtual-tensors" not in meta(edited)["tags"]
    again = snapshot(site)
    assert run_import(site, update=True).merged == [] and snapshot(site) == again


def test_update_after_a_person_deleted_a_field_restores_it(site: Path) -> None:
    path = site / "content" / "papers" / SPLAT
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("\ncategory: cs.PL\n", "\n", 1), encoding="utf-8")
    run_import(site)
    assert path.read_text(encoding="utf-8") == text


def test_edited_author_profile_is_kept(site: Path) -> None:
    path = site / "content" / "authors" / "ahan-gupta.yaml"
    path.write_text(path.read_text().replace("h_index: 12", "h_index: 13") + "affiliation: UIUC\n")
    before = path.read_bytes()
    for update in (False, True):
        assert not run_import(site, update=update).failed
        assert path.read_bytes() == before


# -- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "data", "code", "message"), [
    ("empty.txt", b"", "E301", "the file is empty"),
    ("blank.txt", b" \r\n\n\t\n", "E301", "the file is empty"),
    ("binary.txt", bytes(range(256)) * 4, "E302", "this is a binary file, not a text dump"),
    ("latin1.txt", "Daily Papers\n\nCafé\n".encode("latin-1"), "E303", "the file is not valid UTF-8 text"),
    ("notes.txt", b"Just some notes\n\nabout papers I like.\n", "E300", "not a known dump format"),
])
def test_an_unreadable_dump_stops_the_whole_import(bare_site: Path, name: str, data: bytes, code: str,
                                                   message: str) -> None:
    (bare_site / "content" / "dumps" / name).write_bytes(data)
    before = snapshot(bare_site)
    result = run_import(bare_site)
    line = 3 if code == "E303" else 1
    assert errors(result) == [f"content/dumps/{name}:{line}: error[{code}]: {message}"]
    assert result.failed and result.skipped == [(f"content/dumps/{name}", message)]
    assert snapshot(bare_site) == before  # not even the good dumps: all or nothing
    assert not (bare_site / "content" / "papers").exists()


def test_bad_file_named_on_the_command_line(site: Path, tmp_path: Path) -> None:
    bad = tmp_path / "elsewhere.txt"
    bad.write_bytes(b"\x00\x01")
    before = snapshot(site)
    result = run_import(site, [bad, DUMPS / LISTING_A], captured=dt.date(2026, 4, 17))
    assert result.failed and [d.code for d in result.report.errors] == ["E302"]
    assert str(result.report.errors[0].location) == f"{bad.as_posix()}:1"
    assert snapshot(site) == before  # the manifest too: a failed import records no capture date


def test_truncated_dump(site: Path) -> None:
    data = (DUMPS / LISTING_B).read_bytes()
    cut = data.index(b"This paper presents a comprehensive comparison") + 300  # in the middle of an abstract
    dumps = site / "content" / "dumps"
    (dumps / "004_cut.txt").write_bytes(data[:cut])
    before = snapshot(site)
    result = run_import(site, [dumps / "004_cut.txt"], captured=dt.date(2026, 6, 1))
    (problem,) = result.report.errors
    assert problem.code == "E323" and problem.location.path == "content/dumps/004_cut.txt"
    assert data[:cut].split(b"\n")[problem.location.line - 1].startswith(b"Parallel Paradigms in Modern HPC")
    assert result.failed and result.new == [] and result.merged == []
    assert snapshot(site) == before  # no source record added to the papers before the cut either


def test_entry_the_parser_cannot_read(bare_site: Path) -> None:
    dump = bare_site / "content" / "dumps" / LISTING_A
    dump.write_text(dump.read_text(encoding="utf-8").replace(
        "Batch Speculative Decoding Done Right\n", "Batch Speculative Decoding\nDone Right\n"), encoding="utf-8")
    before = snapshot(bare_site)
    result = run_import(bare_site)
    assert errors(result) == [f"content/dumps/{LISTING_A}:245: error[E320]: expected a one-line paper title, "
                              "found 2 lines starting 'Batch Speculative Decoding'"]
    assert result.failed and result.new == []
    assert result.entries_per_file[2] == (f"content/dumps/{LISTING_A}", 48)
    assert snapshot(bare_site) == before


def test_unreadable_existing_entry_stops_the_import(site: Path) -> None:
    papers = site / "content" / "papers"
    (papers / VTC).unlink()
    (papers / "broken.md").write_text("---\ntitle: [unclosed\n---\n", encoding="utf-8")
    (papers / "latin1.md").write_bytes("---\ntitle: Café\n---\n".encode("latin-1"))
    before = snapshot(site)
    result = run_import(site)
    assert {d.location.path for d in result.report.errors} == {"content/papers/broken.md", "content/papers/latin1.md"}
    assert [d.code for d in sorted(result.report.errors, key=lambda d: d.location)] == ["E101", "E104"]
    assert result.failed and result.new == []
    assert snapshot(site) == before  # VTC may be in either file: importing it again could duplicate it


def test_unreadable_manifest_is_an_error_naming_it(site: Path) -> None:
    path = site / "content" / "dumps" / "manifest.yaml"
    for text in ("- a list\n", "captured: [2026-01-01]\n", "captured:\n  a.txt: soon\n", "captured: {\n"):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(SitegenError) as caught:
            run_import(site)
        assert [str(d.location).split(":")[0] for d in caught.value.diagnostics] == ["content/dumps/manifest.yaml"]


def test_unreadable_author_file_is_reported(site: Path) -> None:
    path = site / "content" / "authors" / "ahan-gupta.yaml"
    for data, code in ((b"- a list\n", "E103"), (b"name: [\n", "E101"), ("name: Ca\xe9\n".encode("latin-1"), "E104")):
        path.write_bytes(data)
        before = snapshot(site)
        result = run_import(site)
        assert [(d.location.path, d.code) for d in result.report.errors] == [("content/authors/ahan-gupta.yaml", code)]
        assert result.failed and snapshot(site) == before


# -- text is data -----------------------------------------------------------------------------

HOSTILE = """\
Daily Papers

Apr 1

../../../etc/passwd

An abstract that tries ../ paths and <img src=x onerror=alert(1)> tags, long enough.

<script>alert("x")</script> & 'quotes': "BERT: Pre-training" --- # not a comment

Another abstract with "double" and 'single' quotes, a colon: here, and a #hash; it is long as abstracts are.

/

A paper whose title is a single slash, with an abstract that is long enough to read.

論文のタイトル

日本語の要旨は、タイトルよりも長い文章で書かれています。これは要旨です。
"""


def test_hostile_titles_are_stored_as_data(bare_site: Path) -> None:
    dump = bare_site / "content" / "dumps" / "hostile.txt"
    dump.write_text(HOSTILE, encoding="utf-8")
    result = run_import(bare_site, [dump], captured=dt.date(2026, 4, 1))
    assert not result.failed and len(result.new) == 4
    papers = (bare_site / "content" / "papers").resolve()
    titles = {}
    for shown in result.new:
        path = (bare_site / shown).resolve()
        assert path.parent == papers and path.suffix == ".md"
        titles[meta(path)["title"]] = meta(path)["abstract"]
    assert titles.keys() == {"../../../etc/passwd", "<script>alert(\"x\")</script> & 'quotes': \"BERT: Pre-training\" "
                             "--- # not a comment", "/", "論文のタイトル"}
    assert "<img src=x onerror=alert(1)>" in titles["../../../etc/passwd"]
    assert sorted(p.name for p in papers.iterdir()) == sorted(Path(s).name for s in result.new)
    assert check(bare_site).items == []
    assert run_import(bare_site, [dump]).new == []


# -- line endings, BOM, final newline ------------------------------------------------------------


@pytest.mark.parametrize("variant", ["crlf", "bom", "no-final-newline", "all", "cr"])
def test_text_variants_give_the_same_result(bare_site: Path, variant: str) -> None:
    for path in (bare_site / "content" / "dumps").glob("0*.txt"):
        data = path.read_bytes()
        if variant in ("crlf", "all"):
            data = data.replace(b"\n", b"\r\n")
        if variant == "cr":
            data = data.replace(b"\n", b"\r")
        if variant in ("bom", "all"):
            data = b"\xef\xbb\xbf" + data
        data = data.rstrip(b"\r\n") if variant in ("no-final-newline", "all") else data + b"\n"
        path.write_bytes(data)
    result = run_import(bare_site)
    assert not result.failed and result.report.items == []
    assert_committed(imported(bare_site))


# -- capture dates ----------------------------------------------------------------------------


def test_captured_option_is_recorded_and_used(bare_site: Path, tmp_path: Path) -> None:
    renamed = tmp_path / "statesmix-listing.txt"
    shutil.copy(DUMPS / LISTING_B, renamed)
    result = run_import(bare_site, [renamed], captured=dt.date(2026, 4, 1))
    assert not result.failed and len(result.new) == 56
    dumps = bare_site / "content" / "dumps"
    recorded = manifest.load(dumps, "manifest.yaml")
    assert recorded["statesmix-listing.txt"] == dt.date(2026, 4, 1)
    assert recorded[PROFILE_A] == dt.date(2026, 5, 19)  # the others are kept
    text = (dumps / "manifest.yaml").read_text(encoding="utf-8")
    assert text.startswith("# When each dump") and "  statesmix-listing.txt: 2026-04-01\n" in text
    statesmix = meta(bare_site / "content/papers/statesmix-online-lossless-compression-via-mamba-state-space.md")
    assert statesmix["date"] == dt.date(2025, 4, 4)  # 'Apr 4' after the capture: the year before
    assert statesmix["added"] == dt.date(2026, 4, 1)
    assert statesmix["sources"][0]["captured"] == dt.date(2026, 4, 1)


def test_manifest_date_is_used_without_the_option(bare_site: Path) -> None:
    manifest_path = bare_site / "content" / "dumps" / "manifest.yaml"
    manifest_path.write_text(manifest_path.read_text().replace(f"{LISTING_B}: 2026-05-19", f"{LISTING_B}: 2026-04-01"))
    run_import(bare_site)
    statesmix = meta(bare_site / "content/papers/statesmix-online-lossless-compression-via-mamba-state-space.md")
    assert statesmix["date"] == dt.date(2025, 4, 4)


def test_unknown_file_uses_its_modification_date(bare_site: Path) -> None:
    path = bare_site / "content" / "dumps" / "005_new.txt"
    path.write_bytes((DUMPS / PROFILE_A).read_bytes().replace(b"Ahan Gupta\n", b"New Person\n", 1))
    stamp = dt.datetime(2026, 3, 1, 12, 0).timestamp()
    os.utime(path, (stamp, stamp))
    result = run_import(bare_site)
    assert not result.failed
    (warning,) = result.report.items
    assert (warning.severity, warning.code, str(warning.location)) == ("warning", "W331", "content/dumps/005_new.txt:1")
    assert "2026-03-01" in warning.message
    state = json.loads((bare_site / "content" / "import-state.json").read_text())
    assert "author:new person" in state


def test_a_rewrite_keeps_the_curators_comments(site: Path) -> None:
    """Comments are hand edits: a re-import that rewrites the front matter puts each back before its field."""
    path = site / "content" / "papers" / SPLAT
    text = path.read_text(encoding="utf-8")
    original = meta(path)
    lines = text.split("\n")
    authors = lines.index("authors:")
    lines[authors + 1] += "  # the first author, check the spelling"
    lines.insert(authors, "# authors as on the paper, not the listing")
    lines.insert(1, "# came from the Daily Papers listing")
    commented = "\n".join(lines).replace("\ncategory: cs.PL\n", "\n# category: ask the authors\n", 1)
    path.write_text(commented, encoding="utf-8")  # the deleted category makes the import rewrite the file
    assert not run_import(site).failed
    rewritten = path.read_text(encoding="utf-8")
    for comment in ("# came from the Daily Papers listing", "# authors as on the paper, not the listing",
                    "# the first author, check the spelling", "# category: ask the authors"):
        assert comment in rewritten
    assert "\ncategory: cs.PL\n" in rewritten and meta(path) == original
    before_authors = rewritten.split("\nauthors:\n")[0].split("\n")
    assert before_authors[-2:] == ["# authors as on the paper, not the listing",
                                   "# the first author, check the spelling"]
    assert rewritten.split("\n---\n", 1)[1] == text.split("\n---\n", 1)[1]  # the body, byte for byte
    assert not run_import(site).failed and path.read_text(encoding="utf-8") == rewritten  # and it stays


def test_an_unchanged_author_file_keeps_its_comments_and_layout(site: Path) -> None:
    path = site / "content" / "authors" / "ahan-gupta.yaml"
    text = "# checked by hand\n" + path.read_text(encoding="utf-8").replace("h_index: 12", "h_index: 12  # 2026")
    path.write_text(text, encoding="utf-8")
    for update in (False, True):
        assert not run_import(site, update=update).failed
        assert path.read_text(encoding="utf-8") == text
