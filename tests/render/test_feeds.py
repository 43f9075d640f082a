"""Atom feeds: well-formed for feedparser, stable ids, at most 50 entries, `updated` taken from the content."""

from __future__ import annotations

import datetime as dt
import re
import time
from functools import cache
from pathlib import Path
from typing import Any

import feedparser
import pytest

from sitegen.model.routes import TOPIC_FEED_SIZE
from sitegen.pipeline.build import build

from ..conftest import BuiltSite
from ..html_tools import committed_entries, entry_date, listed_papers, read_html
from ..site_factory import copy_site
from .test_pages import FLURKA, TEX

FEED_SIZE = 50


def feeds(output: Path) -> list[str]:
    """Every feed of a build, relative to its output folder."""
    found = [p.relative_to(output).as_posix() for p in output.rglob("*.xml") if p.name == "feed.xml"]
    return sorted(found)


@cache
def parse(output: Path, feed: str) -> Any:
    """A feed parsed by feedparser, once per session (builds are read-only)."""
    return feedparser.parse((output / feed).read_bytes())


def _date(struct: time.struct_time) -> dt.date:
    return dt.date(struct.tm_year, struct.tm_mon, struct.tm_mday)


def _content_date(slug: str) -> dt.date:
    """What an entry's `updated` should be: its newest date, publication or added."""
    meta = committed_entries()[slug]
    dates = [d for d in (entry_date(meta), meta.get("added")) if isinstance(d, dt.date)]
    return max(dates, default=dt.date(1970, 1, 1))


def _slug(link: str) -> str:
    return link.rstrip("/").rsplit("/", 1)[-1]


def test_every_feed_is_there(built_site: BuiltSite) -> None:
    names = feeds(built_site.output)
    kinds = built_site.result.pages_by_kind
    assert "feed.xml" in names and "recent/feed.xml" in names
    assert sum(n.startswith("tags/") for n in names) == kinds["tag-feed"] == 37
    assert sum(n.startswith("authors/") for n in names) == kinds["author-feed"]
    assert len(names) == 2 + kinds["tag-feed"] + kinds["author-feed"]


def test_every_feed_parses_cleanly_with_at_most_50_entries(built_site: BuiltSite) -> None:
    for name in feeds(built_site.output):
        feed = parse(built_site.output, name)
        assert feed.bozo == 0, f"{name}: {feed.get('bozo_exception')}"
        assert feed.version == "atom10", name
        assert 0 < len(feed.entries) <= FEED_SIZE, name
        assert feed.feed.id.startswith("urn:uuid:") and feed.feed.title, name
        self_links = [link.href for link in feed.feed.links if link.rel == "self"]
        assert self_links == [built_site.base_url + name], name
        ids = [e.id for e in feed.entries]
        assert len(set(ids)) == len(ids), f"{name}: duplicate entry ids"
        for entry in feed.entries:
            assert entry.title and entry.id.startswith("urn:uuid:") and entry.link.startswith(built_site.base_url)
            page = built_site.output / entry.link.removeprefix(built_site.base_url) / "index.html"
            assert page.is_file(), f"{name}: {entry.link} is not a page of the site"


def test_the_main_feed_holds_the_newest_50_papers_in_order(built_site: BuiltSite) -> None:
    feed = parse(built_site.output, "feed.xml")
    assert len(feed.entries) == FEED_SIZE
    home = [slug for page in ["index.html", *(f"page/{n}/index.html" for n in range(2, 4))]
            for slug in listed_papers(read_html(built_site.output / page))]
    assert [_slug(e.link) for e in feed.entries] == home[:FEED_SIZE]
    vtc = next(e for e in feed.entries if _slug(e.link).startswith("vtc-"))
    assert [a.name for a in vtc.authors] == ["Muyan Hu", "Ahan Gupta", "Jiachen Yuan"]
    assert {t.term for t in vtc.tags} == {"compilers", "gpu-kernels", "gpu-architecture"}  # cs.DC: its category
    assert vtc.published_parsed[:3] == (2026, 2, 11)


def test_tag_and_author_feeds_hold_their_own_papers(built_site: BuiltSite) -> None:
    entries = committed_entries()
    for name in feeds(built_site.output):
        if not name.startswith(("tags/", "authors/")):
            continue
        page = read_html(built_site.output / name.replace("feed.xml", "index.html"))
        expected = listed_papers(page)[:TOPIC_FEED_SIZE]  # the newest papers of the tag or author
        assert [_slug(e.link) for e in parse(built_site.output, name).entries] == expected, name
    assert TOPIC_FEED_SIZE <= FEED_SIZE
    compilers = [_slug(e.link) for e in parse(built_site.output, "tags/compilers/feed.xml").entries]
    tagged = {s for s, m in entries.items() if "compilers" in (m.get("tags") or [])}
    assert len(tagged) <= TOPIC_FEED_SIZE and set(compilers) == tagged


