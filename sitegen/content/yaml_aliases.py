"""YAML anchors and aliases, refused in content before any value is built.

An alias repeats a value: nine short lines of them make a value of a billion items,
which loads in a moment (the repeats are shared) and then takes minutes and gigabytes
to validate or write out. Front matter and author files have no use for them.
"""

from __future__ import annotations

import yaml

from ..common.errors import Diagnostic, Location

try:  # the C parser, as the strict loader uses
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Loader = yaml.SafeLoader

_BREAKS = "\r\n\x85\u2028\u2029"  # YAML 1.1's line breaks
_BEFORE = frozenset(" \t[{,:" + _BREAKS)  # what may stand before an anchor or alias (or the start of the text)
_NOT_NAME = frozenset([*" \t[]{},", *_BREAKS, ""])  # what may not follow its '&' or '*' ('': the end)
HINT = "write the value out in full; if '&' or '*' is part of the text, put the whole value in quotes"


def first_alias(text: str, path: str, first_line: int = 1) -> Diagnostic | None:
    """An error at the first alias of a YAML text, else at its first anchor; None without either.

    `first_line` is the file line the text starts on. Only a text with something like an
    anchor in it is parsed for them (PyYAML's events: no node or value is made).
    """
    if not maybe_anchored(text):
        return None
    anchors: dict[str, yaml.Event] = {}
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if isinstance(event, yaml.AliasEvent):
                anchored = anchors.get(event.anchor or "")
                since = f" (it repeats the value anchored on line {_line(anchored, first_line)})" if anchored else ""
                return _error(path, first_line, event, f"YAML alias '*{event.anchor}' is not allowed{since}")
            anchor = getattr(event, "anchor", None)
            if anchor is not None:
                anchors.setdefault(anchor, event)
    except yaml.YAMLError:
        pass  # a text YAML cannot read: loading it reports why, unless an anchor came first
    if anchors:
        anchor, event = next(iter(anchors.items()))
        return _error(path, first_line, event, f"YAML anchor '&{anchor}' is not allowed")
    return None


def maybe_anchored(text: str) -> bool:
    """Whether an '&' or '*' stands where an anchor or alias could: at the start of the text, or after
    a space, a line break or a flow indicator, and before a name. 'R&D', 'a & b' and '2*3' do not.

    A few `str.find` calls for a text without one, where a regular expression took 40 µs.
    """
    for sign in "&*":
        at = text.find(sign)
        while at != -1:
            if (at == 0 or text[at - 1] in _BEFORE) and text[at + 1 : at + 2] not in _NOT_NAME:
                return True
            at = text.find(sign, at + 1)
    return False


def _line(event: yaml.Event, first_line: int) -> int:
    return (event.start_mark.line if event.start_mark else 0) + first_line


def _error(path: str, first_line: int, event: yaml.Event, message: str) -> Diagnostic:
    column = event.start_mark.column + 1 if event.start_mark else 0
    return Diagnostic(Location(path, _line(event, first_line), column), "E340", message, HINT)
