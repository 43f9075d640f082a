"""Offline link checker for a built static site.

    broken = crawl_links(public_dir, base_path="/reading-list/")
    assert not broken, describe_broken(broken)

Every ``*.html`` file under the directory is parsed (html.parser from the standard library; attribute values are
entity-decoded as a browser would). Each page is taken to live at ``base_path + <its path in the directory>``
(``papers/x/index.html`` -> ``/reading-list/papers/x/``), honouring ``<base href>``. Checked URL-bearing attributes:

    a/area[href], link[href], script[src], img[src, srcset], source[src, srcset], form[action], iframe[src],
    embed[src], object[data], video[src, poster], audio[src], track[src], input[src], use/image[href, xlink:href],
    meta[http-equiv=refresh] url

A URL is internal when it resolves to the site's own origin (relative, root-relative, or absolute on ``site_url``,
the production address, when given). Internal URLs must map to a file the way ``serve_directory`` maps them
(``dir/`` and ``dir`` -> ``dir/index.html``) and stay under ``base_path``; a ``#fragment`` pointing into an HTML
page must name an ``id`` (or ``<a name>``) in that page (``#``, ``#top`` and text fragments ``#:~:`` are always
fine). Links to other hosts and non-HTTP schemes (mailto:, tel:, data:, javascript:, ...) are ignored. Because a
host serves ``404.html`` for missing URLs at any depth, page-relative URLs in the root ``404.html`` (without a
``<base href>``) are reported too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from typing import Literal
from urllib.parse import SplitResult, quote, unquote, urljoin, urlsplit

from .server import normalize_base_path

__all__ = ["BrokenLink", "crawl_links", "describe_broken", "parse_page"]

BrokenKind = Literal["missing", "anchor", "relative-in-404"]

# tag -> attributes holding one URL
_URL_ATTRS: dict[str, tuple[str, ...]] = {
    "a": ("href",),
    "area": ("href",),
    "link": ("href",),
    "script": ("src",),
    "img": ("src",),
    "source": ("src",),
    "form": ("action",),
    "iframe": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "video": ("src", "poster"),
    "audio": ("src",),
    "track": ("src",),
    "input": ("src",),
    "use": ("href", "xlink:href"),
    "image": ("href", "xlink:href"),
}
# tag -> attributes holding a srcset (comma-separated "url descriptor" candidates)
_SRCSET_ATTRS: dict[str, tuple[str, ...]] = {"img": ("srcset",), "source": ("srcset",)}
_REFRESH_URL = re.compile(r"^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(?P<url>.*?)\s*$", re.IGNORECASE | re.DOTALL)
_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_HTML_SUFFIXES = {".html", ".htm"}
_ORIGIN = "http://site.invalid"


@dataclass(frozen=True)
class BrokenLink:
    page: str  # the page holding the link, relative to the site directory ("papers/x/index.html")
    line: int
    tag: str
    attribute: str
    url: str  # the attribute value as written
    target: str  # the resolved URL path (with #fragment when that is what is broken)
    kind: BrokenKind
    reason: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: <{self.tag} {self.attribute}={self.url!r}> -> {self.target}: {self.reason}"


@dataclass(frozen=True)
class _Link:
    line: int
    tag: str
    attribute: str
    url: str


@dataclass
class ParsedPage:
    links: list[_Link] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    base_href: str | None = None


class _PageParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = ParsedPage()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        values = {name: value for name, value in attrs if value is not None}
        if "id" in values:
            self.page.ids.add(values["id"])
        if tag == "a" and "name" in values:
            self.page.ids.add(values["name"])
        if tag == "base" and "href" in values and self.page.base_href is None:
            self.page.base_href = values["href"]
        for attribute in _URL_ATTRS.get(tag, ()):
            if attribute in values:
                self.page.links.append(_Link(line, tag, attribute, values[attribute]))
        for attribute in _SRCSET_ATTRS.get(tag, ()):
            for candidate in values.get(attribute, "").split(","):
                words = candidate.split()
                if words:
                    self.page.links.append(_Link(line, tag, attribute, words[0]))
        if tag == "meta" and values.get("http-equiv", "").lower() == "refresh" and "content" in values:
            match = _REFRESH_URL.match(values["content"])
            url = match.group("url").strip("'\"") if match else ""
            if url:
                self.page.links.append(_Link(line, tag, "content", url))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)


def parse_page(html: str) -> ParsedPage:
    """The URL-bearing attributes, ids and ``<base href>`` of one HTML document."""
    parser = _PageParser()
    parser.feed(html)
    parser.close()
    return parser.page


def _target_file(root: Path, rel: str) -> Path | None:
    """The file a static host serves for the site-relative path ``rel``, or None when there is none."""
    parts = [segment for segment in rel.split("/") if segment]
    if any(segment in {".", ".."} for segment in parts):
        return None
    target = root.joinpath(*parts)
    if target.is_dir():
        target = target / "index.html"
    elif rel.endswith("/"):
        return None
    return target if target.is_file() else None


@dataclass(frozen=True)
class _Context:
    root: Path
    base: str
    production: SplitResult | None
    production_path: str
    ids_of: Callable[[Path], set[str]]


def _check_link(
    context: _Context, document_base: str, written: str, is_root_404: bool
) -> list[tuple[BrokenKind, str, str]]:
    """The problems (kind, target, reason) of one URL as written in a page whose base URL is ``document_base``."""
    absolute = urljoin(document_base, written)
    parts = urlsplit(absolute)
    if parts.scheme not in {"http", "https"}:
        return []
    production = context.production
    if f"{parts.scheme}://{parts.netloc}" == _ORIGIN:
        path = parts.path
    elif (
        production is not None
        and (parts.scheme, parts.netloc) == (production.scheme, production.netloc)
        and (parts.path + "/").startswith(context.production_path)
    ):
        path = context.base + parts.path[len(context.production_path) :]
    else:
        return []  # another host
    problems: list[tuple[BrokenKind, str, str]] = []
    if is_root_404 and written and not written.startswith(("/", "#")) and not _SCHEME.match(written):
        problems.append(("relative-in-404", path, "404.html is served at any depth; use a root-relative URL"))
    decoded = unquote(path)
    if decoded + "/" == context.base:
        decoded = context.base
    if not decoded.startswith(context.base):
        return [*problems, ("missing", decoded, f"outside the site's base path {context.base}")]
    target = _target_file(context.root, decoded[len(context.base) :])
    if target is None:
        return [*problems, ("missing", decoded, "no such file")]
    fragment = unquote(parts.fragment)
    if (
        fragment
        and fragment.lower() != "top"
        and not fragment.startswith(":~:")
        and target.suffix.lower() in _HTML_SUFFIXES
        and fragment not in context.ids_of(target)
    ):
        where = target.relative_to(context.root).as_posix()
        problems.append(("anchor", f"{decoded}#{fragment}", f"no element with id {fragment!r} in {where}"))
    return problems


def crawl_links(directory: str | Path, base_path: str = "/", *, site_url: str | None = None) -> list[BrokenLink]:
    """Check every internal link of every HTML page under ``directory``; return the broken ones (empty when fine).

    ``base_path`` is the URL prefix the site is served under ("/" or "/reading-list/"); ``site_url`` optionally
    names the production address (``https://example.org/reading-list/``) so absolute links to it are checked too.
    """
    root = Path(directory).resolve()
    if not root.is_dir():
        raise NotADirectoryError(f"crawl_links: {root} is not a directory")
    base = normalize_base_path(base_path)
    production = urlsplit(site_url) if site_url else None
    production_path = normalize_base_path(production.path) if production else "/"

    pages: dict[Path, ParsedPage] = {}
    for file in sorted(p for p in root.rglob("*") if p.suffix.lower() in _HTML_SUFFIXES and p.is_file()):
        pages[file] = parse_page(file.read_text(encoding="utf-8", errors="replace"))

    def ids_of(file: Path) -> set[str]:
        if file not in pages:
            pages[file] = parse_page(file.read_text(encoding="utf-8", errors="replace"))
        return pages[file].ids

    context = _Context(root, base, production, production_path, ids_of)
    broken: list[BrokenLink] = []
    for file, parsed in list(pages.items()):
        rel_page = file.relative_to(root).as_posix()
        # x/index.html is linked to as x/; both resolve relative URLs alike, and x/ reads better in reports
        pretty = rel_page.removesuffix("index.html") if PurePosixPath(rel_page).name == "index.html" else rel_page
        page_url = _ORIGIN + base + quote(pretty)
        document_base = urljoin(page_url, parsed.base_href.strip()) if parsed.base_href else page_url
        is_root_404 = rel_page == "404.html" and parsed.base_href is None
        for link in parsed.links:
            for kind, target, reason in _check_link(context, document_base, link.url.strip(), is_root_404):
                broken.append(BrokenLink(rel_page, link.line, link.tag, link.attribute, link.url, target, kind, reason))
    broken.sort(key=lambda b: (b.page, b.line, b.url))
    return broken


def describe_broken(broken: Iterable[BrokenLink]) -> str:
    """One line per broken link, for assertion messages."""
    lines = [str(item) for item in broken]
    return f"{len(lines)} broken link(s):\n" + "\n".join(lines)
