"""The real `sitegen import` and `sitegen check` commands: exit codes and exact `path:line: error[CODE]` lines."""

from __future__ import annotations

import datetime as dt
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sitegen.cli import main
from sitegen.content.schema import ENTRY_FIELDS

from .ingest.importers.conftest import hand_edits_aside
from .ingest.importers.test_bad_input import STAGE_LINE

REPO = Path(__file__).resolve().parents[1]
DUMPS = REPO / "content" / "dumps"
LISTING_B = "003_bb22b9fa9b819595.txt"


def sitegen(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def problems(result: Result) -> list[str]:
    """What an import said on stderr but the line each named stage ends with."""
    return [line for line in result.stderr.splitlines() if not STAGE_LINE.fullmatch(line)]


def copy_site(dest: Path, with_entries: bool = True) -> Path:
    dest.mkdir()
    shutil.copy2(REPO / "site.yaml", dest / "site.yaml")
    shutil.copytree(REPO / "content", dest / "content")
    if not with_entries:
        shutil.rmtree(dest / "content" / "papers")
        shutil.rmtree(dest / "content" / "authors")
        (dest / "content" / "import-state.json").unlink()
    return dest


def new_site(root: Path) -> Path:
    """An empty site: a one-line site.yaml and an empty content/papers/, which is returned."""
    (root / "site.yaml").write_text("title: Test list\n", encoding="utf-8")
    (root / "content" / "papers").mkdir(parents=True)
    return root / "content" / "papers"


def tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def bare(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "site", with_entries=False)


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "site")


@pytest.mark.parametrize("command", [["import"], ["check"], []])
def test_help(command: list[str]) -> None:
    result = sitegen(*command, "--help")
    assert result.exit_code == 0 and "Usage:" in result.output
    if command:
        assert "--root" in result.output


# -- import -------------------------------------------------------------------------------------


def test_import_reproduces_the_committed_content(bare: Path) -> None:
    result = sitegen("import", "--root", str(bare))
    assert result.exit_code == 0, result.output
    # not on a terminal: a plain line as each named stage ends, and nothing else
    assert [line.split(":")[0] for line in result.stderr.splitlines()] == ["read", "merge", "write"], result.stderr
    assert "106 new, 0 merged, 0 unchanged, 0 skipped; 2 author profile(s)" in result.stdout
    for name, count in (("000_5ba3278e7bf0573b.txt", 6), ("001_1c5307dff05a53f9.txt", 4),
                        ("002_fadf736e7f95309e.txt", 49), (LISTING_B, 56)):
        assert any(line.split() == [f"content/dumps/{name}", "│", str(count)] for line in result.stdout.splitlines())
    ours, theirs = hand_edits_aside(tree(bare / "content" / "papers"), tree(REPO / "content" / "papers"))
    assert ours == theirs
    assert tree(bare / "content" / "authors") == tree(REPO / "content" / "authors")
    assert (bare / "content/import-state.json").read_bytes() == (REPO / "content/import-state.json").read_bytes()

    before = tree(bare)
    again = sitegen("import", "--root", str(bare))
    assert again.exit_code == 0 and "0 new, 0 merged, 106 unchanged, 0 skipped" in again.stdout
    assert tree(bare) == before

    check = sitegen("check", "--root", str(bare))
    assert check.exit_code == 0 and check.stderr == ""
    assert check.stdout.strip() == "ok: 106 entries, 2 author profiles"


def test_committed_site_passes_check() -> None:
    result = sitegen("check", "--root", str(REPO))
    assert result.exit_code == 0 and result.stdout.strip() == "ok: 106 entries, 2 author profiles"


def test_console_script(tmp_path: Path) -> None:
    exe = shutil.which("sitegen")
    assert exe, "the sitegen console script is installed by `pip install -e .`"
    ok = subprocess.run([exe, "check", "--root", str(REPO)], capture_output=True, text=True, timeout=60, check=False)
    assert ok.returncode == 0 and "ok: 106 entries" in ok.stdout
    new_site(tmp_path)
    (tmp_path / "content" / "papers" / "x.md").write_text("---\ntitle: BERT: Pre-training\n---\n")
    bad = subprocess.run([exe, "check", "--root", str(tmp_path)], capture_output=True, text=True, timeout=60,
                         check=False)
    assert bad.returncode == 1
    assert bad.stderr.splitlines()[0] == (
        "content/papers/x.md:2:12: error[E101]: invalid YAML: mapping values are not allowed in this context")


