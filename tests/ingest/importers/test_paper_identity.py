"""Distinct papers stay distinct: a merge needs evidence, a look-alike gets its own entry and a warning."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from sitegen.common.errors import Report
from sitegen.content import frontmatter
from sitegen.content.loader import load_content
from sitegen.content.slugs import is_safe_slug
from sitegen.ingest.importers.run import ImportResult, run_import

from .conftest import listing, snapshot, write_dump

CAPTURED = dt.date(2026, 3, 2)
VTC_TITLE = "VTC: DNN Compilation with Virtual Tensors for Data Movement Elimination"
VTC_FILE = "content/papers/vtc-dnn-compilation-with-virtual-tensors-for-data-movement.md"
HINT = "  hint: if they are one paper, merge the two entries by hand and delete one"


def meta(root: Path, shown: str) -> dict[str, Any]:
    return frontmatter.parse((root / shown).read_text(encoding="utf-8"), shown).meta


def entries(root: Path, result: ImportResult) -> dict[str, str]:
    """Title -> abstract of each entry the import created."""
    return {meta(root, s)["title"]: meta(root, s)["abstract"] for s in result.new}


def warnings(result: ImportResult) -> list[str]:
    return [d.format() for d in result.report.items if d.severity == "warning"]


def check(root: Path) -> list[str]:
    report = Report()
    load_content(root, report)
    return [d.format() for d in report.items]


CPP = ("C++ Templates for GPU Kernels", "Generic kernels written once with C++ templates and instantiated per type.",
       "Feb 27")
CSHARP = ("C# Templates for GPU Kernels", "Kernels from C# generics, compiled through a managed runtime to PTX.",
          "Feb 20")


def test_titles_differing_only_in_symbols_are_two_papers(bare_site: Path) -> None:
    dump = write_dump(bare_site, "004_langs.txt", listing(CPP, CSHARP))
    result = run_import(bare_site, [dump], captured=CAPTURED)
    assert not result.failed
    assert entries(bare_site, result) == {CPP[0]: CPP[1], CSHARP[0]: CSHARP[1]}  # each its own abstract
    first, second = result.new
    assert first == "content/papers/c-templates-for-gpu-kernels.md"
    assert second.startswith("content/papers/c-templates-for-gpu-kernels-") and is_safe_slug(Path(second).stem)
    assert warnings(result) == [
        f"content/dumps/004_langs.txt:13: warning[W710]: {CSHARP[0]!r} looks like {CPP[0]!r} "
        f"(content/dumps/004_langs.txt:5) but is a different paper (no source, abstract or date in common), "
        f"so it gets its own entry {second}\n{HINT}"]
    assert check(bare_site) == []


def test_the_suffixed_name_is_deterministic_and_reimports_change_nothing(tmp_path: Path, bare_site: Path) -> None:
    from .conftest import copy_site

    other = copy_site(tmp_path / "other", with_entries=False)
    names = []
    for site in (bare_site, other):
        dump = write_dump(site, "004_langs.txt", listing(CPP, CSHARP))
        names.append(run_import(site, [dump], captured=CAPTURED).new)
    assert names[0] == names[1]
    before = snapshot(bare_site)
    for update in (False, True):
        again = run_import(bare_site, [bare_site / "content" / "dumps" / "004_langs.txt"], update=update)
        assert not again.failed and again.new == [] and again.merged == [] and warnings(again) == []
        assert snapshot(bare_site) == before
    state = json.loads((bare_site / "content" / "import-state.json").read_text(encoding="utf-8"))
    assert len([k for k in state if k.startswith("c templates for gpu kernels")]) == 2


@pytest.mark.parametrize("titles", [("!!!", "???"), ("🚀🚀", "🔥"), ("…", "—", "(:", "🚀")])
def test_titles_of_only_punctuation_or_emoji_are_distinct_papers(bare_site: Path, titles: tuple[str, ...]) -> None:
    papers = [(t, f"Paper number {i} has an abstract of its own, longer than its title.", f"Feb {i + 1}")
              for i, t in enumerate(titles)]
    dump = write_dump(bare_site, "004_symbols.txt", listing(*papers))
    result = run_import(bare_site, [dump], captured=CAPTURED)
    assert not result.failed and entries(bare_site, result) == {t: a for t, a, _ in papers}
    stems = [Path(s).stem for s in result.new]
    assert len(set(stems)) == len(titles) and all(is_safe_slug(s) for s in stems)
    assert check(bare_site) == []


@pytest.mark.parametrize("title", [VTC_TITLE, "VTC - DNN Compilation with Virtual Tensors for Data Movement "
                                              "Elimination"])
def test_a_different_paper_under_an_existing_title_gets_its_own_entry(site: Path, title: str) -> None:
    vtc = (site / VTC_FILE).read_bytes()
    dump = write_dump(site, "004_other.txt", listing(
        (title, "A different paper: a survey of virtual tensors in databases, unrelated to DNN compilers.",
         "Jan 5")))
    result = run_import(site, [dump], captured=CAPTURED)
    assert not result.failed and result.merged == [] and len(result.new) == 1
    (new,) = result.new
    assert new != VTC_FILE and meta(site, new)["abstract"].startswith("A different paper")
    assert (site / VTC_FILE).read_bytes() == vtc
    assert warnings(result) == [
        f"content/dumps/004_other.txt:5: warning[W710]: {title!r} looks like {VTC_TITLE!r} ({VTC_FILE}:2) but is "
        f"a different paper (no source, abstract or date in common), so it gets its own entry {new}\n{HINT}"]


def test_the_same_paper_under_a_respelled_title_merges(site: Path) -> None:
    abstract = meta(site, VTC_FILE)["abstract"]
    dump = write_dump(site, "004_same.txt", listing(("VTC - DNN Compilation with Virtual Tensors for Data "
                                                     "Movement Elimination", abstract, "Jan 5")))
    result = run_import(site, [dump], captured=CAPTURED)
    assert not result.failed and result.new == [] and result.merged == [VTC_FILE] and warnings(result) == []
    assert "004_same.txt" in [s["file"] for s in meta(site, VTC_FILE)["sources"]]


def test_the_same_title_and_date_merges(site: Path) -> None:
    """A listing's abstract may differ from a profile's; the exact title and the date are evidence enough."""
    dump = write_dump(site, "004_same.txt", listing((VTC_TITLE, "A shorter abstract of VTC, longer than its title "
                                                                "though, as the listing shows it.", "Feb 11")))
    result = run_import(site, [dump], captured=dt.date(2026, 5, 19))
    assert not result.failed and result.new == [] and result.merged == [VTC_FILE]


def test_two_papers_with_one_title_in_one_dump(bare_site: Path) -> None:
    twins = [("Scaling Laws", "The first paper called Scaling Laws, about language models and compute.", "Feb 1"),
             ("Scaling Laws", "The second paper called Scaling Laws, about vision transformers instead.", "Feb 9")]
    dump = write_dump(bare_site, "004_twins.txt", listing(*twins))
    result = run_import(bare_site, [dump], captured=CAPTURED)
    assert not result.failed and len(result.new) == 2
    assert sorted(meta(bare_site, s)["abstract"] for s in result.new) == sorted(a for _, a, _ in twins)
    assert [w.split(": warning")[0] for w in warnings(result)] == ["content/dumps/004_twins.txt:13"]


def test_a_title_that_only_shares_a_file_name_is_a_warning(bare_site: Path) -> None:
    papers = [("Unicode Kernels", "Kernels for text processing on GPUs, with a long enough abstract.", "Feb 1"),
              ("Ünïcode Kernels", "Another paper whose title only transliterates to the same file name.", "Feb 2")]
    dump = write_dump(bare_site, "004_names.txt", listing(*papers))
    result = run_import(bare_site, [dump], captured=CAPTURED)
    assert not result.failed and entries(bare_site, result) == {t: a for t, a, _ in papers}
    second = result.new[1]
    assert warnings(result) == [
        f"content/dumps/004_names.txt:13: warning[W711]: 'Ünïcode Kernels' would get the file name of "
        f"'Unicode Kernels' (content/dumps/004_names.txt:5), a different paper, so it gets {second}\n"
        "  hint: rename either file if you like: imports find entries by their sources, not their names"]
