"""Buffered templates render exactly what Jinja's own do, yield once, and fail on the same line."""

from __future__ import annotations

import traceback
from pathlib import Path
from typing import Any

import jinja2
import pytest
from markupsafe import Markup

from sitegen.render import buffered

# Templates that use every way Jinja's compiled code yields, or hands on what another part yields
TEMPLATES = {
    "base.html": (
        "<!doctype html><title>{% block title %}Base{% endblock %}</title>\n"
        "{% block head %}{% endblock %}\n"
        "<main>{% block main %}base main{% endblock %}</main>\n"
        "{% if footer %}<footer>{% block footer %}{{ footer }}{% endblock %}</footer>{% endif %}\n"
    ),
    "middle.html": (
        "{% extends 'base.html' %}\n"
        "{% block title %}{{ title }} · {{ super() }}{% endblock %}\n"
        "{% block main %}<section>{% block section %}middle{% endblock %}</section>{% endblock %}\n"
    ),
    "macros.html": (
        "{% macro link(href, text) -%}<a href=\"{{ href }}\">{{ text }}</a>{%- endmacro %}\n"
        "{% macro box(kind) %}<div class=\"{{ kind }}\">{{ caller(kind) }}</div>{% endmacro %}\n"
    ),
    "partial.html": "<li>{{ item.name }}{% if item.children %} ({{ item.children|length }}){% endif %}</li>",
    "page.html": (
        "{% extends 'middle.html' %}\n"
        "{% import 'macros.html' as m %}\n"
        "{% block head %}<meta name=\"x\" content=\"{{ title }}\">{% endblock %}\n"
        "{% block section %}\n"
        "{{ self.title() }}|{{ m.link(url, title) }}\n"
        "{% for item in items %}{% include 'partial.html' %}{% else %}<p>none</p>{% endfor %}\n"
        "<ul>{% for node in tree recursive %}<li>{{ node.name }}{% if node.children %}"
        "<ul>{{ loop(node.children) }}</ul>{% endif %}</li>{% endfor %}</ul>\n"
        "{% call(kind) m.box('note') %}inside {{ kind }} & {{ markup }}{% endcall %}\n"
        "{% filter upper %}shouted {{ title }}{% endfilter %}\n"
        "{% set caption %}<b>{{ title }}</b>{% endset %}{{ caption }}\n"
        "{% for i in range(3) %}{{ loop.index }}{{ ',' if not loop.last }}{% endfor %}\n"
        "{% include 'missing.html' ignore missing %}{{ none_value }}{{ number }}\n"
        "{{ super() }}\n"
        "{% endblock %}\n"
    ),
    "dynamic.html": "{% extends layout %}{% block main %}dynamic {{ title }}{% endblock %}",
    "flat.html": "{% for x in items %}[{{ x.name }}]{% endfor %}{% raw %}{{ not a tag }}{% endraw %}",
}
CONTEXT: dict[str, Any] = {
    "title": "Tom & <Jerry>", "url": "https://example.org/?a=1&b=2", "footer": "fin",
    "items": [{"name": "one & only", "children": [1, 2]}, {"name": "<two>", "children": []}],
    "tree": [{"name": "root", "children": [{"name": "leaf <1>", "children": []}]}],
    "markup": Markup("<em>safe</em>"), "none_value": None, "number": 7, "layout": "base.html",
    "item": {"name": "alone", "children": [3]},
}
OPTIONS: dict[str, Any] = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True,
                           "undefined": jinja2.StrictUndefined}


def _pair(loader: jinja2.BaseLoader, **options: Any) -> tuple[jinja2.Environment, jinja2.Environment]:
    return (buffered.Environment(loader=loader, **OPTIONS, **options),
            jinja2.Environment(loader=loader, **OPTIONS, **options))