@pytest.mark.parametrize(("name", "data", "expected"), [
    ("empty.txt", b"", "content/dumps/empty.txt:1: error[E301]: the file is empty"),
    ("binary.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "content/dumps/binary.txt:1: error[E302]: this is a binary "
                                                              "file, not a text dump"),
    ("other.txt", b"Reading list\n\nSome paper\n", "content/dumps/other.txt:1: error[E300]: not a known dump format"),
])
def test_import_bad_file(site: Path, name: str, data: bytes, expected: str) -> None:
    (site / "content" / "dumps" / name).write_bytes(data)
    papers = tree(site / "content" / "papers")
    result = sitegen("import", "--root", str(site), "--captured", "2026-05-20", str(site / "content/dumps" / name))
    assert result.exit_code == 1
    assert problems(result)[0] == expected
    assert problems(result)[1].startswith("  hint: ")
    message = expected.split(": ", 2)[-1]
    assert f"skipped content/dumps/{name}: {message}" in result.stdout
    assert tree(site / "content" / "papers") == papers


LISTING = """\
Daily Papers

Mar 2

A Readable Paper

Its abstract, which is long enough to be read as the abstract of this paper.

  • 3 authors
·
Feb 27 5

An Unreadable
Paper Title

Its abstract, also long enough to be read as the abstract of that paper.
"""


def test_import_entry_the_parser_cannot_read(site: Path) -> None:
    dump = site / "content" / "dumps" / "004_listing.txt"
    dump.write_text(LISTING, encoding="utf-8")
    result = sitegen("import", "--root", str(site), "--captured", "2026-03-02", str(dump))
    assert result.exit_code == 1
    assert problems(result)[0] == ("content/dumps/004_listing.txt:13: error[E320]: expected a one-line paper "
                                             "title, found 2 lines starting 'An Unreadable'")
    assert "0 new, 0 merged, 0 unchanged, 1 skipped" in result.stdout
    assert "skipped content/dumps/004_listing.txt:13: expected a one-line paper title" in result.stdout
    assert "import failed: 1 error(s); nothing under content/ was changed" in result.stderr
    assert not (site / "content" / "papers" / "a-readable-paper.md").exists()  # all or nothing
    assert not list((site / "content" / "papers").glob("*unreadable*"))


def test_import_with_bad_and_good_files_imports_nothing(bare: Path) -> None:
    dumps = bare / "content" / "dumps"
    (dumps / "004_empty.txt").write_bytes(b"")
    data = (DUMPS / LISTING_B).read_bytes()
    cut = data.index(b"While most autoregressive LLMs are constrained") + 200  # inside ParallelBench's abstract
    (dumps / LISTING_B).write_bytes(data[:cut])
    before = tree(bare / "content")
    result = sitegen("import", "--root", str(bare))
    assert result.exit_code == 1
    diagnostics = [line for line in problems(result) if not line.startswith(("  hint: ", "import failed"))]
    assert diagnostics == [
        f"content/dumps/{LISTING_B}:257: error[E323]: the dump ends in the middle of the abstract of "
        "'ParallelBench: Understanding the Trade-offs of Parallel D…'",
        "content/dumps/004_empty.txt:1: error[E301]: the file is empty",
        "content/dumps/004_empty.txt:1: warning[W331]: no capture date recorded; using the file's modification "
        f"date {dt.date.fromtimestamp((dumps / '004_empty.txt').stat().st_mtime)}",
    ]
    assert "skipped content/dumps/004_empty.txt: the file is empty" in result.stdout
    assert f"content/dumps/{LISTING_B}:257" in result.stdout
    assert "nothing under content/ was changed" in result.stderr
    assert tree(bare / "content") == before  # all or nothing: the good dumps wait for the bad one's fix
    assert sitegen("check", "--root", str(bare)).exit_code == 0


