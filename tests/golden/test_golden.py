"""The golden site builds to exactly the committed bytes (regenerate: python -m tests.golden.regenerate)."""

from __future__ import annotations

from pathlib import Path

from ..site_factory import tree_bytes
from .regenerate import EXPECTED, build_golden


def test_golden_site_matches_committed_output(tmp_path: Path) -> None:
    build_golden(tmp_path / "out")
    built, expected = tree_bytes(tmp_path / "out"), tree_bytes(EXPECTED)
    assert sorted(built) == sorted(expected), "file lists differ; run python -m tests.golden.regenerate if intended"
    changed = [name for name in built if built[name] != expected[name]]
    assert not changed, f"{len(changed)} files differ, e.g. {changed[:5]}; regenerate if intended"


def test_golden_site_content_is_what_it_should_be() -> None:
    page = (EXPECTED / "papers/bert-pre-training/index.html").read_text()
    assert "BERT: Pre-training" in page and "<table>" in page and "<math" in page
    assert 'name="citation_arxiv_id" content="1810.04805"' in page
    assert not (EXPECTED / "papers/draft-paper").exists()
    assert (EXPECTED / "authors/lukasz-kaiser/index.html").is_file()
