"""The importer's spelling of a resolved paper's authors replaced by the paper's, and their profiles merged.

A name is the same person as one of the paper's only when, accents and case set aside, it has
the same words, or the same with the family name moved to the front ('Zhang Shizhuo Dylan' is
'Shizhuo Dylan Zhang'); each name needs exactly one such counterpart, or the list stays.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from sitegen.common.errors import Location, Report
from sitegen.content.frontmatter import load_yaml
from sitegen.ingest.enrich.aliases import Rename
from sitegen.ingest.enrich.aliases import plan as plan_aliases
from sitegen.ingest.enrich.apply import Found, apply, importer_fingerprints
from sitegen.ingest.enrich.authors import load
from sitegen.ingest.enrich.names import respelling, same_person
from sitegen.ingest.enrich.record import Author, Record
from sitegen.ingest.importers.identity import abstract_key, state_keys, strict_key
from sitegen.ingest.importers.merge import fingerprint, title_key

PAPER = ("Łukasz Małecki", "Shizhuo Dylan Zhang", "Wei Zhang", "Hao Peng")
IMPORTED = ["Malecki Lukasz", "Zhang Shizhuo Dylan", "Zhang Wei", "Peng Hao"]
RECORD = Record("arxiv", "2407.13168", "A Study of Names", authors=tuple(map(Author, PAPER)),
                abstract="What a name is.", date=dt.date(2024, 7, 18), arxiv="2407.13168")
WHERE = Location("content/papers/a.md", 3)


def test_the_same_person_is_the_same_words_or_the_family_name_moved_to_the_front() -> None:
    assert same_person("Zhang Wei", "Wei Zhang") and same_person("Malecki Lukasz", "Łukasz Małecki")
    assert same_person("Zhang Shizhuo Dylan", "Shizhuo Dylan Zhang") and same_person("hao peng", "Hao Peng")
    assert not same_person("Peng Hui", "Hao Peng")  # the matcher counts a shared surname; a respelling may not
    assert not same_person("Zhang S. D.", "Shizhuo Dylan Zhang")  # initials are not the name
    assert not same_person("Dylan Shizhuo Zhang", "Shizhuo Dylan Zhang")  # only the family name moves
    assert not same_person("Li Ming", "李明") and not same_person("", "")


def test_each_name_needs_exactly_one_counterpart() -> None:
    whole = respelling(IMPORTED, PAPER)
    assert whole.left == () and whole.pairs == tuple(zip(IMPORTED, PAPER, strict=True))
    assert respelling(["Peng Hui", "Zhang Wei"], PAPER).left == ("Peng Hui",)
    assert respelling(["Zhang Wei"], ["Wei Zhang", "Zhang Wei"]).left == ("Zhang Wei",)  # which of the two?
    assert respelling(["Zhang Wei", "Wei Zhang"], ["Wei Zhang"]).left == ("Zhang Wei", "Wei Zhang")  # one for two
    assert respelling(["Hao Peng"], PAPER).pairs == (("Hao Peng", "Hao Peng"),)  # already the paper's spelling


NAMES = st.lists(st.sampled_from(["Wei", "Zhang", "Hao", "Peng", "Li", "Ming", "Ana", "Łukasz"]), min_size=1,
                 max_size=3).map(" ".join)


@given(st.lists(NAMES, max_size=5), st.lists(NAMES, max_size=5))
def test_a_respelling_is_one_to_one_and_only_between_spellings_of_one_person(mine: list[str],
                                                                              theirs: list[str]) -> None:
    found = respelling(mine, theirs)
    assert sorted([old for old, _ in found.pairs] + list(found.left)) == sorted(mine)  # each name once
    assert all(same_person(old, new) and new in theirs for old, new in found.pairs)
    assert len({new for _, new in found.pairs}) == len(found.pairs)  # no name of the paper's given twice


def entry(authors: list[str], truncated: bool = False) -> tuple[dict[str, Any], dict[str, dict[str, str]]]:
    """An entry as the importer wrote it from a profile dump, and the import state it left."""
    meta: dict[str, Any] = {"title": RECORD.title, "authors": authors, "authors_truncated": truncated,
                            "date": dt.date(2024, 7, 18), "abstract": RECORD.abstract}
    key = state_keys(title_key(RECORD.title), strict_key(RECORD.title), abstract_key(RECORD.abstract))[0]
    return meta, {key: {k: fingerprint(v) for k, v in meta.items()}}


def applied(meta: dict[str, Any], state: dict[str, dict[str, str]]) -> Any:
    return apply(meta, Found(RECORD, "title 100", 100.0, dt.date(2026, 1, 1)), {}, importer_fingerprints(meta, state))


def test_the_importers_spelling_becomes_the_papers() -> None:
    result = applied(*entry(IMPORTED))
    assert result.meta["authors"] == list(PAPER) and result.meta["author_count"] == 4
    assert result.respelled == tuple(zip(IMPORTED, PAPER, strict=True)) and result.kept == ()


def test_a_list_typed_by_hand_is_never_respelled() -> None:
    meta, state = entry(IMPORTED)
    meta["authors"] = [*IMPORTED[:3], "Peng H."]  # edited: no longer what the importer wrote
    result = applied(meta, state)
    assert result.meta["authors"] == meta["authors"] and result.respelled == () and result.kept == ()
    assert "authors" not in result.changed


def test_a_name_with_no_counterpart_keeps_the_importers_list() -> None:
    result = applied(*entry([*IMPORTED[:3], "Peng Hui"]))
    assert result.meta["authors"] == [*IMPORTED[:3], "Peng Hui"] and "authors" not in result.changed
    assert result.respelled == () and result.kept == ("Peng Hui",)


def test_a_short_list_made_whole_carries_the_respelling_of_its_names() -> None:
    result = applied(*entry(IMPORTED[:2], truncated=True))
    assert result.meta["authors"] == list(PAPER)
    assert result.respelled == (("Malecki Lukasz", "Łukasz Małecki"), ("Zhang Shizhuo Dylan", "Shizhuo Dylan Zhang"))


# The profiles: the old spelling an alias of the person, in one file


def write(root: Path, name: str, text: str) -> None:
    path = root / "content" / "authors" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def planned(root: Path, *renames: tuple[str, str], state: dict[str, dict[str, str]] | None = None
            ) -> tuple[dict[str, Any], list[str]]:
    report = Report()
    files = load(root, report)
    _, writes = plan_aliases([Rename(old, new, WHERE) for old, new in renames], files, state or {}, root, report)
    texts = {p.relative_to(root).as_posix(): load_yaml(t, p.name)[0] for p, t in writes.items()}
    return texts, [d.format() for d in report.items]


def importer_state(name: str) -> dict[str, dict[str, str]]:
    return {state_keys("author:" + title_key(name), name)[0]: {"name": fingerprint(name), "h_index": fingerprint(9)}}


def test_a_profile_the_importer_named_takes_the_papers_spelling(tmp_path: Path) -> None:
    write(tmp_path, "zhang-wei.yaml", "name: Zhang Wei\nh_index: 9\nsource: zhang.txt\n")
    written, messages = planned(tmp_path, ("Zhang Wei", "Wei Zhang"), state=importer_state("Zhang Wei"))
    assert written == {"content/authors/zhang-wei.yaml": {"name": "Wei Zhang", "h_index": 9, "source": "zhang.txt",
                                                          "aliases": ["Zhang Wei"]}}
    assert messages == []


def test_a_profile_named_by_hand_keeps_its_name_and_gains_the_alias(tmp_path: Path) -> None:
    write(tmp_path, "zhang-wei.yaml", "# mine\nname: Zhang Wei\naliases: [W. Zhang]\n")
    written, _ = planned(tmp_path, ("Zhang Wei", "Wei Zhang"))
    assert written == {"content/authors/zhang-wei.yaml": {"name": "Zhang Wei", "aliases": ["W. Zhang", "Wei Zhang"]}}
    assert (tmp_path / "content" / "authors" / "zhang-wei.yaml").read_text().startswith("# mine")


def test_without_a_profile_one_is_made_that_keeps_the_old_spelling(tmp_path: Path) -> None:
    written, _ = planned(tmp_path, ("Gao Luyu", "Luyu Gao"), ("Gao Luyu", "Luyu Gao"))
    assert written == {"content/authors/luyu-gao.yaml": {"name": "Luyu Gao", "aliases": ["Gao Luyu"]}}


def test_the_papers_spelling_with_a_profile_gains_the_old_as_an_alias(tmp_path: Path) -> None:
    write(tmp_path, "luyu-gao.yaml", "name: Luyu Gao\nhuggingface: Luyu\n")
    written, _ = planned(tmp_path, ("Gao Luyu", "Luyu Gao"))
    assert written == {"content/authors/luyu-gao.yaml": {"name": "Luyu Gao", "huggingface": "Luyu",
                                                         "aliases": ["Gao Luyu"]}}
    write(tmp_path, "luyu-gao.yaml", "name: Luyu Gao\naliases: [Gao Luyu]\n")
    assert planned(tmp_path, ("Gao Luyu", "Luyu Gao")) == ({}, [])  # one person already


def test_two_profiles_are_never_merged_but_named_in_a_warning(tmp_path: Path) -> None:
    write(tmp_path, "luyu-gao.yaml", "name: Luyu Gao\n")
    write(tmp_path, "gao-luyu.yaml", "name: Gao Luyu\n")
    written, messages = planned(tmp_path, ("Gao Luyu", "Luyu Gao"))
    assert written == {}
    assert messages == [
        "content/papers/a.md:3: warning[W1077]: 'Gao Luyu' is written 'Luyu Gao' by the paper, and each has a "
        "profile (content/authors/gao-luyu.yaml, content/authors/luyu-gao.yaml): two author pages stay\n"
        "  hint: if they are one person, keep one file and list the other name in its aliases"]


def test_one_spelling_written_two_ways_by_papers_is_no_ones_alias(tmp_path: Path) -> None:
    written, messages = planned(tmp_path, ("Zhang Wei", "Wei Zhang"), ("Zhang Wei", "Zhang Wei"))
    assert written == {}
    assert messages == [
        "content/papers/a.md:3: warning[W1078]: 'Zhang Wei' is written 'Wei Zhang' and 'Zhang Wei' by the papers "
        "resolved: recorded as no one's alias\n"
        "  hint: two people may share the name; list it in the aliases of the right profile by hand"]
