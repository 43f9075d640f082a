"""The output steps: what a feed reads of the papers it shows."""

from __future__ import annotations

from pathlib import Path

from sitegen.pipeline.site_engine import SiteEngine

from ...site_factory import copy_site


def test_a_feed_page_reads_each_papers_entry_and_newest_date_and_no_paper(tmp_path: Path) -> None:
    """A feed shown again after a notes edit reads its rendered entries and its papers' dates: reading the papers
    would decode each one's entry, notes and all (0.18 s of a notes edit at 10,000 papers, for its 21 feeds)."""
    root = copy_site(tmp_path / "site")
    engine = SiteEngine(root, tmp_path / "out")
    engine.build(jobs=1)
    memo = engine.engine.memo
    feeds = {key: record for key, record in memo.records.items() if key[0] == "page" and key[1][1].endswith("feed")}
    assert {key[1][1] for key in feeds} >= {"feed", "recent-feed", "tag-feed", "author-feed"}
    for key, record in feeds.items():
        read = memo.keys_of(set(record.reads))
        names = {found[0] for found in read.values()}
        dated = {found[1] for found in read.values() if found[0] == "newest_date"}
        shown = {found[1][0] for found in read.values() if found[0] == "feed_entry"}
        assert "paper" not in names, key
        assert shown and dated == shown, key
