"""`arxiv: 2205.14135` unquoted (YAML reads a float) is taken as the id when it surely is one, with a warning."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.content.field_checks import arxiv_from_number

from ..site_factory import copy_site


@pytest.mark.parametrize(("number", "id_"), [
    (2205.14135, "2205.14135"), (2205.1413, "2205.14130"), (2205.1, "2205.10000"), (704.0001, "0704.0001"),
    (1412.999, "1412.9990"), (1501.00001, "1501.00001"),
])
def test_a_number_that_is_surely_an_id_is_that_id(number: float, id_: str) -> None:
    assert arxiv_from_number(number) == id_


@pytest.mark.parametrize("number", [2205.141351, 1e5, 2213.12345, 612.0001, 1412.99999, 2205, "2205.14135", True])
def test_anything_else_is_no_id(number: object) -> None:
    assert arxiv_from_number(number) is None


def entry_with(root: Path, line: str) -> Path:
    """The first entry with `line` right after its opening `---`, in place of its own `arxiv:` line if it has one."""
    path = sorted((root / "content" / "papers").glob("*.md"))[0]
    text = re.sub(r"^arxiv: .*\n", "", path.read_text(encoding="utf-8"), count=1, flags=re.MULTILINE)
    head, body = text.split("\n", 1)
    path.write_text(f"{head}\n{line}\n{body}", encoding="utf-8")
    return path


def test_check_and_build_take_it_with_a_warning(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=2)
    path = entry_with(root, "arxiv: 2205.14135")
    result = CliRunner().invoke(main, ["check", "--root", str(root)])
    assert result.exit_code == 0, result.output
    assert (f"content/papers/{path.name}:2: warning[W204]: 'arxiv': arXiv id 2205.14135 is unquoted, and YAML "
            "reads it as the number 2205.14135") in result.output
    assert "hint: quote it: arxiv: '2205.14135'" in result.output
    assert CliRunner().invoke(main, ["check", "--root", str(root), "--strict"]).exit_code == 1
    result = CliRunner().invoke(main, ["build", "--root", str(root), "--no-search"])
    assert result.exit_code == 0, result.output
    page = (root / "public" / "papers" / path.stem / "index.html").read_text(encoding="utf-8")
    assert "https://arxiv.org/abs/2205.14135" in page


def test_a_number_that_is_no_id_stays_an_error(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=2)
    path = entry_with(root, "arxiv: 2205.141351")
    result = CliRunner().invoke(main, ["check", "--root", str(root)])
    assert result.exit_code == 1
    assert f"content/papers/{path.name}:2: error[E203]: 'arxiv': arXiv id 2205.141351 was read as a number" \
        in result.output
