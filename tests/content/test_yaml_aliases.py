"""YAML anchors and aliases are refused in entries and author files, before any value is built."""

from __future__ import annotations

import itertools
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.common.errors import Report
from sitegen.content import frontmatter
from sitegen.content.frontmatter import FrontMatterError
from sitegen.content.loader import load_profile
from sitegen.content.yaml_aliases import HINT

from ..site_factory import copy_site


def bomb(levels: int = 9) -> str:
    """'Billion laughs': each line lists the one before nine times, 9**9 items from about 600 bytes."""
    names = "abcdefghijklmnopqrstuvwxyz"
    lines = ["a: &a [" + ",".join(['"lol"'] * 9) + "]"]
    for before, name in itertools.pairwise(names[:levels]):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{before}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _error(text: str, path: str = "content/papers/x.md") -> str:
    with pytest.raises(FrontMatterError) as caught:
        frontmatter.parse(text, path)
    return caught.value.diagnostic.format()


def test_an_alias_bomb_in_front_matter_is_refused_at_its_first_alias_before_anything_is_built() -> None:
    text = "---\ntitle: Laughs\n" + bomb() + "---\nNotes.\n"
    assert len(bomb().encode()) < 700
    tracemalloc.start()
    try:
        message = _error(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert message == (
        "content/papers/x.md:4:8: error[E340]: YAML alias '*a' is not allowed "
        "(it repeats the value anchored on line 3)\n  hint: " + HINT)
    assert peak < 2_000_000  # refused while reading: 387 million items would take gigabytes


def test_an_alias_bomb_in_an_author_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "content" / "authors" / "laughs.yaml"
    path.parent.mkdir(parents=True)
    path.write_text("name: Ann Lee\n" + bomb(), encoding="utf-8")
    report = Report()
    assert load_profile(path, tmp_path, report) is None
    assert [d.format() for d in report.items] == [
        "content/authors/laughs.yaml:3:8: error[E340]: YAML alias '*a' is not allowed "
        "(it repeats the value anchored on line 2)\n  hint: " + HINT]


def test_sitegen_check_fails_on_an_alias_bomb_and_names_each_file(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=2)
    (root / "content" / "papers" / "laughs.md").write_text("---\ntitle: Laughs\n" + bomb() + "---\n")
    (root / "content" / "authors" / "laughs.yaml").write_text("name: Ann Lee\n" + bomb())
    result = CliRunner().invoke(main, ["check", "--root", str(root)], catch_exceptions=False)
    assert result.exit_code == 1
    assert "content/papers/laughs.md:4:8: error[E340]: YAML alias '*a' is not allowed" in result.output
    assert "content/authors/laughs.yaml:3:8: error[E340]: YAML alias '*a' is not allowed" in result.output


@pytest.mark.parametrize(("yaml_text", "expected"), [
    ("title: &t T\n", "x.md:2:8: error[E340]: YAML anchor '&t' is not allowed"),
    ("title: T\ntags: [&x a, b]\n", "x.md:3:8: error[E340]: YAML anchor '&x' is not allowed"),
    ("title: T\ntags:\n- &x a\n- *x\n", "x.md:5:3: error[E340]: YAML alias '*x' is not allowed "
                                       "(it repeats the value anchored on line 4)"),
    ("title: T\nabstract: *undefined\n", "x.md:3:11: error[E340]: YAML alias '*undefined' is not allowed"),
    ("title: T\n<<: &m {tags: [a]}\n", "x.md:3:5: error[E340]: YAML anchor '&m' is not allowed"),
])
def test_anchors_and_aliases_anywhere_are_refused(yaml_text: str, expected: str) -> None:
    assert _error(f"---\n{yaml_text}---\n", "x.md") == expected + "\n  hint: " + HINT


@pytest.mark.parametrize("yaml_text", [
    "title: R&D at *scale*\n",
    "title: 'A & B: *x* &y'\n",
    "title: T\nabstract: \"we show 2 * 3 & more, *really*\"\n",
    "title: T\nabstract: >\n  folded & *starred*\n  &text\n",
    "title: T\ntags: ['&a', '*b']\n",
])
def test_ampersands_and_asterisks_in_text_are_text(yaml_text: str) -> None:
    doc = frontmatter.parse(f"---\n{yaml_text}---\n", "x.md")
    assert doc.meta["title"]
