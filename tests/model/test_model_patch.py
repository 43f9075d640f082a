"""A patched model equals a model built from scratch, after any sequence of entry edits."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import AuthorProfile, Content, Entry, load_content
from sitegen.model import model, routes
from sitegen.model.model_patch import patch_site
from sitegen.model.site import Site

from ..html_tools import REPO

SUBSET = 40  # of the committed entries: enough shared authors, tags, profiles and dates, and fast
# Author files naming other spellings of a person, which the author edits below write: each paper naming one is
# that person's, who counts once on it
ALIASES = {"Ahan Gupta": ("A. Gupta", "Ahan  Gupta")}
KAISER = AuthorProfile("content/authors/lukasz-kaiser.yaml", "lukasz-kaiser", "Łukasz Kaiser",
                       aliases=("Lukasz Kaiser", "L. Kaiser"))


@functools.cache
def _content() -> Content:
    report = Report()
    loaded = load_content(REPO, report)
    assert not report.has_errors, report.format()
    profiles = tuple(dataclasses.replace(p, aliases=ALIASES.get(p.name, p.aliases)) for p in loaded.profiles)
    return Content(loaded.entries[:SUBSET], (*profiles, KAISER))


@functools.cache
def _config() -> site_config.SiteConfig:
    return dataclasses.replace(site_config.load(REPO, "https://example.org/list/"), page_size=7)


@pytest.fixture
def content() -> Content:
    return _content()


@pytest.fixture
def config() -> site_config.SiteConfig:
    return _config()


def _pick(values: list, n: int):  # type: ignore[no-untyped-def]
    return values[n % len(values)]


DAYS = [dt.date(2026, 4, 17), dt.date(2026, 5, 19), dt.date(2026, 6, 20)]  # the first two are the dumps' own


def _sighting(day: dt.date, upvotes: int) -> tuple[tuple[str, object], ...]:
    """A source record as an entry holds it: a sighting on Hugging Face Daily Papers with its upvotes."""
    return tuple(sorted({"file": f"hf-{day}.txt", "format": "hf-daily-papers", "captured": day, "line": 1,
                         "upvotes": upvotes}.items()))


def edit(entries: dict[str, Entry], kind: str, a: int, b: int) -> Entry:
    """One front-matter edit of a paper, drawn to collide with other papers' values."""
    slugs = sorted(entries)
    e, other = entries[_pick(slugs, a)], entries[_pick(slugs, a + b)]
    names = sorted({n for x in entries.values() for n in x.authors})
    tags = sorted({t for x in entries.values() for t in x.tags})
    if kind == "title":  # another paper's title: the same cite key base when author and year agree too
        return dataclasses.replace(e, title=_pick([other.title, f"Edited {b}: a new & other title", e.title + "!"], b))
    if kind == "date":
        new = _pick([other.date, None, dt.date(2020 + b % 7, 1 + b % 12, 1 + b % 28)], b)
        return dataclasses.replace(e, date=new)
    if kind == "authors":
        choices = [other.authors, (_pick(names, b), _pick(names, a)), (f"New Author {b}",), (),
                   ("Łukasz Kaiser", "Lukasz Kaiser"), e.authors[::-1], e.authors[1:], ("L. Kaiser", _pick(names, b)),
                   ("A. Gupta", *e.authors[:2]), ("Ahan  Gupta", "Ahan Gupta")]
        authors = tuple(dict.fromkeys(_pick(choices, b)))
        return dataclasses.replace(e, authors=authors)
    if kind == "tags":
        choices = [other.tags, (_pick(tags, b),), (f"topic-{b % 3}",), (), (_pick(tags, b).upper(),), e.tags[1:]]
        return dataclasses.replace(e, tags=tuple(dict.fromkeys(_pick(choices, b))))
    if kind == "category":
        return dataclasses.replace(e, category=_pick([other.category, None, "cs.LG", "cs.NE"], b))
    if kind == "added":
        return dataclasses.replace(e, added=_pick([other.added, None, dt.date(2026, 1 + b % 12, 1)], b))
    if kind == "draft":
        return dataclasses.replace(e, draft=not e.draft)
    if kind == "sources":  # seen on other days, with other upvotes: the Rising list's days and gains move
        seen = [_sighting(_pick(DAYS, a + b), b % 9), _sighting(_pick(DAYS, b), a % 5)]
        choices = [(), other.sources, e.sources[:1], (*e.sources, seen[0]), tuple(seen), (*other.sources, *seen)]
        return dataclasses.replace(e, sources=_pick(choices, b))
    if kind == "cites":  # cites another paper by its arXiv id or DOI, one not on the list, or nothing
        ids = [other.arxiv or "2101.00001", f"10.1000/P{b % 3}", "10.1000/none"]
        return dataclasses.replace(e, cites=tuple(ids[: b % 4]))
    if kind == "doi":  # a DOI those citations name
        return dataclasses.replace(e, doi=f"10.1000/p{b % 3}")
    return dataclasses.replace(e, abstract=f"Abstract {b}", notes=f"Notes {b}")


EDITS = st.lists(st.tuples(st.sampled_from(["title", "date", "authors", "tags", "category", "added", "draft",
                                            "sources", "cites", "doi", "text"]),
                           st.integers(0, 200), st.integers(0, 200)),
                 min_size=1, max_size=3)


