"""Markdown and math rendering: one configured markdown-it-py, raw HTML off.

Curator notes are CommonMark plus tables, footnotes and `$…$` math. Abstracts are
plain text with `$…$` math. Math becomes MathML on the server (no script, no CDN),
re-serialized through an allow-list because TeX input is untrusted.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from . import mentions

if TYPE_CHECKING:  # imported when notes are first rendered: an edit that changed no notes has no need of it
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

MATHML_NS = "{http://www.w3.org/1998/Math/MathML}"
MATHML_TAGS = frozenset(
    {
        "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup", "mfrac",
        "msqrt", "mroot", "mstyle", "merror", "mpadded", "mphantom", "menclose", "munder", "mover",
        "munderover", "mtable", "mtr", "mtd", "semantics", "annotation",
    }
)
MATHML_ATTRS = frozenset(
    {
        "display", "mathvariant", "stretchy", "fence", "separator", "lspace", "rspace", "accent",
        "accentunder", "columnalign", "columnspacing", "rowspacing", "linethickness", "minsize",
        "maxsize", "movablelimits", "form", "width", "height", "depth", "notation", "symmetric",
        "largeop", "scriptlevel", "displaystyle",
    }
)
# `$…$` not preceded by a backslash. The opening `$` comes first and the backslash is looked for behind
# it: a pattern that starts with a literal is searched for with a fast scan, where one that starts
# with a look-behind is tried at every position (4x slower over an abstract).
INLINE_MATH = re.compile(r"\$(?<!\\\$)(?!\s*\$)(.+?)(?<!\\)\$", re.DOTALL)
# Text-mode commands latex2mathml does not know, or converts to what no browser shows as TeX means it: small caps
# and slanted text have no MathML variant (plain and italic text come closest), and a single letter in \mathrm
# comes out as <mi>d</mi>, italic like any variable, where {\rm d} keeps the upright <mi mathvariant="normal">.
TEX_REWRITES = (
    (re.compile(r"\\textsc(?![A-Za-z])"), r"\\text"),
    (re.compile(r"\\textsl(?![A-Za-z])"), r"\\textit"),
    (re.compile(r"\\mathrm\s*\{\s*([A-Za-z])\s*\}"), r"{\\rm \1}"),
)
# latex2mathml copies \text{…} verbatim into <mtext>: its escaped specials would show their backslash
TEXT_ESCAPES = re.compile(r"\\([$%&_#{}])")


@lru_cache(maxsize=4096)
def math_to_html(tex: str, display: bool = False) -> str:
    """TeX to safe MathML; the escaped TeX source in <code> when it cannot be converted."""
    from latex2mathml.converter import convert as latex_to_mathml  # 60 ms to import: only once math appears

    try:
        root = ET.fromstring(latex_to_mathml(_rewrite(tex.strip()), display="block" if display else "inline"))
        return _serialize(root)
    except Exception:  # latex2mathml raises many kinds of errors on bad TeX
        return f'<code class="tex">{html.escape(tex)}</code>'


def _rewrite(tex: str) -> str:
    """TeX that latex2mathml would get wrong, said in a way it gets right (see TEX_REWRITES)."""
    for pattern, replacement in TEX_REWRITES:
        tex = pattern.sub(replacement, tex)
    return tex


def _serialize(node: ET.Element) -> str:
    tag = node.tag.removeprefix(MATHML_NS)
    if tag not in MATHML_TAGS:
        raise ValueError(f"element {tag} not allowed in math")
    attrs = "".join(f' {k}="{html.escape(v, quote=True)}"' for k, v in sorted(node.attrib.items())
                    if k in MATHML_ATTRS)
    text = TEXT_ESCAPES.sub(r"\1", node.text or "") if tag == "mtext" else node.text or ""
    inner = html.escape(text, quote=False)
    for child in node:
        inner += _serialize(child) + html.escape(child.tail or "", quote=False)
    return f"<{tag}{attrs}>{inner}</{tag}>"


def text_with_math(text: str) -> str:
    """Escape plain text, turning `$…$` spans into MathML (used for abstracts and titles)."""
    out: list[str] = []
    last = 0
    for match in INLINE_MATH.finditer(text):
        out.append(html.escape(unescape_dollars(text[last : match.start()]), quote=False))
        out.append(math_to_html(match.group(1)))
        last = match.end()
    out.append(html.escape(unescape_dollars(text[last:]), quote=False))
    return "".join(out)


def unescape_dollars(text: str) -> str:
    """Text outside math with TeX's `\\$` (a dollar sign that opens no math) as the `$` it stands for."""
    return text.replace("\\$", "$")


def summary(text: str, limit: int = 280) -> str:
    """The start of a text, cut at a word boundary outside math, as escaped HTML with MathML."""
    if len(text) <= limit:
        return text_with_math(text)
    cut = text[:limit].rsplit(" ", 1)[0]
    if len(INLINE_MATH.sub("", cut).split("$")) % 2 == 0:  # an unclosed $ would swallow the rest
        cut = cut[: cut.rfind("$")].rstrip()
    return text_with_math(cut.rstrip(" ,;:.")) + "…"


