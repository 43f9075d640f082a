"""The golden site builds to exactly the committed bytes (regenerate: python -m tests.golden.regenerate)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import feedparser
from PIL import Image

from ..html_tools import by_class, listed_papers, meta_values, read_html, text_of
from ..site_factory import tree_bytes
from .regenerate import EXPECTED, build_golden

SVG = "{http://www.w3.org/2000/svg}"


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


def test_golden_site_gives_a_person_one_page_and_their_other_spelling_a_redirect() -> None:
    """'L. Kaiser' (an alias in lukasz-kaiser.yaml) wrote One Model: on Łukasz Kaiser's page, bylined as written."""
    assert listed_papers(read_html(EXPECTED / "authors/lukasz-kaiser/index.html")) == [
        "tensor2tensor", "one-model", "lukasz-attention", "outrageously-large-networks"]
    byline = next(by_class(read_html(EXPECTED / "papers/one-model/index.html"), "paper-authors"))
    first = byline.find("a")
    assert first is not None and text_of(first) == "L. Kaiser"
    assert first.get("href") == "../../authors/lukasz-kaiser/"
    assert first.get("data-pagefind-filter") == "author:Łukasz Kaiser"  # the search filter counts him once
    redirect = read_html(EXPECTED / "authors/l-kaiser/index.html")
    assert meta_values(redirect, "robots") == ["noindex"]
    assert [m.get("content") for m in redirect.iter("meta") if m.get("http-equiv") == "refresh"] == \
        ["0; url=../../authors/lukasz-kaiser/"]
    assert [link.get("href") for link in redirect.iter("link") if link.get("rel") == "canonical"] == \
        ["https://example.org/golden/authors/lukasz-kaiser/"]
    assert [a.get("href") for a in redirect.iter("a")] == ["../../authors/lukasz-kaiser/"]
    assert sorted(p.name for p in (EXPECTED / "authors/l-kaiser").iterdir()) == ["index.html"]  # no feed, no files
    for listing in ("sitemap.xml", "authors/index.html", "feed.xml"):
        assert "l-kaiser" not in (EXPECTED / listing).read_text(encoding="utf-8"), listing


def test_golden_site_lists_related_papers_with_why() -> None:
    """Shared authors ('L. Kaiser' is Łukasz Kaiser), then a close abstract, then a tag and a rare word in common."""
    page = read_html(EXPECTED / "papers/lukasz-attention/index.html")
    [block] = [s for s in page.iter("section") if s.get("aria-labelledby") == "related-heading"]
    shown = [(li.find("a").get("href"), "".join(li.find("span[@class='why']").itertext()))
             for li in block.iter("li")]
    assert shown == [("../../papers/tensor2tensor/", "same 3 authors · shares a tag · similar abstract"),
                     ("../../papers/sparsely-gated-experts/", "same author · similar abstract"),
                     ("../../papers/one-model/", "same 2 authors · shares a tag"),
                     ("../../papers/outrageously-large-networks/", "same 2 authors · shares a tag"),
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
    for folder in ("tags/attention", "authors/lukasz-kaiser"):  # joined in the browser from each paper's files
        page = (EXPECTED / folder / "index.html").read_text(encoding="utf-8")
        assert 'class="cite-bundle"' in page and not list((EXPECTED / folder).glob("papers.*")), folder
    assert not (EXPECTED / "tags/cs-cl").exists() and (EXPECTED / "categories/cs-cl/index.html").is_file()
    assert "AU  - others" in (EXPECTED / "papers/lukasz-attention/cite.ris").read_text(encoding="utf-8")
    assert '{"literal":"others"}' in (EXPECTED / "papers/lukasz-attention/cite.json").read_text(encoding="utf-8")
    assert (EXPECTED / "social-card.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    page = read_html(EXPECTED / "tags/attention/index.html")
    assert meta_values(page, "og:image") == ["https://example.org/golden/social-card.png"]
    assert "<loc>https://example.org/golden/papers/lukasz-attention/</loc><lastmod>2024-01-05</lastmod>" in (
        EXPECTED / "sitemap.xml").read_text(encoding="utf-8")


def test_golden_site_charts_what_was_seen_over_time_and_ranks_the_risers() -> None:
    """Upvotes seen on three days and scores on two are charted; an API's match score is no signal; the Rising
    page compares the last two capture days (Feb 1 and Mar 1, 2024) and leaves the draft out, whatever it gained."""
    charts = {slug: [text_of(c) for c in read_html(EXPECTED / f"papers/{slug}/index.html").iter("figcaption")]
              for slug in ("lukasz-attention", "bert-pre-training", "undated-listing")}
    assert charts == {"lukasz-attention": ["Upvotes: 12 on Jan 5 → 40 on Feb 1 → 52 on Mar 1, 2024"],
                      "bert-pre-training": ["Score: 61.5 on Feb 1 → 69.4 on Mar 1, 2024"],
                      "undated-listing": ["Upvotes: 3 on Feb 1 → 9 on Mar 1, 2024"]}
    rising = read_html(EXPECTED / "rising/index.html")
    assert listed_papers(rising) == ["lukasz-attention", "undated-listing"]
    assert [text_of(g) for g in by_class(rising, "gain")] == ["+12 40 → 52 upvotes, from 40 to 52",
                                                            "+6 3 → 9 upvotes, from 3 to 9"]
    assert '<a href="rising/">Rising</a>' in (EXPECTED / "index.html").read_text(encoding="utf-8")
    assert "<loc>https://example.org/golden/rising/</loc>" in (EXPECTED / "sitemap.xml").read_text(encoding="utf-8")


def test_golden_site_draws_its_co_author_network() -> None:
    """Two groups who write together: two clusters named by their tags, their data, and each author's drawing."""
    data = json.loads((EXPECTED / "network/graph.json").read_text(encoding="utf-8"))
    assert len(data["nodes"]) == 11 and [c[0] for c in data["clusters"]] == ["attention · mixture-of-experts",
                                                                             "retrieval · attention"]
    # 'L. Kaiser' of One Model is Łukasz Kaiser (an alias): four papers with Noam Shazeer, one tie
    assert data["nodes"][0][4:] == ["Noam Shazeer", "noam-shazeer"] and [0, 1, 4] in data["edges"]
    page = read_html(EXPECTED / "network/index.html")
    listed = [li.find("a") for li in page.iter("li") if li.get("data-i") is not None]
    assert [a.get("href") for a in listed if a is not None] == [f"../authors/{n[5]}/" for n in (
        *[d for d in data["nodes"] if d[2] == 0], *[d for d in data["nodes"] if d[2] == 1])]
    drawing = next(e for e in page.iter() if e.get("id") == "network-drawing")
    assert [a.get("href") for a in drawing.iter(f"{SVG}a")] == [f"../authors/{n[5]}/" for n in data["nodes"]]
    author = (EXPECTED / "authors/noam-shazeer/index.html").read_text(encoding="utf-8")
    assert author.count('<a href="../../authors/') >= 5 and 'class="ego-graph"' in author
    assert '<a href="../../network/?author=noam-shazeer">' in author
    assert '<a href="../network/">' in (EXPECTED / "authors/index.html").read_text(encoding="utf-8")