def test_captured_records_the_date_in_the_manifest(bare: Path, tmp_path: Path) -> None:
    dump = tmp_path / "fresh-listing.txt"
    shutil.copy(DUMPS / LISTING_B, dump)
    result = sitegen("import", "--root", str(bare), "--captured", "2026-04-01", str(dump))
    assert result.exit_code == 0, result.output
    manifest = (bare / "content" / "dumps" / "manifest.yaml").read_text()
    assert "  fresh-listing.txt: 2026-04-01\n" in manifest and "  000_5ba3278e7bf0573b.txt: 2026-05-19\n" in manifest
    entry = (bare / "content/papers/statesmix-online-lossless-compression-via-mamba-state-space.md").read_text()
    assert "\ndate: 2025-04-04\n" in entry and "\nadded: 2026-04-01\n" in entry


@pytest.mark.parametrize(("args", "message"), [
    (["--captured", "2026-04-01"], "--captured needs the dump files it applies to"),
    (["--captured", "April 1", "x"], "expected YYYY-MM-DD"),
    (["no-such-file.txt"], "does not exist"),
])
def test_import_usage_errors(site: Path, args: list[str], message: str) -> None:
    result = sitegen("import", "--root", str(site), *args)
    assert result.exit_code == 2 and message in result.output


def test_update_keeps_edits_through_the_cli(site: Path) -> None:
    papers = site / "content" / "papers"
    old = papers / "vtc-dnn-compilation-with-virtual-tensors-for-data-movement.md"
    text = old.read_text().replace("title: 'VTC: DNN", "title: 'My VTC: DNN", 1).replace("- compilers\n", "", 1)
    (papers / "my-vtc.md").write_text(text + "\nMy notes.\n")
    old.unlink()
    for args in ([], ["--update"]):
        result = sitegen("import", "--root", str(site), *args)
        assert result.exit_code == 0 and "0 new, 0 merged, 106 unchanged" in result.stdout
    assert (papers / "my-vtc.md").read_text() == text + "\nMy notes.\n"
    assert not old.exists()


# -- check --------------------------------------------------------------------------------------

BROKEN = {
    "a-syntax.md": "---\ntitle: 'unclosed\ntags: [a]\n---\n",
    "b-missing-title.md": "---\nauthors: [A]\n---\n",
    "c-bad-date.md": "---\ntitle: T\ndate: 2025-13-45\n---\n",
    "d-wrong-type.md": "---\ntitle: T\nauthors: Alice\nrating: five\n---\n",
    "f-duplicate.md": "---\ntitle: T\ndate: 2025-01-01\ntitle: U\n---\n",
    "g-arxiv.md": "---\ntitle: T\narxiv: 2101.000101\n---\n",  # more digits than an id has: no id
    "h-colon.md": "---\ntitle: BERT: Pre-training of Deep Bidirectional Transformers\n---\n",
    "i-link.md": "---\ntitle: T\nlinks:\n  code: javascript:alert(1)\n---\n",
}

EXPECTED = """\
content/authors/bad.yaml:2: error[E203]: 'h_index': expected a whole number, found text
  hint: write digits only, e.g. 3
content/papers/a-syntax.md:2:8: error[E101]: invalid YAML: a quoted value opened here is not closed \
(found unexpected end of stream)
  hint: close it on this line, or quote the whole value
content/papers/b-missing-title.md:1: error[E200]: missing required field 'title'
  hint: add a line 'title: …' to the front matter
content/papers/c-bad-date.md:3: error[E203]: 'date': invalid date '2025-13-45'
  hint: write YYYY-MM-DD, or YYYY-MM or YYYY when only the month or year is known, e.g. 2025-02-04 or 2025
content/papers/d-wrong-type.md:3: error[E203]: 'authors': expected a list, found the text 'Alice'
  hint: write one item per line starting with '- ', or [a, b]
content/papers/d-wrong-type.md:4: error[E203]: 'rating': expected a whole number, found text
  hint: write digits only, e.g. 3
content/papers/f-duplicate.md:4: error[E102]: found duplicate key 'title'
  hint: each key may appear once; remove or merge the repeated one
content/papers/g-arxiv.md:3: error[E203]: 'arxiv': arXiv id 2101.000101 was read as a number
  hint: quote it so YAML keeps it as text: '2101.00010'
content/papers/h-colon.md:2:12: error[E101]: invalid YAML: mapping values are not allowed in this context
  hint: a value containing ': ' must be quoted, e.g. title: 'BERT: Pre-training …'
content/papers/i-link.md:4: error[E203]: 'links': link 'code': not an http(s) URL: 'javascript:alert(1)'
  hint: links must start with https:// or http://
10 error(s) in content/
"""


