"""Math in headless Chromium: TeX's text styles shown, math at the size of its line, spoken as MathML.

Chromium implements MathML Core, which reads `mathvariant` only as "normal" on <mi>: the bold and
italic that latex2mathml writes for `\\textbf` or `\\textit` show only if the theme styles them.
Screenshots of the paper page land in tests/artifacts/ as math-<width>-<light|dark>.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from sitegen.pipeline.build import build
from tests.support import RecordedPage, SiteURL, screenshot, serve_directory

from .site_factory import copy_site

SLUG = "math-styles"
# Each span alone in its own `$…$`, found again on the page by its place among the paper's <math> elements
SPANS = {
    "textbf": r"\textbf{Bold words}", "text": r"\text{Bold words}", "textit": r"\textit{Slanted words}",
    "emph": r"\emph{Slanted words}", "textrm": r"\textrm{Slanted words}", "texttt": r"\texttt{mono}",
    "mathbf": r"\mathbf{xy}", "mathrm": r"\mathrm{d}x", "mathit": r"\mathit{xy}",
    "operatorname": r"\operatorname{softmax}(x)", "textsc": r"\textsc{Caps}", "big-o": r"O(n^2)",
}
ABSTRACT = "We measure " + ", ".join(f"${tex}$" for tex in SPANS.values()) + " and Slanted words in prose." * 3


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SiteURL]:
    """Two papers of the reading list and one whose abstract holds every span, served at the root."""
    root = copy_site(tmp_path_factory.mktemp("math") / "site", papers=2)
    meta = {"title": "Math styles", "authors": ["Ada Lovelace"], "date": "2024-05-01", "added": "2024-05-02",
            "abstract": ABSTRACT}
    (root / "content" / "papers" / f"{SLUG}.md").write_text(f"---\n{yaml.safe_dump(meta)}---\n")  # no notes: its
    # card shows the abstract
    output = root / "public"
    build(root, output, search=False, use_cache=False)
    with serve_directory(output, "/") as base_url:
        yield base_url


def _spans(page: RecordedPage) -> dict[str, dict[str, Any]]:
    """Each span's first token element (<mtext>, <mi> or <mo>) as Chromium lays it out and styles it."""
    found = page.evaluate("""() => [...document.querySelectorAll('.abstract math')].map(m => {
        const token = m.querySelector('mtext, mi, mo'), style = getComputedStyle(token);
        return {text: token.textContent, width: token.getBoundingClientRect().width, weight: Number(style.fontWeight),
                style: style.fontStyle, family: style.fontFamily, transform: style.textTransform};
    })""")
    return dict(zip(SPANS, found, strict=False))


def _text_width(page: RecordedPage, words: str) -> float:
    """The width of the first `words` of the abstract's own text (not in math) as laid out."""
    return page.evaluate("""(words) => {
        const walker = document.createTreeWalker(document.querySelector('.abstract p'), NodeFilter.SHOW_TEXT);
        while (walker.nextNode()) {
            const at = walker.currentNode.data.indexOf(words);
            if (at >= 0 && !walker.currentNode.parentElement.closest('math')) {
                const range = document.createRange();
                range.setStart(walker.currentNode, at);
                range.setEnd(walker.currentNode, at + words.length);
                return range.getBoundingClientRect().width;
            }
        }
    }""", words)  # type: ignore[no-any-return]


def _open(page: RecordedPage, served: SiteURL) -> None:
    response = page.goto(served.url(f"papers/{SLUG}/"), wait_until="load")
    assert response is not None and response.status == 200


def test_text_styles_of_tex_show_in_chromium(page: RecordedPage, served: SiteURL) -> None:
    _open(page, served)
    spans = _spans(page)
    assert spans["textbf"]["weight"] >= 700 and spans["text"]["weight"] < 600
    assert spans["textbf"]["width"] > spans["text"]["width"] * 1.03, "bold glyphs are wider than regular ones"
    for name in ("textit", "emph"):
        assert spans[name]["style"] == "italic", name
        assert spans[name]["width"] != pytest.approx(spans["textrm"]["width"], abs=0.5), f"{name} is drawn italic"
    assert spans["textrm"]["style"] == "normal"
    assert "monospace" in spans["texttt"]["family"]
    # \mathbf{xy} upright and bold, \mathrm{d} upright (not the italic of a one-letter variable), \mathit italic
    assert spans["mathbf"]["weight"] >= 700 and spans["mathbf"]["transform"] == "none"
    assert (spans["mathrm"]["text"], spans["mathrm"]["transform"]) == ("d", "none")
    assert spans["mathit"]["transform"] != "none"
    assert spans["operatorname"]["text"] == "softmax" and spans["textsc"]["text"] == "Caps"
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 800})
            screenshot(page, f"math-{width}-{scheme}")
            assert _spans(page)["textbf"]["weight"] >= 700, f"{width} px, {scheme}"
    page.assert_clean()


def test_math_is_the_size_of_its_line_and_never_spreads_the_lines(page: RecordedPage, served: SiteURL) -> None:
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        for path, paragraph in ((f"papers/{SLUG}/", ".abstract p"), ("", ".item-summary")):
            page.goto(served.url(path), wait_until="networkidle")  # favicon and all, before the next page
            measured = page.evaluate("""(selector) => {
                const p = [...document.querySelectorAll(selector)].find(p => p.querySelector('math'));
                const style = getComputedStyle(p), line = parseFloat(style.lineHeight);
                const maths = [...p.querySelectorAll('math')].map(m => (
                    {size: parseFloat(getComputedStyle(m).fontSize), height: m.getBoundingClientRect().height}));
                return {size: parseFloat(style.fontSize), line, height: p.getBoundingClientRect().height, maths};
            }""", paragraph)
            where = f"{paragraph} at {width} px"
            if paragraph == ".abstract p":  # the words of \textrm{…} as wide as the same words around the math
                assert _spans(page)["textrm"]["width"] == pytest.approx(_text_width(page, "Slanted words"), rel=0.01)
            assert measured["maths"], where
            for math in measured["maths"]:
                assert math["size"] == pytest.approx(measured["size"], abs=0.05), where
                assert math["height"] <= measured["line"], where
            lines = measured["height"] / measured["line"]
            assert lines == pytest.approx(round(lines), abs=0.02), f"{where}: a line is taller than the others"
    page.assert_clean()


def test_math_is_read_as_mathml_not_as_tex(page: RecordedPage, served: SiteURL) -> None:
    _open(page, served)
    attributes = page.evaluate("""() => [...document.querySelectorAll('math, math *')]
        .flatMap(el => [...el.attributes].map(a => `${el.tagName.toLowerCase()} ${a.name}=${a.value}`))""")
    assert attributes and not [a for a in attributes if "aria-label" in a or "\\" in a]
    texts = page.evaluate("() => [...document.querySelectorAll('.abstract math')].map(m => m.textContent)")
    assert len(texts) >= len(SPANS) and not [t for t in texts if "\\" in t]
    page.assert_clean()
