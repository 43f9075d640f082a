"""One-call escaping gives exactly what markupsafe gives, and the site's templates use it."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import jinja2
import markupsafe
from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup

from sitegen.content import config as site_config
from sitegen.render import escaping
from sitegen.render.render import make_environment

from ..site_factory import copy_site


class _Html:
    def __html__(self) -> str:
        return "<em>safe</em>"


@given(st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
                 st.text().map(Markup), st.text().map(markupsafe.escape), st.just(dt.date(2024, 2, 29)),
                 st.just(_Html())))
def test_escape_is_markupsafes(value: object) -> None:
    ours, theirs = escaping.escape(value), markupsafe.escape(value)
    assert ours == theirs and type(ours) is type(theirs) is Markup


@given(st.one_of(st.text(), st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
                 st.text().map(Markup), st.text().map(markupsafe.escape), st.just(dt.date(2024, 2, 29)),
                 st.just(_Html())))
def test_text_is_the_same_characters_as_markupsafes_escape(value: object) -> None:
    assert escaping.text(value) == str(markupsafe.escape(value))


def test_the_sites_templates_escape_with_it_and_render_as_jinja_would(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=2)
    env = make_environment(root, site_config.load(root, None))
    source = "{{ text }}|{{ number }}|{{ markup }}|{{ text ~ markup }}|{{ '<%s>' % text }}"
    ours = env.from_string(source)
    assert ours.root_render_func.__globals__["escape"] is escaping.escape
    plain = jinja2.Environment(autoescape=True).from_string(source)
    values = {"text": "Tom & <Jerry> \"quoted\" 'single'", "number": -42, "markup": Markup("<b>bold</b>")}
    assert ours.render(values) == plain.render(values)
    assert ours.render(values).startswith("Tom &amp; &lt;Jerry&gt; &#34;quoted&#34; &#39;single&#39;|-42|<b>bold</b>|")
    page = env.get_template("paper.html")
    assert page.root_render_func.__globals__["escape"] is escaping.escape
    assert page.root_render_func.__globals__["_sitegen_text"] is escaping.text  # output pieces (see buffered)
