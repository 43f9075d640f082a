"""Compiled templates on disk: reused when the source is the same, ignored when not or when damaged."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from sitegen.content import config as site_config
from sitegen.content.cache import CACHE_DIR
from sitegen.render.render import make_environment

from ..site_factory import copy_site


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_site(tmp_path / "site", papers=1)


def _env(root: Path) -> jinja2.Environment:
    return make_environment(root, site_config.load(root, None))


def _compiles(env: jinja2.Environment, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every template the environment compiles from source (a cache miss)."""
    compiled: list[str] = []
    real = env.compile

    def counting(source: str, name: str | None = None, *args: object, **kwargs: object) -> object:
        compiled.append(name or "")
        return real(source, name, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(env, "compile", counting)
    return compiled


def test_a_new_environment_reuses_compiled_templates(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = _env(root)
    first.get_template("paper.html")
    first.get_template("base.html")
    assert list((root / CACHE_DIR / "templates").glob("*.code"))
    second = _env(root)
    compiled = _compiles(second, monkeypatch)
    second.get_template("base.html")
    second.get_template("paper.html")
    assert compiled == []


def test_templates_compiled_by_other_code_are_compiled_again(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stamp is sitegen's code digest (with Jinja's and Python's versions): no number to bump by hand."""
    from sitegen.render import template_cache

    _env(root).get_template("404.html")
    monkeypatch.setattr(template_cache, "code_digest", lambda: "another sitegen")
    template_cache.stamp.cache_clear()
    env = _env(root)
    compiled = _compiles(env, monkeypatch)
    env.get_template("404.html")
    template_cache.stamp.cache_clear()
    assert compiled == ["404.html"]


def test_an_edited_template_is_compiled_again(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _env(root).get_template("404.html")
    template = root / "themes/default/templates/404.html"
    template.write_text(template.read_text(encoding="utf-8") + "<!-- edited -->\n", encoding="utf-8")
    env = _env(root)
    compiled = _compiles(env, monkeypatch)
    env.get_template("404.html")
    assert compiled == ["404.html"]


def test_damaged_cache_files_are_misses_not_errors(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _env(root).get_template("paper.html")
    files = list((root / CACHE_DIR / "templates").glob("*.code"))
    for i, path in enumerate(files):
        path.write_bytes([b"", b"not json\n", b'{"format": 1}\n\x00\x01', b"{}\n"][i % 4])
    env = _env(root)
    compiled = _compiles(env, monkeypatch)
    env.get_template("paper.html")
    assert "paper.html" in compiled
