"""The model is saved whole but for its entries: read back it equals the model built, a title edit in a new
process patches it instead of building it from every entry, and a model whose old entries are lost is built
again, never patched from the entries as they now read."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import msgspec
import pytest

from sitegen.content.cache import CACHE_DIR
from sitegen.model import model, related
from sitegen.model.saved_papers import SavedPapers, row_of
from sitegen.pipeline.build import build
from sitegen.pipeline.site_engine import SiteEngine
from sitegen.pipeline.steps import codecs
from sitegen.pipeline.steps.structure import Built

from ...site_factory import copy_site, tree_bytes


def _retitle(path: Path, title: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("title:"))
    end = start + 1
    while end < len(lines) and lines[end].startswith(" "):
        end += 1
    lines[start:end] = [f"title: '{title}'\n"]
    path.write_text("".join(lines), encoding="utf-8")


def _builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the models built from every entry from now on."""
    made: list[int] = []
    real = model.build_site

    def counting(*args: object, **kwargs: object) -> object:
        made.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(model, "build_site", counting)
    return made


def _read_back(tmp_path: Path) -> tuple[Built, bytes, Built]:
    """A site's model as built, as the memo saves it, and as read back from that."""
    root = copy_site(tmp_path / "site")
    engine = SiteEngine(root, tmp_path / "out")
    engine.build(jobs=1)
    built = engine.engine.get("site")
    data = msgspec.msgpack.encode(codecs.encode(("site", None), built))
    return built, data, codecs.decode(("site", None), data, lambda key: engine.engine.get(*key))


def test_a_model_read_back_is_the_model_that_was_built(tmp_path: Path) -> None:
    built, _, back = _read_back(tmp_path)
    site, again = built.site, back.site
    assert isinstance(again.papers, SavedPapers) and not isinstance(site.papers, SavedPapers)
    assert list(again.papers) == list(site.papers) == list(site.order)
    assert all(again.papers[slug] == site.papers[slug] for slug in site.order)
    for field in ("config", "order", "recent", "queue", "authors", "tags", "categories", "years", "pages",
                  "rising", "upvotes", "redirects", "author_index", "tag_index", "cite_bases", "people"):
        assert getattr(again, field) == getattr(site, field), field
    assert again.network is not None and site.network is not None
    assert dict(again.network.names_of) == dict(site.network.names_of)
    assert [a.coauthors for a in again.authors] == [a.coauthors for a in site.authors]
    assert back.parts == built.parts and back.profiles == built.profiles and back.warnings == built.warnings


def test_a_model_read_back_decodes_only_the_rows_it_reads_and_saves_the_rest_as_it_read_them(tmp_path: Path) -> None:
    built, data, back = _read_back(tmp_path)
    papers = back.site.papers
    assert isinstance(papers, SavedPapers)
    slug = list(papers)[2]
    assert papers.row(slug) == row_of(built.site.papers[slug])
    assert [s for s, row in papers._rows.items() if not isinstance(row, msgspec.Raw)] == [slug]
    assert msgspec.msgpack.encode(codecs.encode(("site", None), back)) == data


def test_a_title_edit_in_a_new_process_patches_the_saved_model(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_site(tmp_path / "site")
    build(root, tmp_path / "public", search=False)
    made = _builds(monkeypatch)
    papers = sorted((root / "content" / "papers").glob("*.md"))
    for n, path in enumerate((papers[3], papers[40], papers[3])):
        _retitle(path, f"A retitled paper {n}: patched, not rebuilt")
        build(root, tmp_path / "public", search=False)
    assert made == []
    build(root, tmp_path / "clean", search=False, use_cache=False)
    assert tree_bytes(tmp_path / "public") == tree_bytes(tmp_path / "clean")


def test_a_saved_model_whose_old_entries_are_lost_is_built_again(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The patch compares the edited entry with the one the model was made from; without it (the entry cache
    emptied), the model is built again: patching from the entry as it now reads would see no change."""
    root = copy_site(tmp_path / "site")
    build(root, tmp_path / "public", search=False)
    paper = sorted((root / "content" / "papers").glob("*.md"))[5]
    text, dated = re.subn(r"^date: .*$", "date: 2011-02-11", paper.read_text(encoding="utf-8"), count=1,
                          flags=re.MULTILINE)
    assert dated == 1
    paper.write_text(text, encoding="utf-8")  # to another year: its old year's page must lose it
    shutil.rmtree(root / CACHE_DIR / "entries")
    made = _builds(monkeypatch)
    build(root, tmp_path / "public", search=False)
    assert made == [1]
    build(root, tmp_path / "clean", search=False, use_cache=False)
    assert tree_bytes(tmp_path / "public") == tree_bytes(tmp_path / "clean")


def test_related_lists_of_a_model_read_back_make_no_paper(tmp_path: Path) -> None:
    """A title edit's lists reach thousands of papers: they read each one's links from its row, not its entry."""
    root = copy_site(tmp_path / "site")
    engine = SiteEngine(root, tmp_path / "out")
    engine.build(jobs=1)
    built, near = engine.engine.get("site"), engine.engine.get("neighbours").likeness.near
    data = msgspec.msgpack.encode(codecs.encode(("site", None), built))
    back = codecs.decode(("site", None), data, lambda key: engine.engine.get(*key))
    assert related.lists(back.site, near) == related.lists(built.site, near)
    papers = back.site.papers
    assert isinstance(papers, SavedPapers) and not [slug for slug in papers if papers.made(slug) is not None]
