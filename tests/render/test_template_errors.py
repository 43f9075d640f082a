"""A broken theme template fails the build with its file, line and a hint: never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sitegen.common.errors import SitegenError
from sitegen.pipeline.build import build

from ..site_factory import copy_site

TEMPLATES = "themes/mine/templates"


def _site(tmp_path: Path, templates: dict[str, str | bytes]) -> Path:
    """A one-paper site whose theme 'mine' holds these templates (the default theme has the rest)."""
    root = copy_site(tmp_path / "site", papers=1)
    config = root / "site.yaml"
    config.write_text(config.read_text().replace("theme: default", "theme: mine"))
    for name, text in templates.items():
        path = root / TEMPLATES / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
    return root


def _failure(tmp_path: Path, templates: dict[str, str | bytes]) -> list[str]:
    """The diagnostics of building the site, which must fail and write nothing."""
    root = _site(tmp_path, templates)
    out = tmp_path / "out"
    with pytest.raises(SitegenError) as info:
        build(root, out, search=False, jobs=1)
    assert not out.exists()
    return [d.format() for d in info.value.diagnostics]


def test_a_template_that_extends_itself_is_named_with_a_hint_not_a_traceback(tmp_path: Path) -> None:
    root = _site(tmp_path, {"base.html": '<!doctype html>\n{% extends "base.html" %}\n'})
    out = tmp_path / "out"
    command = [sys.executable, "-c", "from sitegen.cli import main; main()", "build", "--root", str(root),
               "--output", str(out), "--no-search"]
    proc = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr and not out.exists()
    assert (f"{TEMPLATES}/base.html:2: error[E403]: template extends itself\n"
            "  hint: a theme's base.html hides the default theme's, so it cannot extend it: copy the default's "
            "base.html into the theme and edit the copy, or extend a template of another name") in proc.stderr


def test_templates_extending_each_other_are_a_loop_named_in_order(tmp_path: Path) -> None:
    assert _failure(tmp_path, {"search.html": '{% extends "404.html" %}', "404.html": '{% extends "search.html" %}'}) \
        == [f"{TEMPLATES}/404.html:1: error[E403]: templates extend each other in a loop: 404.html -> search.html "
            "-> 404.html\n  hint: one of them must extend a template outside the loop, or none"]


def test_templates_including_each_other_without_end_are_named(tmp_path: Path) -> None:
    item = '<article class="item">{% include "partials/a.html" %}</article>\n'
    problems = _failure(tmp_path, {"partials/item.html": item, "partials/a.html": '{% include "partials/b.html" %}',
                                   "partials/b.html": '\n{% include "partials/a.html" %}'})
    assert problems == [
        f"{TEMPLATES}/partials/a.html:1: error[E404]: templates include each other in a loop: partials/a.html -> "
        "partials/b.html -> partials/a.html\n"
        "  hint: an include that leads back to its own template needs a condition that stops it, or it never ends"]


def test_a_template_including_itself_and_a_macro_calling_itself_are_named(tmp_path: Path) -> None:
    search = '{% extends "base.html" %}\n{% block main %}\n{% include "search.html" %}\n{% endblock %}\n'
    assert _failure(tmp_path / "include", {"search.html": search}) == [
        f"{TEMPLATES}/search.html:3: error[E404]: template includes itself\n"
        "  hint: an include that leads back to its own template needs a condition that stops it, or it never ends"]
    macro = '{% extends "base.html" %}\n{% block main %}{% macro m(n) %}\n{{ m(n) }}{% endmacro %}{{ m(1) }}' \
            '{% endblock %}\n'
    assert _failure(tmp_path / "macro", {"search.html": macro}) == [
        f"{TEMPLATES}/search.html:3: error[E404]: template calls itself without end (recursion too deep)\n"
        "  hint: a macro or include that calls itself needs a condition that stops it"]


def test_a_template_that_is_not_utf8_is_named_with_its_line_and_column(tmp_path: Path) -> None:
    search = '{% extends "base.html" %}\n{% block main %}\n<p>caf\xe9</p>{% endblock %}\n'.encode("latin-1")
    assert _failure(tmp_path, {"search.html": search}) == [
        f"{TEMPLATES}/search.html:3:7: error[E405]: template is not UTF-8 text (byte 0xe9)\n"
        "  hint: save the file as UTF-8; templates are read as UTF-8 whatever the system's encoding"]


def test_a_missing_template_names_the_including_line_and_where_it_was_looked_for(tmp_path: Path) -> None:
    search = '{% extends "base.html" %}\n{% block main %}\n{% include "nope.html" %}\n{% endblock %}\n'
    [problem] = _failure(tmp_path, {"search.html": search})
    assert problem.startswith(f"{TEMPLATES}/search.html:3: error[E401]: template error: template 'nope.html' not "
                              "found (while rendering search/index.html)\n  hint: looked in themes/mine/templates/, "
                              "themes/default/templates/")


def test_an_undefined_name_and_a_failing_expression_name_the_template_line(tmp_path: Path) -> None:
    undefined = '{% extends "base.html" %}\n{% block main %}\n{{ no_such_name.field }}\n{% endblock %}\n'
    assert _failure(tmp_path / "undefined", {"search.html": undefined}) == [
        f"{TEMPLATES}/search.html:3: error[E401]: template error: 'no_such_name' is undefined "
        "(while rendering search/index.html)\n"
        "  hint: a template sees only what sitegen gives it; the default theme's templates use each name there is"]
    division = '{% extends "base.html" %}\n{% block main %}\n\n{{ 1 // 0 }}\n{% endblock %}\n'
    assert _failure(tmp_path / "division", {"search.html": division}) == [
        f"{TEMPLATES}/search.html:4: error[E401]: template error: integer division or modulo by zero "
        "(while rendering search/index.html)"]
