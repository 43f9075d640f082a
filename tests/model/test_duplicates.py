"""Names that may be one person: the given-name rule, the evidence asked for, and never a merge."""

from __future__ import annotations

import datetime as dt

import pytest

from sitegen.content.loader import AuthorProfile, Entry
from sitegen.model import duplicates, people


@pytest.mark.parametrize(("one", "other", "reason"), [
    ("a", "ahan", "initials match"),
    ("a k", "ahan kumar", "initials match"),
    ("ahan", "ahan k", "a middle name left out"),
    ("ahan", "ahan kumar", "a middle name left out"),
    ("jonathon", "jonathan", "nearly the same name"),
    ("ming wei", "mingwei", duplicates.SAME),
    ("ahan", "ahan", duplicates.SAME),  # 'Ahán Gupta' and 'Ahan Gupta': one slug
    ("a", "b", None),
    ("ahan", "amit", None),
    ("k ahan", "ahan", None),  # the first given names must agree
    ("wei", "wen", None),  # short names a letter apart are other names
    ("jon", "jonathan", None),  # nor is a short form one
    ("a k", "ahan", "initials match"),
])
def test_given_names_agree_written_out_as_initials_or_with_a_typo(one: str, other: str, reason: str | None) -> None:
    assert duplicates.agree(tuple(one.split()), tuple(other.split())) == reason
    assert duplicates.agree(tuple(other.split()), tuple(one.split())) == reason


def paper(slug: str, *authors: str) -> Entry:
    return Entry(f"content/papers/{slug}.md", slug, slug, authors, "", "", date=dt.date(2024, 1, 1))


def suggested(entries: list[Entry], *profiles: AuthorProfile) -> list[str]:
    return [d.message for d in duplicates.likely(entries, people.resolve(profiles, None), None)]


def test_a_shared_coauthor_is_asked_for_and_one_paper_s_two_names_are_two_people() -> None:
    assert suggested([paper("a", "A. Gupta", "Bo Li"), paper("b", "Ahan Gupta", "Cy Ng")]) == []
    assert suggested([paper("a", "A. Gupta", "Bo Li"), paper("b", "Ahan Gupta", "Bo Li")]) == [
        "'A. Gupta' may be 'Ahan Gupta' (content/papers/b.md): initials match, 1 shared co-author (Bo Li)"]
    assert suggested([paper("a", "A. Gupta", "Ahan Gupta", "Bo Li"), paper("b", "Ahan Gupta", "Bo Li")]) == []
    # the same name but for accents needs no co-author: it is one slug, and two pages
    assert suggested([paper("a", "Ahán Gupta"), paper("b", "Ahan Gupta")]) == [
        "'Ahán Gupta' may be 'Ahan Gupta' (content/papers/b.md): the same name but for accents, case or punctuation"]


def test_a_person_with_a_file_is_the_one_kept_and_ids_tell_people_apart() -> None:
    entries = [paper("a", "Ahan Gupta", "Bo Li"), paper("b", "Ahan Kumar Gupta", "Bo Li", "Cy Ng", "Di Wu", "Ed Oh"),
               paper("c", "Ahan Gupta", "Cy Ng", "Di Wu", "Ed Oh")]
    ahan = AuthorProfile("content/authors/ahan-gupta.yaml", "ahan-gupta", "Ahan Gupta", semantic_scholar="1")
    assert suggested(entries, ahan) == ["'Ahan Kumar Gupta' may be 'Ahan Gupta' (content/authors/ahan-gupta.yaml): a "
                                        "middle name left out, 4 shared co-authors (Bo Li, Cy Ng, Ed Oh, …)"]
    other = AuthorProfile("content/authors/ahan-kumar-gupta.yaml", "ahan-kumar-gupta", "Ahan Kumar Gupta",
                          semantic_scholar="2")
    assert suggested(entries, ahan, other) == []  # two Semantic Scholar accounts: two people
    orcid = AuthorProfile(other.source_path, other.slug, other.name, orcid="0000-0002-1825-0097")
    assert suggested(entries, ahan, orcid)  # ids of two kinds say nothing


def test_names_are_compared_within_their_family_and_initial_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """8,000 names in 400 families: each compared only with the few of its family and first initial."""
    compared: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    agree = duplicates.agree
    monkeypatch.setattr(duplicates, "agree", lambda one, other: compared.append((one, other)) or agree(one, other))
    given = [f"{a}{b}" for a in "abcde" for b in ("an", "ek", "ol", "ux")]
    families = [f"Fam{chr(97 + i % 26)}{chr(97 + i // 26)}x" for i in range(400)]
    names = [f"{g.title()} {f}" for f in families for g in given]
    assert len(set(names)) == 8000
    entries = [paper(f"p{i}", *names[i:i + 5]) for i in range(0, len(names), 5)]
    duplicates.likely(entries, people.resolve((), None), None)
    assert len(compared) == 400 * 5 * 6  # per family, each initial's four names: six pairs
