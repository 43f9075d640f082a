"""Topic tags: the one spelling of each, and those the keyword map of site.yaml finds in a title and abstract."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..common.errors import Diagnostic, Location, Report


def tag_key(tag: str) -> str:
    """One spelling of a tag, whatever the case and spacing it is written in: 'KV Cache', 'kv_cache' -> 'kv-cache'."""
    return "-".join(re.split(r"[\s_-]+", tag.strip().lower())).strip("-") or tag


def one_spelling(tags: tuple[str, ...], written: list[str], key_lines: dict[str, int], shown: str,
                  report: Report) -> tuple[str, ...]:
    """The tags in their one spelling (see `tag_key`), each written otherwise said at its line."""
    spelled = []
    for tag in tags:
        key = tag_key(tag)
        if key != tag:
            at = next((i for i, t in enumerate(written) if t.strip() == tag), None)
            line = key_lines.get(f"tags/{at}", key_lines.get("tags", 1))
            report.add(Diagnostic(Location(shown, line), "W343", f"tag '{tag}' is the tag '{key}': tags ignore case "
                                  "and spacing", f"write it '{key}', so every entry spells it one way",
                                  severity="warning"))
        spelled.append(key)
    return tuple(dict.fromkeys(spelled))


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
