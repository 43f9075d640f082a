"""Load and validate `site.yaml` into a frozen SiteConfig, reporting every problem."""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..common.errors import Diagnostic, Location, SitegenError
from . import categories, controls, frontmatter
from .controls import shown

CONFIG_FILE = "site.yaml"
BASE_URL_ENV = "SITEGEN_BASE_URL"
LANGUAGE = re.compile(r"^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$")


@dataclass(frozen=True)
class TagDetails:
    """What site.yaml says of a topic tag: how to name it, what it is about, which words put papers in it."""

    name: str
    label: str = ""
    description: str = ""
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class SiteConfig:
    """Everything the site-wide settings say, as plain immutable values."""

    title: str = "Reading list"
    description: str = ""
    curator: str = ""
    language: str = "en"
    base_url: str = "http://localhost/"
    theme: str = "default"
    page_size: int = 20
    # The home page's order: "added" (the newest additions first, what a curator's readers come back for) or
    # "published" (by publication date, as the timeline)
    home_order: str = "added"
    # A tag page's order: "published" (newest first, as everywhere) or "cited" (the papers the list cites most first)
    tag_order: str = "published"
    domain: str = ""  # custom domain for GitHub Pages (CNAME)
    tags: tuple[tuple[str, tuple[str, ...]], ...] = ()  # tag -> keywords, for the importer's tagger
    repository: str = ""
    tag_details: tuple[TagDetails, ...] = ()  # every tag of site.yaml, in its order

    def tag(self, name: str) -> TagDetails | None:
        """What site.yaml says of this tag, if anything."""
        return next((t for t in self.tag_details if t.name == name), None)

    @property
    def base_path(self) -> str:
        """The path part of base_url, always starting and ending with '/'."""
        path = urlsplit(self.base_url).path or "/"
        return path if path.endswith("/") else path + "/"

    def absolute(self, route: str) -> str:
        """Absolute URL of a site route such as 'papers/x/'."""
        return self.base_url.rstrip("/") + "/" + route.lstrip("/") if route else self.base_url


KNOWN = {
    "title": str, "description": str, "curator": str, "language": str, "base_url": str,
    "theme": str, "page_size": int, "domain": str, "tags": dict, "repository": str, "home_order": str,
    "tag_order": str,
}
HOME_ORDERS = ("added", "published")
TAG_ORDERS = ("published", "cited")


_TEXT: dict[str, Any] = {"type": "string"}
_KEYWORDS: dict[str, Any] = {"anyOf": [{"type": "string", "pattern": "\\S"},
                                       {"type": "array", "items": {"type": "string", "pattern": "\\S"}}]}
# What each setting holds, as JSON Schema (see json_schema): the types of KNOWN, and the checks _validate makes
SETTINGS_SCHEMA: dict[str, dict[str, Any]] = {
    "title": _TEXT, "description": _TEXT, "curator": _TEXT, "theme": _TEXT, "domain": _TEXT, "repository": _TEXT,
    "language": {"type": "string", "pattern": LANGUAGE.pattern, "examples": ["en", "en-GB"]},
    "base_url": {"type": "string", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]+",
                 "examples": ["https://user.github.io/reading-list/"]},
    "page_size": {"type": "integer", "minimum": 1},
    "home_order": {"enum": list(HOME_ORDERS)},
    "tag_order": {"enum": list(TAG_ORDERS)},
    "tags": {"type": "object", "additionalProperties": {"anyOf": [_KEYWORDS, {
        "type": "object", "additionalProperties": False,
        "properties": {"label": _TEXT, "description": _TEXT, "keywords": _KEYWORDS}}]}},
}


def normalize_base_url(url: str) -> str:
    """Ensure a trailing slash so routes can be appended."""
    return url if url.endswith("/") else url + "/"


BASE_URL_FLAG = "--base-url"  # where an overriding base URL is reported (the flag, or its environment variable)


def require(root: Path) -> None:
    """Refuse to treat a folder without `site.yaml` as a site: building one there would build a default site."""
    if not (root / CONFIG_FILE).exists() and not (root / CONFIG_FILE).is_symlink():
        raise SitegenError.single(Location(CONFIG_FILE), "E006", f"no {CONFIG_FILE} in {root}: this is not a site",
                                  "run 'sitegen init DIR' to start one, or pass --root with the site's folder")


