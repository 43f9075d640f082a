"""An existing entry rewritten with new front matter: what every tool that writes into entries writes.

The curator's comments go back beside their fields (see frontmatter.comments) and the notes
after the closing `---` stay byte for byte, line endings and trailing spaces included.
"""

from __future__ import annotations

import re
from typing import Any

from .frontmatter import comments, dump_yaml, split, with_comments

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|\Z)")


def body_as_written(text: str) -> str:
    """Everything after the closing `---` line, its line endings and spacing untouched."""
    lines = [m.group() for m in _LINE.finditer(text.lstrip("\ufeff"))]
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "".join(lines[i + 1 :])
    return ""


def rewritten(text: str, meta: dict[str, Any]) -> str:
    """An entry's text with new front matter: the curator's comments kept, the notes byte for byte."""
    old, _, _ = split(text)
    return "---\n" + with_comments(dump_yaml(meta), comments(old or "")) + "---\n" + body_as_written(text)

