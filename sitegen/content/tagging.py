"""Topic tags from the user's keyword map in site.yaml, matched on title and abstract."""

from __future__ import annotations

import re
from collections.abc import Iterable


def _fold(text: str) -> str:
    """Lowercase, hyphens and underscores as spaces: 'Mixture-of-Experts' ~ 'mixture of experts'."""
    return " ".join(re.sub(r"[-_/]", " ", text.lower()).split())


class Tagger:
    """Compiles the keyword map once; `tags_for` is then a handful of regex searches."""

    def __init__(self, tag_map: Iterable[tuple[str, Iterable[str]]]):
        self._rules: list[tuple[str, re.Pattern[str]]] = []
        for tag, keywords in tag_map:
            alternatives = "|".join(re.escape(_fold(k)) for k in keywords if _fold(k))
            if alternatives:
                pattern = rf"(?<![a-z0-9])(?:{alternatives})(?:s|es)?(?![a-z0-9])"
                self._rules.append((tag, re.compile(pattern)))

    def tags_for(self, *texts: str) -> list[str]:
        """Every tag one of whose keywords occurs in the texts, in map order."""
        folded = _fold(" ".join(texts))
        return [tag for tag, pattern in self._rules if pattern.search(folded)]
