"""Citations for reference managers: BibTeX (bibtexparser), RIS (rispy) and CSL-JSON.

BibTeX is what a paper is cited with, so an entry holds what a reference needs and, like
arXiv's, DBLP's and Google Scholar's, no abstract: pasted from a paper's Cite box into a
`.bib` file, an abstract is only bulk that no bibliography style prints. The full record,
abstract included, is the RIS and CSL-JSON, the formats reference managers import records from.
BibTeX values are escaped for LaTeX and brace-protected so titles keep their case;
fields that no source gave (authors of a listing-only paper, a date) are left out
rather than invented, and a `note` (RIS: `N1`) says what is missing. A list naming only the
first authors ends in `others` in every format (see `OTHERS`), so BibTeX, RIS and CSL-JSON
cite the same authors and "et al.".

Every format cites the paper, not this site's page about it: its arXiv id, its DOI (the
publisher's, else arXiv's DataCite DOI) and its own address (see `paper_links`); the
site's page is the address only of a paper nothing else identifies. A paper with a
venue is an @article in its journal or an @inproceedings in its proceedings (RIS JOUR or
CONF, CSL article-journal or paper-conference); any other is @misc, as arXiv's own
BibTeX for a preprint is.

No value can end its field or record early, whatever the entry holds: BibTeX ends a
field at the brace that balances its opening one, counting every brace (a backslash
before one does not hide it), so each BibTeX value's braces balance as BibTeX counts
them; identifiers and URLs, copied verbatim, are percent-encoded where they would not;
a RIS line ends at any line break, so every RIS value is one line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, MutableMapping
from functools import lru_cache
from typing import Any
from urllib.parse import quote

import bibtexparser
import rispy
from bibtexparser import model as bib

from ...content import dates
from ...content.categories import canonical
from ...content.config import SiteConfig
from ...content.markdown import INLINE_MATH
from ...model.site import Paper
from .. import paper_links
from .data import json_line, json_lines

_LATEX = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$",
    "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}
# LaTeX's special characters, escaped one kind at a time with str.replace (a regular expression calling
# back into Python for each match took twice as long over an abstract). The backslash is set aside
# first and escaped last, and the braces before the escapes that bring braces of their own.
_LATEX_STEPS = (("\\", "\0"), ("{", r"\{"), ("}", r"\}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                ("_", r"\_"), ("~", r"\textasciitilde{}"), ("^", r"\textasciicircum{}"), ("\0", r"\textbackslash{}"))
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_BRACE = re.compile(r"[{}]")
_ESCAPED_BRACE = re.compile(r"\\[{}]")
_LONE_BRACE = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}"}
# what may not stand in a value copied verbatim (a DOI, an arXiv id, a URL): braces, a backslash,
# spaces, line breaks and control characters
_NOT_VERBATIM = re.compile(r"[\s{}\\\x00-\x1f\x7f-\x9f]")
# what ends a RIS line (any of str.splitlines's line ends) or may not stand in one, with the spaces around it
_RIS_BREAK = re.compile(r"[ \t]*[\x00-\x1f\x7f-\x9f\u2028\u2029][\x00-\x20\x7f-\x9f\u2028\u2029]*")
_NOTHING_TO_ESCAPE = re.compile(r"[^\\{}&%$#_~^\s]+(?: [^\\{}&%$#_~^\s]+)*")  # words, single spaces
_AND = re.compile(r"\band\b", re.IGNORECASE)
# The authors beyond those named: BibTeX's own `and others`, which pandoc's citeproc reads from RIS
# (`AU  - others`) and CSL-JSON (`{"literal": "others"}`) alike, and prints as "et al."
OTHERS = "others"


def _escape_plain(text: str) -> str:
    """LaTeX-escaped text whose braces balance: a brace without its partner is spelled out."""
    if "{" in text or "}" in text:
        lone = _lone_braces(text)
        if lone:
            out, last = [], 0
            for at in lone:
                out += [_escape_chars(text[last:at]), _LONE_BRACE[text[at]]]
                last = at + 1
            return "".join(out) + _escape_chars(text[last:])
    return _escape_chars(text)


def _lone_braces(text: str) -> list[int]:
    """Where the braces are that no other one pairs with, in order (the text between them pairs up)."""
    opened: list[int] = []
    lone: list[int] = []
    for match in _BRACE.finditer(text):
        if match.group() == "{":
            opened.append(match.start())
        elif opened:
            opened.pop()
        else:
            lone.append(match.start())
    return sorted(lone + opened)


def _escape_chars(text: str) -> str:
    if "\0" in text:  # the backslash's stand-in is taken (front matter cannot hold a NUL): one by one
        return "".join(_LATEX.get(char, char) for char in text)
    for char, escaped in _LATEX_STEPS:
        if char in text:
            text = text.replace(char, escaped)
    return text


def latex_escape(text: str) -> str:
    """Escape LaTeX's special characters outside `$…$` math, which is LaTeX already.

    Unicode stays as it is (biber and modern BibTeX read UTF-8). Math whose braces do
    not balance is escaped like text, and a brace of the text without a partner is
    spelled out (\\textbraceright{}), so a stray brace can never break the .bib file.
    """
    if _NOTHING_TO_ESCAPE.fullmatch(text):  # most names and titles: nothing to do
        return text
    text = " ".join(text.split())
    out, last = [], 0
    for match in INLINE_MATH.finditer(text):
        math = match.group(0)
        if _balanced(math) and "\\\\" not in math:
            out += [_escape_plain(text[last : match.start()]), math]
            last = match.end()
    out.append(_escape_plain(text[last:]))
    return "".join(out)


def _balanced(math: str) -> bool:
    """Whether the braces of a math span nest as every reader counts them: BibTeX counts every
    one, '\\{' too; bibtexparser (and others) skip the escaped ones. '$\\{}$' nests for one only."""
    return _nested(math) and _nested(_ESCAPED_BRACE.sub("", math))


def _nested(text: str) -> bool:
    depth = 0
    for brace in _BRACE.findall(text):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0


@lru_cache(maxsize=65536)  # each author's name is split for every citation format of each of their papers
def split_name(name: str) -> tuple[str, str]:
    """(family, given): the last word is the family name, as the dumps write names."""
    parts = name.split()
    return (parts[-1], " ".join(parts[:-1])) if parts else ("", "")


@lru_cache(maxsize=65536)
def _bib_name(name: str) -> str:
    """'Family, Given' for BibTeX; a name holding the word 'and' is braced whole so it stays one author."""
    if _AND.search(name):
        return "{" + latex_escape(name) + "}"
    family, given = split_name(name)
    return f"{latex_escape(family)}, {latex_escape(given)}" if given else latex_escape(family)


# BibTeX's entry type, and the field naming the venue, by kind of venue (see paper_links.venue_kind)
_BIB_VENUE = {"journal": ("article", "journal"), "conference": ("inproceedings", "booktitle")}
_RIS_TYPE = {"journal": "JOUR", "conference": "CONF"}
_CSL_TYPE = {"journal": "article-journal", "conference": "paper-conference"}


def _bib_entry(paper: Paper, config: SiteConfig) -> bib.Entry:
    e = paper.entry
    kind = paper_links.venue_kind(e.venue)
    entry_type, venue_field = _BIB_VENUE.get(kind or "", ("misc", ""))
    fields = [bib.Field("title", "{{" + latex_escape(e.title) + "}}")]
    if e.authors:
        names = [_bib_name(name) for name in e.authors]
        if more_authors(paper):
            names.append(OTHERS)
        fields.append(bib.Field("author", " and ".join(names)))
    if venue_field and e.venue:
        fields.append(bib.Field(venue_field, latex_escape(e.venue)))
    if e.date:
        # `month = feb`, the standard macro (BibTeX prints "February", biber reads 2); `{feb}` would be literal text
        fields.append(bib.Field("year", str(e.date.year)))
        if e.date_precision != dates.YEAR:
            fields.append(bib.Field("month", _MONTHS[e.date.month - 1], enclosing="no-enclosing"))
    if e.arxiv:
        fields += [bib.Field("eprint", verbatim(e.arxiv)), bib.Field("archiveprefix", "arXiv")]
        if e.category:
            fields.append(bib.Field("primaryclass", verbatim(canonical(e.category))))  # arXiv's spelling
    doi = paper_links.cited_doi(e)
    if doi:
        fields.append(bib.Field("doi", verbatim(doi)))
    if e.tags:
        fields.append(bib.Field("keywords", latex_escape(", ".join(e.tags))))
    fields.append(bib.Field("url", verbatim(cited_url(paper, config))))
    missing = _missing(paper)
    if missing:
        fields.append(bib.Field("note", latex_escape(missing)))
    for f in fields[1:]:
        if f.enclosing != "no-enclosing":  # the month macro stays bare
            f.value = "{" + f.value + "}"
    return bib.Entry(entry_type, paper.cite_key, fields)


def cited_url(paper: Paper, config: SiteConfig) -> str:
    """The paper's own address (arXiv's page, its abstract page, its DOI's, its PDF); the
    reading list's page about it only when nothing else is known."""
    return paper_links.cited_url(paper.entry) or config.absolute(paper.route)


