"""`sitegen build`: what it writes, per kind and on disk; deterministic, atomic, clear when it fails."""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

from sitegen.common.errors import BuildFailed, SitegenError
from sitegen.pipeline.build import build

from ..conftest import REPO, SITE_URL, BuiltSite
from ..html_tools import ARXIV, committed_entries, entry_date, listed_papers, read_html, topic_tags
from ..site_factory import copy_site, tree_bytes

SINGLE_PAGES = ("404", "authors", "categories", "citation-network", "feed", "feeds-opml", "network", "network-json",
                "nojekyll", "papers-json", "reading-list-bib", "reading-list-json", "reading-list-ris", "recent",
                "recent-feed", "robots", "search", "sitemap", "social-card", "tags", "timeline")


def sitegen(*args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real command line (`sitegen ...`) in a child process."""
    return subprocess.run([sys.executable, "-c", "from sitegen.cli import main; main()", *map(str, args)],
                          capture_output=True, text=True, timeout=120, cwd=cwd, check=False)


def expected_kinds() -> Counter[str]:
    """Pages per kind, counted from the entries' front matter and the theme folder alone."""
    entries = committed_entries()
    profiles = [yaml.safe_load(p.read_text()) for p in sorted((REPO / "content" / "authors").glob("*.yaml"))]
    dumps = {s["file"] for m in entries.values() for s in m.get("sources") or [] if "file" in s}  # not a hand one
    authors = {a for m in entries.values() for a in m.get("authors") or []}
    authors |= {p["name"] for p in profiles if p.get("source") in dumps}
    tags = {t for m in entries.values() for t in topic_tags(m)}
    categories = {m.get("category") or next((t for t in m.get("tags") or [] if ARXIV.fullmatch(t)), None)
                  for m in entries.values()} - {None}
    years = {d.year if (d := entry_date(m)) else 0 for m in entries.values()}
    kinds: Counter[str] = Counter({kind: 1 for kind in SINGLE_PAGES})
    kinds.update({
        "home": math.ceil(len(entries) / 20),
        "paper": len(entries), "cite-bib": len(entries), "cite-ris": len(entries), "cite-json": len(entries),
        **{kind: len(authors) for kind in ("author", "author-feed")},
        **{kind: len(tags) for kind in ("tag", "tag-feed")},
        "category": len(categories),
        "year": len(years),
        "static": sum(1 for p in (REPO / "themes" / "default" / "static").rglob("*") if p.is_file()),
    })
    if yaml.safe_load((REPO / "site.yaml").read_text()).get("domain"):
        kinds["cname"] = 1
    return kinds


def test_pages_per_kind_in_the_build_result(built_site: BuiltSite) -> None:
    kinds = built_site.result.pages_by_kind
    assert kinds == expected_kinds()
    assert (kinds["paper"], kinds["home"], kinds["author"], kinds["tag"], kinds["year"]) == (106, 6, 392, 37, 10)
    assert built_site.result.removed == 0 and built_site.result.written == sum(kinds.values())


def test_pages_per_kind_on_disk(built_site: BuiltSite) -> None:
    out = built_site.output
    kinds = built_site.result.pages_by_kind

    def count(pattern: str) -> int:
        return sum(1 for p in out.glob(pattern) if p.is_file())

    assert count("papers/*/index.html") == kinds["paper"] == 106
    for ext in ("bib", "ris", "json"):
        assert count(f"papers/*/cite.{ext}") == kinds[f"cite-{ext}"]
    assert count("index.html") + count("page/*/index.html") == kinds["home"]
    assert count("authors/*/index.html") == kinds["author"]
    for folder, kind in (("authors", "author"), ("tags", "tag")):
        assert count(f"{folder}/*/index.html") == kinds[kind] == count(f"{folder}/*/feed.xml")
        assert count(f"{folder}/*/papers.*") == 0  # their citations are joined in the browser (docs/outputs.md)
    assert count("categories/*/index.html") == kinds["category"]
    assert count("timeline/*/index.html") == kinds["year"]
    assert count("static/*") == kinds["static"]
    outside_search = [p for p in out.rglob("*") if p.is_file() and p.relative_to(out).parts[0] != "pagefind"]
    assert len(outside_search) == sum(kinds.values())


def test_the_output_folder_holds_only_the_build(built_site: BuiltSite) -> None:
    assert [p.name for p in built_site.output.parent.iterdir()] == ["public"]  # no staging folder left behind


def test_two_builds_of_the_same_input_are_byte_identical(built_site: BuiltSite, rebuilt_site: BuiltSite) -> None:
    """The search bundle included: Pagefind's filter files are put in one order (publish/pagefind_stable.py)."""
    first, second = tree_bytes(built_site.output), tree_bytes(rebuilt_site.output)
    assert sorted(first) == sorted(second)
    assert [name for name in first if first[name] != second[name]] == []
    assert sum(1 for name in first if name.startswith("pagefind/s0/fragment/")) == 106
    assert sum(1 for name in first if name.startswith("pagefind/s0/filter/")) >= 3  # tag, author, year, ...


def test_cli_prints_the_summary_per_kind(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = sitegen("build", "--root", REPO, "--output", out, "--base-url", SITE_URL, "--no-search")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    kinds = expected_kinds()
    assert lines[-3].startswith(f"built {sum(kinds.values())} files into {out} in ")
    summary = dict(reversed(part.split(" ", 1)) for part in lines[-2].split(", "))
    assert lines[-1].startswith(f"the site: {sum(kinds.values()):,} files, ")
    assert {kind: int(n) for kind, n in summary.items()} == kinds
    assert (out / "papers").is_dir() and not (out / "pagefind").exists()


def test_a_broken_entry_fails_the_build_with_path_line_and_keeps_the_previous_output(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=4)
    out = tmp_path / "out"
    assert sitegen("build", "--root", root, "--output", out, "--no-search").returncode == 0
    before = tree_bytes(out)
    victim = sorted((root / "content" / "papers").glob("*.md"))[1]
    lines = victim.read_text().splitlines(keepends=True)
    lines.insert(3, "tags: [unclosed, list\n")  # line 4 of the file
    victim.write_text("".join(lines))

    proc = sitegen("build", "--root", root, "--output", out, "--no-search")
    assert proc.returncode != 0
    assert f"content/papers/{victim.name}:4:" in proc.stderr
    assert "invalid YAML" in proc.stderr
    assert tree_bytes(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "site"]
    with pytest.raises(BuildFailed) as info:
        build(root, out, search=False)
    assert [(d.location.path, d.location.line) for d in info.value.diagnostics] == [
        (f"content/papers/{victim.name}", 4)]
    assert tree_bytes(out) == before


def test_stale_files_disappear_and_unchanged_files_are_kept(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=4)
    out = tmp_path / "out"
    build(root, out, search=False)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()}
    again = build(root, out, search=False)
    assert again.written == 0 and again.removed == 0
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.is_file()} == before  # untouched, not rewritten

    victim = sorted((root / "content" / "papers").glob("*.md"))[0]
    victim.unlink()
    result = build(root, out, search=False)
    assert not (out / "papers" / victim.stem).exists()
    assert result.removed >= 4  # the page and its three citation files, at least
    build(root, tmp_path / "fresh", search=False)
    assert tree_bytes(out) == tree_bytes(tmp_path / "fresh")


