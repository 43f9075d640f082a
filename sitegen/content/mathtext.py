"""Plain text of titles and abstracts whose `$…$` spans are TeX, for the places that hold no markup.

A page's meta description, OpenGraph and JSON-LD, and a feed's titles and summaries are read as
text by search engines, link previews and feed readers, where `$\\textbf{F}$ast` would show its
TeX. Each math span becomes Unicode through pylatexenc (`$\\alpha$` -> `α`, `$\\textbf{F}$` -> `F`);
the text around the spans is kept as written, since it is not TeX (`&`, `%` and `~` mean
themselves there). Short superscripts and subscripts become Unicode ones (`O(n^2)` -> `O(n²)`),
longer ones keep their grouping in brackets (`n^{k/2}` -> `n^(k/2)`).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from .markdown import INLINE_MATH, unescape_dollars

if TYPE_CHECKING:
    from pylatexenc.latex2text import LatexNodes2Text

SUPERSCRIPTS = dict(zip("0123456789+-=()inT", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿᵀ", strict=True))
SUBSCRIPTS = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True))
# `^x`, `_x`, `^{…}` or `_{…}` (no braces nested inside; not `\_`); a command such as `^\prime` is left to pylatexenc
SCRIPT = re.compile(r"(?<!\\)([\^_])\s*(?:\{([^{}]*)\}|([^\\\s{}]))")
# pylatexenc writes \mathbf{W} or \mathcal{O} as letters of Unicode's Mathematical Alphanumeric Symbols (𝐖, 𝒪), which
# search engines do not match with W and O and screen readers spell out: plain text takes the plain letter (NFKC)
PLAIN_LETTERS = {code: unicodedata.normalize("NFKC", chr(code)) for code in range(0x1D400, 0x1D800)}
# Text styles pylatexenc drops with their words (it knows them as commands, but not what text they hold)
KEPT_TEXT_COMMANDS = ("texttt", "textsf", "textup", "textmd")
# What is left of TeX that pylatexenc could not read: its commands, groups and math shifts go
LEFTOVER_TEX = re.compile(r"\\[A-Za-z]+\*?|\\(?=[^A-Za-z])|[{}$]")


def plain_text(text: str, limit: int | None = None) -> str:
    """One line of text without TeX; cut at a word before `limit` characters, with an ellipsis, when longer."""
    if limit is None:
        return _one_line(text)
    head = _head(text, 2 * limit)  # a description is made for every paper: it reads only the start of the abstract
    plain = _one_line(head)
    if len(plain) <= limit and len(head) < len(text):  # TeX made the start shorter than the limit: take it all
        plain = _one_line(text)
    if len(plain) <= limit:
        return plain
    return plain[:limit].rsplit(" ", 1)[0].rstrip(" ,;:.") + "…"


def _one_line(text: str) -> str:
    plain = _plain_spans(text) if "$" in text else text
    spaced = "\n" in plain or "  " in plain or "\t" in plain or "\r" in plain  # rare: ten times quicker to look
    return " ".join(plain.split()) if spaced else plain.strip()


def _head(text: str, size: int) -> str:
    """The first `size` characters of `text`, or more to finish a math span they end in."""
    end = size
    for match in INLINE_MATH.finditer(text):
        if match.start() >= end:
            break
        end = max(end, match.end())
    return text[:end]


def _plain_spans(text: str) -> str:
    out: list[str] = []
    last = 0
    for match in INLINE_MATH.finditer(text):
        out += [unescape_dollars(text[last : match.start()]), math_text(match.group(1))]
        last = match.end()
    return "".join(out) + unescape_dollars(text[last:])


@lru_cache(maxsize=4096)
def math_text(tex: str) -> str:
    """One math span (without its `$`) as Unicode text."""
    scripted = SCRIPT.sub(_script, tex)
    if _balanced(scripted):  # pylatexenc reads an unclosed group as best it can, with printf marks left in
        try:
            return str(_converter().latex_to_text(f"${scripted}$")).translate(PLAIN_LETTERS).strip()
        except Exception:  # and fails on some TeX (an \href: its arguments are not found in math)
            pass
    return LEFTOVER_TEX.sub("", scripted).strip()


def _balanced(tex: str) -> bool:
    unescaped = tex.replace("\\\\", "").replace("\\{", "").replace("\\}", "")
    return unescaped.count("{") == unescaped.count("}")


def _script(match: re.Match[str]) -> str:
    """A superscript or subscript in Unicode when every character has a form, else bracketed when longer than one."""
    mark, group, single = match.groups()
    body = (single if group is None else group).strip()
    forms = SUPERSCRIPTS if mark == "^" else SUBSCRIPTS
    if body and all(c in forms for c in body):  # `{}` ends a command before it: `\sum{}ᵢ`, not `\sumᵢ`
        return "{}" + "".join(forms[c] for c in body)
    return f"{mark}({body})" if len(body) > 1 else f"{mark}{body}"


@cache
def _converter() -> LatexNodes2Text:
    """pylatexenc's converter, made once math first appears (importing it takes 20 ms)."""
    from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

    # pylatexenc logs each TeX mistake it tolerates; the page shows the math as MathML, this text is a fallback
    quiet = logging.getLogger("pylatexenc")
    quiet.addHandler(logging.NullHandler())
    quiet.propagate = False
    commands = get_default_latex_context_db()  # a fresh copy: pylatexenc's own stays as it is
    commands.add_context_category("sitegen", prepend=True, macros=[MacroTextSpec(name, discard=False)
                                                                   for name in KEPT_TEXT_COMMANDS])
    return LatexNodes2Text(latex_context=commands, math_mode="text")
