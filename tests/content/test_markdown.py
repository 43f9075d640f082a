"""Curator notes and abstracts: markdown-it-py with raw HTML off, tables, footnotes and server-side math."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.content.markdown import INLINE_MATH, notes_to_html, plain_text, summary, text_with_math

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


# `$…$` as first written, with the look-behind ahead of the `$`: the pattern in use must find the same spans.
_LOOKBEHIND_FIRST = re.compile(r"(?<!\\)\$(?!\s*\$)(.+?)(?<!\\)\$", re.DOTALL)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="$\\ \n\tax{}^_", max_size=40))
def test_inline_math_finds_the_spans_of_the_look_behind_first_pattern(text: str) -> None:
    assert [m.span(1) for m in INLINE_MATH.finditer(text)] == [m.span(1) for m in _LOOKBEHIND_FIRST.finditer(text)]
    assert INLINE_MATH.sub("", text) == _LOOKBEHIND_FIRST.sub("", text)
