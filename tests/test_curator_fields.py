"""The curator's fields everywhere: status and rating on list items and as search filters, the reading queue's page
and feed, and the notes in the full-text feeds and in papers.json, checked on a copy of the bundled list with a few
papers marked and annotated (tests/site_factory.py, CURATED)."""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

import feedparser
import pytest

from sitegen.pipeline.build import build
from tests.support import describe_vnu, run_vnu

from .conftest import BuiltSite
from .html_tools import classes, parse_html
from .site_factory import CURATED, copy_site, curate

SITE_URL = "https://example.github.io/reading-list/"
AUTOSP = "autosp-unlocking-long-context-llm-training-via-compiler"  # reading, rated 4, the newest paper
NOTES = {AUTOSP: "The *compiler pass* is the point.[^1] See [the code](https://example.org/autosp) & "
                 "[VTC](../vtc/).\n\n[^1]: Section 4."}
QUEUED = [AUTOSP, "statesmix-online-lossless-compression-via-mamba-state-space",  # reading, then to read, newest first
          "vtc-dnn-compilation-with-virtual-tensors-for-data-movement",
          "x-moe-enabling-scalable-training-for-emerging-mixture-of"]


@pytest.fixture(scope="module")
def curated(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    root = copy_site(tmp_path_factory.mktemp("curated") / "site")
    curate(root, notes=NOTES)
    output = root.parent / "public"
    return BuiltSite(output, build(root, output, SITE_URL, search=False), SITE_URL)


def _page(site: BuiltSite, route: str) -> ET.Element:
    return parse_html(site.text(f"{route}index.html"))


def _text(element: ET.Element) -> str:
    return " ".join("".join(element.itertext()).split())


def _items(doc: ET.Element) -> dict[str, ET.Element]:
    """The list items of a page by the slug of the paper each links."""
    found = {}
    for item in doc.iter("article"):
        if "item" in classes(item):
            link = next(a for a in item.iter("a") if "papers/" in a.get("href", ""))
            found[link.get("href", "").rstrip("/").rsplit("/", 1)[-1]] = item
    return found


def test_list_items_show_status_and_rating_badges(curated: BuiltSite) -> None:
    items = _items(_page(curated, ""))
    for slug, (status, rating) in CURATED.items():
        if slug not in items:
            continue  # not on the first home page
        badges = [el for el in items[slug].iter("span") if "status" in classes(el)]
        assert [_text(b) for b in badges] == [status.replace("-", " ").capitalize()]  # type: ignore[union-attr]
        ratings = [_text(el) for el in items[slug].iter("span") if "rating" in classes(el)]
        assert ratings == ([f"{'★' * 5}rated {rating} of 5"] if rating else [])  # the rest of the five muted
    plain = items["fast-and-accurate-ai-based-pre-decoders-for-surface-codes"]
    assert not [el for el in plain.iter("span") if classes(el) & {"status", "rating"}]


def test_list_items_show_three_tags_and_how_many_more(curated: BuiltSite) -> None:
    item = _items(_page(curated, ""))[AUTOSP]
    tags = [_text(li) for ul in item.iter("ul") if "tags" in classes(ul) for li in ul]
    on_its_page = [_text(li) for ul in _page(curated, f"papers/{AUTOSP}/").iter("ul") if "tags" in classes(ul)
                   for li in ul]
    assert len(on_its_page) > 4
    assert tags == [*on_its_page[:3], f"+{len(on_its_page) - 3} more"]


def test_the_home_page_does_not_repeat_the_site_title(curated: BuiltSite) -> None:
    doc = _page(curated, "")
    assert [_text(h) for h in doc.iter("h1")] == ["Latest papers"]
    brand = next(a for a in doc.iter("a") if "brand" in classes(a))
    assert _text(brand) == "Systems for Machine Learning — a reading list"


def test_the_queue_page_lists_papers_being_read_then_to_read(curated: BuiltSite) -> None:
    doc = _page(curated, "queue/")
    sections = [el for el in doc.iter("section") if "list" in classes(el)]
    headings = [_text(next(s.iter("h2"))) for s in sections]
    assert headings == ["Reading now 1", "To read 3"]
    assert [list(_items(s)) for s in sections] == [QUEUED[:1], QUEUED[1:]]
    nav = next(el for el in doc.iter("nav") if el.get("aria-label") == "Main")
    current = [a for a in nav.iter("a") if a.get("aria-current") == "page"]
    assert [(_text(a), a.get("href")) for a in current] == [("Reading queue", "../queue/")]


def test_every_page_links_the_queue_while_it_has_papers(curated: BuiltSite, built_site: BuiltSite) -> None:
    for route in ("", "tags/compilers/", f"papers/{AUTOSP}/", "search/"):
        nav = next(el for el in _page(curated, route).iter("nav") if el.get("aria-label") == "Main")
        assert "Reading queue" in [_text(a) for a in nav.iter("a")], route
    # the bundled list marks no paper: no queue, no page, no feed, no link
    assert not (built_site.output / "queue").exists()
    assert "queue/" not in built_site.text("index.html") and "queue/" not in built_site.text("sitemap.xml")
    assert f"{SITE_URL}queue/" in curated.text("sitemap.xml")


def test_the_queue_feed_is_a_full_text_atom_feed_of_the_queue(curated: BuiltSite) -> None:
    feed = feedparser.parse(curated.text("queue/feed.xml"))
    assert not feed.bozo, feed.bozo_exception
    assert feed.feed.title == "Systems for Machine Learning — a reading list: reading queue"
    assert feed.feed.link == f"{SITE_URL}queue/"
    assert [e.link for e in feed.entries] == [f"{SITE_URL}papers/{slug}/" for slug in QUEUED]
    assert any(link.get("href") == "../queue/feed.xml" for link in _page(curated, "queue/").iter("link"))


def test_notes_are_html_content_of_full_text_feeds_only(curated: BuiltSite) -> None:
    for feed_path in ("feed.xml", "queue/feed.xml"):
        feed = feedparser.parse(curated.text(feed_path))
        assert not feed.bozo, feed.bozo_exception
        entry = next(e for e in feed.entries if e.link == f"{SITE_URL}papers/{AUTOSP}/")
        assert [c.type for c in entry.content] == ["text/html"]
        html = entry.content[0].value
        assert html.startswith("<p>Large-language-models (LLMs) demonstrate enormous utility")  # the abstract first
        assert "<h2>Notes</h2>" in html and "The <em>compiler pass</em> is the point." in html
        # relative links resolve against the paper's page (xml:base), as they do there
        assert f'href="{SITE_URL}papers/vtc/"' in html and f'href="{SITE_URL}papers/{AUTOSP}/#fn1"' in html
        others = [e for e in feed.entries if e.link != f"{SITE_URL}papers/{AUTOSP}/"]
        assert others and not any("content" in e for e in others)  # no notes, no content: the summary says it all
    tag_feed = feedparser.parse(curated.text("tags/compilers/feed.xml"))
    assert not any("content" in e for e in tag_feed.entries)  # short entries: a summary of the abstract


def test_papers_json_carries_the_notes_as_markdown(curated: BuiltSite) -> None:
    records = {r["slug"]: r for r in json.loads(curated.text("papers.json"))}
    assert records[AUTOSP]["notes"] == NOTES[AUTOSP]
    assert (records[AUTOSP]["status"], records[AUTOSP]["rating"]) == ("reading", 4)
    assert "notes" not in records["fast-and-accurate-ai-based-pre-decoders-for-surface-codes"]


def _filter(element: ET.Element) -> tuple[str, str]:
    """(filter, value) as Pagefind reads `data-pagefind-filter`: a value after a colon, else the element's text."""
    name, colon, value = element.get("data-pagefind-filter", "").partition(":")
    return name, value if colon else _text(element)


def test_status_and_rating_are_search_filters_on_the_paper_page(curated: BuiltSite) -> None:
    doc = _page(curated, f"papers/{AUTOSP}/")
    filters = dict(_filter(el) for el in doc.iter()
                   if el.get("data-pagefind-filter", "").startswith(("status", "rating")))
    assert filters == {"status": "reading", "rating": "4"}
    plain = _page(curated, "papers/fast-and-accurate-ai-based-pre-decoders-for-surface-codes/")
    assert not [el for el in plain.iter() if el.get("data-pagefind-filter", "").startswith(("status", "rating"))]


def test_the_changed_pages_are_valid_html(curated: BuiltSite) -> None:
    pages = [curated.output / route / "index.html"
             for route in ("", "page/2", "tags/compilers", "authors/ahan-gupta", "queue", "recent", "timeline/2025",
                           f"papers/{AUTOSP}")]
    errors = run_vnu(pages)
    assert not errors, describe_vnu(errors, curated.output)