@pytest.mark.parametrize("name", sorted(set(TEMPLATES) - {"macros.html"}))  # macros show only where called
def test_each_template_renders_as_jinjas_own(name: str) -> None:
    ours, theirs = _pair(jinja2.DictLoader(TEMPLATES))
    expected = theirs.get_template(name).render(CONTEXT)
    assert ours.get_template(name).render(CONTEXT) == expected
    assert expected.strip()


def test_the_page_uses_every_part() -> None:
    """The comparison above is only as good as what the page exercises."""
    env = buffered.Environment(loader=jinja2.DictLoader(TEMPLATES), **OPTIONS)
    page = env.get_template("page.html").render(CONTEXT)
    for part in ("Tom &amp; &lt;Jerry&gt; · Base", '<meta name="x"', '<a href="https://example.org/?a=1&amp;b=2">',
                 "<li>one &amp; only (2)</li>", "<li>leaf &lt;1&gt;</li>",
                 '<div class="note">inside note & <em>safe</em></div>', "SHOUTED TOM &AMP;",
                 "<b>Tom &amp; &lt;Jerry&gt;</b>", "1,2,3", "None7", "middle",
                 "<footer>fin</footer>"):
        assert part in page, part


def test_top_level_functions_yield_once_and_nested_ones_are_left_alone() -> None:
    ours, theirs = _pair(jinja2.DictLoader(TEMPLATES))
    for name in ("flat.html", "page.html", "base.html"):
        template, stock = ours.get_template(name), theirs.get_template(name)
        pieces = list(template.root_render_func(template.new_context(CONTEXT)))
        assert len(pieces) == 1
        assert len(list(stock.root_render_func(stock.new_context(CONTEXT)))) > 1
    base = ours.get_template("base.html")
    for block in base.blocks.values():
        assert len(list(block(base.new_context(CONTEXT)))) == 1
    source = ours.compile(TEMPLATES["page.html"], "page.html", raw=True)
    assert "def loop(" in source  # the recursive loop's own generator, which the rewrite must not touch


def test_an_error_is_reported_on_the_template_line_jinja_reports(tmp_path: Path) -> None:
    (tmp_path / "base.html").write_text("<body>\n{% block main %}{% endblock %}\n</body>\n")
    (tmp_path / "page.html").write_text(
        "{% extends 'base.html' %}\n{% block main %}\n<p>{{ title }}</p>\n<p>{{ 1 // zero }}</p>\n{% endblock %}\n")
    lines = []
    for env in _pair(jinja2.FileSystemLoader(str(tmp_path))):
        with pytest.raises(ZeroDivisionError) as info:
            env.get_template("page.html").render(title="t", zero=0)
        frames = [f for f in traceback.extract_tb(info.value.__traceback__) if f.filename.endswith("page.html")]
        lines.append(frames[-1].lineno)
    assert lines == [4, 4]


def test_async_templates_are_left_to_jinja() -> None:
    """Rendered in a thread of its own: an async template runs its own event loop, which a
    thread with a loop already running (a browser test's) would refuse."""
    from concurrent.futures import ThreadPoolExecutor

    ours, theirs = _pair(jinja2.DictLoader(TEMPLATES), enable_async=True)
    with ThreadPoolExecutor(1) as thread:
        mine = thread.submit(ours.get_template("page.html").render, CONTEXT).result()
        jinjas = thread.submit(theirs.get_template("page.html").render, CONTEXT).result()
    assert mine == jinjas and "SHOUTED" in mine


def test_a_template_the_syntax_tree_cannot_take_is_compiled_as_jinja_compiles_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    ours, theirs = _pair(jinja2.DictLoader(TEMPLATES))

    def fails(*args: object, **kwargs: object) -> None:
        raise SystemError("AST constructor recursion depth mismatch (before=159, after=174)")

    monkeypatch.setattr(buffered.ast, "parse", fails)
    template = ours.get_template("page.html")
    assert len(list(template.root_render_func(template.new_context(CONTEXT)))) > 1  # Jinja's own generators
    assert template.render(CONTEXT) == theirs.get_template("page.html").render(CONTEXT)