def verbatim(value: str) -> str:
    """An identifier or URL as BibTeX and RIS copy it: what could end its field, percent-encoded.

    The schema lets no DOI, arXiv id or link hold such a character; this keeps a value
    made some other way from writing fields of its own.
    """
    return _NOT_VERBATIM.sub(lambda m: quote(m.group(), safe=""), value) if _NOT_VERBATIM.search(value) else value


def one_line(text: str) -> str:
    """`text` as one RIS line: each line break or control character, with the spaces around it,
    becomes one space (a line break inside a value would end the record there)."""
    return text if text.isprintable() else _RIS_BREAK.sub(" ", text).strip()


def more_authors(paper: Paper) -> bool:
    """Whether the paper has authors beyond those named, cited as `others` (et al.) in every format."""
    e = paper.entry
    return bool(e.authors) and bool(e.authors_truncated or e.hidden_authors)


def _missing(paper: Paper) -> str:
    e = paper.entry
    notes = []
    if not e.authors:
        count = e.author_count
        notes.append("authors not recorded" if not count else
                     "1 author, name not recorded" if count == 1 else f"{count} authors, names not recorded")
    if not e.date:
        notes.append("publication date not recorded")
    return "; ".join(notes)


def bib_entry(paper: Paper, config: SiteConfig) -> str:
    """One paper's BibTeX entry as text (values are already braced and LaTeX-escaped)."""
    library = bibtexparser.Library()
    library.add(_bib_entry(paper, config))
    return str(bibtexparser.write_string(library, unparse_stack=[]))


