"""Pelican settings for a site equivalent to a sitegen build of the benchmark corpus (see benchmarks/pelican_site.py).

The runner copies this folder and writes `content/papers/<slug>.md` into the copy. Paths are relative to this
file. Everything Pelican writes by default that sitegen does not (category, month and day archives, drafts,
pages, archives.html, RSS and per-category feeds) is switched off; what Pelican has no setting for (citation
files, per-author and per-tag BibTeX, the recently-added feed, co-author and topic counts) is done by the local
plugin `plugins/reading_list.py`. The Jinja filters below turn `$…$` in titles and abstracts into MathML with
latex2mathml, as sitegen does.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from functools import lru_cache
from typing import Any

from jinja2 import StrictUndefined
from markupsafe import Markup

# -- the site ----------------------------------------------------------------------------------------------------------
SITENAME = "Synthetic reading list"
SITE_DESCRIPTION = "A generated corpus for benchmarks."
SITESUBTITLE = SITE_DESCRIPTION  # the feeds' subtitle
SITE_ORIGIN = "https://example.org"
SITEURL = "/reading-list"  # root-relative links in pages, like the Hugo site's relURL
SITE_ABSOLUTE = SITE_ORIGIN + SITEURL  # absolute links where sitegen has them: feeds, sitemap, citations, canonical
FEED_DOMAIN = SITE_ABSOLUTE
RELATIVE_URLS = False
TIMEZONE = "UTC"
DEFAULT_LANG = "en"

PATH = "content"
ARTICLE_PATHS = ["papers"]
PAGE_PATHS: list[str] = []
STATIC_PATHS: list[str] = []
OUTPUT_PATH = "public"
THEME = "theme"
THEME_STATIC_DIR = "static"  # the theme's CSS, JavaScript and icon at static/, where sitegen puts them
THEME_STATIC_PATHS = ["static"]
PLUGIN_PATHS = ["plugins"]
PLUGINS = ["reading_list"]

# Pelican's content cache, as its documentation advises for speed: each build writes what its readers parsed (title,
# metadata, HTML of the notes) to CACHE_PATH, and the next build loads an unchanged file's entry instead of reading
# it again. Uncompressed: gzip would cost CPU on every build for disk space nobody is short of here. The runner gives
# each cold build a fresh, empty cache (`--cache-path`), so a cold build stays cold; its rebuilds use the last one's.
CACHE_CONTENT = True
LOAD_CONTENT_CACHE = True
CONTENT_CACHING_LAYER = "reader"  # the "generator" layer would skip the plugin's article signals on cached entries
GZIP_CACHE = False
CACHE_PATH = "cache"
DELETE_OUTPUT_DIRECTORY = False

# Notes are Markdown (tables, footnotes, fenced code; no syntax highlighting, as in sitegen). The abstract is plain
# text with $…$ math in sitegen too, so it is not a FORMATTED_FIELD; the plugin sets `summary` as HTML.
MARKDOWN = {
    "extension_configs": {"markdown.extensions.extra": {}, "markdown.extensions.meta": {}},
    "output_format": "html5",
}
FORMATTED_FIELDS: list[str] = []


def newest_first(article: Any) -> tuple[int, str, str]:
    """sitegen's order: publication date descending, then title (case-folded), then slug."""
    return (-article.date.toordinal(), article.title.casefold(), article.slug)


ARTICLE_ORDER_BY = newest_first

NAV = (("", "Papers"), ("authors/", "Authors"), ("tags/", "Tags"), ("timeline/", "Timeline"),
       ("recent/", "Recently added"), ("search/", "Search"))

# -- where each page goes (sitegen's routes) ---------------------------------------------------------------------------
ARTICLE_URL = "papers/{slug}/"
ARTICLE_SAVE_AS = "papers/{slug}/index.html"
AUTHOR_URL = "authors/{slug}/"
AUTHOR_SAVE_AS = "authors/{slug}/index.html"
AUTHORS_URL = "authors/"
AUTHORS_SAVE_AS = "authors/index.html"
TAG_URL = "tags/{slug}/"
TAG_SAVE_AS = "tags/{slug}/index.html"
TAGS_URL = "tags/"
TAGS_SAVE_AS = "tags/index.html"
CATEGORY_URL = ""
CATEGORY_SAVE_AS = ""  # no category pages (and no default category): the corpus has no arXiv categories
CATEGORIES_URL = "categories/"
CATEGORIES_SAVE_AS = "categories/index.html"
YEAR_ARCHIVE_URL = "timeline/{date:%Y}/"
YEAR_ARCHIVE_SAVE_AS = "timeline/{date:%Y}/index.html"  # months are sections of the year page
MONTH_ARCHIVE_SAVE_AS = ""
DAY_ARCHIVE_SAVE_AS = ""
ARCHIVES_SAVE_AS = ""
DRAFT_SAVE_AS = ""
DRAFT_LANG_SAVE_AS = ""
ARTICLE_LANG_SAVE_AS = ""
PAGE_SAVE_AS = ""
PAGE_LANG_SAVE_AS = ""
DRAFT_PAGE_SAVE_AS = ""
DRAFT_PAGE_LANG_SAVE_AS = ""

