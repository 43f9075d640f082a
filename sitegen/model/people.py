"""One page per person: the names papers write, resolved to the people they name.

An author file (`content/authors/*.yaml`) names a person and, in `aliases`, the other
spellings papers use. Files giving the same name, or holding the same Semantic Scholar
id, ORCID iD or Hugging Face account, are one person too (with a warning: one file should
say so). Each name a paper writes is credited to its person, who has one author page and
counts once among co-authors, in feeds and in the search filter; the paper keeps its
byline as written (`Byline`), and each other spelling's address sends the reader on to
the person's page (`Redirect`). Names are never merged on a guess: `duplicates` suggests.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from ..common.errors import Diagnostic, Location
from ..content import frontmatter
from ..content.loader import AuthorProfile, Entry
from ..content.slugs import slugify

# The id fields of an author file (content/schema.py) and how a message names each
IDS = {"semantic_scholar": "Semantic Scholar id", "orcid": "ORCID iD", "huggingface": "Hugging Face account"}


class Byline(NamedTuple):
    """A name on a paper as written, linked to its person's page; `person` is their name there, when other."""

    name: str
    slug: str
    person: str = ""


class Redirect(NamedTuple):
    """The address of a person's other spelling (`authors/<slug>/`), sending the reader to their page."""

    slug: str
    to: str  # the person's slug


def key(name: str) -> str:
    """A name but for Unicode composition and spacing: the same text is the same person (as the importer says)."""
    return " ".join(unicodedata.normalize("NFC", name).split())