def bibtex(papers: Iterable[Paper], config: SiteConfig, cache: MutableMapping[str, str] | None = None) -> str:
    """A .bib file with one entry per paper; `cache` reuses entries across files of a build."""
    listed = list(papers)
    return bibtex_of([paper.slug for paper in listed], {paper.slug: paper for paper in listed}, config, cache)


def bibtex_of(slugs: Iterable[str], papers: Mapping[str, Paper], config: SiteConfig,
              cache: MutableMapping[str, str] | None = None) -> str:
    """As `bibtex`, for papers named by slug: a paper whose entry is in `cache` is not read."""
    cache = {} if cache is None else cache
    parts = []
    for slug in slugs:
        text = cache.get(slug)
        if text is None:
            text = cache[slug] = bib_entry(papers[slug], config)
        parts.append(text)
    return "\n".join(parts)


class _RisWriter(rispy.RisWriter):  # type: ignore[misc]
    """RIS without rispy's '1.' counter lines, which Zotero does not expect."""

    def set_header(self, count: int) -> None:
        return None


def ris_record(paper: Paper, config: SiteConfig) -> dict[str, Any]:
    """One paper as a rispy record."""
    e = paper.entry
    kind = paper_links.venue_kind(e.venue)
    record: dict[str, Any] = {"type_of_reference": _RIS_TYPE.get(kind or "", "GEN"), "title": one_line(e.title)}
    if kind and e.venue:
        record["secondary_title"] = one_line(e.venue)  # T2: the journal's or the proceedings' title
    if e.authors:
        record["authors"] = [one_line(f"{f}, {g}" if g else f) for f, g in map(split_name, e.authors)]
        if more_authors(paper):
            record["authors"].append(OTHERS)
    if e.date:
        record["year"] = str(e.date.year)
        if e.date_precision != dates.YEAR:  # RIS's DA: YYYY/MM/DD/, the parts not known left empty
            record["date"] = e.date.strftime("%Y/%m/%d") if e.date_precision == dates.DAY else f"{e.date:%Y/%m}//"
    if e.abstract:
        record["abstract"] = one_line(e.abstract)
    if e.tags:
        record["keywords"] = [one_line(tag) for tag in e.tags]
    doi = paper_links.cited_doi(e)
    if doi:
        record["doi"] = verbatim(doi)
    if e.arxiv and not e.doi and not kind:  # a preprint: arXiv is where it is published
        record["publisher"] = "arXiv"
    record["urls"] = [verbatim(cited_url(paper, config))]
    record["id"] = verbatim(paper.cite_key)
    missing = _missing(paper)
    if missing:
        record["notes"] = [missing]
    return record


