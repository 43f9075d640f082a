"""Curator notes and abstracts: markdown-it-py with raw HTML off, tables, footnotes and server-side math."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.content.markdown import INLINE_MATH, math_to_html, notes_to_html, plain_text, summary, text_with_math

from ..html_tools import parse_html

MATHML = "{http://www.w3.org/1998/Math/MathML}"


def test_raw_html_is_shown_as_text_and_unsafe_links_are_not_links() -> None:
    html = notes_to_html('<b onclick="x()">bold</b> [a](javascript:alert(1)) [b](https://example.org)')
    assert "&lt;b onclick=&quot;x()&quot;&gt;" in html
    doc = parse_html(html)
    assert [a.get("href") for a in doc.iter("a")] == ["https://example.org"]


def test_wide_tables_and_code_scroll_in_a_focusable_named_box() -> None:
    doc = parse_html(notes_to_html("| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncode\n```\n\n    indented\n"))
    [box] = [d for d in doc.iter("div") if "table-scroll" in (d.get("class") or "")]
    assert (box.get("tabindex"), box.get("role"), box.get("aria-label")) == ("0", "region", "Table")
    assert box.find("table") is not None
    blocks = list(doc.iter("pre"))
    assert len(blocks) == 2 and all(p.get("tabindex") == "0" and p.get("aria-label") == "Code" for p in blocks)


def test_footnotes_and_math() -> None:
    doc = parse_html(notes_to_html("Claim[^1] with $O(n^2)$.\n\n[^1]: Source.\n\n$$\\sum_i x_i$$\n"))
    assert doc.find(".//*[@id='fn1']") is not None and doc.find(".//*[@id='fnref1']") is not None
    maths = list(doc.iter(f"{MATHML}math"))
    assert len(maths) == 2 and maths[1].get("display") == "block"


def test_abstract_math_and_summaries() -> None:
    html = text_with_math("Cost $O(n^2)$ & <b>more</b>")
    assert html.startswith("Cost <math") and "&amp; &lt;b&gt;more&lt;/b&gt;" in html
    assert text_with_math("$\\frac{1}{$") == '<code class="tex">\\frac{1}{</code>'  # unconvertible TeX stays code
    long = "word " * 100 + "$x$"
    cut = summary(long, limit=50)
    assert cut.endswith("…") and "$" not in cut and len(cut) < 60
    assert plain_text("# Title\n\nSome text.\n\n| a |\n|---|\n| b |\n") == "Title Some text. a b"


# (TeX, the first token element it gives: tag, mathvariant, text). Browsers style the variants (the theme does it for
# Chromium, see tests/test_math_browser.py); what must not happen is a command shown as TeX or a style lost.
TEX_STYLES = [
    (r"\textbf{Fast}", "mtext", "bold", "Fast"),
    (r"\textit{approximate}", "mtext", "italic", "approximate"),
    (r"\emph{not}", "mtext", "italic", "not"),
    (r"\texttt{code}", "mtext", "monospace", "code"),
    (r"\textsf{sans}", "mtext", "sans-serif", "sans"),
    (r"\textrm{roman}", "mtext", None, "roman"),
    (r"\text{if }x", "mtext", None, "if\xa0"),
    (r"\textsc{Caps}", "mtext", None, "Caps"),  # latex2mathml knows no \textsc: <mi>\textsc</mi> before
    (r"\textsl{lean}", "mtext", "italic", "lean"),  # nor \textsl
    (r"\text{\$5 a \#1}", "mtext", None, "$5\xa0a\xa0#1"),  # copied into <mtext> with its backslashes before
    (r"\mathrm{d}x", "mi", "normal", "d"),  # an italic <mi>d</mi> before: one letter of \mathrm lost its style
    (r"\mathrm{softmax}", "mi", "normal", "s"),
    (r"\mathit{xy}", "mi", "italic", "x"),
    (r"\mathbf{xy}", "mi", "bold", "x"),
    (r"\mathbf{W}", "mi", None, "𝐖"),
    (r"\operatorname{softmax}(x)", "mo", None, "softmax"),
]


@pytest.mark.parametrize(("tex", "tag", "variant", "text"), TEX_STYLES)
def test_tex_text_and_font_commands_become_styled_mathml(tex: str, tag: str, variant: str | None, text: str) -> None:
    html = math_to_html(tex)
    [math] = parse_html(f"<p>{html}</p>").iter(f"{MATHML}math")
    token = next(el for el in math.iter() if el.tag.removeprefix(MATHML) in ("mi", "mo", "mn", "mtext"))
    assert (token.tag.removeprefix(MATHML), token.get("mathvariant"), token.text) == (tag, variant, text)
    assert "\\" not in "".join(math.itertext())


def test_math_is_spoken_as_mathml_without_a_tex_label() -> None:
    html = text_with_math(r"Cost $O(n^2)$ with $\textbf{F}$ast $\alpha$")
    assert "aria-label" not in html and "\\" not in html
    assert html.count("<math ") == 3


def test_an_escaped_dollar_outside_math_is_a_dollar() -> None:
    assert text_with_math(r"costs \$5 or $x$") == 'costs $5 or <math display="inline"><mrow><mi>x</mi></mrow></math>'


# `$…$` as first written, with the look-behind ahead of the `$`: the pattern in use must find the same spans.
_LOOKBEHIND_FIRST = re.compile(r"(?<!\\)\$(?!\s*\$)(.+?)(?<!\\)\$", re.DOTALL)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="$\\ \n\tax{}^_", max_size=40))
def test_inline_math_finds_the_spans_of_the_look_behind_first_pattern(text: str) -> None:
    assert [m.span(1) for m in INLINE_MATH.finditer(text)] == [m.span(1) for m in _LOOKBEHIND_FIRST.finditer(text)]
    assert INLINE_MATH.sub("", text) == _LOOKBEHIND_FIRST.sub("", text)


# -- Markdown as curators write it on GitHub, in Obsidian and for pandoc -------------------------------------------


def test_display_math_starting_a_line_inside_a_paragraph_is_display_math() -> None:
    html = notes_to_html("Some text\n$$\nx^2\n$$\nmore text")
    assert html.startswith("<p>Some text</p>\n<div class=\"math-block\"><math display=\"block\">"), html
    assert html.endswith("<p>more text</p>\n")
    assert '<math display="inline">' in notes_to_html("Inline $$x^2$$ stays in the line.")
    assert notes_to_html("a\n$$x$$ and more text\nb").count("<p>") == 1  # a line that only starts with $$


def test_task_lists_are_checkboxes_a_reader_cannot_tick() -> None:
    html = notes_to_html("- [ ] read the appendix\n- [x] reproduce Table 2\n")
    boxes = re.findall(r"<input[^>]*>", html)
    assert len(boxes) == 2 and all('type="checkbox"' in b and "disabled" in b for b in boxes), html
    assert 'checked="checked"' in boxes[1] and "checked" not in boxes[0]
    assert "<label" in html and "read the appendix" in html and "[ ]" not in html


@pytest.mark.parametrize(("notes", "levels"), [
    ("# A\n\n## B\n\n### C", [3, 4, 5]),
    ("## A\n\n#### B", [3, 4]),  # no level skipped: the page's outline stays whole
    ("### A\n\n### B\n\n##### C\n\n## D", [4, 4, 5, 3]),
    ("# A\n\n###### F", [3, 4]),
])
def test_a_curators_headings_follow_the_pages_own_without_a_gap(notes: str, levels: list[int]) -> None:
    assert [int(n) for n in re.findall(r"<h(\d)>", notes_to_html(notes))] == levels
