"""Which papers each paper's notes mention, and which notes mention it.

A note names a paper by its slug (`[[flash-attention]]`) or by an arXiv id the list holds
(`[[2205.14135]]`, a version or an `arXiv:` prefix allowed). Each paper with mentions either
way has a `Mentions` record: its page links the targets and says where it is mentioned. A
target no paper answers to is a warning at its line, with the nearest slugs as a hint: the
mention is shown as text, never as a broken link.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..common.errors import Diagnostic, Location

if TYPE_CHECKING:
    from ..content.loader import Entry

_ARXIV = re.compile(r"^(?:arxiv:)?(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[a-z]{2})?/\d{7})(?:v\d+)?$", re.IGNORECASE)


@dataclass(frozen=True)
class Mentions:
    """One paper's mentions: the targets its notes name (and the slug each is, None when no paper), and the
    papers whose notes name it, in the site's order."""

    out: tuple[tuple[str, str | None], ...] = ()
    into: tuple[str, ...] = ()


def arxiv_key(value: str) -> str | None:
    """An arXiv id as the list knows it: no version, no prefix, lower case; None for anything else."""
    match = _ARXIV.match(value.strip())
    return match[1].lower() if match else None


def arxiv_slugs(entries: Iterable[Entry]) -> dict[str, str]:
    """Each arXiv id of the list, to its paper (the first in the site's order)."""
    found: dict[str, str] = {}
    for e in entries:
        key = arxiv_key(e.arxiv) if e.arxiv else None
        if key:
            found.setdefault(key, e.slug)
    return found


def resolve(target: str, slugs: Mapping[str, object], by_arxiv: Mapping[str, str]) -> str | None:
    if target in slugs:
        return target
    key = arxiv_key(target)
    return by_arxiv.get(key) if key else None


def site_mentions(entries: Sequence[Entry], slugs: Mapping[str, object],
                  by_arxiv: Mapping[str, str]) -> tuple[dict[str, Mentions], list[Diagnostic]]:
    """Every paper's mentions (papers with none left out), and a warning for each target that is no paper."""
    out: dict[str, tuple[tuple[str, str | None], ...]] = {}
    into: dict[str, list[str]] = defaultdict(list)
    problems = []
    for e in entries:
        if not e.mentions:
            continue
        links = []
        for target, line in e.mentions:
            slug = resolve(target, slugs, by_arxiv)
            links.append((target, slug))
            if slug is None:
                problems.append(unknown(e, target, line, slugs))
            elif slug != e.slug and e.slug not in into[slug]:
                into[slug].append(e.slug)
        out[e.slug] = tuple(dict.fromkeys(links))
    return {slug: Mentions(out.get(slug, ()), tuple(into.get(slug, ()))) for slug in (*out, *into)}, problems


def unknown(entry: Entry, target: str, line: int, slugs: Mapping[str, object]) -> Diagnostic:
    close = difflib.get_close_matches(target.lower(), list(slugs), n=3, cutoff=0.5)
    hint = f"nearest: {', '.join(close)}; " if close else ""
    return Diagnostic(Location(entry.source_path, line), "W346", f"[[{target}]] names no paper on this list",
                      f"{hint}name a paper by its file's name without .md, or by an arXiv id the list holds",
                      severity="warning")


def patched(before: Mapping[str, Mentions], by_arxiv: Mapping[str, str], edited: Mapping[str, Entry],
            old: Mapping[str, Entry], slugs: Mapping[str, object],
            order: Sequence[str]) -> tuple[dict[str, Mentions], dict[str, str], set[str]] | None:
    """`site_mentions` after an edit, and the papers whose mentions changed; None when an arXiv id moved to a
    paper another already holds (a full build settles which comes first)."""
    moved_ids = {slug for slug, e in edited.items() if e.arxiv != old[slug].arxiv}
    if not moved_ids and all(e.mentions == old[slug].mentions for slug, e in edited.items()):
        return dict(before), dict(by_arxiv), set()
    ids = dict(by_arxiv)
    changed_keys = set()
    for slug in moved_ids:
        for key in (arxiv_key(old[slug].arxiv or ""),):
            if key and ids.get(key) == slug:
                del ids[key]
                changed_keys.add(key)
        key = arxiv_key(edited[slug].arxiv or "")
        if key:
            if ids.get(key, slug) != slug:
                return None
            ids[key] = slug
            changed_keys.add(key)
    sources = {slug for slug, e in edited.items() if e.mentions or before.get(slug, Mentions()).out}
    sources |= {slug for slug, m in before.items() if any(arxiv_key(t) in changed_keys for t, _ in m.out)}
    after = dict(before)
    into: dict[str, list[str]] = {slug: list(m.into) for slug, m in before.items()}
    touched = set(sources)
    for source in sources:
        entry = edited.get(source)
        targets = entry.mentions if entry is not None else ()
        old_out = before.get(source, Mentions()).out
        if entry is None:  # mentioning by an arXiv id whose paper changed: its targets as before, resolved again
            targets = tuple((t, 0) for t, _ in old_out)
        new_out = tuple(dict.fromkeys((t, resolve(t, slugs, ids)) for t, _ in targets))
        for _, gone in old_out:
            if gone and gone != source and source in into.get(gone, []):
                into[gone].remove(source)
                touched.add(gone)
        for _, named in new_out:
            if named and named != source and source not in into.setdefault(named, []):
                into[named].append(source)
                touched.add(named)
        after[source] = Mentions(new_out, after.get(source, Mentions()).into)
    position = {slug: i for i, slug in enumerate(order)}
    for slug in touched:
        record = Mentions(after.get(slug, Mentions()).out,
                          tuple(sorted(into.get(slug, []), key=lambda s: position.get(s, len(position)))))
        if record == Mentions():
            after.pop(slug, None)
        else:
            after[slug] = record
    return after, ids, touched


def check(entries: Sequence[Entry]) -> list[Diagnostic]:
    """`sitegen check`'s word on mentions: each target no entry answers to (drafts count: check sees them all)."""
    return site_mentions(entries, {e.slug: e for e in entries}, arxiv_slugs(entries))[1]
