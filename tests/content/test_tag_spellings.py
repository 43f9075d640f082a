"""Tags that differ only in case or spacing are one tag, and `check` names the variant spellings."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from sitegen.cli import main
from sitegen.common.errors import Report
from sitegen.content.loader import entry_from_text
from sitegen.pipeline.build import build

from ..site_factory import copy_site


def test_an_entrys_tags_are_compared_without_case_or_spacing() -> None:
    report = Report()
    entry = entry_from_text("---\ntitle: T\ntags: [KV Cache, kv-cache, Speculative_Decoding, cs.LG]\n---\n",
                            "content/papers/t.md", "t", report)
    assert entry is not None and entry.tags == ("kv-cache", "speculative-decoding")
    assert [(d.location.line, d.code, d.message) for d in report.items] == [
        (3, "W343", "tag 'KV Cache' is the tag 'kv-cache': tags ignore case and spacing"),
        (3, "W343", "tag 'Speculative_Decoding' is the tag 'speculative-decoding': tags ignore case and spacing"),
    ]


def test_two_spellings_make_one_tag_page_and_check_names_each(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    first, second = sorted((root / "content" / "papers").glob("*.md"))[:2]
    for path, spelling in ((first, "KV Cache"), (second, "kv-cache")):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("\ntags:", f"\ntags:\n- {spelling}", 1), encoding="utf-8")
    build(root, search=False)
    tags = sorted(p.name for p in (root / "public" / "tags").iterdir() if p.is_dir())
    assert "kv-cache" in tags and not [t for t in tags if t.startswith("kv-cache-")]
    page = (root / "public" / "tags" / "kv-cache" / "index.html").read_text(encoding="utf-8")
    assert all(f"/papers/{p.stem}/" in page for p in (first, second))
    said = CliRunner().invoke(main, ["check", "--root", str(root)])
    assert said.exit_code == 0
    assert f"content/papers/{first.name}:" in said.stderr and "tag 'KV Cache' is the tag 'kv-cache'" in said.stderr
    assert f"content/papers/{second.name}" not in said.stderr
