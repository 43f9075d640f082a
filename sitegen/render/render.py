"""Render pages: one Jinja environment (autoescape, StrictUndefined, theme fallback).

Templates receive plain model objects and pre-rendered list items, never the loader.
A paper's list item is rendered once per link depth and reused on every listing.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus, urlencode

import jinja2
from markupsafe import Markup

from ..common.errors import Location, SitegenError, relpath
from ..content.cache import CACHE_DIR
from ..content.config import SiteConfig
from ..model.model import Paper, Site
from ..model.routes import SOCIAL_CARD, PageSpec
from . import feeds, fragments, pages, paper_links, template_errors, words
from .buffered import Environment
from .outputs import card, citations, data
from .template_cache import TemplateCache
from .template_errors import ThemeLoader
from .theme import theme_dirs

Rendered = bytes | bytearray | fragments.Spliced  # an output file's bytes, or a whole-list file to splice
# Exceptions a template's own code raises (a missing key, a bad call, a division by zero, a loop
# without end): rendering reports them as the theme's mistake, at the template's line.
TEMPLATE_FAULTS = (jinja2.TemplateError, RecursionError, ArithmeticError, LookupError, TypeError, AttributeError,
                   ValueError)


def make_environment(root: Path, config: SiteConfig, watch_templates: bool = False) -> jinja2.Environment:
    """Jinja environment over the theme chain; a missing variable is an error, not blank.

    Only a long-lived environment (the preview's) needs `watch_templates`: with it Jinja
    stats the template file at each `extends` and `include`, 200,000 times in a build
    of 10,000 papers.
    """
    dirs = theme_dirs(root, config.theme)
    named = root / "themes" / config.theme
    if not any((d / "templates").is_dir() for d in dirs) or (config.theme != "default" and not named.is_dir()):
        raise SitegenError.single(Location("site.yaml", _setting_line(root, "theme")), "E402",
                                  f"theme '{config.theme}' not found",
                                  f"themes live in themes/<name>/templates/; there is no {relpath(named, root)}/")
    env = Environment(
        loader=ThemeLoader([d / "templates" for d in dirs], root),
        autoescape=jinja2.select_autoescape(["html", "xml"], default_for_string=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=watch_templates,
        bytecode_cache=TemplateCache(root / CACHE_DIR / "templates"),
    )
    env.filters["isodate"] = lambda d: d.isoformat() if d else ""
    env.filters["human_date"] = lambda d: f"{d:%b} {d.day}, {d.year}" if d else ""
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

    def __init__(self, site: Site, env: jinja2.Environment, root: Path, assets: dict[str, str],
                 stores: fragments.FragmentStores | None = None):
        self.site = site
        self.stores = stores  # on-disk fragments of the whole-list files (sitegen build only)
        self.env = env
        self.root = root
        self.assets = assets  # static path -> short content hash, for cache-busting URLs
        self._items: dict[tuple[str, str, int], Markup] = {}
        # Looked up once per renderer: the environment's own lookup stats the template file on
        # every call (auto-reload), and list items and feed entries are rendered 200,000 times at
        # 10,000 papers. A preview update gets a new renderer, so an edited template is still seen.
        self._templates: dict[str, jinja2.Template] = {}
        self._bib: dict[str, str] = {}  # slug -> BibTeX entry, shared by every .bib file of a build
        self._ris: dict[str, str] = {}
        self._csl: dict[str, str] = {}  # slug -> CSL-JSON line of reading-list.json
        self._records: dict[str, str] = {}  # slug -> papers.json line
        self._lastmod: dict[str, str] = {}  # slug -> its page's lastmod in the sitemap; made anew by each renderer
        # Pieces of the whole-list files as UTF-8: those loaded from a fragment store, and in a
        # long-lived renderer (the preview, an incremental build) every piece: joining bytes is a
        # copy, where joining and encoding 90 MB of text at 10,000 papers took half a second.
        self.keep_encoded = False
        self._encoded: dict[str, dict[str, bytes]] = {"bib": {}, "ris": {}, "csl": {}, "records": {}}
        self.digests: dict[str, str] = {}  # whole-list output -> digest of its bytes as last joined, to hash 90 MB once
        # The last build's whole-list files, by store, where a store's pieces came from (see FilePieces)
        self._from_file: dict[str, fragments.FilePieces] = {}
        self._kinds: dict[str, Callable[[PageSpec], Rendered]] = {
            "cite-bib": lambda s: citations.bibtex([self.site.papers[s.key]], self.site.config, self._bib).encode(),
            "cite-ris": lambda s: citations.ris([self.site.papers[s.key]], self.site.config, self._ris).encode(),
            "cite-json": lambda s: citations.csl_json([self.site.papers[s.key]], self.site.config).encode(),
            "author-bib": lambda s: self._bibliography(self.site.author_index[s.key].papers),
            "tag-bib": lambda s: self._bibliography(self.site.tag_index[s.key].papers),
            "author-ris": lambda s: self._ris_file(self.site.author_index[s.key].papers),
            "tag-ris": lambda s: self._ris_file(self.site.tag_index[s.key].papers),
            "author-json": lambda s: self._csl_file(self.site.author_index[s.key].papers),
            "tag-json": lambda s: self._csl_file(self.site.tag_index[s.key].papers),
            "reading-list-bib": lambda s: self._joined("bib", citations.bib_entry, b"", b"\n", b"", b""),
            "reading-list-ris": lambda s: self._joined("ris", citations.ris_entry, b"", b"", b"", b""),
            "reading-list-json": lambda s: self._joined("csl", citations.csl_line, b"[\n", b",\n", b"\n]\n",
                                                        b"[]\n"),
            "papers-json": lambda s: self._joined("records", data.paper_line, b"[\n", b",\n", b"\n]\n", b"[]\n"),
            "robots": lambda s: f"User-agent: *\nAllow: /\n\nSitemap: {self.site.config.absolute('sitemap.xml')}\n"
            .encode(),
            "social-card": lambda s: card.social_card(self.site.config),
            "nojekyll": lambda s: b"",
            "cname": lambda s: f"{self.site.config.domain}\n".encode(),
        }

    def caches(self) -> dict[str, dict[Any, Any]]:
        """The per-paper caches by name, for a later renderer of the same site structure to adopt."""
        return {"bib": self._bib, "ris": self._ris, "csl": self._csl, "records": self._records, "items": self._items,
                **{f"{name}-bytes": cache for name, cache in self._encoded.items()}}

    def adopt(self, caches: dict[str, dict[Any, Any]], stale: set[str]) -> None:
        """Take over another renderer's per-paper caches (the same dictionaries), minus the papers in `stale`."""
        for name, cache in caches.items():
            if name == "items":  # list items are keyed (slug, root, level), the rest by slug
                for key in [k for k in cache if k[0] in stale]:
                    del cache[key]
            else:
                for slug in stale:
                    cache.pop(slug, None)
        self._bib, self._ris, self._csl, self._records, self._items = (
            caches["bib"], caches["ris"], caches["csl"], caches["records"], caches["items"])
        self._encoded = {name: caches[f"{name}-bytes"] for name in self._encoded}

    def _joined(self, store: str, piece: Callable[[Paper, Any], str], prefix: bytes, separator: bytes,
                suffix: bytes, empty: bytes) -> bytearray | fragments.Spliced:
        """A whole-list file: every paper's cached piece in the site's order, joined as bytes.

        The pieces are copied into one growing buffer as they are encoded, not gathered and then
        joined: at 10,000 papers each file is 22 MB, and holding its pieces and the joined copy
        at once set the peak memory of a build. The buffer itself is returned.
        With the last build's file (see fragments.FilePieces), the runs of unchanged pieces in
        it are listed with the few new pieces, and the file is written from it by the kernel
        (fragments.Spliced), or, where the pieces are to be saved, read into a buffer of the file's size.
        With fragment stores, the pieces are saved for the next process, as views of the
        buffer, then freed unless this renderer lives on: no other file of a build joins them again;
        and the file is remembered by its pieces' digests (see fragments.identity), those of the
        last build's pieces taken from its layout, so its 22 MB are never read back to be hashed.
        """
        text: dict[str, str] = self.caches()[store]
        encoded = self._encoded[store]  # pieces loaded from a store, and in a long-lived renderer every piece
        papers, config, keep = self.site.papers, self.site.config, self.keep_encoded

        def new_piece(slug: str) -> bytes:
            data_ = encoded.get(slug)
            if data_ is None:
                line = text.get(slug)
                if line is None:
                    line = text[slug] = piece(papers[slug], config)
                data_ = line.encode("utf-8")
                if keep:
                    encoded[slug] = data_
            return data_

        previous = self._from_file.get(store)
        if previous is not None and previous.gap != len(separator):
            previous = None
        lengths: list[int] = []
        sums = bytearray()  # each piece's digest, back to back, with fragment stores
        frame = (prefix, separator, suffix)
        if previous is None:
            data = bytearray(prefix)
            digest_of = fragments.piece_digest if self.stores is not None else None
            for slug in self.site.order:
                data_ = new_piece(slug)
                if lengths:
                    data += separator
                data += data_
                lengths.append(len(data_))
                if digest_of is not None:
                    sums += digest_of(data_)
            if not lengths:
                return bytearray(empty)
            data += suffix
        else:
            parts = _parts(self.site.order, previous, encoded, new_piece, lengths, sums)
            if not lengths:
                return bytearray(empty)
            if self.stores is not None and not self.stores.worth_saving(store, len(lengths)):
                spliced = _spliced(parts, previous, prefix, separator, suffix)
                digest = self.digests[fragments.OUTPUT_OF[store]] = fragments.identity(frame, sums)
                self.stores.save_layout(store, self.site.order, lengths, sums, frame, len(spliced), digest)
                self._release(store)
                return spliced
            data = _filled(parts, previous, prefix, separator, suffix)
        if self.stores is not None:
            if self.stores.worth_saving(store, len(lengths)):
                with memoryview(data) as view:
                    views = fragments.pieces(view, len(prefix), len(separator), lengths)
                    self.stores.save(store, zip(self.site.order, views, strict=True), papers)
            digest = self.digests[fragments.OUTPUT_OF[store]] = fragments.identity(frame, sums)
            self._release(store)
            self.stores.save_layout(store, self.site.order, lengths, sums, frame, len(data), digest)
        return data

    def _release(self, store: str) -> None:
        """Free a joined store's pieces unless this renderer lives on: what the build renders next may need them."""
        if not self.keep_encoded:
            self._encoded[store].clear()
            if store in fragments.WHOLE_LIST_ONLY:
                self.caches()[store].clear()

    def forget_previous(self) -> None:
        """Close the last build's whole-list files that pieces were read from (see fragments.FilePieces)."""
        for pieces in self._from_file.values():
            pieces.close()
        self._from_file.clear()

    def _bibliography(self, slugs: tuple[str, ...]) -> bytes:
        """A .bib file of these papers; their entries in the last build's reading list are taken as they are."""
        previous = self._from_file.get("bib")
        if previous is not None:
            for slug in slugs:
                if slug not in self._bib and (piece := previous.get(slug)) is not None:
                    self._bib[slug] = str(piece, "utf-8")
        return citations.bibtex_of(slugs, self.site.papers, self.site.config, self._bib).encode()

    def _ris_file(self, slugs: tuple[str, ...]) -> bytes:
        """An .ris file of these papers, each record made once per renderer (and shared with reading-list.ris)."""
        return citations.ris_of(slugs, self.site.papers, self.site.config, self._ris).encode()

    def _csl_file(self, slugs: tuple[str, ...]) -> bytes:
        """A CSL-JSON file of these papers, each line made once per renderer (and shared with reading-list.json)."""
        return citations.csl_json_of(slugs, self.site.papers, self.site.config, self._csl).encode()

    def render(self, spec: PageSpec) -> bytes | bytearray:
        """The bytes of one output file; template errors name the template file and line."""
        data = self.render_file(spec)
        return data if isinstance(data, bytes | bytearray) else bytes(data)

    def render_file(self, spec: PageSpec) -> Rendered:
        """As `render`, but a whole-list file joined from the last build's comes as a fragments.Spliced."""
        store = fragments.MANY.get(spec.kind) if self.stores is not None else None
        if store is None:
            return self._render(spec)
        assert self.stores is not None
        if not self.stores.tried(store):  # what this process has not rendered yet may be on disk
            saved = self.stores.load(store, self.site.papers)
            if isinstance(saved, fragments.FilePieces):  # joined in runs, read as text where needed
                self._from_file[store] = saved
                return self._render(spec)
            if spec.kind in fragments.WHOLE_LIST or self.keep_encoded:  # else freed only with the renderer
                encoded = self._encoded[store]
                for slug, data in saved.items():
                    encoded.setdefault(slug, data)
            if store in fragments.READ_AS_TEXT:
                cache = self.caches()[store]
                for slug, data in saved.items():
                    cache.setdefault(slug, str(data, "utf-8"))
        return self._render(spec)

    def _render(self, spec: PageSpec) -> Rendered:
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
            feed = feeds.feed_context(self.site, spec)
            full = feed["feed"]["full_text"]
            return common | {"feed": feed["feed"], "entries": [self.feed_entry(p, full) for p in feed.pop("papers")]}
        return common | pages.page_context(self, spec, root)

    def item(self, slug: str, root: str, level: int = 3) -> Markup:
        """A paper's list item at a link depth and heading level, rendered once and reused."""
        key = (slug, root, level)
        if key not in self._items:
            html = self._stored_item(key)
            if html is None:
                html = self._template("partials/item.html").render(paper=self.site.papers[slug], root=root,
                                                                    level=level)
            self._items[key] = Markup(html)
        return self._items[key]

    def feed_entry(self, paper: Paper, full_text: bool) -> Markup:
        """A paper's Atom entry (absolute links only), rendered once and reused on every feed."""
        key = (paper.slug, "feed", int(full_text))
        if key not in self._items:
            html = self._stored_item(key)
            if html is None:
                html = self._template("partials/feed-entry.xml").render(feeds.entry_context(paper, self.site.config,
                                                                                           full_text))
            self._items[key] = Markup(html)
        return self._items[key]

    def _stored_item(self, key: tuple[str, str, int]) -> str | None:
        """The item as the last full build rendered it, when this renderer updates that build's output in place."""
        stores = self.stores
        if stores is None or stores.previous is None:
            return None
        return stores.items().get(key, self.site.papers)

    def save_items(self, index: int) -> None:
        """Save the list items and feed entries this render process made, for a later edit (see fragments.ItemStore)."""
        if self.stores is not None and self._items:
            self.stores.save_items(index, self._items, self.site.papers)

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
            fields += ("&rft.date=", e.date.isoformat())
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
            data_["datePublished"] = e.date.isoformat()
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


def _parts(order: tuple[str, ...], previous: fragments.FilePieces, encoded: dict[str, bytes],
           new_piece: Callable[[str], bytes], lengths: list[int], sums: bytearray) -> list[bytes | tuple[int, int]]:
    """A whole-list file in parts: new pieces, and runs of the last build's pieces, (first, last) place
    in `previous`, where they follow each other there as they do now. Each piece's length goes to
    `lengths`, its digest (fragments.piece_digest) to `sums`."""
    moved = previous.moved(order, encoded.keys())
    if moved is None:
        return _parts_by_place(order, previous, encoded, new_piece, lengths, sums)
    held, held_sums, size = previous.lengths, previous.sums, fragments.DIGEST_SIZE
    parts: list[bytes | tuple[int, int]] = []
    start = 0  # the first place of the run not yet listed, the same in `order` and in the file
    for at in [*moved, len(order)]:
        if at > start:
            parts.append((start, at - 1))
            lengths += held[start:at]
            sums += held_sums[start * size:at * size]
        start = at + 1
        if at == len(order):
            break
        slug = order[at]
        there = previous.held_at(slug) if slug not in encoded else None
        if there is not None:  # moved among its neighbours
            parts.append((there, there))
            lengths.append(held[there])
            sums += previous.digest(there)
            continue
        data = new_piece(slug)
        parts.append(data)
        lengths.append(len(data))
        sums += fragments.piece_digest(data)
    return parts


def _parts_by_place(order: tuple[str, ...], previous: fragments.FilePieces, encoded: dict[str, bytes],
                    new_piece: Callable[[str], bytes], lengths: list[int],
                    sums: bytearray) -> list[bytes | tuple[int, int]]:
    """As `_parts`, looking each paper up in `previous`: for orders that differ in many places."""
    place, held, held_sum = previous.place, previous.lengths, previous.digest
    parts: list[bytes | tuple[int, int]] = []
    first = last = -1  # the run not yet listed
    for slug in order:
        at = place.get(slug) if slug not in encoded else None
        if at is not None:  # as the last build wrote it
            if first < 0 or at != last + 1:
                if first >= 0:
                    parts.append((first, last))
                first = at
            last = at
            lengths.append(held[at])
            sums += held_sum(at)
            continue
        if first >= 0:
            parts.append((first, last))
            first = -1
        data = new_piece(slug)
        parts.append(data)
        lengths.append(len(data))
        sums += fragments.piece_digest(data)
    if first >= 0:
        parts.append((first, last))
    return parts


def _spliced(parts: list[bytes | tuple[int, int]], previous: fragments.FilePieces, prefix: bytes,
             separator: bytes, suffix: bytes) -> fragments.Spliced:
    """As `_filled`, but as a file to be written from the last build's, not a buffer."""
    spans: list[bytes | tuple[int, int]] = [prefix] if prefix else []
    for i, part in enumerate(parts):
        if i and separator:
            spans.append(separator)
        spans.append(part if isinstance(part, bytes) else previous.where(*part))
    if suffix:
        spans.append(suffix)
    return fragments.Spliced(previous.path, spans)


def _filled(parts: list[bytes | tuple[int, int]], previous: fragments.FilePieces | None, prefix: bytes,
            separator: bytes, suffix: bytes) -> bytearray:
    """`prefix`, the parts with `separator` between them, then `suffix`, in one buffer of that size.

    A part is a piece's bytes or a run of the last build's pieces, (first, last) place in
    `previous`, read from its file into the buffer.
    """
    sizes = [len(part) if isinstance(part, bytes) else previous.size(*part)  # type: ignore[union-attr]
             for part in parts]
    data = bytearray(len(prefix) + sum(sizes) + len(separator) * (len(parts) - 1) + len(suffix))
    with memoryview(data) as view:
        view[:len(prefix)] = prefix
        at = len(prefix)
        for i, (part, size) in enumerate(zip(parts, sizes, strict=True)):
            if i:
                view[at:at + len(separator)] = separator
                at += len(separator)
            if isinstance(part, bytes):
                view[at:at + size] = part
            else:
                previous.read_into(view[at:at + size], *part)  # type: ignore[union-attr]
            at += size
        view[at:] = suffix
    return data
