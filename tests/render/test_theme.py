"""The theme chain: a site's theme first, the default theme for whatever it leaves out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sitegen.common.errors import SitegenError
from sitegen.pipeline.build import build
from sitegen.render.theme import PACKAGE_THEMES, static_files, theme_dirs

from ..site_factory import copy_site


def test_a_theme_folder_comes_before_the_default_and_each_folder_appears_once(tmp_path: Path) -> None:
    (tmp_path / "themes" / "paper" / "templates").mkdir(parents=True)
    assert theme_dirs(tmp_path, "paper") == [tmp_path / "themes" / "paper", PACKAGE_THEMES / "default"]
    assert theme_dirs(tmp_path, "default") == [PACKAGE_THEMES / "default"]


def test_a_theme_static_file_overrides_the_default_one_and_hidden_files_are_left_out(tmp_path: Path) -> None:
    static = tmp_path / "themes" / "paper" / "static"
    (static / "img").mkdir(parents=True)
    (static / "style.css").write_text("body{}")
    (static / "img" / "logo.svg").write_text("<svg/>")
    (static / ".DS_Store").write_bytes(b"\0")
    files = static_files(tmp_path, "paper")
    assert files["style.css"] == static / "style.css"
    assert files["img/logo.svg"] == static / "img" / "logo.svg"
    assert ".DS_Store" not in files
    default = static_files(tmp_path, "default")
    assert set(default) <= set(files) and default  # the default theme's other assets are still there
    assert all(files[name] == path for name, path in default.items() if name != "style.css")


def test_finding_the_theme_files_does_not_import_the_renderer() -> None:
    """A build lists the theme's files to find what changed before it renders anything: that takes no Jinja."""
    code = "import sys, sitegen.render.theme; print('jinja2' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


def _theme(root: Path) -> Path:
    """themes/mine/static under `root`, with site.yaml choosing the theme."""
    (root / "site.yaml").write_text("title: T\ntheme: mine\n")
    static = root / "themes" / "mine" / "static"
    static.mkdir(parents=True)
    (root / "themes" / "mine" / "templates").mkdir()
    return static


def _problems(root: Path) -> list[str]:
    with pytest.raises(SitegenError) as info:
        static_files(root, "mine")
    return [d.format() for d in info.value.diagnostics]


def test_a_static_link_out_of_the_theme_is_refused_and_the_build_writes_nothing(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=1)
    static = _theme(root)
    secret = tmp_path / "secret.txt"
    secret.write_text("private key")
    (static / "leak.txt").symlink_to(secret)
    (static / "entry.md").symlink_to(root / "content" / "papers" / next((root / "content" / "papers").iterdir()).name)
    out = tmp_path / "out"
    with pytest.raises(SitegenError) as info:
        build(root, out, search=False)
    assert [d.format() for d in info.value.diagnostics] == [
        f"themes/mine/static/entry.md: error[E410]: symbolic link to {(static / 'entry.md').resolve()} leads "
        "outside the theme (it would be published)\n"
        "  hint: copy what is meant to be public into themes/mine/static/ rather than linking to it",
        f"themes/mine/static/leak.txt: error[E410]: symbolic link to {secret.resolve()} leads outside the theme "
        "(it would be published)\n"
        "  hint: copy what is meant to be public into themes/mine/static/ rather than linking to it"]
    assert not out.exists()
    command = [sys.executable, "-c", "from sitegen.cli import main; main()", "build", "--root", str(root),
               "--output", str(out), "--no-search"]
    proc = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    assert proc.returncode == 1 and "error[E410]" in proc.stderr and "Traceback" not in proc.stderr
    assert not out.exists()


def test_links_inside_the_theme_to_a_file_or_a_folder_are_published(tmp_path: Path) -> None:
    static = _theme(tmp_path)
    vendor = static.parent / "vendor"
    (vendor / "fonts").mkdir(parents=True)
    (vendor / "fonts" / "a.woff2").write_bytes(b"font")
    (vendor / "extra.css").write_text("p{}")
    (static / "extra.css").symlink_to("../vendor/extra.css")
    (static / "fonts").symlink_to(vendor / "fonts")
    files = static_files(tmp_path, "mine")
    assert files["extra.css"].read_text() == "p{}" and files["fonts/a.woff2"].read_bytes() == b"font"


def test_a_static_folder_linked_out_of_the_theme_is_refused(tmp_path: Path) -> None:
    static = _theme(tmp_path)
    static.rmdir()
    (tmp_path / "elsewhere").mkdir()
    static.symlink_to(tmp_path / "elsewhere")
    assert [p.split("\n")[0] for p in _problems(tmp_path)] == [
        f"themes/mine/static: error[E410]: symbolic link to {(tmp_path / 'elsewhere').resolve()} leads outside "
        "the theme (it would be published)"]


def test_dangling_links_and_loops_of_links_are_errors_not_skipped(tmp_path: Path) -> None:
    static = _theme(tmp_path)
    (static / "gone.css").symlink_to("missing.css")
    (static / "ping").symlink_to("pong")
    (static / "pong").symlink_to("ping")
    (static / "sub").mkdir()
    (static / "sub" / "up").symlink_to("..")
    assert _problems(tmp_path) == [
        "themes/mine/static/gone.css: error[E411]: symbolic link to missing.css leads nowhere "
        "(No such file or directory)\n  hint: remove the link or point it at a file inside the theme",
        "themes/mine/static/ping: error[E412]: loop of symbolic links\n"
        "  hint: remove the link or point it at a file",
        "themes/mine/static/pong: error[E412]: loop of symbolic links\n"
        "  hint: remove the link or point it at a file",
        "themes/mine/static/sub/up: error[E412]: symbolic link to a folder it lies in (a loop)\n"
        "  hint: remove the link; a link may lead to a folder beside it, not above it"]
