"""No two things share a page: categories spelled in two cases are one, true clashes are errors."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from sitegen.common.errors import BuildFailed, Report, SitegenError
from sitegen.content import categories
from sitegen.content import config as site_config
from sitegen.content.loader import Content, entry_from_text, load_content
from sitegen.model import model, routes
from sitegen.model.site import Site
from sitegen.pipeline.build import build

from ..html_tools import listed_papers, parse_html
from ..site_factory import copy_site


def _entry(root: Path, stem: str, title: str, **fields: str | list[str]) -> Path:
    """Write content/papers/<stem>.md; list fields as YAML lists, one item a line."""
    lines = ["---", f"title: {title}", "authors:", "- Ada Lovelace", "date: 2021-05-04"]
    for key, value in fields.items():
        lines += [f"{key}:", *(f"- {v!r}" for v in value)] if isinstance(value, list) else [f"{key}: {value!r}"]
    path = root / "content" / "papers" / f"{stem}.md"
    path.write_text("\n".join([*lines, "---", "", "Notes."]) + "\n", encoding="utf-8")
    return path


def _content(root: Path) -> Content:
    report = Report()
    content = load_content(root, report)
    assert not report.has_errors, report.format()
    return content


def _site(root: Path) -> tuple[Site, Report]:
    """The model with its warnings, messages naming their lines (given the root)."""
    report = Report()
    return model.build_site(site_config.load(root), _content(root), report=report, root=root), report


def _page_papers(page: Path) -> list[str]:
    return listed_papers(parse_html(page.read_text(encoding="utf-8")))


def test_categories_differing_only_in_case_are_one_page_listing_every_paper(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=0)
    _entry(root, "upper", "Upper Case", category="cs.LG")
    _entry(root, "lower", "Lower Case", category="cs.lg")
    _entry(root, "mixed", "Mixed Case", category="cs.Lg")
    out = tmp_path / "out"
    result = build(root, out, search=False)
    assert result.pages_by_kind["category"] == 1
    assert sorted(_page_papers(out / "categories" / "cs-lg" / "index.html")) == ["lower", "mixed", "upper"]
    for slug in ("upper", "lower", "mixed"):  # each paper names and links the category as arXiv writes it
        page = (out / "papers" / slug / "index.html").read_text(encoding="utf-8")
        assert 'href="../../categories/cs-lg/" title="Machine Learning"' in page
        assert ">cs.LG</a>" in page and ">cs.lg<" not in page and ">cs.Lg<" not in page


def test_each_other_spelling_of_a_category_is_a_warning_naming_both(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=0)
    _entry(root, "a", "First", category="cs.LG")
    _entry(root, "b", "Second", category="cs.lg")
    _entry(root, "c", "Third", category="cs.lg")
    _entry(root, "d", "Fourth", tags=["x"], category="q-bio.bm")
    site, report = _site(root)
    assert [c.name for c in site.categories] == ["cs.LG", "q-bio.BM"]
    assert report.format() == (
        "content/papers/b.md:6: warning[W421]: category 'cs.lg' is listed as 'cs.LG', "
        "as content/papers/a.md:6 writes it\n"
        "  hint: arXiv categories ignore case; write 'cs.LG' here and in 1 more file\n"
        "content/papers/d.md:8: warning[W421]: category 'q-bio.bm' is listed as 'q-bio.BM'\n"
        "  hint: arXiv categories ignore case; write 'q-bio.BM' here")


def test_canonical_spelling_is_arxivs_for_every_known_class_whatever_the_case() -> None:
    known = [*categories.STANDALONE, *(f"{a}.{s}" for a, subjects in categories.ARCHIVES.items() for s in subjects)]
    for code in known:
        assert categories.canonical(code) == code
        assert categories.canonical(code.lower()) == code
        assert categories.canonical(code.upper()) == code
    assert categories.canonical("cond-mat.STR-EL") == "cond-mat.str-el"  # not in the table: the same rule


def test_two_categories_with_one_slug_are_an_error_naming_both_files(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=1)
    _entry(root, "good", "Good", category="cs.LG")
    _entry(root, "bad", "Bad", category="cs-lg")
    out = tmp_path / "out"
    with pytest.raises(SitegenError) as built:
        build(root, out, search=False)
    assert [(d.code, d.location.path) for d in built.value.diagnostics if d.severity == "error"] == [
        ("E420", "content/papers/bad.md")]
    assert "content/papers/good.md" in built.value.diagnostics[0].message
    assert not out.exists()
    with pytest.raises(BuildFailed) as info:
        _site(root)
    assert [d.format() for d in info.value.diagnostics] == [
        "content/papers/bad.md:6: error[E420]: category 'cs-lg' and category 'cs.LG' (content/papers/good.md:6) "
        "would both be written to categories/cs-lg/\n"
        "  hint: correct the category: arXiv writes them like 'cs.LG' or 'physics.comp-ph'"]


def test_two_entries_of_one_slug_are_an_error_even_past_the_loader(tmp_path: Path) -> None:
    """The loader refuses two files of one slug (E204); the model does not rely on it."""
    report = Report()
    text = "---\ntitle: {}\nauthors:\n- Ada Lovelace\n---\n"
    first = entry_from_text(text.format("One"), "content/papers/Same.md", "Same", report)
    second = entry_from_text(text.format("Two"), "content/papers/same.md", "same", report)
    assert first is not None and second is not None and first.slug == second.slug == "same"
    with pytest.raises(BuildFailed) as info:
        model.build_site(site_config.SiteConfig(), Content((first, second), ()))
    [diagnostic] = info.value.diagnostics
    assert diagnostic.format() == (
        "content/papers/same.md:1: error[E420]: paper 'same' and paper 'same' (content/papers/Same.md:1) "
        "would both be written to papers/same/\n"
        "  hint: rename one of the files: a paper's URL comes from its file name")


def test_tags_and_authors_whose_slugs_meet_keep_a_page_each_with_their_papers(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=0)
    _entry(root, "p1", "One", tags=["ML", "C++"])
    _entry(root, "p2", "Two", tags=["ml", "C"])
    _entry(root, "p3", "Three", tags=["C#"])
    path = root / "content" / "papers" / "p3.md"
    path.write_text(path.read_text().replace("- Ada Lovelace", "- ada lovelace"))
    out = tmp_path / "out"
    build(root, out, search=False)
    site = model.build_site(site_config.load(root), _content(root))
    tags = {t.name: t for t in site.tags}
    # "ML" and "ml" are one tag (tags ignore case); "c", "c++" and "c#" are three whose slugs meet
    assert len({t.slug for t in site.tags}) == len(site.tags) == 4
    for name, papers in {"ml": ["p1", "p2"], "c++": ["p1"], "c": ["p2"], "c#": ["p3"]}.items():
        assert _page_papers(out / "tags" / tags[name].slug / "index.html") == papers, name
    authors = {a.name: a.slug for a in site.authors}
    assert len(set(authors.values())) == 2
    assert _page_papers(out / "authors" / authors["ada lovelace"] / "index.html") == ["p3"]
    assert sorted(_page_papers(out / "authors" / authors["Ada Lovelace"] / "index.html")) == ["p1", "p2"]


def test_every_file_of_the_plan_has_its_own_output_path(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=30)
    _entry(root, "x1", "X", tags=["ML", "ml", "C", "C++", "index", "feed"], category="cs.lg")
    _entry(root, "x2", "Y", tags=["Index", "page"], category="cs.LG")
    site = model.build_site(site_config.load(root), _content(root))
    outputs = Counter(spec.output for spec in routes.plan(site))
    assert [out for out, n in outputs.items() if n > 1] == []


def test_rebuilds_after_edits_list_every_paper_under_its_category_as_a_full_build_does(tmp_path: Path) -> None:
    """A cased spelling that appears by an edit (a new model), and an edit to an entry written so (a patch)."""
    from ..site_factory import tree_bytes

    root = copy_site(tmp_path / "site", papers=3)
    _entry(root, "upper", "Upper", category="cs.LG")
    edited = _entry(root, "lower", "Lower", category="cs.LG")
    out = tmp_path / "out"
    build(root, out, search=False)
    for old, new in (("'cs.LG'", "'cs.lg'"), ("title: Lower", "title: Lower still")):
        edited.write_text(edited.read_text().replace(old, new))
        build(root, out, search=False)
        fresh = tmp_path / "fresh"
        build(root, fresh, search=False, use_cache=False)
        assert tree_bytes(out) == tree_bytes(fresh)
        assert sorted(_page_papers(out / "categories" / "cs-lg" / "index.html")) == ["lower", "upper"]
