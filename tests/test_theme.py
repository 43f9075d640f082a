"""The theme chain: a site's theme first, the default theme for whatever it leaves out."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sitegen.theme import PACKAGE_THEMES, static_files, theme_dirs


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
    """A rebuild that finds nothing changed fingerprints the theme and stops: Jinja is never loaded."""
    code = "import sys, sitegen.theme, sitegen.buildstate; print('jinja2' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
