"""Whole-site checks: links and anchors (at a domain root and under a project path), the Nu Html Checker over
every page, the sitemap, robots.txt, .nojekyll, the 404 page, and no request leaving the site."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

from tests.support import crawl_links, describe_broken, describe_vnu, run_vnu, serve_directory

from .conftest import BuiltSite
from .golden.regenerate import build_golden
from .html_tools import parse_html, read_html

VTC = "vtc-dnn-compilation-with-virtual-tensors-for-data-movement"
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
URL_ATTRIBUTES = ("href", "src", "action", "srcset", "poster", "data")


def html_pages(output: Path) -> list[Path]:
    return sorted(output.rglob("*.html"))


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.mark.parametrize("which", ["root", "project-path"])
def test_no_broken_internal_links_or_anchors(which: str, built_site: BuiltSite, root_site: BuiltSite) -> None:
    site = root_site if which == "root" else built_site
    assert site.base_path == ("/" if which == "root" else "/reading-list/")
    broken = crawl_links(site.output, site.base_path, site_url=site.base_url)
    assert not broken, describe_broken(broken)
    with serve_directory(site.output, site.base_path) as base_url:  # and the pages really are where links point
        for route in ("", f"papers/{VTC}/", "authors/ahan-gupta/", "tags/compilers/", "timeline/undated/",
                      "feed.xml", "reading-list.bib", "static/style.css"):
            status, _ = fetch(base_url.url(route))
            assert status == 200, route
        assert fetch(base_url.url("timeline"))[0] == 200  # redirected to timeline/


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The golden site built: the committed list names nobody two ways, while its 'L. Kaiser' (an alias of Łukasz
    Kaiser) has a redirect page, checked here with the rest."""
    output = tmp_path_factory.mktemp("golden") / "public"
    build_golden(output)
    assert "http-equiv=\"refresh\"" in (output / "authors/l-kaiser/index.html").read_text(encoding="utf-8")
    return output


def test_the_golden_sites_links_and_its_redirect_lead_somewhere(golden: Path) -> None:
    broken = crawl_links(golden, "/golden/", site_url="https://example.org/golden/")  # a refresh's target too
    assert not broken, describe_broken(broken)


def test_every_page_is_valid_html(built_site: BuiltSite, golden: Path) -> None:
    pages = html_pages(built_site.output)
    assert len(pages) > 180
    errors = run_vnu([*pages, *html_pages(golden)])  # one checker run: it takes seconds to start
    assert not errors, describe_vnu(errors, built_site.output)


def test_sitemap_is_well_formed_and_every_loc_exists(built_site: BuiltSite) -> None:
    root = ET.fromstring((built_site.output / "sitemap.xml").read_bytes())
    assert root.tag == f"{SITEMAP_NS}urlset"
    locs = [(loc.text or "") for loc in root.iter(f"{SITEMAP_NS}loc")]
    assert len(locs) == len(set(locs)) == len(list(root))
    for loc in locs:
        assert loc.startswith(built_site.base_url), loc
        relative = loc.removeprefix(built_site.base_url)
        target = built_site.output / relative
        assert (target / "index.html" if loc.endswith("/") else target).is_file(), loc
    pages = {p.relative_to(built_site.output).as_posix().removesuffix("index.html")
             for p in built_site.output.rglob("index.html") if "pagefind" not in p.parts}
    assert {loc.removeprefix(built_site.base_url) for loc in locs} == pages
    assert built_site.base_url + "404.html" not in locs


def test_robots_names_the_sitemap_and_nojekyll_exists(built_site: BuiltSite, root_site: BuiltSite) -> None:
    for site in (built_site, root_site):
        robots = (site.output / "robots.txt").read_text()
        assert f"Sitemap: {site.base_url}sitemap.xml" in robots.splitlines()
        assert "Disallow: /" not in robots.splitlines()
        assert (site.output / ".nojekyll").is_file()


def test_404_uses_absolute_links_under_the_base_path(built_site: BuiltSite, root_site: BuiltSite) -> None:
    for site in (built_site, root_site):
        doc = read_html(site.output / "404.html")
        urls = [el.get(attr, "") for el in doc.iter() for attr in URL_ATTRIBUTES if el.get(attr)]
        assert len(urls) > 10
        for url in urls:
            assert url.startswith(site.base_path) or url.startswith("#"), f"404.html: {url}"
    with serve_directory(built_site.output, "/reading-list/") as base_url:
        missing = base_url.url("no/such/page/deep/down/")
        status, body = fetch(missing)
        assert status == 404 and b"Page not found" in body
        doc = parse_html(body.decode("utf-8"))
        for el in doc.iter():
            for attr in ("href", "src", "action"):
                url = el.get(attr)
                if url and not url.startswith("#"):
                    assert fetch(urljoin(missing, url))[0] == 200, f"404 page, from a deep URL: {url}"


def test_pages_use_relative_links_so_they_work_from_disk(built_site: BuiltSite) -> None:
    """Apart from 404.html (served at any depth), no page links root-relatively: public/index.html opens from disk."""
    for path in html_pages(built_site.output):
        rel = path.relative_to(built_site.output).as_posix()
        if rel == "404.html":
            continue
        doc = read_html(path)
        for el in doc.iter():
            for attr in URL_ATTRIBUTES:
                value = el.get(attr, "")
                assert not (value.startswith("/") and not value.startswith("//")), f"{rel}: <{el.tag} {attr}={value}>"


def test_nothing_is_loaded_from_another_host(built_site: BuiltSite) -> None:
    """No CDN, no web fonts: scripts, styles, images and icons all come from the site itself."""
    for path in html_pages(built_site.output):
        doc = read_html(path)
        for el in doc.iter():
            loads = (el.tag in ("script", "img", "iframe", "source", "video", "audio") and el.get("src")) or (
                el.tag == "link" and el.get("rel") in ("stylesheet", "icon", "preload", "modulepreload")
                and el.get("href"))
            if loads:
                assert not urlsplit(loads).netloc and not loads.startswith("//"), f"{path}: {loads}"
    for css in (built_site.output / "static").glob("*.css"):
        text = css.read_text()
        assert "@import" not in text
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)", text):
            assert url.startswith("data:") or not urlsplit(url).netloc, f"{css.name}: {url}"
