"""Atom feeds: the whole list, recently added, the reading queue, and one per tag and per author.

Ids are stable tag URIs built from the paper's slug, and `updated` comes from the
content (the newest date in the feed), so rebuilding never changes a feed's bytes.
The full-text feeds (the first three) carry each paper's notes too, as HTML content.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from typing import Any

from markupsafe import escape

from ..content.config import SiteConfig
from ..content.dates import DAY
from ..content.mathtext import plain_text
from ..model import layout
from ..model.routes import FEED_SIZE, TOPIC_FEED_SIZE, PageSpec
from ..model.site import Paper, Site

NAMESPACE = uuid.UUID("6f1c51d4-5d1a-4c49-9a43-2b9d7c1f0e7a")
SUMMARY_SIZE = 280  # characters of the abstract in the entries of tag and author feeds, as in page lists
FULL_TEXT = ("feed", "recent-feed", "queue-feed")  # feeds whose entries hold the whole abstract and the notes


def entry_id(paper: Paper) -> str:
    """A permanent id: unaffected by base_url changes or title edits."""
    return f"urn:uuid:{uuid.uuid5(NAMESPACE, paper.slug)}"


EPOCH = dt.date(1970, 1, 1)


def newest_date(paper: Paper) -> dt.date:
    """The newest of its dates (called for every paper of every feed: no generator)."""
    e = paper.entry
    return max(e.date or EPOCH, e.added or EPOCH, EPOCH)  # the epoch when it has neither date


def entry_context(paper: Paper, config: SiteConfig, full_text: bool) -> dict[str, Any]:
    """What the feed-entry partial sees: the same for every feed, so it is rendered once per paper.

    Title and summary are plain text: feed readers show TeX as written and drop or mangle MathML,
    so `$O(n^2)$` goes as `O(n²)` (the page itself has the MathML). In full text, a paper with
    notes has them as HTML content after the abstract (a reader shows the content in place of
    the summary), relative links resolved against the paper's page (`xml:base`).
    """
    e = paper.entry
    summary = plain_text(e.abstract, None if full_text else SUMMARY_SIZE)
    return {
        "item": {"paper": paper, "id": entry_id(paper), "url": config.absolute(paper.route),
                 "title": plain_text(e.title), "summary": summary,
                 "content": notes_content(summary, e.notes_html) if full_text and e.notes_html else "",
                 "updated": f"{newest_date(paper).isoformat()}T00:00:00Z",
                 # a day nobody gave is not invented: a month or a year alone is no `published`
                 "published": f"{e.date.isoformat()}T00:00:00Z" if e.date and e.date_precision == DAY else None},
        "full_text": full_text,
    }


def notes_content(abstract: str, notes_html: str) -> str:
    """An entry's HTML content: the abstract (as text, as in the summary), then the curator's notes."""
    lead = f"<p>{escape(abstract)}</p>\n" if abstract else ""
    return f"{lead}<h2>Notes</h2>\n{notes_html}"


def feed_context(site: Site, spec: PageSpec, newest: Callable[[str], dt.date]) -> dict[str, Any]:
    """Title, links and the slugs of the newest papers for one feed (their entries are rendered by the caller);
    `newest` gives a paper's `newest_date` by slug (the engine keeps it apart from the paper, whose entry and
    notes a feed need not read: its entries are rendered once each)."""
    cfg = site.config
    if spec.kind == "author-feed":
        author = site.author_index[spec.key]
        slugs, title, alt = author.papers, f"{cfg.title}: papers by {author.name}", f"authors/{author.slug}/"
    elif spec.kind == "tag-feed":
        tag = site.tag_index[spec.key]
        slugs, title, alt = tag.papers, f"{cfg.title}: {tag.name}", f"tags/{tag.slug}/"
    elif spec.kind == "recent-feed":
        slugs, title, alt = site.recent, f"{cfg.title}: recently added", "recent/"
    elif spec.kind == "queue-feed":
        slugs, title, alt = site.queue, f"{cfg.title}: reading queue", layout.QUEUE
    else:  # the home page's: what a subscriber sees first is what its readers see first
        slugs, title, alt = site.home, cfg.title, ""
    full = spec.kind in FULL_TEXT
    shown = list(slugs[: FEED_SIZE if full else TOPIC_FEED_SIZE])
    updated = max(map(newest, shown), default=EPOCH)
    return {
        "feed": {
            "title": title, "id": f"urn:uuid:{uuid.uuid5(NAMESPACE, spec.output)}",
            "self_url": cfg.absolute(spec.output), "alt_url": cfg.absolute(alt),
            "updated": f"{updated.isoformat()}T00:00:00Z",
            "subtitle": cfg.description, "author": cfg.curator or cfg.title,
            "full_text": full,
        },
        "slugs": shown,
    }


def outline_context(site: Site, spec: PageSpec) -> dict[str, Any]:
    """`feeds.opml`: every feed the site publishes, for a reader to subscribe to them all at once. Each is
    (title, feed address, page address), titled as the feed itself is; the site's own first, then tags, authors."""
    cfg = site.config
    own = [(cfg.title, "feed.xml", ""), (f"{cfg.title}: recently added", "recent/feed.xml", "recent/")]
    if site.queue:
        own.append((f"{cfg.title}: reading queue", f"{layout.QUEUE}feed.xml", layout.QUEUE))
    tags = [(tag.name, f"tags/{tag.slug}/feed.xml", f"tags/{tag.slug}/") for tag in site.tags]
    authors = [(author.name, f"authors/{author.slug}/feed.xml", f"authors/{author.slug}/") for author in site.authors]

    def absolute(rows: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
        return [(title, cfg.absolute(feed), cfg.absolute(page)) for title, feed, page in rows]
    return {"title": f"{cfg.title}: every feed", "site_feeds": absolute(own), "tag_feeds": absolute(tags),
            "author_feeds": absolute(authors)}