@dataclass(frozen=True)
class People:
    """Who the author files say is who: each name they give, the person it names, and that person's profile."""

    known: dict[str, str] = field(default_factory=dict)  # a name's `key` -> its person's name
    profiles: dict[str, AuthorProfile] = field(default_factory=dict)  # person -> profile (their first file)
    variants: dict[str, tuple[str, ...]] = field(default_factory=dict)  # person -> their other names
    problems: tuple[Diagnostic, ...] = ()
    all_profiles: tuple[AuthorProfile, ...] = ()

    def person(self, name: str) -> str:
        """The person a name written on a paper is: the one whose file gives the name, else the name itself."""
        known = self.known
        if not known:
            return name
        return known.get(name) or known.get(key(name), name)

    def profile(self, person: str) -> AuthorProfile | None:
        return self.profiles.get(person)

    def credits(self, entries: Iterable[Entry], unlisted: Mapping[str, tuple[str, ...]]
                ) -> tuple[dict[str, tuple[str, ...]], dict[str, str], set[str]]:
        """Per entry slug, the people it credits (each once, in byline order, then the unlisted); each name
        written otherwise than its person's, with the person's name; and every person credited.

        Each distinct name is looked up once, and only entries naming someone otherwise are made
        again: the rest cost what crediting the names as written does.
        """
        credited = {e.slug: e.authors + unlisted[e.slug] for e in entries}
        names = {name for credits in credited.values() for name in credits}
        if not self.known:
            return credited, {}, names
        other = {name: person for name in names if (person := self.person(name)) != name}
        if other:
            hit = other.keys()
            for slug, credits in credited.items():
                if not hit.isdisjoint(credits):
                    credited[slug] = tuple(dict.fromkeys([other.get(name, name) for name in credits]))
            names = (names - hit) | set(other.values())
        return credited, other, names

    def credit(self, authors: tuple[str, ...], unlisted: tuple[str, ...]) -> tuple[str, ...]:
        """The people one entry credits: `credits` for an edited entry."""
        names = authors + unlisted
        if not self.known or all(self.person(name) == name for name in authors):
            return names
        return tuple(dict.fromkeys(map(self.person, names)))

    def byline(self, name: str, slugs: Mapping[str, str]) -> Byline:
        """A written name linked to its person's page (`slugs`: person -> slug)."""
        person = self.person(name)
        return Byline(name, slugs[person], person if person != name else "")

    def unlisted(self, entries: Iterable[Entry]) -> dict[str, tuple[str, ...]]:
        """Per entry slug, the people with a profile whom its author list leaves out although their profile lists it.

        A profile dump lists the author's own papers, so a paper imported from it is theirs even
        when the source printed only the first authors and "et al." (VTC in Vima Gupta's profile).
        """
        by_source: dict[str, list[AuthorProfile]] = defaultdict(list)
        for profile in self.all_profiles:
            if profile.source:
                by_source[profile.source].append(profile)
        result: dict[str, tuple[str, ...]] = {}
        for e in entries:
            found: list[str] = []
            for source in e.sources:
                owners = by_source.get(str(dict(source).get("file", "")), ())
                listed = {slugify(a) for a in e.authors} if owners else set()
                for profile in owners:
                    person = self.person(profile.name)
                    names = {profile.slug, *(slugify(n) for n in (person, *self.variants.get(person, ())))}
                    if not names & listed and person not in found:
                        found.append(person)
            result[e.slug] = tuple(found)
        return result

    def redirects(self, slugs: Mapping[str, str], root: Path | None) -> tuple[tuple[Redirect, ...], list[Diagnostic]]:
        """The address of each other spelling of a person with a page (`slugs`: person -> slug), sending the reader
        there; none where an author page or another person's spelling has the address (said in a warning)."""
        wanted: dict[str, dict[str, str]] = defaultdict(dict)  # slug -> person -> the spelling
        for person, names in self.variants.items():
            if person in slugs:
                for name in names:
                    slug = slugify(name)
                    if slug != slugs[person]:
                        wanted[slug].setdefault(person, name)
        pages = {slug: person for person, slug in slugs.items()}
        redirects, problems = [], []
        for slug in sorted(wanted):
            claims = wanted[slug]
            if slug not in pages and len(claims) == 1:
                [(person, _)] = claims.items()
                redirects.append(Redirect(slug, slugs[person]))
                continue
            for person, name in sorted(claims.items()):
                taken = f"the page of {pages[slug]!r}" if slug in pages else "wanted by " + " and ".join(
                    f"{n!r} of {p!r}" for p, n in sorted(claims.items()) if p != person)
                hint = (f"if {pages[slug]!r} is {person} too, add it to the aliases in {self.where(person, root).path}"
                        if slug in pages else "a spelling of two people cannot send readers to either; "
                        "nothing to do unless one of them is written wrong")
                problems.append(Diagnostic(self.where(person, root, name), "W433", f"{name!r} has no redirect to the "
                                           f"page of {person!r}: authors/{slug}/ is {taken}", hint, "warning"))
        return tuple(redirects), problems

    def where(self, person: str, root: Path | None, name: str | None = None) -> Location:
        """The line of a person's file giving `name` (an alias, or the name of one of their files), or its name."""
        for profile in self.all_profiles:
            if self.person(profile.name) != person:
                continue
            if name is None or key(profile.name) == key(name):
                return profile_line(root, profile.source_path, "name")
            if any(key(alias) == key(name) for alias in profile.aliases):
                return profile_line(root, profile.source_path, "aliases", name)
        return Location(self.profiles[person].source_path if person in self.profiles else "")


def resolve(profiles: Iterable[AuthorProfile], root: Path | None) -> People:
    """The people the author files name: files of one name or sharing an id are one person (a warning
    asks to keep one file; the first file's name and figures are the page's); a name two people's
    files give is an error at its line."""
    # a person's file is the first whose file name is its name's slug (as `sitegen import` names them), then by path
    files = sorted(profiles, key=lambda p: (PurePosixPath(p.source_path).stem != p.slug, p.source_path))
    if not files:
        return People()
    group = _groups(files)
    problems: list[Diagnostic] = []
    known: dict[str, str] = {}
    claimed: dict[str, AuthorProfile] = {}  # a name's key -> the file that gave it first
    persons: dict[int, str] = {}
    variants: dict[str, list[str]] = defaultdict(list)
    of_person: dict[str, AuthorProfile] = {}
    for i, profile in enumerate(files):
        first = files[group[i]]
        person = persons.setdefault(group[i], first.name)
        of_person.setdefault(person, first)
        if first is not profile:
            problems.append(_merged(profile, first, root))
        for field_, name in (("name", profile.name), *(("aliases", a) for a in profile.aliases)):
            k = key(name)
            if k in known and known[k] != person:
                problems.append(_claimed_twice(name, profile, field_, claimed[k], known[k], root))
                continue
            if k not in known:
                known[k], claimed[k] = person, profile
                if k != key(person):
                    variants[person].append(name)
    return People(known, of_person, {p: tuple(names) for p, names in variants.items()}, tuple(problems), tuple(files))


