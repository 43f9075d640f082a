"""`extra:` and other tools' fields: passed to templates as data, kept byte for byte by every rewrite."""

from __future__ import annotations

from pathlib import Path

from sitegen.content.frontmatter import parse
from sitegen.content.rewrite import rewritten
from sitegen.pipeline.build import build

from ..site_factory import copy_site

OBSIDIAN = """\
# Obsidian's own
aliases: [Attention paper]   # how the vault finds it
cssclasses:
  - wide
extra:
  slides: https://example.org/slides.pdf
  reviewed_by: "<b>Ada</b>"
"""


def test_a_template_reads_extra_as_data(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    entry = sorted((root / "content" / "papers").glob("*.md"))[0]
    text = entry.read_text(encoding="utf-8")
    entry.write_text(text.replace("---\n", "---\n" + OBSIDIAN, 1) if text.startswith("---\n") else text,
                     encoding="utf-8")
    theme = root / "themes" / "mine" / "templates"
    theme.mkdir(parents=True)
    # undefined names are errors in templates: a field only some entries have is read with .get
    (theme / "paper.html").write_text(
        '<p id="slides">{{ extra.get("slides") }}</p><p id="by">{{ extra.get("reviewed_by") }}</p>'
        '<p id="same">{{ paper.entry.extra.get("slides") }}</p>\n', encoding="utf-8")
    config = root / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("\ntheme: default", "\ntheme: mine"), encoding="utf-8")
    result = build(root, search=False)
    assert [d.code for d in result.warnings.items if entry.name in d.location.path] == ["W201", "W201"]
    page = (root / "public" / "papers" / entry.stem / "index.html").read_text(encoding="utf-8")
    assert '<p id="slides">https://example.org/slides.pdf</p>' in page
    assert '<p id="by">&lt;b&gt;Ada&lt;/b&gt;</p>' in page  # the curator's text is data, never markup
    assert '<p id="same">https://example.org/slides.pdf</p>' in page


def test_a_rewrite_keeps_other_tools_fields_and_extra_byte_for_byte() -> None:
    text = "---\ntitle: Old title\n" + OBSIDIAN + "tags: [a]\n---\nMy notes.\n"
    meta = dict(parse(text, "x.md").meta)
    meta["title"], meta["arxiv"], meta["tags"] = "New title", "1706.03762", ["a", "b"]
    out = rewritten(text, meta)
    assert OBSIDIAN in out  # every line, comment and quote as written
    assert out.endswith("---\nMy notes.\n")
    again = parse(out, "x.md").meta
    assert again["title"] == "New title" and again["arxiv"] == "1706.03762" and again["tags"] == ["a", "b"]
    assert again["extra"] == {"slides": "https://example.org/slides.pdf", "reviewed_by": "<b>Ada</b>"}
