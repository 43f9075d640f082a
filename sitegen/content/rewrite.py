"""An entry or author file rewritten with new front matter: what every tool that writes into them writes.

The curator's comments go back beside their fields (see `comments`) and the notes
after the closing `---` stay byte for byte, line endings and trailing spaces included.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

import yaml

from .frontmatter import StrictLoader, dump_yaml, split
from .schema import ENTRY_FIELDS

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|\Z)")


def body_as_written(text: str) -> str:
    """Everything after the closing `---` line, its line endings and spacing untouched."""
    lines = [m.group() for m in _LINE.finditer(text.lstrip("\ufeff"))]
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "".join(lines[i + 1 :])
    return ""


def rewritten(text: str, meta: dict[str, Any]) -> str:
    """An entry's text with new front matter: the curator's comments, `extra:` and other tools' fields kept, the
    notes byte for byte."""
    old, _, _ = split(text)
    own = ENTRY_FIELDS.keys() - {"extra"}
    return "---\n" + rewritten_yaml(old or "", meta, own) + "---\n" + body_as_written(text)


def comments(yaml_text: str) -> list[tuple[str | None, str]]:
    """Every comment of a YAML text, each with the top-level key it belongs before (None: the end).

    A comment on its own line belongs before the key that follows it; one at the end of a
    line, or inside a key's value, before that key. PyYAML drops comments, so they are
    found as the text after a line's last token: a '#' inside a quoted or block scalar is
    part of the scalar, not a comment.
    """
    lines = yaml_text.split("\n")
    content_end: dict[int, int] = {}  # line -> column where its tokens end
    inside: set[int] = set()  # lines wholly within a multi-line scalar
    keys: dict[int, str] = {}
    try:
        for token in yaml.scan(yaml_text, Loader=yaml.SafeLoader):
            start, end = token.start_mark, token.end_mark
            if start.index == end.index:  # stream, block and indentation markers hold no text
                continue
            inside.update(range(start.line + 1, end.line))
            if end.line > start.line and end.column == 0:  # a block scalar ends at the next line's start
                inside.add(end.line - 1)
            else:
                content_end[end.line] = max(content_end.get(end.line, 0), end.column)
        node = yaml.compose(yaml_text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return []
    if isinstance(node, yaml.MappingNode):
        keys = {k.start_mark.line: str(k.value) for k, _ in node.value if isinstance(k, yaml.ScalarNode)}
    found: list[tuple[str | None, str]] = []
    for i, line in enumerate(lines):
        if i in inside:
            continue
        rest = line[content_end.get(i, 0):].strip()
        if not rest.startswith("#"):
            continue
        following = next((j for j in range(i + 1, len(lines))
                          if lines[j].strip() and not lines[j].lstrip().startswith("#")), None)
        if i not in content_end and (following is None or following in keys):
            found.append((keys[following] if following is not None else None, rest))
        else:
            owner = max((k for k in keys if k <= i), default=None)
            found.append((keys[owner] if owner is not None else None, rest))
    return found


def with_comments(yaml_text: str, kept: list[tuple[str | None, str]]) -> str:
    """`yaml_text` (as dump_yaml writes it) with comments put back before their keys, the rest at the end."""
    if not kept:
        return yaml_text
    node = yaml.compose(yaml_text, Loader=yaml.SafeLoader)
    at = {str(k.value): k.start_mark.line for k, _ in node.value} if isinstance(node, yaml.MappingNode) else {}
    before: dict[int, list[str]] = {}
    tail: list[str] = []
    for key, comment in kept:
        (before.setdefault(at[key], []) if key in at else tail).append(comment)
    lines = yaml_text.removesuffix("\n").split("\n")
    out = [line for i, line in enumerate(lines) for line in (*before.get(i, ()), line)]
    return "\n".join(out + tail) + "\n"


def rewritten_yaml(old: str, meta: dict[str, Any], own: Collection[str]) -> str:
    """New YAML for `meta` over the text `old`, as every tool that rewrites an entry or author file writes it.

    sitegen's own keys (`own`) are dumped anew; any other key (another tool's, such as an Obsidian
    vault's `aliases:`, or the curator's `extra:`) whose value is unchanged is kept as written,
    byte for byte, with the comments before and inside it. The other comments go back beside their
    keys (see `with_comments`).
    """
    if all(key in own for key in meta):  # nothing to keep as written: the file is not parsed twice more
        return with_comments(dump_yaml(meta), comments(old))
    kept = _segments(old)
    try:
        before = yaml.load(old, Loader=StrictLoader) if kept else None
    except yaml.YAMLError:
        before = None
    if not isinstance(before, dict):
        return with_comments(dump_yaml(meta), comments(old))
    foreign = {key for key in meta if key not in own and key in kept and key in before and before[key] == meta[key]}
    text = "".join(kept[key] if key in foreign else dump_yaml({key: value}) for key, value in meta.items())
    return with_comments(text, [(key, c) for key, c in comments(old) if key not in foreign])


def _segments(text: str) -> dict[str, str]:
    """Each top-level key's lines in a block mapping: from the end of the key before it (its own comments and
    blank lines first) to the end of its value. Empty when the text is no block mapping."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return {}
    if not isinstance(node, yaml.MappingNode) or node.flow_style:
        return {}
    lines = text.splitlines(keepends=True)
    found: dict[str, str] = {}
    start = 0
    for key, value in node.value:
        if not isinstance(key, yaml.ScalarNode):
            return {}
        end = value.end_mark.line - (1 if value.end_mark.column == 0 and value.end_mark.line > key.start_mark.line
                                     else 0)
        if not isinstance(value, yaml.ScalarNode):  # comments after a list or mapping belong to the next key
            while end > key.start_mark.line and (not lines[end].strip() or lines[end].lstrip().startswith("#")):
                end -= 1
        segment = "".join(lines[start:end + 1])
        found[str(key.value)] = segment if segment.endswith("\n") else segment + "\n"
        start = end + 1
    return found
