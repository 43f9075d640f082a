"""Pelican plugin for the benchmark site: what sitegen writes and Pelican has no setting for.

- The site model sitegen computes once (article_generator_finalized): BibTeX keys de-duplicated like sitegen's,
  neighbours in time, the date added, co-authors and topics per author, related tags, the A–Z author index, tags by
  count, papers by date added; each paper's title, abstract and summary as HTML with MathML.
- Per-paper fragments memoized for the build, as sitegen renders each once and reuses it: list items (per heading
  level), BibTeX, RIS and CSL-JSON entries (Jinja globals `item`, `bibtex`, `ris`, `csl_line`, …).
- Files Pelican has no page kind for, written through Pelican's Writer (article_writer_finalized): cite.bib,
  cite.ris and cite.json next to each paper's page, the recently-added feed, and .nojekyll.
- Feeds like sitegen's (get_writer): absolute links, the abstract in the site and recently-added feeds, the
  summary and at most TERM_FEED_MAX_ITEMS entries in author and tag feeds, no notes.
"""

from __future__ import annotations

import datetime as dt
import heapq
import json
import math
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import chain, groupby
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, pass_environment
from markupsafe import Markup
from pelican import signals
from pelican.generators import ArticlesGenerator, Generator
from pelican.utils import slugify
from pelican.writers import Writer

MAX_COAUTHORS = 30  # sitegen.model.network.MAX_COAUTHORS
MAX_TOPICS = 15
MAX_RELATED = 8
RECENT_SIZE = 100  # sitegen.model.routes.RECENT_SIZE
BIB_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
INLINE_MATH = re.compile(r"(?<!\\)\$(?!\s*\$)(.+?)(?<!\\)\$", re.DOTALL)
_LATEX = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$",
    "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}
_LATEX_RE = re.compile("|".join(re.escape(k) for k in _LATEX))
_NOTHING_TO_ESCAPE = re.compile(r"[^\\{}&%$#_~^\s]+(?: [^\\{}&%$#_~^\s]+)*")
_AND = re.compile(r"\band\b", re.IGNORECASE)


class Memo:
    """Per-build caches of per-paper fragments, by slug (list items by slug and heading level)."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, int], Markup] = {}
        self.bib: dict[str, str] = {}
        self.ris: dict[str, str] = {}
        self.csl: dict[str, str] = {}

    def clear(self) -> None:
        for cache in (self.items, self.bib, self.ris, self.csl):
            cache.clear()


MEMO = Memo()


# -- citations (sitegen.render.outputs.citations, without bibtexparser and rispy) --------------------------------------
def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters outside `$…$` math whose braces balance."""
    if _NOTHING_TO_ESCAPE.fullmatch(text):
        return text
    text = " ".join(text.split())
    out, last = [], 0
    for match in INLINE_MATH.finditer(text):
        tex = match.group(0)
        if _balanced(tex) and "\\\\" not in tex:
            out += [_escape_plain(text[last : match.start()]), tex]
            last = match.end()
    out.append(_escape_plain(text[last:]))
    return "".join(out)


def _escape_plain(text: str) -> str:
    return _LATEX_RE.sub(lambda m: _LATEX[m.group(0)], text)


