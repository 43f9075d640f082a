"""Plain text of titles and abstracts: their `$…$` TeX as Unicode, for descriptions, JSON-LD and feeds."""

from __future__ import annotations

import logging
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.content.markdown import INLINE_MATH
from sitegen.content.mathtext import plain_text

TEX_COMMAND = re.compile(r"\\[A-Za-z]")


@pytest.mark.parametrize(("text", "plain"), [
    (r"Tuned by $\alpha$ and $\beta_1$.", "Tuned by α and β₁."),
    (r"Cost $O(n^2)$ & <b>more</b> ~ 100%", "Cost O(n²) & <b>more</b> ~ 100%"),  # around the math: as written
    (r"FLuRKA ($\textbf{F}$ast $\textbf{L}$ow-$\textbf{R}$ank)", "FLuRKA (Fast Low-Rank)"),
    (r"Many $\textit{approximate}$ and $\emph{exact}$ ones", "Many approximate and exact ones"),
    (r"$\mathrm{d}x$, $\mathbf{W}$, $\texttt{code}$, $\text{if } x$", "dx, W, code, if x"),
    (r"$\textrm{plain}$ $\mathit{it}$ $\operatorname{softmax}(QK^T/\sqrt{d_k})$", "plain it softmax(QKᵀ/√(dₖ))"),
    (r"$\mathcal{O}(\log n)$ on $\textsf{GPUs}$", "O(log n) on GPUs"),  # plain letters, not 𝒪: they are searched
    (r"2.7$\times$ faster", "2.7× faster"),
    (r"$\sum_{i=1}^{n} x_i$ over $\mathbb{R}^{n\times d}$", "∑ᵢ₌₁ⁿ xᵢ over ℝ^(n× d)"),
    (r"$2^{10}$ and $x^{-1}$ and $e^{i\pi}$", "2¹⁰ and x⁻¹ and e^(iπ)"),
    ("for <$10 in compute", "for <$10 in compute"),  # one `$` opens no math
    (r"costs \$5 and $x$", "costs $5 and x"),  # TeX's escaped dollar is a dollar
    ("A title\n  on two lines", "A title on two lines"),
])
def test_tex_in_math_becomes_unicode_text(text: str, plain: str) -> None:
    assert plain_text(text) == plain


@pytest.mark.parametrize("text", [r"$\frac{1$ left open", r"$\href{javascript:alert(1)}{x}$", r"${$ and $a^{$"])
def test_tex_pylatexenc_cannot_read_still_gives_text_without_tex(text: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG):
        plain = plain_text(text)
    assert not TEX_COMMAND.search(plain) and "%s" not in plain and "{" not in plain
    assert not caplog.records, "pylatexenc's complaints stay out of the build's output"


def test_a_limit_cuts_at_a_word_after_the_math_is_text() -> None:
    text = r"Fast $\textbf{attention}$ " + "word " * 60
    cut = plain_text(text, limit=40)
    assert cut == "Fast attention word word word word word…"
    assert plain_text("short", limit=40) == "short"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="$\\ \n\tax{}^_1", max_size=40), st.none() | st.integers(min_value=1, max_value=30))
def test_plain_text_is_one_line_within_its_limit(text: str, limit: int | None) -> None:
    plain = plain_text(text, limit)
    assert "\n" not in plain and "\t" not in plain and plain == plain.strip()
    assert limit is None or len(plain) <= limit + 1


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([r"\alpha", r"\textbf{x}", r"\times", "x^2", "a_{ij}", r"\frac{1}{2}", "{", "}",
                                 r"\mathrm{d}", r"\unknown", " ", "y"]), max_size=6))
def test_no_tex_command_survives_in_a_math_span(parts: list[str]) -> None:
    text = f"Before ${''.join(parts)}$ after"
    if INLINE_MATH.search(text):
        assert not TEX_COMMAND.search(plain_text(text))


def _cut(plain: str, limit: int) -> str:
    return plain if len(plain) <= limit else plain[:limit].rsplit(" ", 1)[0].rstrip(" ,;:.") + "…"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="$\\ \nab{}^_1.", max_size=60), st.integers(min_value=1, max_value=12))
def test_a_description_reads_only_the_start_yet_is_the_start_of_the_whole_text(text: str, limit: int) -> None:
    assert plain_text(text, limit) == _cut(plain_text(text), limit)