def _text(path: Path) -> str:
    """site.yaml's text, or a diagnostic saying why it cannot be read."""
    from ..common.fsutil import read_regular

    try:
        return read_regular(path)[0].decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SitegenError.single(Location(CONFIG_FILE, 1), "E007", f"{CONFIG_FILE} is not valid UTF-8 text "
                                  f"(byte {exc.start})", "save it as UTF-8") from None
    except OSError as exc:
        raise SitegenError.single(Location(CONFIG_FILE), "E007", f"cannot read {CONFIG_FILE}: {exc.strerror or exc}",
                                  "it must be a regular, readable file") from None


def load(root: Path, base_url: str | None = None) -> SiteConfig:
    """Read `site.yaml` under `root` (defaults when absent); base_url overrides it."""
    path = root / CONFIG_FILE
    override = base_url or os.environ.get(BASE_URL_ENV) or None
    if not path.exists() and not path.is_symlink():
        problems = _check_base_url(override, {}, BASE_URL_FLAG)
        if problems:
            raise SitegenError(problems)
        return SiteConfig(base_url=normalize_base_url(override)) if override else SiteConfig()
    try:
        data, lines = frontmatter.load_yaml(_text(path), CONFIG_FILE)
    except frontmatter.FrontMatterError as exc:
        raise SitegenError([exc.diagnostic]) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SitegenError.single(Location(CONFIG_FILE, 1), "E001", "site.yaml must be a mapping of settings")
    values, problems = _validate(data, lines)
    if override:
        values["base_url"] = override
    problems += _check_base_url(values.get("base_url"), lines, BASE_URL_FLAG if override else CONFIG_FILE)
    if problems:
        raise SitegenError(problems)
    if "base_url" in values:
        values["base_url"] = normalize_base_url(values["base_url"])
    return SiteConfig(**values)


def _validate(data: dict[str, Any], lines: dict[str, int]) -> tuple[dict[str, Any], list[Diagnostic]]:
    problems: list[Diagnostic] = []
    values: dict[str, Any] = {}
    for key, value in data.items():
        where = Location(CONFIG_FILE, lines.get(str(key), 1))
        expected = KNOWN.get(key)
        if expected is None:
            close = difflib.get_close_matches(str(key), list(KNOWN), n=1)
            problems.append(Diagnostic(where, "E002", f"unknown setting '{key}'",
                                       f"did you mean '{close[0]}'?" if close else ""))
        elif isinstance(value, bool) or not isinstance(value, expected):
            problems.append(Diagnostic(where, "E003", f"'{key}' must be {expected.__name__}, found {shown(value)}", ""))
        elif (bad := _control(value)) is not None:
            problems.append(Diagnostic(where, "E008", f"'{key}' holds the control character {bad}",
                                       "remove it: control characters are invisible and break feeds and pages"))
        elif key == "tags":
            details, tag_problems = _tag_map(value, where, lines)
            values[key] = tuple((t.name, t.keywords) for t in details)
            values["tag_details"] = details
            problems += tag_problems
        else:
            values[key] = value
    if "page_size" in values and values["page_size"] < 1:
        problems.append(Diagnostic(Location(CONFIG_FILE, lines.get("page_size", 1)), "E003",
                                   "'page_size' must be at least 1", ""))
    if values.get("home_order", HOME_ORDERS[0]) not in HOME_ORDERS:
        problems.append(Diagnostic(Location(CONFIG_FILE, lines.get("home_order", 1)), "E003",
                                   f"'home_order' must be added or published, found {values['home_order']!r}",
                                   "added: the newest additions first; published: by publication date"))
    if values.get("tag_order", TAG_ORDERS[0]) not in TAG_ORDERS:
        problems.append(Diagnostic(Location(CONFIG_FILE, lines.get("tag_order", 1)), "E003",
                                   f"'tag_order' must be published or cited, found {values['tag_order']!r}",
                                   "published: newest first; cited: the papers this list cites most first"))
    if "language" in values and not LANGUAGE.match(values["language"]):
        problems.append(Diagnostic(Location(CONFIG_FILE, lines.get("language", 1)), "E003",
                                   f"'language' must be a language tag such as en or en-GB, found "
                                   f"{values['language']!r}", ""))
    return values, problems


