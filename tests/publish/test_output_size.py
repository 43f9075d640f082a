"""What a build says it published: the files and bytes on disk, and a warning past a host's limit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sitegen.pipeline.build import build
from sitegen.publish import output_size
from sitegen.publish.output_size import OutputSize, heaviest, human, kind_of, measured

from ..site_factory import copy_site


def _on_disk(folder: Path) -> tuple[int, int]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


@pytest.mark.parametrize("search", [False, True])
def test_every_build_counts_the_files_and_bytes_on_disk(tmp_path: Path, search: bool) -> None:
    root = copy_site(tmp_path / "site", papers=10)
    public = root / "public"
    first = build(root, public, search=search)
    assert first.size is not None and (first.size.files, first.size.bytes) == _on_disk(public)
    entry = sorted((root / "content" / "papers").glob("*.md"))[3]
    entry.write_text(entry.read_text(encoding="utf-8") + "\nA longer note, in place.\n", encoding="utf-8")
    edited = build(root, public, search=search)  # an update in place: sizes from the memo's table
    assert edited.written and edited.size is not None
    assert (edited.size.files, edited.size.bytes) == _on_disk(public)
    again = build(root, public, search=search)  # nothing written, the search index left alone
    assert again.written == 0 and again.size == edited.size
    thrown = build(root, tmp_path / "thrown", search=search, use_cache=False)
    assert thrown.size is not None and (thrown.size.files, thrown.size.bytes) == _on_disk(tmp_path / "thrown")


def test_the_build_command_says_the_size_and_warns_past_a_host_limit(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_site(tmp_path / "site", papers=10)
    program = [sys.executable, "-c", "import sys; sys.argv[0] = 'sitegen'; from sitegen.cli import run; run()",
               "build", "--root", str(root), "--no-search"]
    done = subprocess.run(program, capture_output=True, text=True, timeout=120)
    files, size = _on_disk(root / "public")
    assert done.returncode == 0 and f"the site: {files:,} files, {human(size)}" in done.stdout
    assert "warning" not in done.stderr
    # the same site against a host that takes 100 files: a warning, and the build still succeeds
    small = output_size.HostLimit("Tiny Pages", "at most 100 files a site", most_files=100, hint="see docs")
    monkeypatch.setattr(output_size, "HOST_LIMITS", (small,))
    result = build(root, root / "public", search=False)
    assert result.size is not None and result.size.heaviest
    (warning,) = [w for w in result.warnings.items if w.code == "W801"]
    text = warning.format()
    assert text.startswith("public/: warning[W801]: the site is ") and "past Tiny Pages's limit" in text
    assert "(heaviest: " in text and "papers/*/index.html: 10 files, " in text
    assert "hint: see docs" in text


def test_past_github_pages_gigabyte_the_heaviest_kinds_are_named() -> None:
    sizes = {f"authors/a{n}/papers.bib": (60_000,) for n in range(10_000)}
    sizes |= {f"papers/p{n}/index.html": (18_000,) for n in range(10_000)}
    sizes["index.html"] = (30_000,)
    size = measured(sizes)
    assert size.files == 20_001 and size.bytes == 780_030_000
    assert size.heaviest == () and output_size.warnings(size, "public/") == []  # 20,001 files: no GitHub limit
    bigger = measured(sizes, more_files=0, more_bytes=300_000_000)
    assert bigger.heaviest == (("authors/*/papers.bib", 10_000, 600_000_000),
                               ("papers/*/index.html", 10_000, 180_000_000), ("index.html", 1, 30_000))
    (warning,) = output_size.warnings(bigger, "public/")
    assert "past GitHub Pages's limit of a published site of at most 1 GB" in warning.message
    assert "the site is 20,001 files, 1.08 GB" in warning.message
    assert "(heaviest: authors/*/papers.bib: 10,000 files, 600 MB; " in warning.message


def test_kinds_and_amounts_read_as_people_read_them() -> None:
    assert kind_of("tags/agents/feed.xml") == "tags/*/feed.xml" and kind_of("static/style.css") == "static/style.css"
    assert kind_of("page/3/index.html") == "page/*/index.html" and kind_of("sitemap-2.xml") == "sitemap-2.xml"
    assert [human(n) for n in (0, 999, 1_000, 950_000, 123_456_789, 1_750_000_000)] == [
        "0 B", "999 B", "1 KB", "950 KB", "123 MB", "1.75 GB"]
    assert heaviest({"a": (1,), "b": (1,)}, most=1) == (("a", 1, 1),)
    assert OutputSize(3, 1_500).said() == "3 files, 1.5 KB"
