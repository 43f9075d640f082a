"""The synthetic corpus with links is the plain one plus arXiv ids, citations and mentions, and they resolve."""

from __future__ import annotations

import re
from pathlib import Path

from benchmarks.generate import generate
from sitegen.common.errors import Report
from sitegen.content import config, frontmatter
from sitegen.content.loader import load_content
from sitegen.model import model


def test_links_change_nothing_else_and_resolve_on_the_list(tmp_path: Path) -> None:
    plain, linked = generate(60, tmp_path / "plain"), generate(60, tmp_path / "linked", links=True)
    for path in sorted((plain / "content" / "papers").glob("*.md")):
        mine = frontmatter.parse(path.read_text(), path.name)
        other = (linked / "content" / "papers" / path.name).read_text()
        theirs = frontmatter.parse(other, path.name)
        assert {k: v for k, v in theirs.meta.items() if k not in ("arxiv", "cites")} == mine.meta
        assert re.sub(r"(?m)^Builds on \[\[[^\]]+\]\]\.$", "", theirs.body).strip() == mine.body.strip()
        assert 10 <= len(theirs.meta["cites"]) <= 40
    report = Report()
    content = load_content(linked, report)
    assert report.items == []  # every id is one, every mention names a paper
    site = model.build_site(config.load(linked), content)
    assert sum(len(c.cites) for c in site.citations.values()) > 60
    assert sum(len(m.into) for m in site.mentions.values()) >= 1