def _math_inline(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    return math_to_html(tokens[idx].content)


def _math_block(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    return f'<div class="math-block">{math_to_html(tokens[idx].content, display=True)}</div>\n'


# Wide tables and long code lines scroll inside their own box on phones; a scrolling box must be reachable by
# keyboard (WCAG 2.1.1, axe's scrollable-region-focusable), so it is focusable and named.
_SCROLL_BOX = '<div class="table-scroll" tabindex="0" role="region" aria-label="{label}">'


def _table_open(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    return _SCROLL_BOX.format(label="Table") + self.renderToken(tokens, idx, options, env)


def _table_close(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>\n"


# The notes sit under the page's own headings (the title's h1, the "Notes" h2): the curator's highest heading is
# shown as an h3 and each lower level one step below the one above it, so the page's outline has no gap however
# the notes begin (`##` on GitHub, `#` elsewhere); the deepest levels share h6.
NOTES_TOP_HEADING = 3


def _heading_levels(state: Any) -> None:
    """A core rule: each heading's level, ranked among the levels the notes use, from NOTES_TOP_HEADING down."""
    headings = [t for t in state.tokens if t.type in ("heading_open", "heading_close")]
    ranks = {level: rank for rank, level in enumerate(sorted({int(t.tag[1]) for t in headings}))}
    for token in headings:
        token.tag = f"h{min(NOTES_TOP_HEADING + ranks[int(token.tag[1])], 6)}"


def _focusable_pre(rule: Any) -> Any:
    def render(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        return str(rule(tokens, idx, options, env)).replace(
            "<pre>", '<pre tabindex="0" role="region" aria-label="Code">', 1)
    return render


_DISPLAY_LINE = re.compile(r"\$\$.+\$\$(\s*\(\S+\))?")


def _interrupting(rule: Any) -> Any:
    """The display-math block rule, able to end a paragraph: asked whether it would (`silent`), it only looks for
    the opening `$$`, as the rule itself adds its tokens whenever it matches."""
    def math_block(state: Any, start: int, end: int, silent: bool) -> bool:
        if silent:  # `$$` alone, or a whole `$$…$$` (with its label), on the line: not `$$x$$ and more text`
            line = state.src[state.bMarks[start] + state.tShift[start]:state.eMarks[start]].rstrip()
            return state.sCount[start] - state.blkIndent < 4 and line.startswith("$$") and (
                line == "$$" or _DISPLAY_LINE.fullmatch(line) is not None)
        return bool(rule(state, start, end, silent))
    return math_block


@cache
def parser() -> MarkdownIt:
    """The one configured parser, made when first asked for (importing markdown-it-py takes 20 ms)."""
    from markdown_it import MarkdownIt
    from markdown_it.renderer import RendererHTML
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.dollarmath.index import math_block_dollar
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.tasklists import tasklists_plugin

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table").enable("strikethrough")
    md.use(footnote_plugin).use(dollarmath_plugin, allow_space=False, double_inline=True)
    # `$$` on a line of its own inside a paragraph opens display math, as on GitHub and in Obsidian and pandoc
    md.block.ruler.at("math_block", _interrupting(math_block_dollar(allow_blank_lines=True)),
                      {"alt": ["paragraph", "reference", "blockquote", "list"]})
    # `- [ ]` and `- [x]`: checkboxes a reader sees but cannot tick, each labelled by its item's text
    md.use(tasklists_plugin, enabled=False, label=True)
    md.core.ruler.push("notes_headings", _heading_levels)
    mentions.install(md)  # [[slug]], [[slug|text]], [[2205.14135]]
    md.add_render_rule("math_inline", _math_inline)
    md.add_render_rule("math_inline_double", _math_inline)
    md.add_render_rule("math_block", _math_block)
    md.add_render_rule("math_block_label", _math_block)
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    rules = cast(RendererHTML, md.renderer).rules
    for name in ("fence", "code_block"):
        md.add_render_rule(name, _focusable_pre(rules[name]))
    return md


def notes_to_html(source: str) -> str:
    """Render a curator's Markdown notes to HTML (raw HTML shown as text, unsafe links dropped)."""
    return parser().render(source) if source.strip() else ""


def plain_text(source: str) -> str:
    """Readable text of Markdown notes, for search indexes and descriptions."""
    return _inline_text(parser().parse(source))


TAKE_SIZE = 200  # characters of the notes' first paragraph a card shows as the curator's take


class Notes(NamedTuple):
    """What the loader keeps of an entry's notes, all from one parse (parsing is most of rendering)."""

    html: str
    text: str  # for search indexes and descriptions
    lead: str  # the first paragraph, cut short: a card's take
    mentions: tuple[tuple[str, int], ...] = ()  # each `[[target]]` and its line in the notes (0-based)


def render_notes(source: str) -> Notes:
    """Both of the above from one parse, with the lead and the mentions: what the loader uses."""
    if not source.strip():
        return Notes("", "", "")
    env: dict[str, Any] = {}
    md = parser()
    tokens = md.parse(source, env)
    return Notes(md.renderer.render(tokens, md.options, env), _inline_text(tokens), _lead(tokens),
                 mentions.found(tokens))


def _lead(tokens: list[Token]) -> str:
    """The notes' first paragraph of prose, as plain text with its math, cut short: a card's take.

    Markup goes (a link's text stays, emphasis is plain): a card's take is one line of voice
    beside a title that is already a link. A heading, list or quote first is passed over.
    """
    for i, token in enumerate(tokens):
        if token.type == "paragraph_open" and token.level == 0 and i + 1 < len(tokens):
            words = []
            for child in tokens[i + 1].children or []:
                if child.type in ("text", "code_inline"):
                    words.append(child.content)
                elif child.type in ("math_inline", "math_inline_double"):
                    words.append(f"${child.content}$")
                elif child.type == "mention":  # a paper named in passing: the text written for it, else its name
                    words.append(child.meta["text"] or child.meta["target"])
                elif child.type in ("softbreak", "hardbreak"):
                    words.append(" ")
            text = " ".join("".join(words).split())
            if text and text[-1] not in ".!?…:;)]\"'’”":  # cut short by a formula or a list: say so
                text += " …"
            return summary(text, TAKE_SIZE) if text else ""
    return ""


def _inline_text(tokens: list[Token]) -> str:
    return " ".join(" ".join(t.content for t in tokens if t.type == "inline").split())
