"""The sitemap gives each page the day it last changed, from the entries' dates; every page shares one social card."""

from __future__ import annotations

import io
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image

from sitegen.pipeline.build import build

from ...html_tools import meta_values, read_html

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
BASE = "https://example.org/list/"
SITE = f"title: Dates — a list\ndescription: Papers with and without dates.\nbase_url: {BASE}\npage_size: 2\n"
PAPERS = {  # slug -> (date, added, tags)
    "old": ("2020-05-01", "2024-03-02", "[agents]"),
    "new": ("2024-06-30", "2024-01-05", "[agents, kv]"),
    "mid": ("2022-01-01", None, "[kv]"),
    "none": (None, None, "[]"),
}


def write_site(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "site.yaml").write_text(SITE, encoding="utf-8")
    papers = root / "content" / "papers"
    papers.mkdir(parents=True)
    for slug, (date, added, tags) in PAPERS.items():
        lines = [f"title: {slug.title()}", "authors: [Ada Lovelace]", f"tags: {tags}"]
        lines += [f"date: {date}"] if date else []
        lines += [f"added: {added}"] if added else []
        (papers / f"{slug}.md").write_text("---\n" + "\n".join(lines) + "\n---\n", encoding="utf-8")
    return root


def sitemap(output: Path) -> dict[str, str | None]:
    """loc (relative to the base URL) -> lastmod, read with ElementTree."""
    tree = ET.parse(output / "sitemap.xml")
    out = {}
    for url in tree.getroot().findall("s:url", NS):
        loc, lastmod = url.find("s:loc", NS), url.find("s:lastmod", NS)
        assert loc is not None and loc.text is not None and loc.text.startswith(BASE)
        out[loc.text.removeprefix(BASE)] = None if lastmod is None else lastmod.text
    return out


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_site(tmp_path_factory.mktemp("dates"))
    build(root, root / "public", search=False)
    return root / "public"


def test_each_page_has_the_day_its_papers_last_changed(out: Path) -> None:
    dates = sitemap(out)
    assert dates["papers/old/"] == "2024-03-02"  # added after it was published
    assert dates["papers/new/"] == "2024-06-30"  # published after it was added
    assert dates["papers/mid/"] == "2022-01-01"
    assert dates["papers/none/"] is None  # nothing to say: no lastmod rather than an invented one
    assert dates["tags/agents/"] == "2024-06-30" and dates["tags/kv/"] == "2024-06-30"
    assert dates["timeline/2020/"] == "2024-03-02" and dates["timeline/undated/"] is None
    assert dates["page/2/"] == "2024-03-02"  # the older half, 'old' and 'none'
    for page in ("", "authors/", "tags/", "timeline/", "search/", "authors/ada-lovelace/"):
        assert dates[page] == "2024-06-30", page  # the whole list's newest
    assert all(re.fullmatch(r"\d{4}-\d{2}-\d{2}", d) for d in dates.values() if d)


def test_the_sitemap_depends_on_the_entries_alone(out: Path, tmp_path: Path) -> None:
    again = write_site(tmp_path / "again")
    build(again, again / "public", search=False)
    assert (again / "public" / "sitemap.xml").read_bytes() == (out / "sitemap.xml").read_bytes()


def test_a_rebuild_after_a_date_edit_gives_the_sitemap_of_a_clean_build(tmp_path: Path) -> None:
    root = write_site(tmp_path / "site")
    build(root, root / "public", search=False)
    entry = root / "content" / "papers" / "old.md"
    entry.write_text(entry.read_text(encoding="utf-8").replace("added: 2024-03-02", "added: 2024-03-09"),
                     encoding="utf-8")  # the order stays as it was
    build(root, root / "public", search=False)
    clean = tmp_path / "clean"
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns("public", ".sitegen-cache"))
    build(clean, clean / "public", search=False, use_cache=False)
    assert sitemap(root / "public")["papers/old/"] == "2024-03-09"
    assert (root / "public" / "sitemap.xml").read_bytes() == (clean / "public" / "sitemap.xml").read_bytes()


@pytest.mark.parametrize("page", ["index.html", "papers/old/index.html", "tags/agents/index.html", "search/index.html",
                                  "authors/ada-lovelace/index.html"])
def test_every_page_names_the_social_card_by_its_absolute_address(out: Path, page: str) -> None:
    doc = read_html(out / page)
    assert meta_values(doc, "og:image") == [BASE + "social-card.png"]
    assert meta_values(doc, "twitter:image") == [BASE + "social-card.png"]
    assert meta_values(doc, "twitter:card") == ["summary_large_image"]
    assert meta_values(doc, "og:image:width") == ["1200"] and meta_values(doc, "og:image:height") == ["630"]


def test_the_social_card_is_a_png_the_size_it_says(out: Path) -> None:
    data = (out / "social-card.png").read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(data)) as image:
        image.verify()
    with Image.open(io.BytesIO(data)) as image:
        assert (image.format, image.size, image.mode) == ("PNG", (1200, 630), "RGB")
        assert len(image.getcolors(1 << 16) or ()) > 10  # text drawn on it, not a plain background
