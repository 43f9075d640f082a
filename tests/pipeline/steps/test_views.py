"""Pages read the site's long lists part by part: a title edit that moves a paper among those of its day
renders the home page it is on, not every home page; the tags and year summaries follow counts alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.model import routes
from sitegen.pipeline.build import build
from sitegen.pipeline.site_engine import SiteEngine
from sitegen.render.render import Renderer

from ...site_factory import tree_bytes

PAPERS, PAGE_SIZE = 24, 4


def _site(root: Path) -> Path:
    """24 papers of one day, two tags, four to a home page: the order among them goes by title."""
    (root / "content" / "papers").mkdir(parents=True)
    (root / "site.yaml").write_text(f"title: Same day\npage_size: {PAGE_SIZE}\n", encoding="utf-8")
    for n in range(PAPERS):
        tag = "alpha" if n % 2 else "beta"
        (root / "content" / "papers" / f"p{n:02d}.md").write_text(
            f"---\ntitle: 'Paper {n:02d}'\nauthors: [Ada Lovelace]\ndate: 2025-03-03\ntags: [{tag}]\n---\nNotes.\n",
            encoding="utf-8")
    return root


def _rendered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    rendered: list[str] = []
    real = Renderer.render

    def recording(self: Renderer, spec: routes.PageSpec) -> bytes | bytearray:
        rendered.append(spec.output)
        return real(self, spec)

    monkeypatch.setattr(Renderer, "render", recording)
    return rendered


def _retitle(root: Path, n: int, title: str) -> Path:
    path = root / "content" / "papers" / f"p{n:02d}.md"
    path.write_text(path.read_text(encoding="utf-8").replace(f"'Paper {n:02d}'", f"'{title}'"), encoding="utf-8")
    return path


@pytest.mark.parametrize("persisted", [False, True], ids=["in-process", "new-process"])
def test_a_title_edit_moving_a_paper_within_its_day_renders_only_the_home_pages_it_moved_across(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, persisted: bool) -> None:
    root = _site(tmp_path / "site")
    engine = SiteEngine(root, tmp_path / "out")
    if persisted:
        build(root, tmp_path / "out", search=False)
    else:
        engine.build(jobs=1)
    rendered = _rendered(monkeypatch)
    # "Paper 01" (first page: Paper 00 … 03) becomes "Paper 05b": it moves to the second page, the rest of
    # whose papers move up one; pages 3 to 6 hold the same papers as before
    edited = _retitle(root, 1, "Paper 05b")
    if persisted:
        build(root, tmp_path / "out", search=False)
    else:
        engine.update([edited])
    homes = sorted(page for page in rendered if page == "index.html" or page.startswith("page/"))
    assert homes == ["index.html", "page/2/index.html"]
    assert "tags/index.html" not in rendered and "timeline/index.html" not in rendered  # counts as they were
    build(root, tmp_path / "clean", search=False, use_cache=False)
    assert tree_bytes(tmp_path / "out") == tree_bytes(tmp_path / "clean")


def test_a_new_paper_renders_the_pages_whose_counts_it_changed(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    root = _site(tmp_path / "site")
    engine = SiteEngine(root, tmp_path / "out")
    engine.build(jobs=1)
    rendered = _rendered(monkeypatch)
    added = root / "content" / "papers" / "zz.md"
    added.write_text("---\ntitle: 'Zeta'\nauthors: [Ada Lovelace]\ndate: 2025-03-03\ntags: [alpha]\n---\n",
                     encoding="utf-8")
    engine.update([added])
    assert "tags/index.html" in rendered and "timeline/index.html" in rendered
    assert "index.html" in rendered  # its count of papers moved
    build(root, tmp_path / "clean", search=False, use_cache=False)
    assert tree_bytes(tmp_path / "out") == tree_bytes(tmp_path / "clean")
