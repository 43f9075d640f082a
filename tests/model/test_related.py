"""A paper's related papers: one score of text, shared authors and shared tags; ties newest first; the reasons."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import Content, load_content
from sitegen.model import model, related
from sitegen.model.model_patch import patch_site
from sitegen.model.site import Paper, Site

from ..html_tools import REPO
from . import test_model_patch as model_edits

Made = dict[str, tuple[tuple[str, ...], tuple[str, ...], dt.date | None]]


@pytest.fixture(scope="module")
def content() -> Content:
    report = Report()
    loaded = load_content(REPO, report)
    assert not report.has_errors, report.format()
    return loaded


def _site(content: Content, papers: Made, abstracts: dict[str, str] | None = None) -> Site:
    """A site of made-up papers: slug -> (authors, tags, date); titles with no word in common, no abstracts."""
    base = content.entries[0]
    entries = tuple(dataclasses.replace(base, slug=slug, title=f"Study {i}", abstract=(abstracts or {}).get(slug, ""),
                                        authors=authors, tags=tags, date=date, category=None, sources=())
                    for i, (slug, (authors, tags, date)) in enumerate(papers.items()))
    return model.build_site(site_config.SiteConfig(), Content(entries, ()))


def _day(n: int) -> dt.date:
    return dt.date(2024, 1, 1) + dt.timedelta(days=n)


def _authors(paper: Paper) -> set[str]:
    return {r.slug for r in (*paper.authors, *paper.unlisted_authors)}


def _naive(site: Site, paper: Paper, near: tuple[tuple[str, float], ...]) -> list[str]:
    """The definition: every other paper scored, sorted by score, then newest first."""
    text = {slug: c for slug, c in near if c >= related.MIN_TEXT}
    scored = []
    for other in site.papers.values():
        if other.slug != paper.slug:
            a = len(_authors(paper) & _authors(other))
            t = len({r.slug for r in paper.tags} & {r.slug for r in other.tags})
            score = round(text.get(other.slug, 0.0) + related.AUTHOR * min(a, 2) + related.TAG * min(t, 3), 6)
            if score > 0:
                scored.append(((-score, model.order_key(other.entry)), other.slug))
    return [slug for _, slug in sorted(scored)[:related.LIMIT]]


def test_an_author_in_common_outweighs_tags_and_equal_scores_go_newest_first(content: Content) -> None:
    site = _site(content, {
        "this": (("Ada", "Bo"), ("x", "y", "z", "w"), _day(50)),
        "both-authors": (("Bo", "Ada"), (), _day(1)),  # 0.6: first, though the oldest
        "ada-and-tag": (("Ada",), ("x",), _day(2)),  # 0.4
        "four-tags": (("Eve",), ("x", "y", "z", "w"), _day(3)),  # 0.3: three counted, as much as one author
        "bo-new": (("Bo",), (), _day(90)),  # 0.3, newer than four-tags
        "two-tags": (("Eve",), ("x", "y"), _day(99)),  # 0.2: the sixth, left out
        "stranger": (("Cy",), ("v",), _day(98)),
    })
    found = related.for_paper(site, site.papers["this"])
    assert [(r.slug, r.authors, r.tags) for r in found] == [  # scores 0.6, 0.4, 0.3, 0.3, 0.2
        ("both-authors", 2, 0), ("ada-and-tag", 1, 1), ("bo-new", 1, 0), ("four-tags", 0, 4), ("two-tags", 0, 2)]


def test_a_close_abstract_ranks_with_its_tags_and_is_told_apart_from_a_close_title(content: Content) -> None:
    words = "sparse attention kernels fuse softmax tiles in shared memory"
    site = _site(content, {
        "this": ((), ("x",), _day(5)), "close": ((), (), _day(1)), "tagged": ((), ("x",), _day(9)),
        "far": ((), (), _day(2)), "other": ((), (), _day(3)), "more": ((), (), _day(4)),
    }, abstracts={"this": words, "close": words.replace("shared", "global"),
                  "far": "protein folding on clusters", "other": "protein design", "more": "clusters of stars"})
    this = site.papers["this"]
    found = related.for_paper(site, this)
    assert [r.slug for r in found] == ["close", "tagged"]
    assert found[0].similar and not found[1].similar  # the cosine outweighs the tag
    assert related.reasons(this, site.papers["close"], found[0]) == ("similar abstract",)
    assert related.reasons(this, site.papers["tagged"], found[1]) == ("shares a tag",)
    untitled = dataclasses.replace(site.papers["close"], entry=dataclasses.replace(site.papers["close"].entry,
                                                                                      abstract=""))
    assert related.reasons(this, untitled, found[0]) == ("similar title",), "no abstract: the title matched"


def test_reasons_say_what_is_shared() -> None:
    paper = Paper.__new__(Paper)
    assert related.reasons(paper, paper, related.Related("s", 2, 3, False)) == ("same 2 authors", "shares 3 tags")
    assert related.reasons(paper, paper, related.Related("s", 1, 0, False)) == ("same author",)


def test_every_list_of_the_bundled_site_is_its_definition(content: Content) -> None:
    """Reading only the papers that can be chosen gives what scoring every paper gives, for every paper."""
    site = model.build_site(site_config.load(REPO), content)
    texts = {slug: related.text_of(p.entry.title, p.entry.abstract) for slug, p in site.papers.items()}
    near = related.similar.nearest(texts)
    sizes = []
    for slug, paper in site.papers.items():
        found = related.for_paper(site, paper)
        assert [r.slug for r in found] == _naive(site, paper, near.get(slug, ())), slug
        for r in found:
            other = site.papers[r.slug]
            assert (r.authors, r.tags, r.similar) == (len(_authors(paper) & _authors(other)),
                                                     len({t.slug for t in paper.tags} & {t.slug for t in other.tags}),
                                                     dict(near.get(slug, ())).get(r.slug, 0) >= related.MIN_TEXT)
            assert r.authors or r.tags or r.similar
        sizes.append(len(found))
    # a paper far from the rest (the list's one quantum algorithm) has a short list rather than unrelated ones
    assert min(sizes) >= 1 and sizes.count(related.LIMIT) >= 0.95 * len(sizes)


people = st.sampled_from(["Ada", "Bo", "Cy", "Di"])
topics = st.sampled_from(["x", "y", "z", "w", "v"])
made = st.tuples(st.lists(people, max_size=3, unique=True), st.lists(topics, max_size=5, unique=True),
                 st.one_of(st.none(), st.integers(0, 30).map(_day)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.data(), papers=st.lists(made, min_size=2, max_size=70))
def test_any_site_ranks_as_scoring_every_paper(content: Content, texts: st.DataObject,
                                               papers: list[tuple[list[str], list[str], dt.date | None]]) -> None:
    """Levels of shared authors and tags, close texts among them, ties, undated papers, short lists."""
    site = _site(content, {f"p{i:02d}": (tuple(a), tuple(t), d) for i, (a, t, d) in enumerate(papers)})
    slugs = list(site.papers)
    near = {}
    for slug in slugs:
        found = texts.draw(st.lists(st.tuples(st.sampled_from(slugs), st.sampled_from([0.05, 0.1, 0.2, 0.35])),
                                    max_size=6, unique_by=lambda n: n[0]))
        near[slug] = tuple(sorted(found, key=lambda n: (-n[1], n[0])))
    for slug, found in related.lists(site, near).items():
        assert [r.slug for r in found] == _naive(site, site.papers[slug], near[slug]), slug


@settings(max_examples=80, deadline=None)
@given(steps=st.lists(model_edits.EDITS, min_size=1, max_size=4))
def test_lists_after_a_patch_of_the_model_are_those_of_the_whole_site(steps: list[list[tuple[str, int, int]]]) -> None:
    """`relisted` (the engine's `related_lists` after a tag, author, date or status edit) works out again only the
    lists the edited papers can reach: the others must be what working out every list gives."""
    content = model_edits._content()
    entries = {e.slug: e for e in content.entries}
    near = related.similar.nearest({s: related.text_of(e.title, e.abstract) for s, e in entries.items()})
    site = model.build_site(model_edits._config(), content)
    found = related.lists(site, near)
    for step in steps:
        changed, built = model_edits.edited(entries, step)
        patch = patch_site(site, changed, content.profiles, drafts=False)
        if patch is None or not patch.same_files:  # the engine builds the model then, and every list
            if patch is not None:
                patch.undo()
            site, found = built, related.lists(built, near)
            continue
        site, found = patch.site, related.relisted(patch.site, near, found, patch.papers)
        assert found == related.lists(site, near)
