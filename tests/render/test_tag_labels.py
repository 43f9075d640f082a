"""A tag's page shows its label, its description and the keywords that put papers there (site.yaml's tags)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.pipeline.build import build

from ..html_tools import main_of, meta_values, parse_html, read_html, text_of

SITE = """title: Labels
base_url: https://example.org/labels/
tags:
  agents:
    label: AI agents
    description: Models that plan, call tools & act.
    keywords: [agent, function calling]
  kv-cache: [kv cache]
"""


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("labels")
    (root / "site.yaml").write_text(SITE, encoding="utf-8")
    papers = root / "content" / "papers"
    papers.mkdir(parents=True)
    (papers / "a.md").write_text("---\ntitle: A\ndate: 2024-01-02\ntags: [agents, kv-cache, by-hand]\n---\n",
                                 encoding="utf-8")
    build(root, root / "public", search=False)
    return root / "public"


def test_a_labelled_tag_is_headed_by_its_label_and_described(out: Path) -> None:
    doc = read_html(out / "tags/agents/index.html")
    main = main_of(doc)
    h1 = main.find("h1")
    assert h1 is not None and text_of(h1) == "AI agents agents"  # the label, then the tag as papers name it
    assert text_of(main.find(".//p[@class='lede']")) == "Models that plan, call tools & act."  # type: ignore[arg-type]
    assert meta_values(doc, "description") == ["Models that plan, call tools & act."]
    title = doc.find(".//title")
    assert title is not None and title.text == "AI agents · Labels"


def test_a_tags_page_names_the_keywords_that_put_papers_there(out: Path) -> None:
    keywords = main_of(read_html(out / "tags/agents/index.html")).find(".//p[@class='tag-keywords']")
    assert keywords is not None
    assert [q.text for q in keywords.iter("q")] == ["agent", "function calling"]
    plain = main_of(read_html(out / "tags/kv-cache/index.html"))
    assert text_of(plain.find("h1")) == "kv-cache"  # type: ignore[arg-type]
    assert [q.text for q in plain.iter("q")] == ["kv cache"]


def test_a_tag_site_yaml_does_not_name_has_no_label_nor_keywords(out: Path) -> None:
    main = main_of(read_html(out / "tags/by-hand/index.html"))
    assert text_of(main.find("h1")) == "by-hand"  # type: ignore[arg-type]
    assert main.find(".//p[@class='lede']") is None and not list(main.iter("q"))


def test_the_list_of_tags_shows_each_label_beside_its_tag(out: Path) -> None:
    html = (out / "tags/index.html").read_text(encoding="utf-8")
    rows = {text_of(li) for li in main_of(parse_html(html)).iter("li")}
    assert rows == {"agents AI agents 1", "kv-cache 1", "by-hand 1"}
