"""A saved model loads as the model built from the same content, and only under its own key."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.build import buildstate, incremental, model_cache
from sitegen.build.build import build
from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.cache import CACHE_DIR, EntryCache
from sitegen.content.loader import Content, Entry, load_content
from sitegen.model import model
from sitegen.render.fragments import fingerprint

from ..site_factory import copy_site, tree_bytes, without_related_lists


def _content(root: Path) -> Content:
    report = Report()
    content = load_content(root, report)
    assert not report.has_errors, report.format()
    return content


def _assert_same_site(got: model.Site | None, built: model.Site) -> None:
    assert got is not None
    assert got == built  # papers, order, authors, tags, categories, years, indexes, cite bases
    assert got.pages == built.pages and got.cite_bases == built.cite_bases
    assert list(got.papers) == list(built.papers)  # newest first, as the templates iterate them
    assert got.network is not None and built.network is not None
    assert got.network.names_of == built.network.names_of and got.network.tags_of == built.network.tags_of
    for mine, theirs in zip(got.authors, built.authors, strict=True):  # worked out from the network when read
        assert (mine.coauthors, mine.topics, mine.coauthor_total) == \
            (theirs.coauthors, theirs.topics, theirs.coauthor_total), mine.name
        assert mine.profile == theirs.profile
    assert isinstance(got.papers, model_cache.SavedPapers)  # fingerprints read without making the papers
    assert got.papers.marks == {slug: fingerprint(paper) for slug, paper in built.papers.items()}


@pytest.mark.parametrize("drafts", [False, True])
def test_a_saved_model_loads_equal_to_the_model_built_from_the_same_entries(tmp_path: Path, drafts: bool) -> None:
    root = copy_site(tmp_path / "site")
    first = next(iter(sorted((root / "content/papers").glob("*.md"))))
    first.write_text(first.read_text().replace("---\n", "---\ndraft: true\n", 1))  # one paper hidden unless drafts
    content = _content(root)
    assert any(e.draft for e in content.entries) and content.profiles
    config = site_config.load(root, "https://example.org/list/")
    built = model.build_site(config, content, drafts)
    assert any(p.unlisted_authors for p in built.papers.values())  # profile authors the entry leaves out
    assert sum(a.profile is not None for a in built.authors) >= 2  # authors with profiles, as saved
    model_cache.save(root, built, "key")
    entries = {e.source_path: e for e in content.entries}
    _assert_same_site(model_cache.load(root, "key", config, entries, content.profiles), built)


def test_a_saved_model_is_read_only_under_its_own_key_and_version(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=6)
    content = _content(root)
    config = site_config.load(root)
    entries = {e.source_path: e for e in content.entries}
    model_cache.save(root, model.build_site(config, content), "key")
    saved = root / CACHE_DIR / model_cache.FILE
    assert model_cache.load(root, "key", config, entries, content.profiles) is not None
    assert model_cache.load(root, "other key", config, entries, content.profiles) is None
    text = saved.read_text()
    saved.write_text(text.replace('"version":"', '"version":"0.0.0-', 1))
    assert model_cache.load(root, "key", config, entries, content.profiles) is None
    for damaged in (text[: len(text) // 2], "", "[]", text.replace('"order":[', '"order":[1,', 1)):
        saved.write_text(damaged)
        assert model_cache.load(root, "key", config, entries, content.profiles) is None
    saved.write_text(text)
    fewer = dict(list(entries.items())[1:])  # a model of other entries than these cannot be assembled
    assert model_cache.load(root, "key", config, fewer, content.profiles) is None
    saved.unlink()
    assert model_cache.load(root, "key", config, entries, content.profiles) is None


def test_the_key_follows_every_entry_file_and_every_input() -> None:
    inputs = {"version": "1", "drafts": False, "profiles": {"a.yaml": "1"}}
    entries = {"content/papers/a.md": "1", "content/papers/b.md": "2"}
    key = model_cache.model_key(inputs, entries)
    assert model_cache.model_key(dict(reversed(inputs.items())), dict(reversed(entries.items()))) == key
    assert model_cache.model_key(inputs | {"drafts": True}, entries) != key
    assert model_cache.model_key(inputs | {"profiles": {"a.yaml": "2"}}, entries) != key
    assert model_cache.model_key(inputs, entries | {"content/papers/b.md": "3"}) != key
    assert model_cache.model_key(inputs, {"content/papers/a.md": "1"}) != key


def _retitle_without_building_the_model(monkeypatch: pytest.MonkeyPatch, root: Path, output: Path,
                                        title: str) -> None:
    """Give the sixth entry a new title and build, failing if the build makes the model from the entries."""
    entry = sorted((root / "content/papers").glob("*.md"))[5]
    text = entry.read_text()
    start = text.index("\ntitle:") + 1
    end = text.index("\n", start)
    entry.write_text(f"{text[:start]}title: '{title}'{text[end:]}")
    with monkeypatch.context() as patched:
        def no_build(*args: object, **kwargs: object) -> model.Site:
            raise AssertionError("the model was built again")

        patched.setattr(model, "build_site", no_build)
        result = build(root, output, search=False)
    assert result.written and "rendered" in result.pages_by_kind  # in place, not a full build


@pytest.mark.parametrize("beside", [False, True])
def test_a_front_matter_edit_in_a_new_build_patches_the_saved_model_and_saves_the_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, beside: bool) -> None:
    """Beside: the edit's pages render in a child, and the model and list signature are worked out meanwhile."""
    if beside:
        monkeypatch.setattr(incremental, "RENDER_BESIDE_PAPERS", 0)
    root = copy_site(tmp_path / "site", papers=12)
    output = tmp_path / "public"
    build(root, output, search=False)  # a full build saves its model
    for n in range(2):  # the second edit patches the model the first one saved
        _retitle_without_building_the_model(monkeypatch, root, output, f"A new title {n}: patched & saved")
        # the first renames a cite key and saves the model; the second changes no listing, and rekeys it
        assert (root / CACHE_DIR / model_cache.REKEYED).exists() == (n == 1)
    saved = buildstate.load(root)
    assert saved is not None
    key = model_cache.model_key(saved.inputs, {path: row[0] for path, row in saved.entries.items()})
    content = _content(root)
    built = model.build_site(site_config.load(root), content)
    assert "A new title 1: patched & saved" in {p.entry.title for p in built.papers.values()}
    entries = {e.source_path: e for e in content.entries}
    _assert_same_site(model_cache.load(root, key, built.config, entries, content.profiles), built)
    assert saved.signature == incremental.list_signature(content, False)
    cache = EntryCache(root)
    assert all(cache.get(row[0], path, entries[path].slug) == entries[path] for path, row in saved.entries.items())