def _groups(files: list[AuthorProfile]) -> list[int]:
    """Each file's group, as the index of the group's first file: files of one name or sharing an id are one."""
    parent = list(range(len(files)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[tuple[str, str], int] = {}
    for i, profile in enumerate(files):
        marks = [("name", key(profile.name))] + [(f, v) for f in IDS if (v := getattr(profile, f))]
        for mark in marks:
            j = first.setdefault(mark, i)
            a, b = find(i), find(j)
            parent[max(a, b)] = min(a, b)
    return [find(i) for i in range(len(files))]


def _merged(profile: AuthorProfile, first: AuthorProfile, root: Path | None) -> Diagnostic:
    """The warning that a file is one person with an earlier one: the same name, or an id they share."""
    if key(profile.name) == key(first.name):
        other = [IDS[f] for f in IDS if getattr(profile, f) and getattr(first, f) and
                 getattr(profile, f) != getattr(first, f)]
        if other:
            return Diagnostic(profile_line(root, profile.source_path, "name"), "W431",
                              f"{profile.name!r} is also the name in {first.source_path}, with another {other[0]}: "
                              f"both people's papers are on one page, with that file's profile",
                              "papers name their authors, not their ids, so two people of one name cannot be "
                              "told apart here; keep the file of the one this list follows", "warning")
        return Diagnostic(profile_line(root, profile.source_path, "name"), "W431",
                          f"{profile.name!r} is also the name in {first.source_path}: one person, on one page "
                          f"with that file's profile", f"keep one file: move what this one adds into "
                          f"{first.source_path} and delete this one", "warning")
    shared = next(f for f in IDS if getattr(profile, f) and getattr(profile, f) == getattr(first, f))
    return Diagnostic(profile_line(root, profile.source_path, shared), "W432",
                      f"{profile.name!r} and {first.name!r} ({first.source_path}) share the {IDS[shared]} "
                      f"{getattr(profile, shared)!r}: one person, on the page of {first.name!r} with that file's "
                      "profile", f"keep one file: list {profile.name!r} in the aliases of {first.source_path} "
                      "and delete this one", "warning")


def _claimed_twice(name: str, profile: AuthorProfile, field_: str, first: AuthorProfile, person: str,
                   root: Path | None) -> Diagnostic:
    """The error for a name two people's files give: a paper writing it could be either's."""
    how = "the name" if key(first.name) == key(name) else "an alias"
    return Diagnostic(profile_line(root, profile.source_path, field_, name), "E430",
                      f"{name!r} is also {how} of {person!r} in {first.source_path}: a paper naming it would be "
                      "two people's", f"if {profile.name!r} and {person!r} are one person, keep one file and list "
                      "the other name in its aliases; if not, remove the name from one file", "error")


def profile_line(root: Path | None, path: str, field_: str, item: str | None = None) -> Location:
    """Where an author file gives a field (or one item of its list); read again only to be shown in a message."""
    if root is None:
        return Location(path)
    try:
        data, lines = frontmatter.load_yaml((root / path).read_text(encoding="utf-8-sig"), path)
    except (OSError, ValueError, frontmatter.FrontMatterError):
        return Location(path, 1)
    items = data.get(field_) if isinstance(data, dict) else None
    if item is not None and isinstance(items, list):
        for i, value in enumerate(items):
            if isinstance(value, str) and key(value) == key(item):
                return Location(path, lines.get(f"{field_}/{i}", 1))
    return Location(path, lines.get(field_, 1))
