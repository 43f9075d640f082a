"""Author profiles: `content/authors/<slug>.yaml` read and validated into AuthorProfile records."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from ..common.errors import Location, Report, relpath
from . import frontmatter, schema
from .files import read_text
from .slugs import slugify


@dataclass(frozen=True)
class AuthorProfile:
    """An author's profile figures, from `content/authors/<slug>.yaml`."""

    source_path: str
    slug: str
    name: str
    category: str | None = None
    h_index: int | None = None
    papers: int | None = None
    citations: int | None = None
    novelty_percent: int | None = None
    ai_score: int | float | None = None  # as written: a 55 shows as 55, not 55.0
    affiliation: str | None = None
    homepage: str | None = None
    aliases: tuple[str, ...] = ()
    source: str | None = None  # the profile dump it came from; its papers are this author's
    captured: dt.date | None = None  # when that profile page was captured: the figures are as of then
    semantic_scholar: str | None = None  # author id: semanticscholar.org/author/<id>
    huggingface: str | None = None  # Hub account: huggingface.co/<user>
    orcid: str | None = None  # iD without the orcid.org address, check digit verified



def load_profile(path: Path, root: Path, report: Report) -> AuthorProfile | None:
    """Parse and validate one author profile file."""
    shown = relpath(path, root)
    text = read_text(path, shown, report)
    if text is None:
        return None
    try:
        data, lines = frontmatter.load_yaml(text, shown)
    except frontmatter.FrontMatterError as exc:
        report.add(exc.diagnostic)
        return None
    if not isinstance(data, dict):
        report.error(Location(shown, 1), "E103", "an author file must be a mapping of fields")
        return None
    meta, problems = schema.validate_author(data, lines, shown)
    report.extend(problems)
    if any(p.severity == "error" for p in problems):
        return None
    meta["aliases"] = tuple(meta.get("aliases", ()))
    return AuthorProfile(source_path=shown, slug=slugify(meta["name"]), **meta)
