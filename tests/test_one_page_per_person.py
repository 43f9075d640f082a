"""One page per person: a profile's `aliases` merge the names a paper writes into one author page.

Built as a curator meets it: an author file naming the person's other spellings, papers
naming them either way, and the site read back from its pages.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.build.build import build

from .html_tools import by_class, main_of, parse_html, text_of

BASE = "https://example.org/list/"
PROFILE = "name: Ahan Gupta\naliases: [A. Gupta, Ahan K. Gupta]\nh_index: 12\ncitations: 18\n"
PAPERS = {
    "one.md": "---\ntitle: Paper One\nauthors: [Ahan Gupta, Bo Li]\ndate: 2024-03-01\n---\n",
    "two.md": "---\ntitle: Paper Two\nauthors: [A. Gupta, Bo Li, Cy Ng]\ndate: 2024-02-01\n---\n",
    "three.md": "---\ntitle: Paper Three\nauthors: [Ahan K. Gupta]\ndate: 2024-01-01\n---\n",
}


def write_site(root: Path, papers: dict[str, str] = PAPERS, profiles: dict[str, str] | None = None) -> Path:
    """A small site: site.yaml, the papers and the author files given."""
    (root / "content" / "papers").mkdir(parents=True)
    (root / "content" / "authors").mkdir()
    (root / "site.yaml").write_text(f"title: T\nbase_url: {BASE}\n", encoding="utf-8")
    for name, text in papers.items():
        (root / "content" / "papers" / name).write_text(text, encoding="utf-8")
    for name, text in (profiles if profiles is not None else {"ahan-gupta.yaml": PROFILE}).items():
        (root / "content" / "authors" / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_site(tmp_path_factory.mktemp("people"))
    build(root, root / "public", BASE, search=False, use_cache=False)
    return root / "public"


def titles(page: Path) -> list[str]:
    doc = parse_html(page.read_text(encoding="utf-8"))
    return [text_of(h) for h in by_class(main_of(doc), "item-title")]


def test_an_alias_is_no_second_author_page_with_copied_figures(site: Path) -> None:
    """The bug: 'A. Gupta' had a page of his own, showing Ahan Gupta's h-index and citations."""
    assert titles(site / "authors/ahan-gupta/index.html") == ["Paper One", "Paper Two", "Paper Three"]
    for variant in ("a-gupta", "ahan-k-gupta"):
        text = (site / "authors" / variant / "index.html").read_text(encoding="utf-8")
        assert "h-index" not in text and "Paper Two" not in text
