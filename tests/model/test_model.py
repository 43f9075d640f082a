"""The Site model of the committed reading list, checked against the entries' own front matter."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
from collections import Counter

import pytest

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import Content, load_content
from sitegen.model import model, network
from sitegen.model.cite_keys import cite_keys
from sitegen.model.site import Site

from ..html_tools import REPO, committed_entries, entry_date, topic_tags

VTC = "vtc-dnn-compilation-with-virtual-tensors-for-data-movement"


@pytest.fixture(scope="module")
def content() -> Content:
    report = Report()
    loaded = load_content(REPO, report)
    assert not report.has_errors, report.format()
    return loaded


@pytest.fixture(scope="module")
def site(content: Content) -> Site:
    return model.build_site(site_config.load(REPO, "https://example.github.io/reading-list/"), content)


def test_every_committed_entry_is_a_paper(site: Site) -> None:
    entries = committed_entries()
    assert len(entries) == 106
    assert set(site.papers) == set(entries)
    assert list(site.papers) == list(site.order)


def test_order_is_newest_first_with_undated_last(site: Site) -> None:
    dates = [site.papers[s].entry.date for s in site.order]
    dated = [d for d in dates if d]
    assert dated == sorted(dated, reverse=True)
    first_undated = dates.index(None)
    assert all(d is None for d in dates[first_undated:])
    assert len(dates) - first_undated == sum(1 for m in committed_entries().values() if not entry_date(m))


def test_neighbours_link_both_ways_in_time(site: Site) -> None:
    for slug, paper in site.papers.items():
        if paper.newer:
            assert site.papers[paper.newer].older == slug
        if paper.older:
            assert site.papers[paper.older].newer == slug
    assert sum(1 for p in site.papers.values() if p.newer is None) == 1


def test_vtc_lists_its_authors_and_the_profile_author_behind_et_al(site: Site) -> None:
    vtc = site.papers[VTC]
    assert [a.name for a in vtc.authors] == ["Muyan Hu", "Ahan Gupta", "Jiachen Yuan"]
    assert vtc.entry.authors_truncated
    # VTC is in Vima Gupta's profile dump, so she is one of the authors behind "et al."
    assert [a.name for a in vtc.unlisted_authors] == ["Vima Gupta"]
    assert vtc.category is not None and vtc.category.name == "cs.DC"
    assert "cs.DC" not in vtc.entry.tags  # its file lists it among its tags too: it is shown as its category only
    assert vtc.entry.date == dt.date(2026, 2, 11)


def test_both_profiles_are_attached_to_their_authors(site: Site) -> None:
    profiled = {a.name: a for a in site.authors if a.profile}
    assert set(profiled) == {"Ahan Gupta", "Vima Gupta"}
    assert profiled["Ahan Gupta"].profile is not None and profiled["Ahan Gupta"].profile.h_index == 12
    assert VTC in profiled["Ahan Gupta"].papers
    assert VTC in profiled["Vima Gupta"].papers
    coauthors = {c.name for c in profiled["Ahan Gupta"].coauthors}
    assert "Vima Gupta" in coauthors and "Ahan Gupta" not in coauthors


def test_author_papers_and_coauthors_match_the_front_matter(site: Site) -> None:
    entries = committed_entries()
    unlisted = {slug: [a.name for a in p.unlisted_authors] for slug, p in site.papers.items()}
    for author in site.authors:
        own = {s for s, m in entries.items() if author.name in (m.get("authors") or []) + unlisted[s]}
        assert set(author.papers) == own, author.name
        assert list(author.papers) == [s for s in site.order if s in own], "newest first"
        expected = Counter(a for s in own for a in (entries[s].get("authors") or []) + unlisted[s]
                           if a != author.name)
        ranked = sorted(expected.items(), key=lambda kv: (-kv[1], kv[0].casefold()))[:network.MAX_COAUTHORS]
        assert [(c.name, c.count) for c in author.coauthors] == ranked, author.name
        assert author.coauthor_total == len(expected)
        topics = Counter(t for s in own for t in topic_tags(entries[s]))
        ranked_topics = sorted(topics.items(), key=lambda kv: (-kv[1], kv[0].casefold(), kv[0]))[:network.MAX_TOPICS]
        assert [(t.name, t.count) for t in author.topics] == ranked_topics, author.name


def test_authors_are_sorted_by_family_name(site: Site) -> None:
    families = [a.name.split()[-1].casefold() for a in site.authors]
    assert families == sorted(families)


def test_each_tag_has_exactly_the_papers_that_name_it(site: Site) -> None:
    entries = committed_entries()
    names = {t for m in entries.values() for t in topic_tags(m)}
    assert {t.name for t in site.tags} == names
    for tag in site.tags:
        tagged = [s for s in site.order if tag.name in topic_tags(entries[s])]
        assert list(tag.papers) == tagged, tag.name
        assert tag.name not in {r.name for r in tag.related}


def test_categories_group_papers_by_arxiv_category(site: Site) -> None:
    entries = committed_entries()
    for category in site.categories:
        assert list(category.papers) == [s for s in site.order if entries[s].get("category") == category.name]
    assert sum(len(c.papers) for c in site.categories) == sum(1 for m in entries.values() if m.get("category"))


def test_timeline_counts_including_undated_sum_to_the_total(site: Site) -> None:
    entries = committed_entries()
    assert sum(len(y.papers) for y in site.years) == len(entries) == 106
    by_year = Counter(d.year if (d := entry_date(m)) else 0 for m in entries.values())
    assert {y.year: len(y.papers) for y in site.years} == dict(by_year)
    assert site.years[-1].label == "Undated" and site.years[-1].slug == "undated"
    assert len(site.years[-1].papers) == by_year[0] > 0
    for year in site.years:
        if year.year:
            assert sum(len(m.papers) for m in year.months) == len(year.papers)
            assert [m.number for m in year.months] == sorted((m.number for m in year.months), reverse=True)


def test_recent_is_keyed_on_the_date_added(site: Site) -> None:
    added = [site.papers[s].entry.added for s in site.recent]
    assert all(added) and added == sorted(added, reverse=True)  # type: ignore[type-var]
    assert len(site.recent) == sum(1 for m in committed_entries().values() if m.get("added"))


def test_page_count_follows_the_page_size(site: Site) -> None:
    assert site.config.page_size == 20
    assert site.pages == 6


def test_cite_keys_are_unique_stable_and_independent_of_input_order(content: Content) -> None:
    keys = cite_keys(content.entries)
    assert len(set(keys.values())) == len(keys) == 106
    shuffled = list(content.entries)
    random.Random(3).shuffle(shuffled)
    assert cite_keys(shuffled) == keys
    assert keys["vtc-dnn-compilation-with-virtual-tensors-for-data-movement"] == "hu2026vtc"


def test_same_author_same_year_keys_get_letter_suffixes(content: Content) -> None:
    base = content.entries[0]
    twins = [dataclasses.replace(base, slug=f"twin-{i}", title="Same words", authors=("Ada Lovelace",),
                                 date=dt.date(2024, 1, 1)) for i in range(3)]
    assert sorted(cite_keys(twins).values()) == ["lovelace2024samea", "lovelace2024sameb",
                                                      "lovelace2024samec"]


def test_drafts_are_left_out_unless_asked_for(content: Content) -> None:
    cfg = site_config.load(REPO)
    drafted = dataclasses.replace(
        content, entries=tuple(dataclasses.replace(e, draft=e.slug == VTC) for e in content.entries))
    without = model.build_site(cfg, drafted)
    assert VTC not in without.papers and len(without.papers) == 105
    assert all(VTC not in a.papers for a in without.authors)
    assert VTC in model.build_site(cfg, drafted, drafts=True).papers