def test_updated_comes_from_the_content_not_the_clock(built_site: BuiltSite) -> None:
    for name in feeds(built_site.output):
        feed = parse(built_site.output, name)
        updated = [_date(e.updated_parsed) for e in feed.entries]
        for entry, date in zip(feed.entries, updated, strict=True):
            assert date == _content_date(_slug(entry.link)), f"{name}: {entry.link}"
        assert _date(feed.feed.updated_parsed) == max(updated), name
    newest = max(_content_date(s) for s in committed_entries())
    assert _date(parse(built_site.output, "feed.xml").feed.updated_parsed) == newest


def test_the_recent_feed_is_keyed_on_the_date_added(built_site: BuiltSite) -> None:
    feed = parse(built_site.output, "recent/feed.xml")
    added = [committed_entries()[_slug(e.link)]["added"] for e in feed.entries]
    assert added == sorted(added, reverse=True)
    assert len(feed.entries) == min(FEED_SIZE, sum(1 for m in committed_entries().values() if m.get("added")))


def _ids(site: BuiltSite) -> dict[str, list[str]]:
    return {name: [parse(site.output, name).feed.id] + [e.id for e in parse(site.output, name).entries]
            for name in feeds(site.output)}


def test_ids_are_the_same_after_a_rebuild(built_site: BuiltSite, rebuilt_site: BuiltSite) -> None:
    assert _ids(built_site) == _ids(rebuilt_site)


def test_ids_do_not_depend_on_the_base_url(built_site: BuiltSite, root_site: BuiltSite) -> None:
    assert built_site.base_url != root_site.base_url
    assert _ids(built_site) == _ids(root_site)
    links = [e.link for e in parse(root_site.output, "feed.xml").entries]
    assert all(link.startswith(root_site.base_url) for link in links)


@pytest.mark.parametrize("feed", ["feed.xml", "tags/compilers/feed.xml"])
def test_each_paper_keeps_one_id_across_feeds(built_site: BuiltSite, feed: str) -> None:
    ids = {_slug(e.link): e.id for e in parse(built_site.output, "feed.xml").entries}
    for entry in parse(built_site.output, feed).entries:
        if _slug(entry.link) in ids:
            assert entry.id == ids[_slug(entry.link)]


_HOSTILE_ENTRY = (
    '---\ntitle: "Bells\\a and \\e[31mescapes\\e[0m\\0"\nauthors: ["Ann\\x07 Lee", Bob Roe]\n'
    'date: 2025-02-04\nadded: 2099-01-01\ntags: ["bell\\x07", "c1\\x9b"]\n'
    'abstract: "An abstract\\x00 with \\x1b NUL, ESC, DEL\\x7f, NEL\\x85 and \\x9b C1."\n'
    "---\n\nNotes with a bell\x07, a NUL\x00, a form feed\x0c and an escape\x1b[2J.\n"
)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def test_control_characters_in_content_leave_every_feed_and_page_clean(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=2)
    (root / "content" / "papers" / "bells.md").write_text(_HOSTILE_ENTRY, encoding="utf-8")
    (root / "content" / "authors" / "ann-lee.yaml").write_text('name: "Ann\\e Lee"\nh_index: 3\n', encoding="utf-8")
    result = build(root, search=False, use_cache=False)
    assert {d.location.path for d in result.warnings.items if d.code == "W341"} == {
        "content/authors/ann-lee.yaml", "content/papers/bells.md"}
    output = root / "public"
    tag_feeds = [f"tags/{tag}/feed.xml" for tag in ("bell", "c1")]
    for name in ["feed.xml", "recent/feed.xml", "authors/ann-lee/feed.xml", *tag_feeds]:
        feed = feedparser.parse((output / name).read_bytes())
        assert feed.bozo == 0, f"{name}: {feed.get('bozo_exception')}"
        titles = [e.title for e in feed.entries]
        assert "Bells and [31mescapes[0m" in titles, name
    page = (output / "papers" / "bells" / "index.html").read_text(encoding="utf-8")
    assert "Notes with a bell, a NUL, a form feed and an escape[2J." in page
    for path in sorted(output.rglob("*")):
        if path.suffix in (".html", ".xml", ".json", ".bib", ".ris", ".txt"):
            text = path.read_bytes().decode("utf-8")
            assert not _CONTROL.search(text.replace("\r\n", "\n")), path.relative_to(output)


def test_entry_titles_and_summaries_are_plain_text_without_tex(built_site: BuiltSite) -> None:
    summaries = {}
    for name in feeds(built_site.output):
        for entry in parse(built_site.output, name).entries:
            assert entry.summary_detail.type == "text/plain", name
            assert not TEX.search(entry.title) and not TEX.search(entry.summary), f"{name}: {entry.link}"
            summaries[_slug(entry.link)] = entry.summary
    flurka = summaries[FLURKA]  # its abstract: FLuRKA ($\textbf{F}$ast $\textbf{L}$ow-$\textbf{R}$ank …
    assert flurka.startswith("Many efficient approximate self-attention") and len(flurka) <= 281
