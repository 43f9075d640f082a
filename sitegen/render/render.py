"""Render pages: one Jinja environment (autoescape, StrictUndefined, theme fallback).

Templates receive plain model objects and pre-rendered list items, never the loader.
A paper's list item is rendered once per link depth and reused on every listing.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus, urlencode

import jinja2
from markupsafe import Markup

from ..common.errors import Location, SitegenError, relpath
from ..content import dates
from ..content.cache import CACHE_DIR
from ..content.config import SiteConfig
from ..model.routes import SOCIAL_CARD, PageSpec
from ..model.site import Paper, Site
from . import feeds, network, pages, paper_links, template_errors, words
from .buffered import Environment
from .outputs import card, citations, data
from .template_cache import TemplateCache
from .template_errors import ThemeLoader
from .theme import theme_dirs

# Exceptions a template's own code raises (a missing key, a bad call, a division by zero, a loop
# without end): rendering reports them as the theme's mistake, at the template's line.
TEMPLATE_FAULTS = (jinja2.TemplateError, RecursionError, ArithmeticError, LookupError, TypeError, AttributeError,
                   ValueError)


def make_environment(root: Path, config: SiteConfig, watch_templates: bool = False,
                     keep_compiled: bool = True) -> jinja2.Environment:
    """Jinja environment over the theme chain; a missing variable is an error, not blank.

    Only a long-lived environment (the preview's) needs `watch_templates`: with it Jinja
    stats the template file at each `extends` and `include`, 200,000 times in a build
    of 10,000 papers. `keep_compiled` saves compiled templates in the cache for the next process.
    """
    dirs = theme_dirs(root, config.theme)
    named = root / "themes" / config.theme
    if not any((d / "templates").is_dir() for d in dirs) or (config.theme != "default" and not named.is_dir()):
        raise SitegenError.single(Location("site.yaml", _setting_line(root, "theme")), "E402",
                                  f"theme '{config.theme}' not found",
                                  f"themes live in themes/<name>/templates/; there is no {relpath(named, root)}/")
    env = Environment(
        loader=ThemeLoader([d / "templates" for d in dirs], root),
        autoescape=jinja2.select_autoescape(["html", "xml", "opml"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=watch_templates,
        bytecode_cache=TemplateCache(root / CACHE_DIR / "templates") if keep_compiled else None,
    )
    env.filters["isodate"] = lambda d: d.isoformat() if d else ""
    env.filters["human_date"] = lambda d: f"{d:%b} {d.day}, {d.year}" if d else ""
    # a paper's publication date as far as it is known: {{ e|published_iso }} is 2025-03 for `date: 2025-03`
    env.filters["published_iso"] = lambda e: dates.iso(e.date, e.date_precision)
    env.filters["published"] = lambda e: dates.human(e.date, e.date_precision)
    env.filters["counted"] = words.counted  # {{ n|counted("paper") }}: "1 paper", "2 papers"
    return env


def compile_templates(env: jinja2.Environment) -> jinja2.Environment:
    """Compile every page template of the theme chain now, into the environment's cache.

    Done before the render workers fork, they share the compiled templates rather than each
    compiling them (0.1 s apiece). A template that fails to compile is left for the first
    page that uses it, whose error names the template's file and line.
    """
    for name in env.list_templates(extensions=("html", "xml")):
        with contextlib.suppress(jinja2.TemplateError, ValueError, OSError, SitegenError):
            env.get_template(name)
    return env


def _setting_line(root: Path, key: str) -> int:
    """The line of a top-level setting in site.yaml, for messages (1 when it cannot be found)."""
    try:
        lines = (root / "site.yaml").read_text(encoding="utf-8-sig").splitlines()
    except OSError:
        return 1
    return next((i for i, line in enumerate(lines, 1) if line.startswith(f"{key}:")), 1)


def json_for_script(value: Any) -> Markup:
    """JSON safe inside <script>: '<', '>' and '&' escaped so no '</script>' can appear."""
    text = data.encode_json(value).decode("utf-8")
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


_COINS_HEAD = urlencode([("ctx_ver", "Z39.88-2004"), ("rft_val_fmt", "info:ofi/fmt:kev:mtx:journal"),
                         ("rft.genre", "preprint")])
# An author's name as a COinS value, quoted once: the same names recur on paper after paper, and
# quote_plus took a tenth of rendering a paper page.
_coins_name = lru_cache(maxsize=65536)(quote_plus)


class Items(list[Markup]):
    """A page's list items: a template may loop over them, or write `{{ items }}` for all of them.

    The second is one join; a loop escapes, and so copies, each item.
    """

    def __html__(self) -> str:
        return "".join(self)


def relative_root(output: str) -> str:
    """'../../' for 'papers/x/index.html': the way from a page back to the site root."""
    return "../" * output.count("/")


class Renderer:
    """Renders any PageSpec of one Site to bytes."""

    def __init__(self, site: Site, env: jinja2.Environment, root: Path, assets: dict[str, str]):
        self.site = site
        self.env = env
        self.root = root
        self.assets = assets  # static path -> short content hash, for cache-busting URLs
        self._items: dict[tuple[str, str, int], Markup] = {}
        # Looked up once per renderer: the environment's own lookup stats the template file on
        # every call (auto-reload), and list items and feed entries are rendered 200,000 times at
        # 10,000 papers.
        self._templates: dict[str, jinja2.Template] = {}
        self.bib_entries: dict[str, str] = {}  # slug -> BibTeX entry, shared by every .bib file of a build
        self._ris: dict[str, str] = {}
        self._csl: dict[str, str] = {}  # slug -> CSL-JSON line of reading-list.json
        self._records: dict[str, str] = {}  # slug -> papers.json line
        self.lastmods: dict[str, str] = {}  # slug -> its page's lastmod in the sitemap
        self.digests: dict[str, str] = {}  # output -> digest of its bytes, where worked out while rendering
        self._kinds: dict[str, Callable[[PageSpec], bytes | bytearray]] = {
            "cite-bib": lambda s: citations.bibtex([self.site.papers[s.key]], self.site.config,
                                                   self.bib_entries).encode(),
            "cite-ris": lambda s: citations.ris([self.site.papers[s.key]], self.site.config, self._ris).encode(),
            "cite-json": lambda s: citations.csl_json([self.site.papers[s.key]], self.site.config).encode(),
            "reading-list-bib": lambda s: self._joined("bib", citations.bib_entry, b"", b"\n", b"", b""),
            "reading-list-ris": lambda s: self._joined("ris", citations.ris_entry, b"", b"", b"", b""),
            "reading-list-json": lambda s: self._joined("csl", citations.csl_line, b"[\n", b",\n", b"\n]\n",
                                                        b"[]\n"),
            "papers-json": lambda s: self._joined("records", data.paper_line, b"[\n", b",\n", b"\n]\n", b"[]\n"),
            "network-json": lambda s: network.graph_json(self.site),
            "robots": lambda s: f"User-agent: *\nAllow: /\n\nSitemap: {self.site.config.absolute('sitemap.xml')}\n"
            .encode(),
            "social-card": lambda s: card.social_card(self.site.config),
            "nojekyll": lambda s: b"",
            "cname": lambda s: f"{self.site.config.domain}\n".encode(),
        }

    def _joined(self, store: str, piece: Callable[[Paper, Any], str], prefix: bytes, separator: bytes,
                suffix: bytes, empty: bytes) -> bytearray:
        """A whole-list file: every paper's piece in the site's order, joined as bytes.

        The pieces are copied into one growing buffer as they are encoded, not gathered and then
        joined: at 10,000 papers each file is 22 MB, and holding its pieces and the joined copy
        at once set the peak memory of a build. The buffer itself is returned.
        """
        text = {"bib": self.bib_entries, "ris": self._ris, "csl": self._csl, "records": self._records}[store]
        papers, config = self.site.papers, self.site.config
        if not self.site.order:
            return bytearray(empty)
        data = bytearray(prefix)
        for n, slug in enumerate(self.site.order):
            line = text.get(slug)
            if line is None:
                line = text[slug] = piece(papers[slug], config)
            if n:
                data += separator
            data += line.encode("utf-8")
        data += suffix
        return data

    def render(self, spec: PageSpec) -> bytes | bytearray:
        """The bytes of one output file; template errors name the template file and line."""
        return self._render(spec)

    def _render(self, spec: PageSpec) -> bytes | bytearray:
        direct = self._kinds.get(spec.kind)
        if direct:
            return direct(spec)
        try:
            context = self.context(spec)
            return self._template(spec.template).render(context).encode("utf-8")
        except SitegenError:
            raise
        except Exception as exc:
            if not isinstance(exc, TEMPLATE_FAULTS) and template_errors.innermost_frame(exc)[0] is None:
                raise  # not raised by a template: sitegen's own fault, which a traceback shows best
            diagnostic = template_errors.diagnostic(exc, self.env, self.root, spec.template, spec.output)
            raise SitegenError([diagnostic]) from None

    def _template(self, name: str) -> jinja2.Template:
        template = self._templates.get(name)
        if template is None:
            template = self._templates[name] = self.env.get_template(name)
        return template

    def context(self, spec: PageSpec) -> dict[str, Any]:
        """Everything one page's template sees."""
        root = self.site.config.base_path if spec.kind == "404" else relative_root(spec.output)
        common = {
            "site": self.site.config,
            "root": root,
            "asset": lambda path: f"{root}static/{path}?v={self.assets.get(path, '0')}",
            "page_url": self.site.config.absolute(spec.url),
            "social_card": self.site.config.absolute(SOCIAL_CARD),  # og:image, an absolute address as it must be
            "kind": spec.kind,
            "nav": pages.nav(self.site),
            "section": pages.SECTIONS.get(spec.kind),
        }
        if spec.kind.endswith("feed"):
            feed = feeds.feed_context(self.site, spec, self.newest_date)
            full = feed["feed"]["full_text"]
            return common | {"feed": feed["feed"], "entries": [self.feed_entry(s, full) for s in feed.pop("slugs")]}
        return common | pages.page_context(self, spec, root)

    def item(self, slug: str, root: str, level: int = 3) -> Markup:
        """A paper's list item at a link depth and heading level, rendered once and reused."""
        key = (slug, root, level)
        if key not in self._items:
            html = self._template("partials/item.html").render(paper=self.site.papers[slug], root=root, level=level)
            self._items[key] = Markup(html)
        return self._items[key]

    def feed_entry(self, slug: str, full_text: bool) -> Markup:
        """A paper's Atom entry (absolute links only), rendered once and reused on every feed."""
        key = (slug, "feed", int(full_text))
        if key not in self._items:
            paper = self.site.papers[slug]
            html = self._template("partials/feed-entry.xml").render(feeds.entry_context(paper, self.site.config,
                                                                                       full_text))
            self._items[key] = Markup(html)
        return self._items[key]

    def newest_date(self, slug: str) -> dt.date:
        """The newest of a paper's dates, which its feeds' `updated` is the newest of."""
        return feeds.newest_date(self.site.papers[slug])

    def items(self, slugs: tuple[str, ...] | list[str], root: str, level: int = 3) -> Items:
        return Items([self.item(s, root, level) for s in slugs])

    def coins(self, paper: Paper) -> str:
        """OpenURL ContextObject (COinS) so Zotero's connector finds the paper in the page body.

        `urlencode` with the keys written out already quoted: it checks and quotes each key
        and value through several layers, which was 5% of rendering a paper page.
        """
        e = paper.entry
        fields = [_COINS_HEAD, "&rft.atitle=", quote_plus(e.title)]
        for a in e.authors:
            fields += ("&rft.au=", _coins_name(a))
        if e.date:
            fields += ("&rft.date=", dates.iso(e.date, e.date_precision))
        if e.arxiv:
            fields += ("&rft_id=", quote_plus(f"info:arxiv/{e.arxiv}"))
        doi = paper_links.cited_doi(e)
        if doi:
            fields += ("&rft_id=", quote_plus(f"info:doi/{doi}"))
        return "".join(fields)

    def json_ld(self, paper: Paper) -> Markup:
        """schema.org ScholarlyArticle for search engines."""
        from ..content.mathtext import plain_text  # search engines read text: no TeX

        e = paper.entry
        title = plain_text(e.title)
        data_: dict[str, Any] = {"@context": "https://schema.org", "@type": "ScholarlyArticle",
                                 "headline": title[:110], "name": title,
                                 "url": self.site.config.absolute(paper.route)}
        if e.authors:
            data_["author"] = [{"@type": "Person", "name": a} for a in e.authors]
        if e.date:
            data_["datePublished"] = dates.iso(e.date, e.date_precision)
        if e.abstract:
            data_["abstract"] = plain_text(e.abstract)
        if e.tags:
            data_["keywords"] = list(e.tags)
        data_.update(paper_links.schema_org(e))  # identifier and sameAs: the arXiv id and the DOI
        return json_for_script(data_)


def asset_hashes(static_files: dict[str, Path]) -> dict[str, str]:
    """Short content hashes of static files, appended to their URLs to bust caches."""
    return {name: hashlib.sha256(path.read_bytes()).hexdigest()[:10] for name, path in static_files.items()}


__all__ = ["Items", "Renderer", "asset_hashes", "make_environment", "relative_root"]

