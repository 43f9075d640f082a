"""Hostile text in an entry renders inert: in the HTML (parsed) and in a real browser (no dialog ever opens)."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import bibtexparser
import feedparser
import pytest
import yaml

from sitegen.content.slugs import slugify
from sitegen.pipeline.build import BuildResult, build
from tests.support import RecordedPage, SiteURL, crawl_links, describe_broken, serve_directory

from .html_tools import parse_html
from .site_factory import copy_site

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
LINK = "[x](javascript:alert(1))"
PAYLOADS = (SCRIPT, IMG, LINK)
SLUG = "xss-payloads"
TITLE = f"Hostile {SCRIPT} title {IMG} with {LINK}"
AUTHORS = [SCRIPT, IMG, f"Mallory {LINK}"]
TAGS = [SCRIPT, IMG, LINK]
ABSTRACT = (f"Abstract {SCRIPT} {IMG} {LINK} and math $x < y$ then $\\href{{javascript:alert(1)}}{{x}}$ "
            "and $\\text{</math><img src=x onerror=alert(1)>}$.")
NOTES = f"""Notes with {SCRIPT} and {IMG} and {LINK}.

Raw HTML: <a href="javascript:alert(1)">raw</a> <iframe src="javascript:alert(1)"></iframe>

- autolink <javascript:alert(1)>
- image ![x](javascript:alert(1))
- encoded [y](jav&#x09;ascript:alert(1)) and [z](JaVaScRiPt:alert(1)) and [d](data:text/html,<script>alert(1)</script>)
- reference [w][evil]

| {SCRIPT} | {IMG} |
|---|---|
| {LINK} | `<script>` |

```html
{SCRIPT}
```

[^1]: footnote {IMG}

[evil]: javascript:alert(1)
"""
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "data", "xlink:href", "poster", "srcset", "background")
# the site's own scripts
OWN_SCRIPT = re.compile(r"^(/reading-list/|(\.\./)*)static/[a-z-]+(\.min)?\.js\?v=[0-9a-f]+$")
MATHML = "{http://www.w3.org/1998/Math/MathML}"
BAD_SCHEME = re.compile(r"^\s*(javascript|vbscript|data):", re.IGNORECASE)


def _entry() -> str:
    meta = {"title": TITLE, "authors": AUTHORS, "tags": TAGS, "abstract": ABSTRACT, "date": "2026-03-03",
            "added": "2026-05-20", "organization": IMG, "category": "cs.CR"}
    return "---\n" + yaml.safe_dump(meta, allow_unicode=True, sort_keys=False) + "---\n" + NOTES


@pytest.fixture(scope="module")
def xss_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, BuildResult]:
    root = copy_site(tmp_path_factory.mktemp("xss") / "site", papers=3)
    (root / "content" / "papers" / f"{SLUG}.md").write_text(_entry(), encoding="utf-8")
    output = root.parent / "public"
    return output, build(root, output, "https://example.github.io/reading-list/", search=False)


def _pages(output: Path) -> Iterator[tuple[str, ET.Element]]:
    for path in sorted(output.rglob("*.html")):
        yield path.relative_to(output).as_posix(), parse_html(path.read_text(encoding="utf-8"))


def test_the_hostile_entry_is_built_everywhere(xss_site: tuple[Path, BuildResult]) -> None:
    output, result = xss_site
    assert (output / "papers" / SLUG / "index.html").is_file()
    assert result.pages_by_kind["paper"] == 4
    for name in TAGS:
        assert (output / "tags" / slugify(name) / "index.html").is_file(), name
    for name in AUTHORS:
        assert (output / "authors" / slugify(name) / "index.html").is_file(), name
    page = (output / "papers" / SLUG / "index.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # shown as text, not dropped


def test_no_script_but_the_sites_own(xss_site: tuple[Path, BuildResult]) -> None:
    output, _ = xss_site
    for rel, doc in _pages(output):
        for script in doc.iter("script"):
            if script.get("type") in ("application/ld+json", "application/json"):  # data: ld+json, the network's
                data = json.loads(script.text or "")
                assert isinstance(data, dict), rel
                assert "</" not in (script.text or ""), rel
            else:
                assert OWN_SCRIPT.match(script.get("src", "")), f"{rel}: {ET.tostring(script)[:200]!r}"
                assert not (script.text or "").strip(), rel


def test_no_event_handler_attribute_and_no_injected_element(xss_site: tuple[Path, BuildResult]) -> None:
    output, _ = xss_site
    for rel, doc in _pages(output):
        for el in doc.iter():
            handlers = [name for name in el.attrib if name.lower().startswith("on")]
            assert not handlers, f"{rel}: <{el.tag} {handlers}>"
            assert el.tag not in ("iframe", "object", "embed", "img", "base", "frame"), f"{rel}: <{el.tag}>"


def test_no_javascript_or_data_url_anywhere(xss_site: tuple[Path, BuildResult]) -> None:
    output, _ = xss_site
    for rel, doc in _pages(output):
        for el in doc.iter():
            for attribute in URL_ATTRIBUTES:
                value = el.get(attribute)
                if value is not None:
                    cleaned = re.sub(r"[\x00-\x20]", "", value)  # browsers ignore tabs and newlines in schemes
                    assert not BAD_SCHEME.match(cleaned), f"{rel}: <{el.tag} {attribute}={value!r}>"
        for meta in doc.iter("meta"):
            assert meta.get("http-equiv", "").lower() != "refresh", rel


def test_math_from_hostile_tex_is_clean_mathml(xss_site: tuple[Path, BuildResult]) -> None:
    output, _ = xss_site
    doc = parse_html((output / "papers" / SLUG / "index.html").read_text())
    maths = list(doc.iter(f"{MATHML}math"))
    assert maths, "the abstract's $x < y$ is rendered as MathML"
    for math in maths:
        for el in math.iter():
            assert not any(name in el.attrib for name in ("href", "xlink:href", "src")), ET.tostring(el)


def test_links_of_the_hostile_site_still_work(xss_site: tuple[Path, BuildResult]) -> None:
    output, _ = xss_site
    broken = crawl_links(output, "/reading-list/", site_url="https://example.github.io/reading-list/")
    # the note's [y](jav&#x09;ascript:…) is kept as a harmless relative link to nowhere: the author's own doing
    broken = [b for b in broken if b.url != "jav%09ascript:alert(1)"]
    assert not broken, describe_broken(broken)


def test_feeds_and_citations_of_the_hostile_entry_stay_well_formed(xss_site: tuple[Path, BuildResult]) -> None:
    output, _ = xss_site
    for feed in [output / "feed.xml", *output.glob("tags/*/feed.xml"), *output.glob("authors/*/feed.xml")]:
        parsed = feedparser.parse(feed.read_bytes())
        assert parsed.bozo == 0, f"{feed}: {parsed.get('bozo_exception')}"
        ET.fromstring(feed.read_bytes())
    feed = feedparser.parse((output / "feed.xml").read_bytes())
    hostile = next(e for e in feed.entries if e.link.endswith(f"/{SLUG}/"))
    assert hostile.title == " ".join(TITLE.split())
    for bib in [output / "reading-list.bib", *output.glob("tags/*/papers.bib"), *output.glob("authors/*/papers.bib")]:
        library = bibtexparser.parse_string(bib.read_text())
        assert library.failed_blocks == [], bib
    assert json.loads((output / "papers.json").read_text())[0]["title"] == TITLE


@pytest.fixture(scope="module")
def served_xss(xss_site: tuple[Path, BuildResult]) -> Iterator[SiteURL]:
    with serve_directory(xss_site[0], "/reading-list/") as base_url:
        yield base_url


ROUTES = ("", f"papers/{SLUG}/", f"authors/{slugify(SCRIPT)}/", f"authors/{slugify(IMG)}/",
          f"tags/{slugify(SCRIPT)}/", f"tags/{slugify(LINK)}/", "timeline/2026/", "recent/", "authors/", "tags/")


def test_no_dialog_fires_in_the_browser(page: RecordedPage, served_xss: SiteURL) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(f"{page.url}: {dialog.message}"), dialog.dismiss()))
    for route in ROUTES:
        page.goto(served_xss.url(route), wait_until="load")
        page.mouse.move(200, 300)
        injected = page.evaluate("() => document.querySelectorAll('img, iframe, object, embed, [onerror]').length")
        assert injected == 0, route
        page.evaluate("() => document.querySelector('a.skip-link').focus()")
    page.wait_for_timeout(200)  # an onerror or a timer would have fired by now
    assert dialogs == []
    # Chromium fetches the icon after 'load'; the next navigation may cancel that fetch, which is not a failure
    page.assert_clean(ignore=[r"favicon\.svg\?v=\w+: net::ERR_ABORTED$"])
