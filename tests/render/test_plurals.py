"""No page says "1 papers", "1 authors" or "1 topics": a site of one paper, one author, one tag, one category."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitegen.pipeline.build import build
from sitegen.render.words import counted

# A count of one before a plural noun, in the page's words (its text, its meta description)
ONE_PLURAL = re.compile(r"\b1 (?:papers|authors|topics|arXiv categories|categories|tags)\b")
SITE = """title: One
base_url: https://example.org/one/
tags:
  agents: [agent]
"""
PAPER = """---
title: An Agent
authors: [Ada Lovelace]
date: 2024-02-03
added: 2024-02-04
tags: [agents]
category: cs.AI
---
"""
UNNAMED = """---
title: Seen on a listing
authors: []
author_count: 1
date: 2024-01-01
---
"""


@pytest.fixture(scope="module")
def one(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("one")
    (root / "site.yaml").write_text(SITE, encoding="utf-8")
    (root / "content" / "papers").mkdir(parents=True)
    (root / "content" / "papers" / "an-agent.md").write_text(PAPER, encoding="utf-8")
    output = root / "public"
    build(root, output, search=False)
    return output


@pytest.mark.parametrize("page", ["index.html", "authors/index.html", "tags/index.html", "timeline/index.html",
                                  "timeline/2024/index.html", "tags/agents/index.html",
                                  "authors/ada-lovelace/index.html"])
def test_a_count_of_one_takes_the_singular(one: Path, page: str) -> None:
    text = (one / page).read_text(encoding="utf-8")
    assert ONE_PLURAL.findall(text) == []
    assert re.search(r"\b1 (?:paper|author|topic|arXiv category)\b", text), page


def test_one_unnamed_author_is_noted_in_the_singular(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text(SITE, encoding="utf-8")
    (tmp_path / "content" / "papers").mkdir(parents=True)
    (tmp_path / "content" / "papers" / "listing.md").write_text(UNNAMED, encoding="utf-8")
    build(tmp_path, tmp_path / "public", search=False)
    for name in ("papers/listing/cite.bib", "papers/listing/cite.ris", "papers/listing/cite.json",
                 "papers/listing/index.html", "index.html"):
        text = (tmp_path / "public" / name).read_text(encoding="utf-8")
        assert "1 authors" not in text and "1 author" in text, name


@pytest.mark.parametrize(("count", "words"), [(0, "0 papers"), (1, "1 paper"), (2, "2 papers")])
def test_counted(count: int, words: str) -> None:
    assert counted(count, "paper") == words
    assert counted(count, "category", "categories") == words.replace("papers", "categories").replace(
        "paper", "category")
