"""Notes that name other papers: `[[slug]]`, `[[slug|text]]` or `[[2205.14135]]`, as wiki-style editors write them.

Parsing knows only the text, not the list: a mention is rendered as a placeholder anchor that
names its target (`<a class="mention" data-mention="…">`), and the entry keeps each target with
its line. The model resolves targets to papers (a slug, or an arXiv id the list holds) and the
paper page fills the placeholders in (`linked`), so the notes of an entry are parsed once
whatever the rest of the list does.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

MENTION = re.compile(r"\[\[([^\[\]|\n]{1,200})(?:\|([^\[\]\n]{1,300}))?\]\]")
# the placeholder as `render` writes it: what `linked` fills in
# (the target is its text until then; `data-named` when the curator wrote a text of their own)
PLACEHOLDER = re.compile(r'<a class="mention" data-mention="([^"]*)"( data-named)?>(.*?)</a>', re.DOTALL)


def _mention_rule(state: Any, silent: bool) -> bool:
    """An inline rule: `[[target]]` or `[[target|text]]` at the current position becomes a `mention` token."""
    if not state.src.startswith("[[", state.pos):
        return False
    match = MENTION.match(state.src, state.pos)
    if match is None or not match[1].strip():
        return False
    if not silent:
        token = state.push("mention", "a", 0)
        token.meta = {"target": match[1].strip(), "text": (match[2] or "").strip()}
    state.pos = match.end()
    return True


def _render(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    meta = tokens[idx].meta
    target, text = html.escape(meta["target"]), html.escape(meta["text"])
    return f'<a class="mention" data-mention="{target}"{" data-named" if text else ""}>{text or target}</a>'


def install(md: Any) -> None:
    """Teach a markdown-it parser mentions (before links, whose `[` would take them)."""
    md.inline.ruler.before("link", "mention", _mention_rule)
    md.add_render_rule("mention", _render)


def found(tokens: list[Any]) -> tuple[tuple[str, int], ...]:
    """Each mention's target and the notes' line it is on (0-based), in order."""
    out = []
    for token in tokens:
        if token.type == "inline" and token.children and token.map:
            out += [(child.meta["target"], token.map[0]) for child in token.children if child.type == "mention"]
    return tuple(out)


def linked(notes_html: str, resolve: Callable[[str], tuple[str, str] | None]) -> str:
    """The notes with each mention a link: `resolve(target)` gives the paper's address and its title as HTML (the
    text when none was written), or None for a paper not on the list, whose mention stays plain text."""
    if 'class="mention"' not in notes_html:
        return notes_html

    def fill(match: re.Match[str]) -> str:
        target, named, text = html.unescape(match[1]), match[2], match[3]
        paper = resolve(target)
        if paper is None:
            return f'<span class="mention missing">{text}</span>'
        href, title_html = paper
        return f'<a class="mention" href="{html.escape(href)}">{text if named else title_html}</a>'

    return PLACEHOLDER.sub(fill, notes_html)