# Direct templates: one file each, given every article. Templates may end in any of TEMPLATE_EXTENSIONS
# (`bibtex` is bibtex.bib); "404" needs no setting (its default is 404.html).
TEMPLATE_EXTENSIONS = [".html", ".xml", ".txt", ".bib", ".ris", ".json"]
DIRECT_TEMPLATES = ["index", "authors", "tags", "categories", "timeline", "recent", "search", "404", "sitemap",
                    "robots", "bibtex", "ris", "csl", "data"]
INDEX_URL = ""
INDEX_SAVE_AS = "index.html"
TIMELINE_URL = "timeline/"
TIMELINE_SAVE_AS = "timeline/index.html"
RECENT_URL = "recent/"
RECENT_SAVE_AS = "recent/index.html"
SEARCH_URL = "search/"
SEARCH_SAVE_AS = "search/index.html"
SITEMAP_SAVE_AS = "sitemap.xml"
ROBOTS_SAVE_AS = "robots.txt"
BIBTEX_SAVE_AS = "reading-list.bib"
RIS_SAVE_AS = "reading-list.ris"
CSL_SAVE_AS = "reading-list.json"
DATA_SAVE_AS = "papers.json"

# The home page lists 20 papers per page: index.html, page/2/index.html, … (no other template is paginated).
DEFAULT_PAGINATION = False
PAGINATED_TEMPLATES = {"index": 20}
PAGINATION_PATTERNS = [
    (1, "{url}", "{save_as}"),
    (2, "{base_name}/page/{number}/", "{base_name}/page/{number}/index.html"),
]

# -- feeds: Atom only, like sitegen's ----------------------------------------------------------------------------------
# The site feed has the 50 newest papers with their abstracts; the author and tag feeds the 20 newest with the
# abstract's summary (the plugin's writer cuts those to 20 and picks the text). The recently-added feed is the
# plugin's (Pelican has no feed ordered by another date).
FEED_ALL_ATOM = "feed.xml"
FEED_ALL_RSS = None
FEED_ATOM = None
FEED_RSS = None
CATEGORY_FEED_ATOM = None
CATEGORY_FEED_RSS = None
AUTHOR_FEED_ATOM = "authors/{slug}/feed.xml"
AUTHOR_FEED_RSS = None
TAG_FEED_ATOM = "tags/{slug}/feed.xml"
TAG_FEED_RSS = None
TRANSLATION_FEED_ATOM = None
TRANSLATION_FEED_RSS = None
RECENT_FEED_ATOM = "recent/feed.xml"
FEED_MAX_ITEMS = 50
TERM_FEED_MAX_ITEMS = 20

# -- templates ---------------------------------------------------------------------------------------------------------


def autoescape(template_name: str | None) -> bool:
    """Jinja's select_autoescape(["html", "xml"]), as a module-level function: the content cache pickles the settings
    (every Author and Tag holds them), and pickle cannot save the closure select_autoescape returns."""
    return template_name is None or template_name.lower().endswith((".html", ".xml"))


# sitegen's Jinja settings: HTML and XML autoescaped, a missing variable an error, blocks trimmed, trailing
# newlines kept.
JINJA_ENVIRONMENT = {
    "undefined": StrictUndefined,
    "trim_blocks": True,
    "lstrip_blocks": True,
    "keep_trailing_newline": True,
    "autoescape": autoescape,
    "extensions": [],
}

INLINE_MATH = re.compile(r"(?<!\\)\$(?!\s*\$)(.+?)(?<!\\)\$", re.DOTALL)  # sitegen.content.markdown.INLINE_MATH
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@lru_cache(maxsize=4096)
def math_to_mathml(tex: str) -> str:
    """TeX to inline MathML, labelled with its source; the escaped TeX in <code> when it does not convert."""
    from latex2mathml.converter import convert

    try:
        mathml = convert(tex.strip(), display="inline")
    except Exception:  # latex2mathml raises many kinds of errors on bad TeX
        return f'<code class="tex">{html.escape(tex)}</code>'
    return mathml.replace("<math ", f'<math aria-label="{html.escape(tex.strip(), quote=True)}" ', 1)


def text_with_math(text: str) -> Markup:
    """Plain text escaped, with its `$…$` spans as MathML (sitegen.content.markdown.text_with_math)."""
    out: list[str] = []
    last = 0
    for match in INLINE_MATH.finditer(text):
        out += [html.escape(text[last : match.start()], quote=False), math_to_mathml(match.group(1))]
        last = match.end()
    out.append(html.escape(text[last:], quote=False))
    return Markup("".join(out))


def summary_html(text: str, limit: int = 280) -> Markup:
    """The start of a text, cut at a word outside math, as HTML with MathML (sitegen.content.markdown.summary)."""
    if len(text) <= limit:
        return text_with_math(text)
    cut = text[:limit].rsplit(" ", 1)[0]
    if len(INLINE_MATH.sub("", cut).split("$")) % 2 == 0:  # an unclosed $ would swallow the rest
        cut = cut[: cut.rfind("$")].rstrip()
    return text_with_math(cut.rstrip(" ,;:.")) + Markup("…")


def human_date(value: dt.date | None) -> str:
    """'Sep 21, 2018', whatever the locale."""
    return f"{MONTHS[value.month - 1]} {value.day}, {value.year}" if value else ""


def isodate(value: dt.date | None) -> str:
    return value.strftime("%Y-%m-%d") if value else ""


JINJA_FILTERS = {"math": text_with_math, "summary_html": summary_html, "human_date": human_date, "isodate": isodate}
