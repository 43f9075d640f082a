"""Past the sitemap protocol's 50,000 URLs, `sitemap.xml` is an index of files that each list at most that many.

Checked against the protocol's own XML Schemas (sitemap_schemas/: sitemap.xsd, siteindex.xsd), on
builds with the limit lowered (every file the same code makes) and, at the real limit, on the plan alone: the
sitemaps are files of their own, made without rendering 50,000 pages.
"""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema

from sitegen.model import routes
from sitegen.pipeline.build import build

from ...site_factory import copy_site

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
SCHEMAS = Path(__file__).parent / "sitemap_schemas"  # the protocol's own, kept as published (see its README)


@pytest.fixture(scope="module")
def schemas() -> tuple[xmlschema.XMLSchema, xmlschema.XMLSchema]:
    """The protocol's schemas of a sitemap and of a sitemap index."""
    if not (SCHEMAS / "siteindex.xsd").is_file():
        pytest.fail(f"{SCHEMAS} is missing: run npm ci --ignore-scripts")
    return xmlschema.XMLSchema(SCHEMAS / "sitemap.xsd"), xmlschema.XMLSchema(SCHEMAS / "siteindex.xsd")


def _locs(path: Path, element: str) -> list[str]:
    return [loc.text or "" for loc in ET.parse(path).getroot().findall(f"s:{element}/s:loc", NS)]


def _listed(output: Path, schemas: tuple[xmlschema.XMLSchema, xmlschema.XMLSchema], limit: int) -> list[str]:
    """Every URL the output's sitemaps list, in order, each file checked against its schema and the limit."""
    urlset, index = schemas
    root = ET.parse(output / "sitemap.xml").getroot()
    if root.tag.endswith("urlset"):
        urlset.validate(output / "sitemap.xml")
        return _locs(output / "sitemap.xml", "url")
    index.validate(output / "sitemap.xml")
    urls = []
    for n, loc in enumerate(_locs(output / "sitemap.xml", "sitemap"), 1):
        assert loc.endswith(f"/sitemap-{n}.xml")
        urlset.validate(output / f"sitemap-{n}.xml")
        part = _locs(output / f"sitemap-{n}.xml", "url")
        assert 0 < len(part) <= limit
        urls += part
    return urls


@pytest.fixture
def small_limit(monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr(routes, "SITEMAP_LIMIT", 7)
    return 7


def test_past_the_limit_the_sitemap_is_an_index_of_files_that_list_every_page_once(
        tmp_path: Path, schemas: tuple[xmlschema.XMLSchema, xmlschema.XMLSchema],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root = copy_site(tmp_path / "site", papers=8)
    build(root, tmp_path / "one", search=False, use_cache=False)
    whole = _listed(tmp_path / "one", schemas, routes.SITEMAP_LIMIT)
    assert len(whole) > 14 and not (tmp_path / "one" / "sitemap-1.xml").exists()
    monkeypatch.setattr(routes, "SITEMAP_LIMIT", 7)
    build(root, tmp_path / "split", search=False, use_cache=False)
    assert _listed(tmp_path / "split", schemas, 7) == whole
    files = sorted(p.name for p in (tmp_path / "split").glob("sitemap*.xml"))
    assert len(files) == 1 + -(-len(whole) // 7)
    robots = (tmp_path / "split" / "robots.txt").read_text(encoding="utf-8")
    assert robots.rstrip().endswith("/sitemap.xml")  # the index: crawlers find the rest from it
    index = ET.parse(tmp_path / "split" / "sitemap.xml").getroot()
    assert all(s.find("s:lastmod", NS) is not None for s in index.findall("s:sitemap", NS))


def test_edits_that_add_and_remove_sitemap_files_end_as_a_clean_build(
        tmp_path: Path, small_limit: int, schemas: tuple[xmlschema.XMLSchema, xmlschema.XMLSchema]) -> None:
    root = copy_site(tmp_path / "site", papers=6)
    public = root / "public"
    build(root, public, search=False)
    before = sorted(p.name for p in public.glob("sitemap*.xml"))
    papers = sorted((root / "content" / "papers").glob("*.md"))
    spare = copy_site(tmp_path / "spare", papers=14)
    for extra in sorted((spare / "content" / "papers").glob("*.md"))[6:]:
        shutil.copy2(extra, root / "content" / "papers" / extra.name)
    build(root, public, search=False)
    grown = sorted(p.name for p in public.glob("sitemap*.xml"))
    assert len(grown) > len(before)
    _check_clean(root, tmp_path / "clean-grown", schemas, small_limit)
    for entry in sorted((root / "content" / "papers").glob("*.md")):
        if entry not in papers[:3]:
            entry.unlink()
    build(root, public, search=False)
    assert len(sorted(p.name for p in public.glob("sitemap*.xml"))) < len(grown)  # the files past the end are gone
    _check_clean(root, tmp_path / "clean-shrunk", schemas, small_limit)


def _check_clean(root: Path, clean: Path, schemas: tuple[xmlschema.XMLSchema, xmlschema.XMLSchema],
                 limit: int) -> None:
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns("public", ".sitegen-cache"))
    build(clean, clean / "public", search=False, use_cache=False)
    ours = {p.name: p.read_bytes() for p in (root / "public").glob("sitemap*.xml")}
    assert ours == {p.name: p.read_bytes() for p in (clean / "public").glob("sitemap*.xml")}
    _listed(root / "public", schemas, limit)


def _plan_rows(papers: int) -> list[routes.Row]:
    return list(routes.rows([f"paper-{n}" for n in range(papers)], (), (), (), (), 1, None))


def test_at_the_protocol_limit_one_file_and_one_more_page_an_index() -> None:
    """1 home page, the papers and 8 other pages: 49,991 papers give 50,000 pages, one sitemap; one more, two."""
    at = _plan_rows(49_991)
    assert [r for r in at if r[0].startswith("sitemap")] == [("sitemap.xml", "sitemap", "", "sitemap.xml")]
    past = _plan_rows(49_992)
    sitemaps = [r for r in past if r[0].startswith("sitemap")]
    assert sitemaps == [("sitemap.xml", routes.SITEMAP_INDEX, "2", "sitemap-index.xml"),
                        ("sitemap-1.xml", "sitemap", "1", "sitemap.xml"),
                        ("sitemap-2.xml", "sitemap", "2", "sitemap.xml")]
    pages = tuple(r[0] for r in past if r[0].endswith("index.html"))
    assert len(pages) == 50_001
    parts = [routes.sitemap_pages(pages, kind, key) for _, kind, key, _ in sitemaps[1:]]
    assert [len(p) for p in parts] == [50_000, 1] and parts[0] + parts[1] == pages
    assert routes.sitemap_pages(pages, routes.SITEMAP_INDEX, "2") == pages
