"""`feeds.opml`: every feed the site publishes, for a reader to subscribe to them all at once."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser

from sitegen.pipeline.build import build

from ..html_tools import read_html
from ..site_factory import copy_site

BASE = "https://example.github.io/reading-list/"


def _local(output: Path, url: str) -> Path:
    assert url.startswith(BASE), url
    path = output / url.removeprefix(BASE)
    return path / "index.html" if url.endswith("/") else path


def test_the_outline_lists_every_feed_exactly_once_and_each_leads_somewhere(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=12)
    config = root / "site.yaml"  # a title that must be escaped, as every text the curator writes
    config.write_text(config.read_text(encoding="utf-8").replace("\ntitle: ", "\ntitle: Q&A <list> — ", 1),
                      encoding="utf-8")
    output = root / "public"
    build(root, output, BASE, search=False)
    outline = ET.parse(output / "feeds.opml").getroot()  # well-formed XML, or this raises
    assert outline.tag == "opml" and outline.get("version") == "2.0"
    assert outline.findtext("head/title", "").startswith("Q&A <list> — ")
    feeds = [o for o in outline.iter("outline") if o.get("type") == "rss"]
    listed = [_local(output, o.get("xmlUrl", "")) for o in feeds]
    published = sorted(output.rglob("feed.xml"))
    assert sorted(listed) == published and len(set(listed)) == len(listed)  # all of them, each once
    for o, path in zip(feeds, listed, strict=True):
        parsed = feedparser.parse(path.read_bytes())
        assert not parsed.bozo and parsed.feed.title.endswith(o.get("title", "")), (path, parsed.feed.title)
        assert _local(output, o.get("htmlUrl", "")).is_file()
    body = outline.find("body")
    assert body is not None
    groups = [o.get("text") for o in body if o.get("type") is None]
    assert groups == ["Tags", "Authors"]


def test_every_page_links_the_outline_from_its_footer(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    output = root / "public"
    build(root, output, BASE, search=False)
    for page in ("index.html", "tags/index.html"):
        link = read_html(output / page).find(".//footer//a[@type='text/x-opml']")
        assert link is not None and (output / page).parent.joinpath(link.get("href", "")).resolve() == \
            (output / "feeds.opml").resolve()