def _balanced(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        if ch in "{}" and i and text[i - 1] == "\\":
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def split_name(name: str) -> tuple[str, str]:
    """(family, given): the last word is the family name."""
    parts = name.split()
    return (parts[-1], " ".join(parts[:-1])) if parts else ("", "")


@lru_cache(maxsize=65536)
def _bib_name(name: str) -> str:
    if _AND.search(name):
        return "{" + latex_escape(name) + "}"
    family, given = split_name(name)
    return f"{latex_escape(family)}, {latex_escape(given)}" if given else latex_escape(family)


def _names(article: Any) -> list[str]:
    return [a.name for a in getattr(article, "authors", ())]


def _tags(article: Any) -> list[str]:
    return [t.name for t in getattr(article, "tags", ())]


def bibtex(article: Any) -> str:
    """The paper's @misc entry, built once per build; no abstract, as in sitegen's."""
    text = MEMO.bib.get(article.slug)
    if text is None:
        fields = [("title", "{{" + latex_escape(article.title) + "}}")]
        if names := _names(article):
            fields.append(("author", "{" + " and ".join(map(_bib_name, names)) + "}"))
        fields += [("year", f"{{{article.date.year}}}"), ("month", BIB_MONTHS[article.date.month - 1])]
        if tags := _tags(article):
            fields.append(("keywords", "{" + latex_escape(", ".join(tags)) + "}"))
        fields.append(("url", "{" + article.absolute_url + "}"))
        body = ",\n".join(f"\t{key} = {value}" for key, value in fields)
        text = MEMO.bib[article.slug] = f"@misc{{{article.cite_key},\n{body}\n}}\n"
    return text


def bib_file(articles: Iterable[Any]) -> str:
    """A .bib file: the entries, separated by blank lines."""
    return "\n".join(bibtex(a) for a in articles)


def ris(article: Any) -> str:
    """The paper's RIS record, built once per build."""
    text = MEMO.ris.get(article.slug)
    if text is None:
        lines = ["TY  - GEN", f"TI  - {article.title}"]
        lines += [f"AU  - {f}, {g}" if g else f"AU  - {f}" for f, g in map(split_name, _names(article))]
        lines += [f"PY  - {article.date.year}", f"DA  - {article.date:%Y/%m/%d}"]
        if article.abstract:
            lines.append(f"AB  - {article.abstract}")
        lines += [f"KW  - {t}" for t in _tags(article)]
        lines += [f"UR  - {article.absolute_url}", f"ID  - {article.cite_key}", "ER  - "]
        text = MEMO.ris[article.slug] = "\n".join(lines) + "\n"
    return text


def ris_file(articles: Iterable[Any]) -> str:
    return "".join(ris(a) for a in articles)


def csl_line(article: Any) -> str:
    """The paper's CSL-JSON item as one line (sitegen writes one item per line), built once per build."""
    text = MEMO.csl.get(article.slug)
    if text is None:
        d = article.date
        item: dict[str, Any] = {"id": article.cite_key, "type": "article", "title": article.title}
        if names := _names(article):
            item["author"] = [{"family": f, "given": g} if g else {"literal": f} for f, g in map(split_name, names)]
        item["issued"] = {"date-parts": [[d.year, d.month, d.day]]}
        if article.abstract:
            item["abstract"] = article.abstract
        if tags := _tags(article):
            item["keyword"] = ", ".join(tags)
        item["URL"] = article.absolute_url
        text = MEMO.csl[article.slug] = json.dumps(item, ensure_ascii=False, sort_keys=True)
    return text


def json_array(lines: Iterable[str]) -> str:
    """A JSON array with one item per line (sitegen.render.outputs.data.json_lines)."""
    rows = list(lines)
    return "[\n" + ",\n".join(rows) + "\n]\n" if rows else "[]\n"


def csl_file(articles: Iterable[Any]) -> str:
    return json_array(csl_line(a) for a in articles)


def record_line(article: Any) -> str:
    """The paper's front matter and URL as one papers.json line (sitegen.render.outputs.data.papers_json)."""
    record: dict[str, Any] = {"title": article.title, "date": f"{article.date:%Y-%m-%d}", "slug": article.slug}
    for key, value in (("authors", _names(article)), ("tags", _tags(article)), ("abstract", article.abstract),
                       ("added", article.added_date.isoformat() if article.added_date else None)):
        if value:
            record[key] = value
    record["url"] = article.absolute_url
    return json.dumps(record, ensure_ascii=False, sort_keys=True)


def papers_file(articles: Iterable[Any]) -> str:
    return json_array(record_line(a) for a in articles)


def json_ld(article: Any) -> Markup:
    """schema.org ScholarlyArticle, safe inside <script> (sitegen.render.render.Renderer.json_ld)."""
    data: dict[str, Any] = {"@context": "https://schema.org", "@type": "ScholarlyArticle",
                            "headline": article.title[:110], "name": article.title, "url": article.absolute_url}
    if names := _names(article):
        data["author"] = [{"@type": "Person", "name": n} for n in names]
    data["datePublished"] = f"{article.date:%Y-%m-%d}"
    if article.abstract:
        data["abstract"] = article.abstract
    if tags := _tags(article):
        data["keywords"] = tags
    text = json.dumps(data, ensure_ascii=False, sort_keys=True)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def coins(article: Any) -> str:
    """OpenURL ContextObject (COinS) so Zotero's connector finds the paper."""
    fields = [("ctx_ver", "Z39.88-2004"), ("rft_val_fmt", "info:ofi/fmt:kev:mtx:journal"), ("rft.genre", "preprint"),
              ("rft.atitle", article.title)]
    fields += [("rft.au", n) for n in _names(article)]
    fields.append(("rft.date", f"{article.date:%Y-%m-%d}"))
    return urlencode(fields)


@pass_environment
def item(env: Environment, article: Any, level: int = 3) -> Markup:
    """The paper's list item at a heading level, rendered once per build and reused on every listing."""
    key = (article.slug, level)
    html = MEMO.items.get(key)
    if html is None:
        template = env.get_template("partials/item.html")
        html = MEMO.items[key] = Markup(template.render(article=article, level=level, SITEURL=env.globals["SITEURL"]))
    return html


# -- the site model ----------------------------------------------------------------------------------------------------
def _rank(row: tuple[str, int]) -> tuple[int, str, str]:
    return -row[1], row[0].casefold(), row[0]


def _ranked(counter: Counter[str], slugs: dict[str, str], limit: int) -> list[tuple[str, str, int]]:
    """The `limit` most frequent as (name, slug, count), ties by name case-folded (sitegen.model.model._Ranking)."""
    return [(name, slugs.get(name, ""), count) for name, count in heapq.nsmallest(limit, counter.items(), key=_rank)]


def _cite_keys(articles: list[Any], slug: Callable[[str], str]) -> dict[str, str]:
    """Stable BibTeX keys like 'hu2026vtc'; clashes get a, b, c … in slug order (sitegen.model.cite_keys.cite_keys)."""
    base: dict[str, str] = {}
    for a in sorted(articles, key=lambda a: a.slug):
        names = _names(a)
        family = slug(names[0].split()[-1]).replace("-", "") if names else ""
        word = next((slug(w).replace("-", "") for w in a.title.split() if len(slug(w)) > 2), "paper")
        base[a.slug] = f"{family}{a.date.year}{word}" if family else f"{word}{a.date.year}"
    counts = Counter(base.values())
    seen: Counter[str] = Counter()
    keys = {}
    for s, key in base.items():
        if counts[key] > 1:
            keys[s] = key + _suffix(seen[key])
            seen[key] += 1
        else:
            keys[s] = key
    return keys


def _suffix(n: int) -> str:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return letters[n] if n < 26 else _suffix(n // 26 - 1) + letters[n % 26]


def _sort_name(name: str) -> str:
    parts = name.split()
    return " ".join(parts[-1:] + parts[:-1]).casefold()


def build_model(generator: ArticlesGenerator) -> None:
    """Everything sitegen's model computes, on Pelican's articles, authors and tags; `rl` in the template context."""
    settings = generator.settings
    filters = settings["JINJA_FILTERS"]
    math_html, summary_html = filters["math"], filters["summary_html"]
    absolute = settings["SITE_ABSOLUTE"].rstrip("/") + "/"
    regex_subs = settings["SLUG_REGEX_SUBSTITUTIONS"]
    slug = lru_cache(maxsize=None)(lambda text: slugify(text, regex_subs=regex_subs))
    articles = generator.articles  # newest first (ARTICLE_ORDER_BY)
    keys = _cite_keys(articles, slug)
    for i, a in enumerate(articles):
        a.abstract = getattr(a, "abstract", "")
        added = getattr(a, "added", None)
        a.added_date = dt.date.fromisoformat(added) if added else None
        a.cite_key = keys[a.slug]
        a.absolute_url = absolute + a.url
        a.newer = articles[i - 1] if i > 0 else None
        a.older = articles[i + 1] if i + 1 < len(articles) else None
        a.title_html = math_html(a.title)
        a.abstract_html = math_html(a.abstract)
        a.summary_html = summary_html(a.abstract)
        a.metadata["summary"] = str(a.summary_html)  # what Pelican's feeds use as each entry's summary

    author_slugs = {author.name: author.slug for author, _ in generator.authors}
    tag_slugs = {tag.name: tag.slug for tag in generator.tags}
    letters: dict[str, list[tuple[Any, int]]] = defaultdict(list)
    for author, papers in sorted(generator.authors, key=lambda row: (_sort_name(row[0].name), row[0].name)):
        co = Counter(chain.from_iterable(_names(p) for p in papers))
        del co[author.name]
        author.coauthors = _ranked(co, author_slugs, MAX_COAUTHORS)
        author.coauthor_total = len(co)
        author.topics = _ranked(Counter(chain.from_iterable(_tags(p) for p in papers)), tag_slugs, MAX_TOPICS)
        family = author.name.split()[-1] if author.name.split() else "#"
        initial = family[0].upper()
        letters[initial if initial.isalpha() and initial.isascii() else "#"].append((author, len(papers)))
    by_count = []
    for tag, papers in generator.tags.items():
        related = Counter(t for p in papers for t in _tags(p) if t != tag.name)
        tag.related = _ranked(related, tag_slugs, MAX_RELATED)
        by_count.append((tag, len(papers)))
    by_count.sort(key=lambda row: (-row[1], row[0].name.casefold()))
    recent = sorted((a for a in articles if a.added_date), key=lambda a: a.added_date, reverse=True)  # stable
    generator.context["rl"] = SimpleNamespace(
        letters=sorted(letters.items()), author_count=len(generator.authors),
        tags_by_count=by_count, largest_tag=max((c for _, c in by_count), default=1),
        recent=[(day, list(group)) for day, group in groupby(recent[:RECENT_SIZE], key=lambda a: a.added_date)],
        recent_shown=min(RECENT_SIZE, len(recent)),
        recent_articles=recent,
        page_count=max(1, math.ceil(len(articles) / settings["PAGINATED_TEMPLATES"]["index"])),
    )


# -- output ------------------------------------------------------------------------------------------------------------
def write_files(generator: ArticlesGenerator, writer: Writer) -> None:
    """Per-paper citation files, the recently-added feed and .nojekyll."""
    context, settings = generator.context, generator.settings
    templates = {name: generator.env.get_template(name) for name in ("cite.bib", "cite.ris", "cite.json")}
    for article in generator.articles:
        folder = os.path.dirname(article.save_as)
        for name in ("cite.bib", "cite.ris", "cite.json"):
            writer.write_file(f"{folder}/{name}", templates[name], context, article=article)
    writer.write_feed(context["rl"].recent_articles, context, settings["RECENT_FEED_ATOM"],
                      feed_title="recently added")
    with open(os.path.join(generator.output_path, ".nojekyll"), "w", encoding="utf-8"):
        pass  # GitHub Pages: serve the folders as they are


class ReadingListWriter(Writer):
    """Pelican's writer, with feeds like sitegen's: absolute links, the abstract or the summary, no notes."""

    def write_feed(self, elements: list[Any], context: dict[str, Any], path: str | None = None,
                   url: str | None = None, feed_type: str = "atom", override_output: bool = False,
                   feed_title: str | None = None) -> Any:
        self._full_text = path in (self.settings["FEED_ALL_ATOM"], self.settings["RECENT_FEED_ATOM"])
        if not self._full_text:
            elements = elements[: self.settings["TERM_FEED_MAX_ITEMS"]]
        context = dict(context, SITEURL=self.settings["SITE_ABSOLUTE"])  # entry links absolute, as feeds need
        return super().write_feed(elements, context, path, url, feed_type, override_output, feed_title)

    def _add_item_to_the_feed(self, feed: Any, item: Any) -> None:
        super()._add_item_to_the_feed(feed, item)
        entry = feed.items[-1]
        if self._full_text:
            entry["description"] = str(item.abstract_html)
        entry["content"] = None  # sitegen's feeds carry the abstract, not the notes


# -- registration ------------------------------------------------------------------------------------------------------
def reset(_pelican: Any) -> None:
    """A new build: forget the fragments of any earlier one in this process."""
    MEMO.clear()


def add_globals(generator: Generator) -> None:
    generator.env.globals.update(
        SITEURL=generator.settings["SITEURL"], item=item, bibtex=bibtex, bib_file=bib_file, ris=ris,
        ris_file=ris_file, csl_line=csl_line, csl_file=csl_file, papers_file=papers_file, json_array=json_array,
        json_ld=json_ld, coins=coins)


def get_writer(_pelican: Any) -> type[Writer]:
    return ReadingListWriter


def register() -> None:
    signals.initialized.connect(reset)
    signals.generator_init.connect(add_globals)
    signals.article_generator_finalized.connect(build_model)
    signals.article_writer_finalized.connect(write_files)
    signals.get_writer.connect(get_writer)
