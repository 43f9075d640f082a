"""Autoescaping in one call for what pages show most: plain strings, numbers and markup itself.

Every `{{ … }}` in an autoescaped template calls markupsafe's `escape`, a Python function
that makes its result through `Markup.__new__`, a second one: a paper page makes about 130
such calls, a tenth of its render. `escape` here gives the same `Markup` for a `str`, an
`int` or a `Markup` without the second call (for `Markup`, without copying it), and leaves
everything else to markupsafe. `Template` puts it in each compiled template's namespace,
where Jinja's generated code looks `escape` up.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from types import CodeType
from typing import Any

import jinja2
import markupsafe
from markupsafe import Markup

# markupsafe's own C (or pure-Python) escaping of a str, which its `escape` wraps; absent in
# another version of markupsafe, where its `escape` is used as it is
_escape_text: Callable[[str], str] | None = getattr(markupsafe, "_escape_inner", None)
_new_str = str.__new__
TEXT_NAME = "_sitegen_text"  # `text` in each template's namespace, where buffered output calls it


def escape(value: object) -> Markup:
    """markupsafe.escape(value), in one call for a str, an int or a Markup."""
    kind = type(value)
    if kind is str and _escape_text is not None:
        return _new_str(Markup, _escape_text(value))  # type: ignore[arg-type]
    if kind is Markup:
        return value  # type: ignore[return-value]  # immutable, and safe already
    if kind is int:
        return _new_str(Markup, str(value))  # digits and a minus sign need no escaping
    return markupsafe.escape(value)


def text(value: object) -> str:
    """str(escape(value)): output that is only joined into the page need not be a Markup."""
    kind = type(value)
    if kind is str and _escape_text is not None:
        return _escape_text(value)  # type: ignore[arg-type]
    if kind is Markup:
        return value  # type: ignore[return-value]
    if kind is int:
        return str(value)
    return markupsafe.escape(value)


class Template(jinja2.Template):
    """A template whose output expressions escape with `escape`, or `text` (see buffered)."""

    @classmethod
    def from_code(cls, environment: jinja2.Environment, code: CodeType, globals: MutableMapping[str, Any],
                  uptodate: Callable[[], bool] | None = None) -> jinja2.Template:
        template = super().from_code(environment, code, globals, uptodate)
        namespace = template.root_render_func.__globals__  # the namespace its code was run in
        namespace["escape"], namespace[TEXT_NAME] = escape, text
        return template


__all__ = ["TEXT_NAME", "Template", "escape", "text"]