def _edit_notes(path: Path, words: str) -> None:
    path.write_text(f"{path.read_text()}\n{words}\n")


def test_a_model_rekeyed_after_notes_edits_loads_as_the_model_of_the_new_entries(tmp_path: Path) -> None:
    """Notes edits change the key and the edited papers' fingerprints, nothing else the model holds."""
    root = copy_site(tmp_path / "site", papers=8)
    config = site_config.load(root)
    content = _content(root)
    model_cache.save(root, model.build_site(config, content), "k0")
    files = sorted((root / "content/papers").glob("*.md"))

    def edit_and_rekey(file: Path, words: str, old: str, new: str) -> tuple[Content, model.Site, dict[str, Entry]]:
        """Add notes to `file` and rekey the model from `old` to `new`; the model then loads as the one built."""
        _edit_notes(file, words)
        content = _content(root)
        slug = next(e.slug for e in content.entries if e.source_path.endswith(file.name))
        built = model.build_site(config, content)
        model_cache.rekey(root, old, new, {slug: fingerprint(built.papers[slug])})
        entries = {e.source_path: e for e in content.entries}
        _assert_same_site(model_cache.load(root, new, config, entries, content.profiles), built)
        return content, built, entries

    first, _, entries = edit_and_rekey(files[1], "A first remark.", "k0", "k1")
    assert model_cache.load(root, "k0", config, entries, first.profiles) is not None  # saved under it still
    # a second edit keeps the first one's fingerprint
    second, built, entries = edit_and_rekey(files[4], "A second remark.", "k1", "k2")
    assert model_cache.load(root, "k1", config, entries, second.profiles) is None  # only the latest key
    model_cache.rekey(root, "k9", "k3", {})  # from a key the model was not saved under: never trusted
    assert model_cache.load(root, "k3", config, entries, second.profiles) is None
    model_cache.rekey(root, "k0", "k4", {"no-such-paper": "0"})
    assert model_cache.load(root, "k4", config, entries, second.profiles) is None
    model_cache.rekey(root, "k0", "k5", {})
    model_cache.save(root, built, "k6")  # a model saved anew: what was said of the old one no longer holds
    assert not (root / CACHE_DIR / model_cache.REKEYED).exists()
    assert model_cache.load(root, "k5", config, entries, second.profiles) is None
    _assert_same_site(model_cache.load(root, "k6", config, entries, second.profiles), built)


def test_a_front_matter_edit_after_a_notes_edit_patches_the_saved_model(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Curators write notes, then fix a title: the notes edit's build leaves a model the title edit can use
    (with a paper template whose notes edit is patched from the records: see tests/build/test_notes_patch.py)."""
    root = without_related_lists(copy_site(tmp_path / "site", papers=12))
    output = tmp_path / "public"
    build(root, output, search=False)
    entry = sorted((root / "content/papers").glob("*.md"))[5]
    _edit_notes(entry, "A curator's remark, *emphasised*.")
    build(root, output, search=False)
    assert (root / CACHE_DIR / model_cache.REKEYED).exists()  # the notes were patched in, the model not saved
    _retitle_without_building_the_model(monkeypatch, root, output, "Zebras: a new title & a new cite key")
    clean = tmp_path / "clean"
    build(root, clean, search=False, use_cache=False)
    assert tree_bytes(output) == tree_bytes(clean)
