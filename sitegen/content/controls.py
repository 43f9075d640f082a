"""Control characters: invisible, and fatal to what is made from the text.

A NUL, BEL or ESC, a C1 character or DEL is no character XML 1.0 allows (one makes a
feed unreadable), HTML forbids them, and a terminal obeys them when a message prints
them. Tab and newline are text. Content is cleaned of the rest where it is read, so
every later stage can take its text as it is.
"""

from __future__ import annotations

import re

# C0 but tab and newline (a CR is a line end, see `clean`), DEL, C1, and the two
# non-characters XML also refuses
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ufffe\uffff]")


def first(text: str) -> re.Match[str] | None:
    """The first control character of `text`, if any (None for nearly every text, cheaply)."""
    return None if text.isprintable() else CONTROL.search(text)


def clean(text: str) -> str:
    """`text` without control characters; a CR, alone or before LF, ends a line as LF does."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return CONTROL.sub("", text)


def name(char: str) -> str:
    """How a message names an invisible character: U+0007."""
    return f"U+{ord(char):04X}"


def shown(value: object, limit: int = 60) -> str:
    """repr(value) for a message: control characters escaped, and at most about `limit` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
