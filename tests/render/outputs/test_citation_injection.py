"""No value of an entry can end its citation field or record early and write fields or records of its own.

The schema refuses such DOIs and arXiv ids; these entries are made past it, as a bug or a
future field could, to show the citation writers hold by themselves. Each output is read
back with the parser its users have (bibtexparser, rispy, json).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
from typing import Any

import bibtexparser
import rispy
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import entry_from_text
from sitegen.model.site import Paper
from sitegen.render.outputs import citations

CONFIG = site_config.SiteConfig()
BIB_FIELDS = {"title", "author", "year", "month", "eprint", "archiveprefix", "primaryclass", "doi", "keywords", "url"}
RIS_FIELDS = {"type_of_reference", "title", "authors", "year", "date", "abstract", "keywords", "doi", "urls", "id"}


def _paper(slug: str, **fields: Any) -> Paper:
    """A paper with every field a citation holds: as its file would give it, then `fields` put in."""
    text = (f"---\ntitle: Plain {slug}\nauthors: [Ann Lee]\ndate: 2024-03-05\narxiv: '2101.00010'\n"
            "category: cs.DC\ndoi: 10.1000/x\ntags: [t]\nabstract: A.\n---\n")
    entry = entry_from_text(text, f"content/papers/{slug}.md", slug, Report())
    assert entry is not None
    return Paper(dataclasses.replace(entry, **fields), f"papers/{slug}/", (), (), None, f"lee2024{slug}")


def _papers(**hostile: Any) -> list[Paper]:
    """A hostile paper between two plain ones."""
    return [_paper("a"), _paper("b", **hostile), _paper("c")]


def _bibtex_balanced(value: str) -> bool:
    """Whether a value's braces balance as BibTeX counts them: every brace, a backslash before it or not."""
    depth = 0
    for char in value:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return False
    return depth == 0


def _bib(papers: list[Paper]) -> list[dict[str, str]]:
    library = bibtexparser.parse_string(citations.bibtex(papers, CONFIG))
    assert library.failed_blocks == [] and [e.key for e in library.entries] == [p.cite_key for p in papers]
    found = [{f.key: str(f.value) for f in e.fields} for e in library.entries]
    for fields in found:
        assert set(fields) == BIB_FIELDS, fields
        assert all(_bibtex_balanced(value) for value in fields.values()), fields
    return found


def _ris(papers: list[Paper]) -> list[dict[str, Any]]:
    records: list[dict[str, Any]] = rispy.loads(citations.ris(papers, CONFIG))
    assert [r["id"] for r in records] == [p.cite_key for p in papers]
    for record in records:
        assert set(record) == RIS_FIELDS and record["type_of_reference"] == "GEN", record
    return records


def _csl(papers: list[Paper]) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads(citations.csl_json(papers, CONFIG))
    assert [i["id"] for i in items] == [p.cite_key for p in papers]
    return items


HOSTILE = {
    "doi": "10.1234/x}, note = {pwned",
    "arxiv": "2101.00010}, howpublished = {x",
    "category": "cs.DC} }",
    "title": "Braces } }} $\\}\\}$, author = {Mallory}, $\\{\\{$\nER  - \nTY  - JOUR",
    "abstract": "First line.\nER  - \n\nTY  - BOOK\r\nTI  - Injected\x1c\x85\u2028 end",
    "tags": ("ok", "kw\nER  - ", "brace}"),
    "authors": ("Ann }Lee", "Eve\nAU  - Mallory"),
}


def test_a_hostile_entry_is_one_bibtex_entry_with_exactly_its_fields() -> None:
    plain, hostile, after = _bib(_papers(**HOSTILE))
    assert hostile["doi"] == "10.1234/x%7D,%20note%20=%20%7Bpwned"
    assert hostile["eprint"] == "2101.00010%7D,%20howpublished%20=%20%7Bx"
    assert hostile["primaryclass"] == "cs.dc%7D%20%7D"  # arXiv's case rule: only a two-letter subject is upper case
    assert hostile["author"] == r"\textbraceright{}Lee, Ann and Mallory, Eve AU -"
    assert plain["title"] == "{Plain a}" and after["title"] == "{Plain c}" and after["doi"] == "10.1000/x"


def test_a_hostile_entry_is_one_ris_record_each_value_on_one_line() -> None:
    plain, hostile, after = _ris(_papers(**HOSTILE))
    assert hostile["title"] == "Braces } }} $\\}\\}$, author = {Mallory}, $\\{\\{$ ER  - TY  - JOUR"
    assert hostile["abstract"] == "First line. ER  - TY  - BOOK TI  - Injected end"
    assert hostile["keywords"] == ["ok", "kw ER  -", "brace}"]
    assert hostile["authors"] == ["}Lee, Ann", "Mallory, Eve AU -"]
    assert hostile["doi"] == "10.1234/x%7D,%20note%20=%20%7Bpwned"
    assert plain["title"] == "Plain a" and after["title"] == "Plain c"


def test_a_hostile_entry_is_one_csl_json_item_holding_its_values_as_they_are() -> None:
    _, hostile, _ = _csl(_papers(**HOSTILE))
    assert hostile["title"] == HOSTILE["title"] and hostile["abstract"] == HOSTILE["abstract"]
    assert hostile["DOI"] == HOSTILE["doi"] and hostile["keyword"] == ", ".join(HOSTILE["tags"])


_NASTY = st.text(st.sampled_from(list("{}\\$%&#_~^@,=\"' \n\r\t\x0b\x0c\x1c\x85\u2028\x00\x07aZé")), max_size=30)
_WORDY = _NASTY.map(lambda text: "w" + text + "w")  # a name, tag or title is never empty or all spaces


@settings(max_examples=300, deadline=None)
@given(title=_WORDY, abstract=_WORDY, doi=_NASTY, arxiv=_NASTY, tags=st.lists(_WORDY, min_size=1, max_size=3),
       authors=st.lists(_WORDY.map(lambda name: "Ann " + name), min_size=1, max_size=3))
@example(title="$\\}$ x $\\{$", abstract="a", doi="}", arxiv="{", tags=["}"], authors=["Ann }"])
def test_any_values_give_one_record_per_paper_in_every_format(title: str, abstract: str, doi: str, arxiv: str,
                                                            tags: list[str], authors: list[str]) -> None:
    papers = _papers(title=title, abstract=abstract, doi="10.1000/" + doi, arxiv=arxiv + "1", tags=tuple(tags),
                     authors=tuple(authors), date=dt.date(2024, 1, 2))
    _bib(papers)
    records = _ris(papers)
    assert all("\n" not in v for r in records for v in r.values() if isinstance(v, str))
    assert len(_csl(papers)) == 3
