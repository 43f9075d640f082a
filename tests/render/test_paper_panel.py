"""A paper page's side panel and provenance: more by its authors, related by tags, where the entry came from."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import Counter

import pytest

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import Content, load_content
from sitegen.model import model, related
from sitegen.render import provenance

from ..conftest import BuiltSite
from ..html_tools import REPO, committed_entries


@pytest.fixture(scope="module")
def content() -> Content:
    report = Report()
    loaded = load_content(REPO, report)
    assert not report.has_errors, report.format()
    return loaded


def _site(content: Content, papers: dict[str, tuple[tuple[str, ...], tuple[str, ...], dt.date | None]]) -> model.Site:
    """A site of made-up papers: slug -> (authors, tags, date), each a copy of a committed entry."""
    base = content.entries[0]
    entries = tuple(dataclasses.replace(base, slug=slug, title=slug.title(), authors=authors, tags=tags, date=date,
                                        category=None, sources=())
                    for slug, (authors, tags, date) in papers.items())
    return model.build_site(site_config.SiteConfig(), Content(entries, ()))


def _day(n: int) -> dt.date:
    return dt.date(2024, 1, 1) + dt.timedelta(days=n)


def test_more_by_authors_ranks_shared_authors_then_newest_and_stops_at_five(content: Content) -> None:
    site = _site(content, {
        "this": (("Ada", "Bo"), (), _day(50)),
        "both-old": (("Bo", "Ada", "Cy"), (), _day(1)),  # shares two authors: first, though the oldest
        "ada-new": (("Ada",), (), _day(90)),
        "bo-mid": (("Bo",), (), _day(40)),
        "ada-mid": (("Ada",), (), _day(40)),  # same day as bo-mid: the title decides, as in the site's order
        "bo-old": (("Bo",), (), _day(10)),
        "ada-undated": (("Ada",), (), None),  # undated papers come last
        "stranger": (("Cy",), (), _day(99)),
    })
    shown = [p.slug for p in related.more_by_authors(site, site.papers["this"])]
    assert shown == ["both-old", "ada-new", "ada-mid", "bo-mid", "bo-old"]


def test_related_by_tags_ranks_shared_tags_then_newest_leaving_out_the_excluded(content: Content) -> None:
    site = _site(content, {
        "this": (("Ada",), ("x", "y", "z"), _day(50)),
        "three": (("Eve",), ("z", "y", "x"), _day(1)),
        "two-old": (("Eve",), ("x", "y"), _day(2)),
        "two-new": (("Eve",), ("y", "z"), _day(80)),
        "one-a": (("Eve",), ("x",), _day(70)),
        "one-b": (("Eve",), ("z",), _day(75)),
        "one-c": (("Eve",), ("y",), _day(5)),
        "none": (("Eve",), ("w",), _day(99)),
    })
    paper = site.papers["this"]
    assert [p.slug for p in related.related_by_tags(site, paper)] == ["three", "two-new", "two-old", "one-b", "one-a"]
    assert [p.slug for p in related.related_by_tags(site, paper, exclude=["two-new", "one-b"])] == \
        ["three", "two-old", "one-a", "one-c"]


def _naive(site: model.Site, slug: str, lists: list[tuple[str, ...]]) -> list[str]:
    shared = Counter(s for papers in lists for s in papers if s != slug)
    return sorted(shared, key=lambda s: (-shared[s], model.order_key(site.papers[s].entry)))[:5]


def test_both_lists_agree_with_sorting_every_candidate_on_the_bundled_list(content: Content) -> None:
    """Reading only the papers that can be chosen gives what sorting them all gives, for every paper."""
    site = model.build_site(site_config.load(REPO), content)
    for slug, paper in site.papers.items():
        authors = [site.author_index[a.slug].papers for a in {*paper.authors, *paper.unlisted_authors}]
        tags = [site.tag_index[t.slug].papers for t in paper.tags]
        assert [p.slug for p in related.more_by_authors(site, paper)] == _naive(site, slug, authors), slug
        assert [p.slug for p in related.related_by_tags(site, paper)] == _naive(site, slug, tags), slug


def _record(**fields: object) -> tuple[tuple[str, object], ...]:
    return tuple(sorted(fields.items()))


def test_provenance_is_told_as_sentences_without_file_names() -> None:
    records = [
        _record(file="002_fadf736e7f95309e.txt", format="hf-daily-papers", captured=dt.date(2026, 4, 17), line=3,
                title="T", upvotes=21),
        _record(file="000_5ba3278e7bf0573b.txt", format="author-profile", captured="2026-05-19", score=69.4),
        _record(api="arxiv", id="2401.00001", retrieved=dt.date(2026, 5, 20), match="title"),
        _record(file="003.txt", format="hf-daily-papers", captured=dt.date(2026, 4, 18), upvotes=1),
        _record(file="orphan.txt"),  # says nothing a reader can use
    ]
    assert provenance.sentences(records) == (
        "Seen on Hugging Face Daily Papers on Apr 17, 2026 with 21 upvotes",
        "Listed in an author's profile on a paper-ranking site on May 19, 2026 with a score of 69.4",
        "Identified on arXiv as 2401.00001 on May 20, 2026",
        "Seen on Hugging Face Daily Papers on Apr 18, 2026 with 1 upvote",
    )


def test_paper_pages_tell_provenance_in_a_closed_details_and_name_no_dump_file(built_site: BuiltSite) -> None:
    for slug, meta in committed_entries().items():
        page = built_site.text(f"papers/{slug}/index.html")
        files = {str(s["file"]) for s in meta.get("sources") or [] if "file" in s}
        assert files and not any(name in page for name in files), slug
        assert '<details class="provenance"' in page and "<details open" not in page, slug


def test_notes_come_first_in_a_block_of_their_own(tmp_path_factory: pytest.TempPathFactory) -> None:
    from sitegen.build.build import build

    from ..site_factory import copy_site, curate

    root = copy_site(tmp_path_factory.mktemp("notes") / "site", papers=3)
    stem = sorted((root / "content" / "papers").glob("*.md"))[0].stem
    curate(root, {}, notes={stem: "# Why\n\nBecause.\n\n## How\n\nThus."})
    build(root, root.parent / "public", "https://example.org/", search=False)
    page = (root.parent / "public" / "papers" / stem / "index.html").read_text("utf-8")
    notes, abstract = page.index('<section class="notes'), page.index('<section class="abstract"')
    assert notes < abstract
    assert "<h3>Why</h3>" in page and "<h4>How</h4>" in page and "<h1>Why" not in page
