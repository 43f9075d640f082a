"""Which of a resolved paper's authors each name the importer wrote is: only a sure one-to-one respelling.

A profile dump writes names family first and without accents ('Malecki Lukasz'); the paper's
record writes 'Łukasz Małecki'. The matcher, judging whether a candidate is the entry's
paper, counts a shared surname as a shared author; replacing a name asks more. A name is
the same person as one of the paper's when, accents and case set aside, it has the same
words, or the same words with the family name moved to the front. Each name must have
exactly one such counterpart, and no counterpart may answer for two names; anything else is
left to the curator. Pure functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..importers.merge import fingerprint
from .match import name_tokens


def same_person(a: str, b: str) -> bool:
    """Whether two spellings name one person: the same words, or the same with the last word moved first."""
    x, y = name_tokens(a), name_tokens(b)
    if not x or not y:
        return False
    return x == y or x == y[-1:] + y[:-1] or y == x[-1:] + x[:-1]


@dataclass(frozen=True)
class Respelling:
    """Each name paired with the paper's spelling of it (`pairs`), and the names with no single counterpart."""

    pairs: tuple[tuple[str, str], ...] = ()
    left: tuple[str, ...] = ()


def respelling(mine: Sequence[str], theirs: Sequence[str]) -> Respelling:
    """The paper's spelling (`theirs`) of each name of `mine`, where it is sure."""
    counterparts = [[j for j, name in enumerate(theirs) if same_person(old, name)] for old in mine]
    claims = [c[0] for c in counterparts if len(c) == 1]
    pairs, left = [], []
    for old, found in zip(mine, counterparts, strict=True):
        if len(found) == 1 and claims.count(found[0]) == 1:
            pairs.append((old, theirs[found[0]]))
        else:
            left.append(old)
    return Respelling(tuple(pairs), tuple(left))


def importers_list(meta: dict[str, Any], names: Sequence[str] | None, imported: dict[str, set[str]]
                   ) -> Respelling | None:
    """The respelling of the entry's author list into `names` (the paper's), when the list is still the one the
    importer wrote (its fingerprint in the import state) and spelled otherwise; None for any other list."""
    current = meta.get("authors")
    if not names or not isinstance(current, list) or not current or current == list(names):
        return None
    if not all(isinstance(n, str) for n in current) or fingerprint(current) not in imported.get("authors", set()):
        return None
    return respelling(current, names)
