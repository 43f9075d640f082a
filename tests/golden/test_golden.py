"""The golden site builds to exactly the committed bytes (regenerate: python -m tests.golden.regenerate)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import feedparser
from PIL import Image

from ..html_tools import meta_values, read_html
from ..site_factory import tree_bytes
from .regenerate import EXPECTED, build_golden


def test_golden_site_matches_committed_output(tmp_path: Path) -> None:
    build_golden(tmp_path / "out")
    built, expected = tree_bytes(tmp_path / "out"), tree_bytes(EXPECTED)
    assert sorted(built) == sorted(expected), "file lists differ; run python -m tests.golden.regenerate if intended"
    changed = [name for name in built
               if built[name] != expected[name] and not same_picture(built[name], expected[name])]
    assert not changed, f"{len(changed)} files differ, e.g. {changed[:5]}; regenerate if intended"


def same_picture(built: bytes, expected: bytes) -> bool:
    """Two PNG files of the same pixels: the social card's compressed bytes are zlib's, which Pillow may update."""
    if not built.startswith(b"\x89PNG"):
        return False
    with Image.open(io.BytesIO(built)) as one, Image.open(io.BytesIO(expected)) as other:
        return one.size == other.size and one.mode == other.mode and one.tobytes() == other.tobytes()


def test_golden_site_content_is_what_it_should_be() -> None:
    page = (EXPECTED / "papers/bert-pre-training/index.html").read_text()
    assert "BERT: Pre-training" in page and "<table>" in page and "<math" in page
    assert 'name="citation_arxiv_id" content="1810.04805"' in page
    assert not (EXPECTED / "papers/draft-paper").exists()
    assert (EXPECTED / "authors/lukasz-kaiser/index.html").is_file()


def test_golden_site_lists_related_papers_with_why() -> None:
    """A shared author and a close abstract rank first; a tag and the abstract's one rare word in common next."""
    page = read_html(EXPECTED / "papers/lukasz-attention/index.html")
    [block] = [s for s in page.iter("section") if s.get("aria-labelledby") == "related-heading"]
    shown = [(li.find("a").get("href"), "".join(li.find("span[@class='why']").itertext()))
             for li in block.iter("li")]
    assert shown == [("../../papers/sparsely-gated-experts/", "same author · similar abstract"),
                     ("../../papers/bert-pre-training/", "shares a tag · similar abstract")]


def test_golden_site_says_its_math_as_text_where_only_text_goes() -> None:
    """The abstract's $O(n^2)$, $\\textbf{B}$idirectional and $\\alpha$ reach descriptions, JSON-LD, feeds as text."""
    page = read_html(EXPECTED / "papers/bert-pre-training/index.html")
    [ld] = [s for s in page.iter("script") if s.get("type") == "application/ld+json"]
    texts = [*meta_values(page, "description"), *meta_values(page, "og:description"),
             json.loads(ld.text or "")["abstract"]]
    feed = feedparser.parse((EXPECTED / "feed.xml").read_bytes())
    texts += [text for entry in feed.entries for text in (entry.title, entry.summary)]
    assert not [text for text in texts if "\\" in text or re.search(r"\$\S", text)]
    assert sum("O(n²) attention cost < quadratic? No. Its Bidirectional encoder has one α" in t for t in texts) == 4
    raw = (EXPECTED / "papers/bert-pre-training/index.html").read_text(encoding="utf-8")
    assert "<math" in raw and not re.search(r"<math[^>]*aria-label", raw)  # MathML is spoken as it is


def test_golden_site_cites_topics_and_authors_three_ways_and_shares_one_card() -> None:
    for folder in ("tags/attention", "authors/lukasz-kaiser"):
        assert all((EXPECTED / folder / f"papers.{ext}").is_file() for ext in ("bib", "ris", "json")), folder
    assert not (EXPECTED / "tags/cs-cl").exists() and (EXPECTED / "categories/cs-cl/index.html").is_file()
    assert "AU  - others" in (EXPECTED / "papers/lukasz-attention/cite.ris").read_text(encoding="utf-8")
    assert '{"literal":"others"}' in (EXPECTED / "papers/lukasz-attention/cite.json").read_text(encoding="utf-8")
    assert (EXPECTED / "social-card.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    page = read_html(EXPECTED / "tags/attention/index.html")
    assert meta_values(page, "og:image") == ["https://example.org/golden/social-card.png"]
    assert "<loc>https://example.org/golden/papers/lukasz-attention/</loc><lastmod>2024-01-05</lastmod>" in (
        EXPECTED / "sitemap.xml").read_text(encoding="utf-8")
