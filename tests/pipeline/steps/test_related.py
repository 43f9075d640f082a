"""The related-papers steps: the texts' neighbours made once and kept through edits that leave every title and
abstract as it was, and a paper page rendered again for its list only when the list changed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from sitegen.common import forked
from sitegen.model import likeness, related
from sitegen.pipeline.build import build
from sitegen.pipeline.persisted import run_build
from sitegen.pipeline.site_engine import SiteEngine
from sitegen.pipeline.steps import related as related_steps

from ...site_factory import REPO, copy_site, tree_bytes
from ..test_incremental import _replace_field as replace_field

NEIGHBOURS = ("neighbours", None)


def _abstract(path: Path) -> str:
    return str(yaml.safe_load(path.read_text().split("---")[1])["abstract"])


def _papers(root: Path) -> list[Path]:
    return sorted((root / "content/papers").glob("*.md"))


def _clean(root: Path, folder: Path) -> dict[str, bytes]:
    build(root, folder, search=False, use_cache=False)
    return tree_bytes(folder)


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """How the neighbours are worked out from here on: "whole" (every cosine summed) or "edit" (from the last result,
    `likeness.updated`); the real functions, counted."""
    calls: list[str] = []
    for name, how in (("whole", "whole"), ("updated", "edit")):
        real: Callable[..., Any] = getattr(likeness, name)

        def spy(*args: Any, _real: Callable[..., Any] = real, _how: str = how, **kwargs: Any) -> Any:
            calls.append(_how)
            return _real(*args, **kwargs)

        monkeypatch.setattr(likeness, name, spy)
    return calls


def test_an_abstract_edit_renders_again_only_the_pages_whose_list_changed(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site")
    engine = SiteEngine(root, tmp_path / "out")
    engine.build()
    memo = engine.engine.memo
    slugs = engine.engine.get("order")
    before = {slug: engine.engine.get("related", slug) for slug in slugs}
    pages = {key: record for key, record in memo.records.items() if key[0] == "page"}
    edited, donor = _papers(root)[3], _papers(root)[40]  # the first takes the second's abstract: its neighbours move
    replace_field(edited, "abstract", repr(_abstract(donor)))
    change = engine.update([edited])
    after = {slug: engine.engine.get("related", slug) for slug in slugs}
    moved = {slug for slug in slugs if before[slug] != after[slug]}
    assert len(moved) > 2
    written = {out.split("/")[1] for out in change.written if out.startswith("papers/") and out.endswith(".html")}
    assert written == moved | {edited.stem}, "the edited paper's page and those whose list changed"
    ran = {key[1][2] for key, record in pages.items() if key[1][1] == "paper" and memo.records[key] is not record}
    # the pages showing its title, which read its entry: in their list, or as the paper before or after in time
    shown = engine.engine.get("paper", edited.stem)
    showing = {slug for slug in slugs if any(r.slug == edited.stem for r in before[slug])} | {shown.newer, shown.older}
    assert moved <= ran <= moved | showing | {edited.stem}
    assert len(ran) < len(slugs) / 2
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")


@pytest.mark.parametrize("edit", ["notes", "tags", "date"])
def test_an_edit_leaving_every_title_and_abstract_does_not_work_out_the_neighbours(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: str) -> None:
    root = copy_site(tmp_path / "site", papers=12)
    engine = SiteEngine(root, tmp_path / "out")
    engine.build()
    record = engine.engine.memo.records[NEIGHBOURS]
    paper = _papers(root)[5]
    if edit == "notes":
        paper.write_text(paper.read_text() + "\nA new thought.\n")
    elif edit == "tags":
        replace_field(paper, "tags", "[attention, compilers]")
    else:
        replace_field(paper, "date", "2019-05-04")
    calls = _counted(monkeypatch)
    engine.update([paper])
    assert engine.engine.memo.records[NEIGHBOURS] is record and calls == []
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")


def test_a_new_process_works_them_out_only_when_a_text_changed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The neighbours are saved with the memo on disk: a notes edit reads them back, an abstract edit works its text
    into them, a new paper makes them again."""
    root = copy_site(tmp_path / "site", papers=20)
    calls = _counted(monkeypatch)
    run_build(root, tmp_path / "out", None, False, 1)
    assert calls == ["whole"]
    paper = _papers(root)[7]
    time.sleep(0.01)
    paper.write_text(paper.read_text() + "\nA new thought.\n")
    run_build(root, tmp_path / "out", None, False, 1)
    assert calls == ["whole"], "a notes edit"
    replace_field(paper, "abstract", repr(_abstract(_papers(root)[8])))
    run_build(root, tmp_path / "out", None, False, 1)
    assert calls == ["whole", "edit"], "an abstract edit"
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")
    calls.clear()
    shutil.copy(_papers(root)[3], root / "content/papers/a-copy-under-another-name.md")
    replace_field(root / "content/papers/a-copy-under-another-name.md", "title", "'A paper come late'")
    run_build(root, tmp_path / "out", None, False, 1)
    assert calls == ["whole"], "a new paper"
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean2")


