"""A paper page's side panel and provenance: its related papers and why, where the entry came from."""

from __future__ import annotations

import datetime as dt

import pytest

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import load_content
from sitegen.model import model, related
from sitegen.render import provenance

from ..conftest import BuiltSite
from ..html_tools import REPO, by_class, committed_entries, parse_html


def test_each_paper_page_lists_its_related_papers_with_why(built_site: BuiltSite) -> None:
    """The list the model ranks, as a reader meets it: links to the papers, and the reasons under each."""
    site = model.build_site(site_config.load(REPO), load_content(REPO, Report()))
    for slug, paper in site.papers.items():
        page = parse_html(built_site.text(f"papers/{slug}/index.html"))
        block = next(s for s in page.iter("section") if s.get("aria-labelledby") == "related-heading")
        items = block.findall(".//li")
        found = related.for_paper(site, paper)
        assert [li.find("a").get("href") for li in items] == [f"../../{site.papers[r.slug].route}" for r in found]
        whys = ["".join(next(by_class(li, "why", "span")).itertext()) for li in items]
        assert whys == [" · ".join(related.reasons(paper, site.papers[r.slug], r)) for r in found], slug
        assert all(whys), "every related paper says why it is there"


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
        _record(api="hand", id="2205.14135", url="https://huggingface.co/papers/2205.14135",
                retrieved=dt.date(2026, 11, 29)),
    ]
    assert provenance.sentences(records) == (
        "Seen on Hugging Face Daily Papers on Apr 17, 2026 with 21 upvotes",
        "Listed in an author's profile on a paper-ranking site on May 19, 2026 with a score of 69.4",
        "Identified on arXiv as 2401.00001 on May 20, 2026",
        "Seen on Hugging Face Daily Papers on Apr 18, 2026 with 1 upvote",
        "Identified by hand as 2205.14135 from huggingface.co on Nov 29, 2026",
    )


def test_paper_pages_tell_provenance_in_a_closed_details_and_name_no_dump_file(built_site: BuiltSite) -> None:
    for slug, meta in committed_entries().items():
        page = built_site.text(f"papers/{slug}/index.html")
        files = {str(s["file"]) for s in meta.get("sources") or [] if "file" in s}
        assert files and not any(name in page for name in files), slug
        assert '<details class="provenance"' in page and "<details open" not in page, slug


def test_notes_come_first_in_a_block_of_their_own(tmp_path_factory: pytest.TempPathFactory) -> None:
    from sitegen.pipeline.build import build

    from ..site_factory import copy_site, curate

    root = copy_site(tmp_path_factory.mktemp("notes") / "site", papers=3)
    stem = sorted((root / "content" / "papers").glob("*.md"))[0].stem
    curate(root, {}, notes={stem: "# Why\n\nBecause.\n\n## How\n\nThus."})
    build(root, root.parent / "public", "https://example.org/", search=False)
    page = (root.parent / "public" / "papers" / stem / "index.html").read_text("utf-8")
    notes, abstract = page.index('<section class="notes'), page.index('<section class="abstract"')
    assert notes < abstract
    assert "<h3>Why</h3>" in page and "<h4>How</h4>" in page and "<h1>Why" not in page