def test_check_reports_every_problem_of_every_file(site: Path) -> None:
    for name, text in BROKEN.items():
        (site / "content" / "papers" / name).write_text(text, encoding="utf-8")
    (site / "content" / "authors" / "bad.yaml").write_text("name: X\nh_index: lots\n", encoding="utf-8")
    result = sitegen("check", "--root", str(site))
    assert result.exit_code == 1
    assert result.stderr == EXPECTED
    assert result.stdout == ""


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_check_each_problem_alone(tmp_path: Path, name: str) -> None:
    new_site(tmp_path)
    (tmp_path / "content" / "papers" / name).write_text(BROKEN[name], encoding="utf-8")
    result = sitegen("check", "--root", str(tmp_path))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"content/papers/{name}:") and "error[E" in lines[0]
    assert lines[1].startswith("  hint: ") and len(lines[1]) > len("  hint: ")


def test_an_unknown_field_is_a_warning_and_an_error_under_strict(tmp_path: Path) -> None:
    """An Obsidian vault's own keys (or a typo) do not stop `check` or `build`; `check --strict` refuses them."""
    papers = new_site(tmp_path)
    (papers / "x.md").write_text("---\ntitle: T\ntagz: [a]\ncssclasses: [wide]\n---\n", encoding="utf-8")
    said = sitegen("check", "--root", str(tmp_path))
    assert said.exit_code == 0 and said.stdout.strip() == "ok: 1 entries, 0 author profiles"
    assert said.stderr.splitlines() == [
        "content/papers/x.md:3: warning[W201]: unknown field 'tagz'",
        "  hint: did you mean 'tags'? (sitegen ignores it and keeps it as written; fields of your own go under "
        "'extra:')",
        "content/papers/x.md:4: warning[W201]: unknown field 'cssclasses'",
        "  hint: known fields: " + ", ".join(ENTRY_FIELDS) + " (sitegen ignores it and keeps it as written; "
        "fields of your own go under 'extra:')",
    ]
    strict = sitegen("check", "--strict", "--root", str(tmp_path))
    assert strict.exit_code == 1 and strict.stdout == ""
    assert strict.stderr.splitlines()[-1] == "2 warning(s), and --strict fails on warnings"
    assert sitegen("build", "--root", str(tmp_path), "--no-search").exit_code == 0


def test_check_accepts_crlf_and_bom_entries(tmp_path: Path) -> None:
    papers = new_site(tmp_path)
    (papers / "x.md").write_bytes(b"\xef\xbb\xbf---\r\ntitle: T\r\ndate: 2025-01-01\r\n---\r\nNotes")
    result = sitegen("check", "--root", str(tmp_path))
    assert result.exit_code == 0 and result.stdout.strip() == "ok: 1 entries, 0 author profiles"


def test_check_line_numbers_after_a_bom_and_crlf(tmp_path: Path) -> None:
    papers = new_site(tmp_path)
    (papers / "x.md").write_bytes(b"\xef\xbb\xbf---\r\ntitle: T\r\n\r\ndate: soon\r\n---\r\n")
    result = sitegen("check", "--root", str(tmp_path))
    assert result.stderr.splitlines()[0] == "content/papers/x.md:4: error[E203]: 'date': invalid date 'soon'"


