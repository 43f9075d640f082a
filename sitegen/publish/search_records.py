"""What the search index holds for each paper, made from the model rather than read back from the built pages.

A record is a small HTML document with the searchable part of a paper's page and nothing else: the
title, the authors, the curator's notes and the abstract, with the same markup, filters, metadata and
sort key as `paper.html` gives Pagefind, so the index is the one the paper pages would give (the
same words, weights, anchors for excerpts and filters; tests compare the two). Pagefind then reads
10,000 records of a few kilobytes where it read 18,000 whole pages, most of them no paper at all.

Records come oldest first, the site's order reversed (undated papers before the oldest dated one,
papers of one day in the reverse of their order on the site): the index is cut into shards of
consecutive records, so a date sort reads the shards in turn, and an edit or a new paper changes
the one shard that holds it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import escape

from ..content import dates
from ..model.site import Paper, Site


@dataclass(frozen=True)
class Record:
    """One paper as the index receives it: where its page is (`path`, as Pagefind names it) and the document."""

    path: str  # "papers/<slug>/index.html": Pagefind makes the result's URL "/papers/<slug>/" from it
    html: str


def records(site: Site, current: Callable[[str], Paper | None] | None = None) -> list[Record]:
    """Every paper's record, oldest first (see the module's docstring); `current` gives a paper with its entry
    as it now reads, where the model may hold the one it was made with."""
    papers = [(current(slug) if current else None) or site.papers[slug] for slug in reversed(site.order)]
    return [record(paper, site.config.language) for paper in papers]


def record(paper: Paper, language: str) -> Record:
    """One paper's record."""
    return Record(f"{paper.route}index.html", _document(paper, language))


# Each paper's document, kept while the paper itself lives: a preview makes the records again after every edit,
# and all but the edited papers are the same objects as before (0.85 s of CPU at 10,000 papers without it).
_made: dict[int, tuple[weakref.ref[Paper], str, str]] = {}


def _document(paper: Paper, language: str) -> str:
    key = id(paper)
    kept = _made.get(key)
    if kept is not None and kept[0]() is paper and kept[1] == language:
        return kept[2]
    made = document(paper, language)
    _made[key] = (weakref.ref(paper, lambda _: _made.pop(key, None)), language, made)
    return made


def search_authors(paper: Paper) -> str:
    """The authors line results show (`authors` metadata): up to three names, or the count of unnamed authors,
    " …" when there are more, then those of them with a page here. Only words the record says, as
    Pagefind indexes metadata too."""
    e = paper.entry
    listed = [a.name for a in paper.authors]
    more = len(listed) > 3 or e.hidden_authors or e.authors_truncated or paper.unlisted_authors
    named = ", ".join(listed[:3]) if listed else (str(e.author_count) if e.hidden_authors else "")
    unlisted = ", ".join(a.name for a in paper.unlisted_authors)
    return " ".join(part for part in (named, "…" if more else "", unlisted) if part)


def document(paper: Paper, language: str) -> str:
    """A paper's record: the indexed part of its page, marked up as `paper.html` marks it."""
    e = paper.entry
    meta = search_authors(paper)
    authors = ", ".join(_filtered("a", "author", a.name) for a in paper.authors)
    # the page's notes in grey ("et al.", "+2 more"), which the text leaves out (EXCLUDE_SELECTORS)
    authors += _muted(_note(paper))
    if paper.unlisted_authors:
        including = ", including" if paper.authors or e.hidden_authors else "Authors include"
        authors += _muted(including) + " " + ", ".join(_filtered("a", "author", a.name)
                                                       for a in paper.unlisted_authors)
    facts = []
    if e.date:
        facts.append(f'<time data-pagefind-filter="year:{e.date.year}" data-pagefind-sort="date:{e.date.isoformat()}"'
                     f' data-pagefind-meta="date:{dates.human(e.date, e.date_precision)}"></time>')
    if paper.category:
        facts.append(_filtered("a", "category", paper.category.name))
    if e.status:
        facts.append(f'<span data-pagefind-filter="status:{escape(e.status)}"></span>')
    if e.rating:
        facts.append(f'<span data-pagefind-filter="rating:{e.rating}" data-pagefind-sort="rating:{e.rating}" '
                     f'data-pagefind-meta="rating:{e.rating}"></span>')
    if e.upvotes is not None:
        facts.append(f'<span data-pagefind-sort="upvotes:{e.upvotes}" data-pagefind-meta="upvotes:{e.upvotes}"></span>')
    parts = [f'<!DOCTYPE html><html lang="{escape(language)}"><head><meta charset="utf-8"><title></title></head><body>',
             f'<article class="paper" data-pagefind-body{_meta_attribute(meta)}><header class="paper-header">',
             # the spaces before </p> as on the page: after them Pagefind ends the line with no full stop
             f'<h1 data-pagefind-meta="title">{e.title_html}</h1><p class="paper-authors">{authors}    </p>',
             f'<div data-pagefind-ignore="index">{"".join(facts)}</div></header><div class="paper-main">']
    if e.notes_html:
        parts.append('<section class="notes prose"><h2 id="notes-heading">Curator’s notes</h2>'
                     f'{e.notes_html}</section>')
    if e.abstract:
        parts.append(f'<section class="abstract"><h2 id="abstract-heading">Abstract</h2><p>{e.abstract_html}'
                     '</p></section>')
    parts.append("</div>")
    if paper.tags:
        tags = "".join(f"<li>{_filtered('a', 'tag', t.name)}</li>" for t in paper.tags)
        parts.append(f'<aside><section class="panel-block"><h2 id="tags-heading">Tags</h2><ul class="tags">{tags}'
                     '</ul></section></aside>')
    parts.append("</article></body></html>\n")
    return "".join(parts)


def _note(paper: Paper) -> str:
    """The grey note after the authors' names on the paper's page, if any."""
    e = paper.entry
    if e.hidden_authors:
        if paper.authors:
            return f" +{e.hidden_authors} more"
        return f"{e.author_count} author{'s' if e.author_count != 1 else ''} (names not recorded)"
    if e.authors_truncated:
        return " et al."
    return "" if paper.authors or paper.unlisted_authors else "Authors not recorded"


def _muted(text: str) -> str:
    return f'<span class="muted">{escape(text)}</span>' if text else ""


def _filtered(tag: str, name: str, value: str) -> str:
    return f'<{tag} data-pagefind-filter="{name}">{escape(value)}</{tag}>'


def _meta_attribute(authors: str) -> str:
    return f' data-pagefind-meta="authors:{escape(authors)}"' if authors else ""