def test_a_folder_that_is_not_a_build_is_never_replaced(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=2)
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "thesis.tex").write_text("years of work")
    with pytest.raises(SitegenError) as info:
        build(root, precious, search=False)
    assert info.value.diagnostics[0].code == "E503"
    assert (precious / "thesis.tex").read_text() == "years of work"


def _insert_line(path: Path, after: str, line: str) -> int:
    """Insert `line` after the first line containing `after`; return its 1-based line number."""
    lines = path.read_text().splitlines(keepends=True)
    at = next(i for i, text in enumerate(lines) if after in text) + 1
    lines.insert(at, line + "\n")
    path.write_text("".join(lines))
    return at + 1


def test_a_template_error_names_the_template_file_and_line(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=2)
    template = root / "themes" / "default" / "templates" / "paper.html"
    line = _insert_line(template, "{% block main %}", "<p>{{ paper.no_such_field.deeper }}</p>")
    with pytest.raises(SitegenError) as info:
        build(root, tmp_path / "out", search=False)
    [diagnostic] = info.value.diagnostics
    assert (diagnostic.location.path, diagnostic.location.line) == ("themes/default/templates/paper.html", line)
    assert "no_such_field" in diagnostic.message
    proc = sitegen("build", "--root", root, "--output", tmp_path / "out", "--no-search")
    assert proc.returncode != 0 and f"themes/default/templates/paper.html:{line}:" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_build_that_fails_while_rendering_keeps_the_parsed_entries_and_leaves_no_child(tmp_path: Path) -> None:
    """The entry cache is saved by a forked child beside the rendering; a failure still waits for it."""
    from sitegen.content.cache import CACHE_DIR, ENTRIES, SUFFIX, EntryCache, digest
    from sitegen.content.loader import slug_of

    from ..common.test_forked import _children

    root = copy_site(tmp_path / "site", papers=4)
    template = root / "themes" / "default" / "templates" / "paper.html"
    _insert_line(template, "{% block main %}", "<p>{{ paper.no_such_field.deeper }}</p>")
    before = _children()
    with pytest.raises(SitegenError):
        build(root, tmp_path / "out", search=False)
    assert _children() <= before
    assert not (tmp_path / "out").exists()
    shards = list((root / CACHE_DIR / ENTRIES).glob(f"*{SUFFIX}"))
    entries = sorted((root / "content" / "papers").glob("*.md"))
    assert shards and entries
    cache = EntryCache(root)
    for path in entries:
        shown = path.relative_to(root).as_posix()
        assert cache.get(digest(path.read_bytes()), shown, slug_of(path.stem)) is not None, shown


