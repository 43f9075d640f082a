"""Names that may be one person: what `sitegen check` suggests, and never merges by itself.

Two names are suggested when their family names are the same and their given names agree
('A. Gupta' and 'Ahan Gupta', 'Ahan K. Gupta' and 'Ahan Gupta', a letter's typo), they are
on no paper together (one paper's two names are two people), they share a co-author (or
are the same name but for accents, case or punctuation), and no id tells them apart.
Names are compared only within a bucket of one family name and first initial, so a list of
thousands of authors costs a few look-ups per name, not a comparison of every pair.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

from rapidfuzz import fuzz

from ..common.errors import Diagnostic, Location
from ..content.loader import AuthorProfile, Content, Entry
from ..content.slugs import slugify
from . import collisions, people
from .model import author_sort_key, name_slugs
from .people import IDS, People

TYPO = 85  # rapidfuzz's ratio from which two given names of 4 letters or more are one with a typo
SAME = "the same name but for accents, case or punctuation"
SHOWN = 3  # shared co-authors named in a message


def check(content: Content, root: Path | None) -> list[Diagnostic]:
    """What `sitegen check` says about people: the author files' problems (as a build says them), the other
    spellings without a redirect, and the names that may be one person."""
    who = people.resolve(content.profiles, root)
    published = [e for e in content.entries if not e.draft]
    _, _, persons = who.credits(published, who.unlisted(published))
    _, problems = who.redirects(name_slugs(sorted(persons)), root)
    return [*who.problems, *problems, *likely(content.entries, who, root)]


def likely(entries: Iterable[Entry], who: People, root: Path | None) -> list[Diagnostic]:
    """A warning for each pair of names that may be one person, at the less complete one's first paper."""
    entries = sorted(entries, key=lambda e: e.source_path)
    credited, _, _ = who.credits(entries, who.unlisted(entries))
    papers: dict[str, list[int]] = defaultdict(list)
    for i, e in enumerate(entries):
        for person in credited[e.slug]:
            papers[person].append(i)
    buckets: dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
    for person in sorted(papers, key=author_sort_key):
        *given, family = slugify(person).split("-")
        if given:  # a name of one word (or of no letter a slug keeps: 'p-<hash>') has nothing to compare
            buckets[family, given[0][0]].append((person, tuple(given)))
    found = Found(entries, credited, papers, who, root)
    for bucket in buckets.values():
        for i, (one, one_given) in enumerate(bucket):
            for other, other_given in bucket[i + 1:]:
                reason = agree(one_given, other_given)
                if reason is not None:
                    found.consider(one, other, reason)
    return found.warnings


def agree(one: tuple[str, ...], other: tuple[str, ...]) -> str | None:
    """How two given names (slug words) may be one person's, or None: the first names agree, and every name
    of the shorter is one of the longer's, in order, written out, as an initial, or with a typo."""
    if one == other or "".join(one) == "".join(other):
        return SAME
    short, long = sorted((one, other), key=len)
    how: set[str] = set()
    at = 0
    for n, word in enumerate(short):
        while at < len(long):
            match = _match(word, long[at])
            at += 1
            if match:
                how.add(match)
                break
            if n == 0:
                return None  # the first given names must agree
        else:
            return None
    if "initial" in how:
        return "initials match"
    return "nearly the same name" if "typo" in how else "a middle name left out"


def _match(a: str, b: str) -> str:
    if a == b:
        return "same"
    if (len(a) == 1 and b.startswith(a)) or (len(b) == 1 and a.startswith(b)):
        return "initial"
    if min(len(a), len(b)) >= 4 and fuzz.ratio(a, b) >= TYPO:
        return "typo"
    return ""


class Found:
    """The evidence for pairs of names (shared co-authors, papers together, ids) and the warnings it makes."""

    def __init__(self, entries: list[Entry], credited: dict[str, tuple[str, ...]], papers: dict[str, list[int]],
                 who: People, root: Path | None):
        self.entries, self.credited, self.papers, self.who, self.root = entries, credited, papers, who, root
        self.warnings: list[Diagnostic] = []
        self._coauthors: dict[str, set[str]] = {}

    def coauthors(self, person: str) -> set[str]:
        found = self._coauthors.get(person)
        if found is None:
            found = self._coauthors[person] = {n for i in self.papers[person]
                                               for n in self.credited[self.entries[i].slug]}
        return found

    def consider(self, one: str, other: str, reason: str) -> None:
        """Warn when the evidence says the two names may be one person."""
        if set(self.papers[one]) & set(self.papers[other]) or _told_apart(self.who.profile(one),
                                                                          self.who.profile(other)):
            return
        shared = sorted(self.coauthors(one) & self.coauthors(other) - {one, other}, key=author_sort_key)
        if not shared and reason != SAME:
            return
        main, variant = sorted((one, other), key=self._fuller)
        self.warnings.append(self._warning(main, variant, reason, shared))

    def _fuller(self, person: str) -> tuple[bool, int, int, tuple[str, str]]:
        """The name a page should keep first: one with a profile, the longest given names, the most papers."""
        given = slugify(person).split("-")[:-1]
        return (self.who.profile(person) is None, -sum(len(w) for w in given if len(w) > 1),
                -len(self.papers[person]), author_sort_key(person))

    def _warning(self, main: str, variant: str, reason: str, shared: list[str]) -> Diagnostic:
        main_file, variant_file = self.who.profile(main), self.who.profile(variant)
        evidence = reason
        if shared:
            names = ", ".join(shared[:SHOWN]) + (", …" if len(shared) > SHOWN else "")
            evidence += f", {len(shared)} shared co-author{'s' if len(shared) > 1 else ''} ({names})"
        if main_file and variant_file:
            hint = f"keep one file: list {variant!r} in the aliases of {main_file.source_path} and delete " \
                   f"{variant_file.source_path}"
        elif main_file:
            hint = f"add {variant!r} to aliases: in {main_file.source_path}"
        else:
            hint = f"write content/authors/{slugify(main)}.yaml with name: {main!r} and aliases: [{variant!r}]"
        where = self._where(variant)
        return Diagnostic(where, "W434", f"{variant!r} may be {main!r} ({self._where(main)}): {evidence}",
                          f"if they are one person, {hint}", "warning")

    def _where(self, person: str) -> Location:
        """A person's author file, at its name; else their first paper, at the line of the name as written."""
        profile = self.who.profile(person)
        if profile is not None:
            return people.profile_line(self.root, profile.source_path, "name")
        e = self.entries[self.papers[person][0]]
        written = next((a for a in e.authors if self.who.person(a) == person), person)
        if self.root is None:
            return Location(e.source_path)
        return Location(e.source_path, collisions.line_of(self.root, e.source_path, "authors", written) or 1)


def _told_apart(one: AuthorProfile | None, other: AuthorProfile | None) -> bool:
    """Whether two people's files hold different ids of one kind: two accounts, two people."""
    return one is not None and other is not None and any(
        getattr(one, f) and getattr(other, f) and getattr(one, f) != getattr(other, f) for f in IDS)