def test_check_names_a_non_utf8_entry(tmp_path: Path) -> None:
    papers = new_site(tmp_path)
    (papers / "x.md").write_bytes("---\ntitle: Café\n---\n".encode("latin-1"))
    result = sitegen("check", "--root", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == "content/papers/x.md:1: error[E104]: the file is not valid UTF-8 text"


# -- check: people -------------------------------------------------------------------------------

PEOPLE = {
    "a.md": "---\ntitle: A\nauthors:\n- Ahan Gupta\n- Bo Li\n- Cy Ng\n---\n",
    "b.md": "---\ntitle: B\nauthors:\n- Di Wu\n- A. Gupta\n- Bo Li\n---\n",
    "c.md": "---\ntitle: C\nauthors: [Cy Ng, Jonathon Smyth, Ahan K. Gupta]\n---\n",
    "d.md": "---\ntitle: D\nauthors: [Cy Ng, Jonathan Smyth]\n---\n",
    "e.md": "---\ntitle: E\nauthors: [Di Wu, Jonathan Smith, Bo Li]\n---\n",
    "f.md": "---\ntitle: F\nauthors: [Jonathan Smith, Jonathon Smith, Cy Ng]\n---\n",  # one paper: two people
}
WARNINGS = """\
content/papers/b.md:5: warning[W434]: 'A. Gupta' may be 'Ahan Gupta' (content/authors/ahan-gupta.yaml:1): \
initials match, 1 shared co-author (Bo Li)
  hint: if they are one person, add 'A. Gupta' to aliases: in content/authors/ahan-gupta.yaml
content/papers/c.md:3: warning[W434]: 'Ahan K. Gupta' may be 'Ahan Gupta' (content/authors/ahan-gupta.yaml:1): \
a middle name left out, 1 shared co-author (Cy Ng)
  hint: if they are one person, add 'Ahan K. Gupta' to aliases: in content/authors/ahan-gupta.yaml
content/papers/c.md:3: warning[W434]: 'Jonathon Smyth' may be 'Jonathan Smyth' (content/papers/d.md:3): \
nearly the same name, 1 shared co-author (Cy Ng)
  hint: if they are one person, write content/authors/jonathan-smyth.yaml with name: 'Jonathan Smyth' and \
aliases: ['Jonathon Smyth']
"""


def test_check_lists_names_that_may_be_one_person_as_warnings(tmp_path: Path) -> None:
    papers = new_site(tmp_path)
    for name, text in PEOPLE.items():
        (papers / name).write_text(text, encoding="utf-8")
    (tmp_path / "content" / "authors").mkdir()
    (tmp_path / "content" / "authors" / "ahan-gupta.yaml").write_text("name: Ahan Gupta\nh_index: 3\n")
    result = sitegen("check", "--root", str(tmp_path))
    assert result.stderr == WARNINGS
    assert result.exit_code == 0 and result.stdout == "ok: 6 entries, 1 author profiles\n"
    # Once the file says so, they are one person: nothing left to suggest about them
    (tmp_path / "content" / "authors" / "ahan-gupta.yaml").write_text(
        "name: Ahan Gupta\naliases: [A. Gupta, Ahan K. Gupta]\n")
    result = sitegen("check", "--root", str(tmp_path))
    assert result.exit_code == 0 and "Gupta" not in result.stderr and "'Jonathon Smyth' may be" in result.stderr


def test_check_refuses_a_name_two_author_files_give(tmp_path: Path) -> None:
    papers = new_site(tmp_path)
    (papers / "a.md").write_text(PEOPLE["a.md"], encoding="utf-8")
    (tmp_path / "content" / "authors").mkdir()
    (tmp_path / "content" / "authors" / "ahan-gupta.yaml").write_text("name: Ahan Gupta\naliases: [A. Gupta]\n")
    (tmp_path / "content" / "authors" / "amit-gupta.yaml").write_text("name: Amit Gupta\naliases:\n- A. Gupta\n")
    result = sitegen("check", "--root", str(tmp_path))
    assert result.exit_code == 1
    assert result.stderr == (
        "content/authors/amit-gupta.yaml:3: error[E430]: 'A. Gupta' is also an alias of 'Ahan Gupta' in "
        "content/authors/ahan-gupta.yaml: a paper naming it would be two people's\n"
        "  hint: if 'Amit Gupta' and 'Ahan Gupta' are one person, keep one file and list the other name in its "
        "aliases; if not, remove the name from one file\n1 error(s) in content/\n")