def _control(value: Any) -> str | None:
    """The first control character in a setting's text (its keys and items, at any depth), named as U+XXXX."""
    for text in _texts(value):
        found = controls.first(text)
        if found is not None:
            return controls.name(found.group())
    return None


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in (str(key), *_texts(item))]
    return [text for item in value for text in _texts(item)] if isinstance(value, list) else []


TAG_FIELDS = {"label": str, "description": str, "keywords": list}
TAG_EXAMPLE = "e.g. agents: {label: AI agents, description: Models that plan and call tools., keywords: [agent]}"


def _tag_map(value: Any, where: Location,
             lines: dict[str, int]) -> tuple[tuple[TagDetails, ...], list[Diagnostic]]:
    """Each tag's keywords (`tag: [keyword, ...]`), or its label, description and keywords (`tag: {label: ...}`)."""
    problems: list[Diagnostic] = []
    tags: list[TagDetails] = []
    for tag, setting in value.items():
        at = Location(CONFIG_FILE, lines.get(f"tags/{tag}", where.line))
        fields = setting if isinstance(setting, dict) else {"keywords": setting}
        keywords = fields.get("keywords", [])
        keywords = [keywords] if isinstance(keywords, str) else keywords
        if not isinstance(tag, str) or not isinstance(keywords, list) or \
                not all(isinstance(k, str) and k.strip() for k in keywords):
            problems.append(Diagnostic(at, "E004", f"tag {tag!r} must map to a list of keywords, or to its label, "
                                       "description and keywords",
                                       "e.g. speculative-decoding: [speculative decoding, draft model]"))
            continue
        if categories.expand(categories.canonical(tag)) == categories.canonical(tag):
            problems.append(Diagnostic(at, "E011", f"tag {tag!r} is an arXiv category, not a topic",
                                       "a paper's arXiv category is its `category` field and has its page under "
                                       "categories/; give this topic another name, or remove it"))
            continue
        tag_problems = _tag_fields(tag, fields, at)
        problems += tag_problems
        if not tag_problems:
            label, description = fields.get("label", ""), fields.get("description", "")
            tags.append(TagDetails(tag, label.strip(), " ".join(description.split()), tuple(keywords)))
    return tuple(tags), problems


def _tag_fields(tag: str, fields: dict[Any, Any], at: Location) -> list[Diagnostic]:
    """A tag's settings other than its keywords: only known names, each holding text."""
    problems = []
    for name, item in fields.items():
        expected = TAG_FIELDS.get(str(name))
        if expected is None:
            close = difflib.get_close_matches(str(name), list(TAG_FIELDS), n=1)
            problems.append(Diagnostic(at, "E009", f"tag {tag!r} has no setting {str(name)!r}",
                                       f"did you mean '{close[0]}'?" if close else
                                       f"a tag may set {', '.join(TAG_FIELDS)}; {TAG_EXAMPLE}"))
        elif expected is str and not isinstance(item, str):
            problems.append(Diagnostic(at, "E010", f"tag {tag!r}: '{name}' must be text, found {shown(item)}",
                                       TAG_EXAMPLE))
    return problems


def _check_base_url(url: Any, lines: dict[str, int], source: str) -> list[Diagnostic]:
    """A base URL's problem, reported where it came from: site.yaml's line, or the flag that overrode it."""
    if url is None:
        return []
    parts = urlsplit(str(url))
    if parts.scheme not in ("http", "https") or not parts.netloc:
        where = Location(CONFIG_FILE, lines.get("base_url", 1)) if source == CONFIG_FILE else Location(source)
        name = "base_url" if source == CONFIG_FILE else f"{source} (or ${BASE_URL_ENV})"
        return [Diagnostic(where, "E005", f"{name} must be an absolute http(s) URL, found {url!r}",
                           "e.g. https://user.github.io/reading-list/")]
    return []


@dataclass(frozen=True)
class Paths:
    """Where a site keeps its parts, relative to its root."""

    root: Path
    content: Path = field(init=False)
    papers: Path = field(init=False)
    authors: Path = field(init=False)
    dumps: Path = field(init=False)
    themes: Path = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "content", self.root / "content")
        object.__setattr__(self, "papers", self.root / "content" / "papers")
        object.__setattr__(self, "authors", self.root / "content" / "authors")
        object.__setattr__(self, "dumps", self.root / "content" / "dumps")
        object.__setattr__(self, "themes", self.root / "themes")