def test_a_template_syntax_error_names_the_partial_and_line(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=2)
    partial = root / "themes" / "default" / "templates" / "partials" / "item.html"
    line = _insert_line(partial, '<article class="item">', "  {% if %}")
    with pytest.raises(SitegenError) as info:
        build(root, tmp_path / "out", search=False)
    [diagnostic] = info.value.diagnostics
    assert (diagnostic.location.path, diagnostic.location.line) == ("themes/default/templates/partials/item.html",
                                                                     line)


def test_drafts_are_excluded_unless_asked_for(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    draft = sorted((root / "content" / "papers").glob("*.md"))[0]
    _insert_line(draft, "---", "draft: true")
    out = tmp_path / "out"
    assert sitegen("build", "--root", root, "--output", out, "--no-search").returncode == 0
    assert not (out / "papers" / draft.stem).exists()
    assert draft.stem not in (out / "papers.json").read_text()
    assert draft.stem not in (out / "sitemap.xml").read_text()
    assert draft.stem not in listed_papers(read_html(out / "index.html"))
    assert sitegen("build", "--root", root, "--output", out, "--no-search", "--drafts").returncode == 0
    assert (out / "papers" / draft.stem / "index.html").is_file()
    assert draft.stem in (out / "papers.json").read_text()


def test_a_theme_overriding_one_partial_falls_back_to_the_default_for_the_rest(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    config = root / "site.yaml"
    config.write_text(config.read_text().replace("theme: default", "theme: mine"))
    partials = root / "themes" / "mine" / "templates" / "partials"
    partials.mkdir(parents=True)
    default_item = (root / "themes" / "default" / "templates" / "partials" / "item.html").read_text()
    (partials / "item.html").write_text(default_item.replace('<article class="item">',
                                                             '<article class="item mine-item">'))
    out = tmp_path / "out"
    build(root, out, search=False)
    home = (out / "index.html").read_text()
    assert home.count('class="item mine-item"') == 3  # the override is used for every list item
    assert 'class="skip-link"' in home  # base.html and index.html come from the default theme
    paper = next((out / "papers").glob("*/index.html")).read_text()
    assert 'class="paper-header"' in paper
    assert (out / "static" / "style.css").read_bytes() == (root / "themes/default/static/style.css").read_bytes()


def test_a_theme_that_does_not_exist_is_an_error_naming_the_setting(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=1)
    config = root / "site.yaml"
    config.write_text(config.read_text().replace("theme: default", "theme: nonexistent"))
    line = next(i for i, text in enumerate(config.read_text().splitlines(), 1) if text.startswith("theme:"))
    with pytest.raises(SitegenError) as info:
        build(root, tmp_path / "out", search=False)
    [diagnostic] = info.value.diagnostics
    assert (diagnostic.location.path, diagnostic.location.line, diagnostic.code) == ("site.yaml", line, "E402")
    assert "nonexistent" in diagnostic.message


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_entry_saved_during_a_full_build_is_seen_by_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                jobs: int) -> None:
    """The build remembers each entry file as it was when read: one saved again while the build
    runs (after it was read) is read again by the next build, not taken as unchanged."""
    import os

    import sitegen.content.loader as loader
    from sitegen.model import model
    from sitegen.model.site import Site

    root, output = copy_site(tmp_path / "site", papers=8), tmp_path / "public"
    monkeypatch.setattr(loader, "PARALLEL_PARSE", 1)
    entry = sorted((root / "content" / "papers").glob("*.md"))[2]
    text = entry.read_text(encoding="utf-8")
    start = text.index("\ntitle:") + 1
    edited = f"{text[:start]}title: 'Saved while the build ran'{text[text.index(chr(10), start):]}"
    real = model.build_site

    def build_site(*args: object, **kwargs: object) -> Site:
        if entry.read_text(encoding="utf-8") != edited:  # the entries are read by now: save one again
            entry.write_text(edited, encoding="utf-8")
            later = entry.stat().st_mtime_ns + 10_000_000  # an mtime the read could not have seen
            os.utime(entry, ns=(later, later))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(model, "build_site", build_site)
    build(root, output, search=False, jobs=jobs)
    assert "Saved while the build ran" not in (output / "papers" / entry.stem / "index.html").read_text()
    build(root, output, search=False, jobs=jobs)
    assert "Saved while the build ran" in (output / "papers" / entry.stem / "index.html").read_text()


def test_the_entry_cache_keeps_every_entry_across_no_op_and_edit_builds(tmp_path: Path) -> None:
    """The parsed entries a title edit's model rebuild reads come from the entry cache: a no-op or a notes edit
    must not prune it to the few entries that build happened to read (it was emptied, and the next model rebuild
    parsed every entry again)."""
    from sitegen.content.cache import EntryCache, digest

    root, output = copy_site(tmp_path / "site", papers=8), tmp_path / "public"
    papers = sorted((root / "content" / "papers").glob("*.md"))

    def cached() -> int:
        cache = EntryCache(root)
        return sum(cache.get(digest(p.read_bytes()), p.relative_to(root).as_posix(), p.stem) is not None
                   for p in papers)

    build(root, output, search=False)
    assert cached() == len(papers)
    build(root, output, search=False)  # nothing changed
    assert cached() == len(papers)
    papers[3].write_text(papers[3].read_text(encoding="utf-8") + "\nA new note.\n", encoding="utf-8")
    build(root, output, search=False)
    assert cached() == len(papers)


def test_a_notes_edit_after_a_new_entry_does_not_build_the_model_again(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A new entry moves the model, and the papers it leaves as they were are not run again (`spread`); their
    records must still say they saw the new model, or the next process's notes edit on one of them takes the
    long way and builds the model from every entry."""
    from sitegen.pipeline.steps import structure

    root, output = copy_site(tmp_path / "site", papers=8), tmp_path / "public"
    build(root, output, search=False)
    (root / "content" / "papers" / "zz-new.md").write_text(
        "---\ntitle: A paper added later\ndate: 2024-01-05\nauthors: [Ada Lovelace]\n---\nNew.\n", encoding="utf-8")
    build(root, output, search=False)
    build(root, output, search=False)  # nothing changed
    models: list[object] = []
    real = structure.Structure.site
    monkeypatch.setattr(structure.Structure, "site", lambda self, ctx, arg: models.append(arg) or real(self, ctx, arg))
    for entry in sorted((root / "content" / "papers").glob("*.md"))[:4]:
        entry.write_text(entry.read_text(encoding="utf-8") + "\nA new thought.\n", encoding="utf-8")
        build(root, output, search=False)
    assert models == []
