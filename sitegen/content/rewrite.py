"""An existing entry rewritten with new front matter: what every tool that writes into entries writes.

The curator's comments go back beside their fields (see frontmatter.comments) and the notes
after the closing `---` stay byte for byte, line endings and trailing spaces included.
"""

from __future__ import annotations

import re
from typing import Any

from .frontmatter import rewritten_yaml, split
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