def edited(entries: dict[str, Entry], step: list[tuple[str, int, int]]) -> tuple[dict[str, Entry], Site]:
    """Apply one step's edits to `entries` (slug -> entry, in place): the edited entries, and the model built anew."""
    changed: dict[str, Entry] = {}
    for kind, a, b in step:
        e = edit(entries | changed, kind, a, b)
        changed[e.slug] = e
    entries |= changed
    content = Content(tuple(entries[s] for s in sorted(entries)), _content().profiles)
    return changed, model.build_site(_config(), content)


def assert_same_site(patched: Site, built: Site) -> None:
    assert list(patched.papers.items()) == list(built.papers.items())  # the same papers, in the same order
    assert patched == built
    assert patched.cite_bases == built.cite_bases
    for mine, theirs in zip(patched.authors, built.authors, strict=True):
        assert (mine.coauthors, mine.topics, mine.coauthor_total) == \
               (theirs.coauthors, theirs.topics, theirs.coauthor_total), mine.name
    assert list(patched.author_index) == list(built.author_index)


@settings(max_examples=300, deadline=None)
@given(steps=st.lists(EDITS, min_size=1, max_size=4))
@example(steps=[[("title", 155, 0), ("date", 0, 62)]])  # two papers moved at once
# a Rising page appears (a later day), another paper gains on it, the first paper's sightings go: another tops it
@example(steps=[[("sources", 1, 4)], [("sources", 2, 10)], [("sources", 1, 0)]])
def test_patched_site_equals_the_built_one(steps: list[list[tuple[str, int, int]]]) -> None:
    """The engine's `site` step patches its last model (sitegen/pipeline/steps/structure.py): each patch it keeps
    must be the model built anew, with the same files where it says so."""
    content, config = _content(), _config()
    entries = {e.slug: e for e in content.entries}
    site = model.build_site(config, content)
    for step in steps:
        changed, built = edited(entries, step)
        patch = patch_site(site, changed, content.profiles, drafts=False)
        if patch is None:
            site = built
            continue
        assert_same_site(patch.site, built)
        if patch.same_files:
            assert routes.plan(patch.site) == routes.plan(built)
        site = patch.site


def test_patches_cover_the_common_edits(content: Content, config: site_config.SiteConfig) -> None:
    """Title, date, tag and author edits of one paper are patched, not rebuilt (else the test above proves little)."""
    site = model.build_site(config, content)
    entries = {e.slug: e for e in content.entries}
    outcomes: Counter[tuple[str, bool]] = Counter()
    for kind in ("title", "date", "authors", "tags", "category", "added", "sources", "text"):
        for a in range(0, 40, 3):
            e = edit(entries, kind, a, a + 1)
            if any(t != t.lower() for t in e.tags):  # 'COMPILERS' would take the slug 'compilers' from 'compilers'
                continue
            patch = patch_site(site, {e.slug: e}, content.profiles, drafts=False)
            outcomes[kind, patch is not None] += 1
            if patch is not None:
                patch.undo()  # the network is shared with `site`, which the next edit starts from again
    for kind in ("title", "date", "tags", "category", "added", "sources", "text"):
        assert outcomes[kind, False] == 0, kind
    assert outcomes["authors", True] > outcomes["authors", False]


def test_a_failed_edit_can_be_undone(content: Content, config: site_config.SiteConfig) -> None:
    """The co-author network is shared with the previous Site; undo leaves that Site as it was."""
    site = model.build_site(config, content)
    fresh = model.build_site(config, content)
    victim = next(e for e in content.entries if len(e.authors) > 1)
    edited = dataclasses.replace(victim, authors=(*victim.authors[:1], "Someone Else"))
    patch = patch_site(site, {victim.slug: edited}, content.profiles, drafts=False)
    assert patch is not None
    patch.undo()
    untouched = [a for a in site.authors if victim.slug not in a.papers]
    for mine in [*untouched[:20], *(a for a in site.authors if victim.slug in a.papers)]:
        theirs = fresh.author_index[mine.slug]
        assert (mine.coauthors, mine.topics) == (theirs.coauthors, theirs.topics), mine.name


def test_an_edit_to_an_entry_writing_its_category_in_another_case_patches_as_a_build_does() -> None:
    """`cs.lg` is listed under `cs.LG`: the patch regroups the edited paper there, as building the model does."""
    root = Path(__file__).resolve().parents[2]
    content = load_content(root, Report())
    cfg = site_config.load(root)
    entries = list(content.entries)
    at = next(i for i, e in enumerate(entries) if e.category == "cs.LG")
    entries[at] = dataclasses.replace(entries[at], category="cs.lg")
    before = dataclasses.replace(content, entries=tuple(entries))
    edited = dataclasses.replace(entries[at], title=entries[at].title + " (revised)")
    after = dataclasses.replace(before, entries=tuple(edited if e.slug == edited.slug else e for e in entries))
    patch = patch_site(model.build_site(cfg, before), {edited.slug: edited}, before.profiles, drafts=False)
    assert patch is not None
    built = model.build_site(cfg, after)
    assert [(c.name, c.papers) for c in patch.site.categories] == [(c.name, c.papers) for c in built.categories]