def ris(papers: Iterable[Paper], config: SiteConfig, cache: MutableMapping[str, str] | None = None) -> str:
    """An .ris file, the format EndNote, Zotero and Mendeley all import."""
    listed = list(papers)
    return ris_of([paper.slug for paper in listed], {paper.slug: paper for paper in listed}, config, cache)


def ris_of(slugs: Iterable[str], papers: Mapping[str, Paper], config: SiteConfig,
           cache: MutableMapping[str, str] | None = None) -> str:
    """As `ris`, for papers named by slug: a paper whose record is in `cache` is not read."""
    cache = {} if cache is None else cache
    parts = []
    for slug in slugs:
        text = cache.get(slug)
        if text is None:
            text = cache[slug] = ris_entry(papers[slug], config)
        parts.append(text)
    return "".join(parts)


def ris_entry(paper: Paper, config: SiteConfig) -> str:
    """One paper's RIS record as text."""
    return str(rispy.dumps([ris_record(paper, config)], implementation=_RisWriter))


def csl_item(paper: Paper, config: SiteConfig) -> dict[str, Any]:
    """A CSL-JSON item, as pandoc and Zotero read it."""
    e = paper.entry
    kind = paper_links.venue_kind(e.venue)
    item: dict[str, Any] = {"id": paper.cite_key, "type": _CSL_TYPE.get(kind or "", "article"), "title": e.title}
    if kind and e.venue:
        item["container-title"] = e.venue
    if e.authors:
        item["author"] = [{"family": f, "given": g} if g else {"literal": f} for f, g in map(split_name, e.authors)]
        if more_authors(paper):
            item["author"].append({"literal": OTHERS})
    if e.date:
        parts = (e.date.year, e.date.month, e.date.day)[: 3 - dates.PRECISIONS.index(e.date_precision)]
        item["issued"] = {"date-parts": [list(parts)]}
    if e.abstract:
        item["abstract"] = e.abstract
    if e.tags:
        item["keyword"] = ", ".join(e.tags)
    doi = paper_links.cited_doi(e)
    if doi:
        item["DOI"] = doi
    if e.arxiv and not kind:  # as Zotero gives a preprint: the repository as publisher, its id as number
        item["number"] = f"arXiv:{e.arxiv}"
        if not e.doi:
            item["publisher"] = "arXiv"
    item["URL"] = cited_url(paper, config)
    missing = _missing(paper)
    if missing:
        item["note"] = missing
    return item


def csl_json(papers: Iterable[Paper], config: SiteConfig, lines: dict[str, str] | None = None) -> str:
    """A CSL-JSON array (pandoc --bibliography, Zotero import); `lines` caches each item by slug."""
    return json_lines(papers, lambda p: csl_item(p, config), lines)


def csl_json_of(slugs: Iterable[str], papers: Mapping[str, Paper], config: SiteConfig,
                lines: dict[str, str] | None = None) -> str:
    """As `csl_json`, for papers named by slug: a paper whose line is in `lines` is not read."""
    lines = {} if lines is None else lines
    rows = []
    for slug in slugs:
        row = lines.get(slug)
        if row is None:
            row = lines[slug] = csl_line(papers[slug], config)
        rows.append(row)
    return "[\n" + ",\n".join(rows) + "\n]\n" if rows else "[]\n"


def csl_line(paper: Paper, config: SiteConfig) -> str:
    """One paper's line of a CSL-JSON array."""
    return json_line(csl_item(paper, config))