def test_a_title_edit_that_keeps_its_words_leaves_the_neighbours_alone(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The neighbours are made from each text's words counted, which a change of case leaves as they were."""
    root = copy_site(tmp_path / "site", papers=20)
    run_build(root, tmp_path / "out", None, False, 1)
    calls = _counted(monkeypatch)
    paper = _papers(root)[7]
    lines = paper.read_text(encoding="utf-8").split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith("title: "))
    lines[at] = "title: " + lines[at][len("title: "):].upper()
    time.sleep(0.01)
    paper.write_text("\n".join(lines), encoding="utf-8")
    change, _ = run_build(root, tmp_path / "out", None, False, 1)
    assert calls == [] and change.written  # the title shows in capitals; the texts compare as they did
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")


def test_builds_in_processes_hashing_strings_differently_write_the_same_lists(tmp_path: Path) -> None:
    """Sets of words and slugs iterate in another order under each hash seed: the related lists must not move."""
    root = copy_site(tmp_path / "site")
    pages = []
    for seed in ("1", "2"):
        out = tmp_path / f"out-{seed}"
        subprocess.run([sys.executable, "-c", "from sitegen.cli import run; run()", "build", "--root", str(root),
                        "--output", str(out), "--no-search"], check=True, capture_output=True, cwd=REPO,
                       env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO)})
        shutil.rmtree(root / ".sitegen-cache")
        pages.append({name: data for name, data in tree_bytes(out).items() if name.startswith("papers/")})
    assert pages[0] == pages[1]
    assert sum(b'class="why"' in data for data in pages[0].values()) > 100


@pytest.mark.parametrize("process", ["same", "new"])
def test_an_abstract_edit_works_out_again_only_the_lists_its_neighbours_reach(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, process: str) -> None:
    """Texts worked into the neighbours say whose nearest moved: a list reads its own paper's alone, so only those
    lists (and those the edited paper's authors and tags reach) are worked out again, not every list. (An edit
    that reweighs words moves every cosine a little, and may move every paper's nearest in a list this small.)"""
    root = copy_site(tmp_path / "site")
    engine = SiteEngine(root, tmp_path / "out")
    if process == "same":
        engine.build()
    else:
        run_build(root, tmp_path / "out", None, False, 1)
    worked: list[int | None] = []
    real = related.lists

    def lists(site: Any, near: Any, limit: int = related.LIMIT, only: Any = None, part: Any = None) -> Any:
        worked.append(None if only is None else len(only))
        return real(site, near, limit, only, part)

    monkeypatch.setattr(related, "lists", lists)
    edited = _papers(root)[3]  # its words said twice: its vector moves, no word's frequency does
    replace_field(edited, "abstract", repr(_abstract(edited) + " " + _abstract(edited)))
    if process == "same":
        engine.update([edited])
    else:
        time.sleep(0.01)
        run_build(root, tmp_path / "out", None, False, 1)
    papers = len(_papers(root))
    assert len(worked) == 1 and worked[0] is not None and 0 < worked[0] < papers / 2, worked
    assert tree_bytes(tmp_path / "out") == _clean(root, tmp_path / "clean")


def test_neighbours_and_lists_worked_out_in_two_processes_give_the_same_site(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A long list works out half of its texts' nearest and of its related lists in a forked child: the site
    is the one a single process makes, to the byte (a short list here, with the split forced)."""
    root = copy_site(tmp_path / "site")
    build(root, tmp_path / "one", search=False, use_cache=False)
    halves: list[int] = []
    real = forked.in_two

    def counted(work: Any, count: int, answer: Any, smallest: int | None = None) -> Any:
        halves.append(count)
        return real(work, count, answer, smallest)

    monkeypatch.setattr(forked, "SPLIT_FROM", 1)
    monkeypatch.setattr(related_steps, "in_two", counted)
    build(root, tmp_path / "two", search=False, use_cache=False)
    assert len(halves) == 2  # the neighbours, the lists
    assert tree_bytes(tmp_path / "two") == tree_bytes(tmp_path / "one")
