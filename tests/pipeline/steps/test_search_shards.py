"""The search index's shards as engine steps: an edit in a new process makes the records of its own shard
alone, the index always equals a clean build's, and the engine's digests are those the records give."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from sitegen.pipeline.build import build
from sitegen.pipeline.site_engine import SiteEngine, search_records, search_shards
from sitegen.publish import search
from sitegen.publish import search_records as records_module

from ...site_factory import copy_site, tree_bytes

SIZE = 4  # twelve papers in three shards


def _documents(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The papers whose record is made from here on."""
    made: list[str] = []
    real = records_module.document

    def recording(paper: records_module.Paper, language: str) -> str:
        made.append(paper.entry.slug)
        return real(paper, language)

    monkeypatch.setattr(records_module, "document", recording)
    return made


def _manifest(output: Path) -> list[dict[str, object]]:
    data = json.loads((output / search.BUNDLE / search.MANIFEST).read_text(encoding="utf-8"))
    return list(data["shards"])


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(search, "SHARD_SIZE", SIZE)
    root = copy_site(tmp_path / "site", papers=12)
    result = build(root, root / "public")
    assert result.search is not None and (result.search.shards, result.search.indexed) == (3, 3)
    return root


def _same_as_clean(root: Path, tmp_path: Path) -> None:
    build(root, tmp_path / "clean", use_cache=False)
    assert tree_bytes(root / "public" / search.BUNDLE) == tree_bytes(tmp_path / "clean" / search.BUNDLE)


def test_a_notes_edit_makes_the_records_of_its_shard_alone(site: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    engine = SiteEngine(site, tmp_path / "unused")
    slugs = [engine.engine.get("search_slugs", (SIZE, n)) for n in range(3)]
    entry = site / "content" / "papers" / f"{slugs[1][2]}.md"
    made = _documents(monkeypatch)
    entry.write_text(entry.read_text(encoding="utf-8") + "\nA quokkafied idea.\n", encoding="utf-8")
    again = build(site, site / "public").search
    assert again is not None and (again.shards, again.indexed) == (3, 1)
    assert made and set(made) <= set(slugs[1])  # not one record of the other eight papers
    _same_as_clean(site, tmp_path)


def test_a_template_edit_rewrites_pages_and_makes_no_record(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    made = _documents(monkeypatch)
    base = site / "themes" / "default" / "templates" / "base.html"
    base.write_text(base.read_text(encoding="utf-8").replace("</body>", "<!-- a new footer -->\n</body>"),
                    encoding="utf-8")
    result = build(site, site / "public")
    assert result.written > 12 and result.search is not None and result.search.indexed == 0
    assert made == []


def test_new_removed_and_redated_papers_index_as_a_clean_build_does(site: Path, tmp_path: Path) -> None:
    papers = sorted((site / "content" / "papers").glob("*.md"))
    newest = papers[0].read_text(encoding="utf-8").replace("title:", "title: Newest of all —", 1)
    (site / "content" / "papers" / "zz-newest.md").write_text(_dated(newest, dt.date(2099, 1, 1)), encoding="utf-8")
    result = build(site, site / "public").search
    assert result is not None and result.indexed == 1  # the newest paper joins the last shard alone
    _same_as_clean(site, tmp_path)
    papers[3].unlink()
    papers[5].write_text(_dated(papers[5].read_text(encoding="utf-8"), dt.date(1999, 1, 1)), encoding="utf-8")
    assert build(site, site / "public").search.ok  # type: ignore[union-attr]
    _same_as_clean(site, tmp_path / "again")


def _dated(text: str, date: dt.date) -> str:
    lines = [f"date: {date.isoformat()}" if line.startswith("date:") else line for line in text.splitlines()]
    return "\n".join(lines) + "\n"


def test_a_damaged_kept_shard_is_indexed_again_from_the_engine(site: Path, tmp_path: Path) -> None:
    """A shard no edit reached, whose files in the output were lost: its records are made and it is indexed."""
    last = SiteEngine(site, tmp_path / "unused").engine.get("search_slugs", (SIZE, 2))
    next((site / "public" / search.BUNDLE / "s0" / "fragment").iterdir()).unlink()
    entry = site / "content" / "papers" / f"{last[0]}.md"
    entry.write_text(entry.read_text(encoding="utf-8") + "\nMore notes.\n", encoding="utf-8")
    again = build(site, site / "public").search
    assert again is not None and again.ok and again.indexed == 2
    _same_as_clean(site, tmp_path)


def test_the_engine_digests_are_those_of_the_records(site: Path, tmp_path: Path) -> None:
    engine = SiteEngine(site, tmp_path / "unused")
    from_engine = [(s.name, s.papers, s.contents) for s in search_shards(engine, SIZE)]
    from_records = [(s.name, s.papers, s.contents) for s in search.shards(search_records(engine, SIZE), SIZE)]
    assert from_engine == from_records and len(from_engine) == 3
