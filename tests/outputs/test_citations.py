"""Citations: every .bib parses with bibtexparser, RIS with rispy, CSL-JSON as JSON, all agreeing with the entries."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import bibtexparser
import pytest
import rispy
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen import config as site_config
from sitegen import model
from sitegen.errors import Report
from sitegen.loader import entry_from_text
from sitegen.outputs import citations

from ..conftest import BuiltSite
from ..html_tools import committed_entries, entry_date

VTC = "vtc-dnn-compilation-with-virtual-tensors-for-data-movement"
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# A LaTeX special outside math that is not escaped: '&', '%', '#', '_' without a backslash before them,
# '~' and '^' anywhere (they are written as \textasciitilde{} / \textasciicircum{}).
UNESCAPED = re.compile(r"(?<!\\)[&%#_]|[~^]")


def bib_files(output: Path) -> list[str]:
    names = ["reading-list.bib"]
    for pattern in ("papers/*/cite.bib", "tags/*/papers.bib", "authors/*/papers.bib"):
        names += sorted(p.relative_to(output).as_posix() for p in output.glob(pattern))
    return names


@cache
def parse_bib(path: Path) -> bibtexparser.Library:
    return bibtexparser.parse_string(path.read_text(encoding="utf-8"))


def fields(entry: Any) -> dict[str, str]:
    return {f.key: str(f.value) for f in entry.fields}


def _slug(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def test_every_bib_file_is_there(built_site: BuiltSite) -> None:
    names = bib_files(built_site.output)
    kinds = built_site.result.pages_by_kind
    assert len(names) == 1 + kinds["cite-bib"] + kinds["tag-bib"] + kinds["author-bib"] == 1 + 106 + 42 + 17


def test_every_bib_parses_with_unique_keys_and_the_fields_the_entry_supports(built_site: BuiltSite) -> None:
    entries = committed_entries()
    for name in bib_files(built_site.output):
        library = parse_bib(built_site.output / name)
        assert library.failed_blocks == [], f"{name}: {[b.error for b in library.failed_blocks]}"
        keys = [e.key for e in library.entries]
        assert keys and len(keys) == len(set(keys)), f"{name}: duplicate keys"
        for entry in library.entries:
            f = fields(entry)
            meta = entries[_slug(f["url"])]
            assert f.get("title", "").strip("{}"), f"{name}: {entry.key} has no title"
            assert ("author" in f) == bool(meta.get("authors")), f"{name}: {entry.key} author"
            date = entry_date(meta)
            assert ("year" in f) == (date is not None), f"{name}: {entry.key} year"
            if date:
                assert f["year"] == str(date.year)
                assert f["month"] == MONTHS[date.month - 1]  # the bare month macro, not "{feb}"
            assert entry.entry_type == "misc"


def test_the_whole_list_has_every_paper_once_with_the_same_keys_as_each_page(built_site: BuiltSite) -> None:
    library = parse_bib(built_site.output / "reading-list.bib")
    by_slug = {_slug(fields(e)["url"]): e.key for e in library.entries}
    assert set(by_slug) == set(committed_entries()) and len(library.entries) == 106
    for slug, key in by_slug.items():
        [single] = parse_bib(built_site.output / "papers" / slug / "cite.bib").entries
        assert single.key == key
    assert by_slug[VTC] == "hu2026vtc"


def test_tag_and_author_bibs_hold_their_papers(built_site: BuiltSite) -> None:
    entries = committed_entries()
    tagged = {_slug(fields(e)["url"]) for e in parse_bib(built_site.output / "tags/compilers/papers.bib").entries}
    assert tagged == {s for s, m in entries.items() if "compilers" in (m.get("tags") or [])}
    vima = {_slug(fields(e)["url"]) for e in parse_bib(built_site.output / "authors/vima-gupta/papers.bib").entries}
    assert vima == {s for s, m in entries.items() if "Vima Gupta" in (m.get("authors") or [])} | {VTC}


def test_bibtex_cites_without_the_abstract_which_ris_and_csl_json_carry(built_site: BuiltSite) -> None:
    entries = committed_entries()
    with_abstract = {slug for slug, meta in entries.items() if (meta.get("abstract") or "").strip()}
    assert len(with_abstract) > 90  # the list's papers nearly all have one
    for name in bib_files(built_site.output):
        for entry in parse_bib(built_site.output / name).entries:
            assert "abstract" not in fields(entry), f"{name}: {entry.key}"
    records = {_slug(r["urls"][0]): r for r in rispy.loads(
        (built_site.output / "reading-list.ris").read_text(encoding="utf-8"))}
    items = {_slug(i["URL"]): i for i in json.loads((built_site.output / "reading-list.json").read_text("utf-8"))}
    for slug in with_abstract:
        abstract = " ".join(entries[slug]["abstract"].split())
        assert " ".join(records[slug]["abstract"].split()) == abstract
        assert " ".join(items[slug]["abstract"].split()) == abstract
        [single] = json.loads((built_site.output / "papers" / slug / "cite.json").read_text("utf-8"))
        assert single["abstract"] == items[slug]["abstract"]


def test_keys_do_not_depend_on_the_base_url(built_site: BuiltSite, root_site: BuiltSite) -> None:
    first = [e.key for e in parse_bib(built_site.output / "reading-list.bib").entries]
    second = [e.key for e in parse_bib(root_site.output / "reading-list.bib").entries]
    assert first == second


def test_vtc_bibtex_names_its_authors_and_others(built_site: BuiltSite) -> None:
    [entry] = parse_bib(built_site.output / "papers" / VTC / "cite.bib").entries
    f = fields(entry)
    assert f["author"] == "Hu, Muyan and Gupta, Ahan and Yuan, Jiachen and others"
    assert f["title"] == "{VTC: DNN Compilation with Virtual Tensors for Data Movement Elimination}"
    assert f["url"] == built_site.base_url + f"papers/{VTC}/"


def test_latex_specials_in_titles_are_escaped(built_site: BuiltSite) -> None:
    library = parse_bib(built_site.output / "reading-list.bib")
    titles = {_slug(fields(e)["url"]): fields(e)["title"] for e in library.entries}
    special = {s: m["title"] for s, m in committed_entries().items() if re.search(r"[&%#_~^$\\{}]", m["title"])}
    assert special, "the committed list has titles with '&' and '^'"
    for slug, title in titles.items():
        outside_math = re.sub(r"(?<!\\)\$[^$]*(?<!\\)\$", "", title)
        assert not UNESCAPED.search(outside_math), f"{slug}: {title}"
        assert title.count("{") - title.count(r"\{") == title.count("}") - title.count(r"\}"), title
    t3 = next(t for s, t in titles.items() if committed_entries()[s]["title"].startswith("T3:"))
    assert r"Tracking \& Triggering" in t3 and r"Compute \& Collectives" in t3
    m3 = next(t for s, t in titles.items() if committed_entries()[s]["title"].startswith("M^3ViT"))
    assert m3.startswith(r"{M\textasciicircum{}3ViT")


def test_latex_escape_keeps_math_and_escapes_everything_else() -> None:
    text = r"50% of A&B_c #1 {x} ~y^z \cmd and $O(n^2)$ with an unbalanced $x}$ tail"
    escaped = citations.latex_escape(text)
    assert escaped == (r"50\% of A\&B\_c \#1 \{x\} \textasciitilde{}y\textasciicircum{}z \textbackslash{}cmd and "
                       r"$O(n^2)$ with an unbalanced \$x\textbraceright{}\$ tail")


_SPECIALS = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "&": r"\&", "%": r"\%", "$": r"\$",
             "#": r"\#", "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
_LONE = {"{": r"\textbraceleft{}", "}": r"\textbraceright{}"}


def _escaped_char_by_char(text: str) -> str:
    """latex_escape spelled out: each special character outside nesting math replaced on its own,
    a brace without a partner spelled out in full (BibTeX counts '\\{' as a brace too)."""
    def plain(part: str) -> str:
        opened: list[int] = []
        lone: set[int] = set()
        for i, char in enumerate(part):
            if char == "{":
                opened.append(i)
            elif char == "}":
                if opened:
                    opened.pop()
                else:
                    lone.add(i)
        lone.update(opened)
        return "".join(_LONE[char] if i in lone else _SPECIALS.get(char, char) for i, char in enumerate(part))

    def nests(math: str) -> bool:
        depth = 0
        for char in math:
            if char in "{}":
                depth += 1 if char == "{" else -1
                if depth < 0:
                    return False
        return depth == 0

    text = " ".join(text.split())
    out, last = [], 0
    for match in re.finditer(r"(?<!\\)\$(?!\s*\$)(.+?)(?<!\\)\$", text, re.DOTALL):
        if nests(match.group(0)) and "\\\\" not in match.group(0):
            out += [plain(text[last:match.start()]), match.group(0)]
            last = match.end()
    return "".join([*out, plain(text[last:])])


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="\\{}&%$#_~^ \n\x00aZé", max_size=40))
def test_latex_escape_replaces_each_special_character_as_spelled_out(text: str) -> None:
    assert citations.latex_escape(text) == _escaped_char_by_char(text)


def test_hostile_titles_and_names_still_give_a_parseable_bib_entry() -> None:
    text = ("---\ntitle: 'Braces } { and @misc{evil, title = {x}} & 100% \\\\ $a_{b}$'\n"
            "authors: ['J. {Weird} Name', 'Ann \"Q\" Lee']\ndate: 2024-03-05\n---\n")
    report = Report()
    entry = entry_from_text(text, "content/papers/evil.md", "evil", report)
    assert entry is not None, report.format()
    cfg = site_config.SiteConfig()
    paper = model.Paper(entry, "papers/evil/", (), (), None, "name2024braces")
    library = bibtexparser.parse_string(citations.bibtex([paper], cfg))
    assert library.failed_blocks == [] and [e.key for e in library.entries] == ["name2024braces"]
    f = fields(library.entries[0])
    assert "@misc" in f["title"] and f["month"] == "mar" and f["author"].startswith(r"Name, J. \{Weird\}")


def test_every_ris_file_parses_with_rispy(built_site: BuiltSite) -> None:
    entries = committed_entries()
    records = rispy.loads((built_site.output / "reading-list.ris").read_text(encoding="utf-8"))
    assert len(records) == 106
    bib_keys = {e.key for e in parse_bib(built_site.output / "reading-list.bib").entries}
    assert {r["id"] for r in records} == bib_keys
    for path in sorted(built_site.output.glob("papers/*/cite.ris")):
        [record] = rispy.loads(path.read_text(encoding="utf-8"))
        meta = entries[path.parent.name]
        assert record["type_of_reference"] == "GEN"
        assert record["title"] == " ".join(meta["title"].split())
        names = [" ".join(reversed(a.split(", ", 1))) for a in record.get("authors", [])]
        assert names == list(meta.get("authors") or [])
        date = entry_date(meta)
        assert record.get("year") == (str(date.year) if date else None)


def test_csl_json_is_valid_json_with_id_title_and_type(built_site: BuiltSite) -> None:
    entries = committed_entries()
    items = json.loads((built_site.output / "reading-list.json").read_text(encoding="utf-8"))
    assert isinstance(items, list) and len(items) == 106
    assert len({i["id"] for i in items}) == 106
    for path in sorted(built_site.output.glob("papers/*/cite.json")):
        [item] = json.loads(path.read_text(encoding="utf-8"))
        assert {"id", "title", "type"} <= set(item) and item["type"] == "article"
        meta = entries[path.parent.name]
        date = entry_date(meta)
        assert item.get("issued") == ({"date-parts": [[date.year, date.month, date.day]]} if date else None)
        assert [a.get("literal") or f"{a['given']} {a['family']}" for a in item.get("author", [])] == list(
            meta.get("authors") or [])


@pytest.mark.parametrize("month", range(1, 13))
def test_every_month_is_written_as_its_macro(month: int) -> None:
    report = Report()
    entry = entry_from_text("---\ntitle: T\n---\n", "content/papers/t.md", "t", report)
    assert entry is not None
    paper = model.Paper(dataclasses.replace(entry, date=dt.date(2024, month, 1)), "papers/t/", (), (), None, "t2024")
    text = citations.bibtex([paper], site_config.SiteConfig())
    assert f"month = {MONTHS[month - 1]}," in text


def test_an_author_name_containing_and_stays_one_author() -> None:
    import bibtexparser
    from bibtexparser.middlewares import SeparateCoAuthors

    from sitegen.config import SiteConfig
    from sitegen.errors import Report
    from sitegen.loader import Content, entry_from_text
    from sitegen.model import build_site
    from sitegen.outputs.citations import bibtex

    text = "---\ntitle: Teams\nauthors: [Research and Development Team, Ada Lovelace]\ndate: 2024-01-02\n---\n"
    entry = entry_from_text(text, "content/papers/teams.md", "teams", Report())
    assert entry is not None
    site = build_site(SiteConfig(), Content((entry,), ()))
    parsed = bibtexparser.parse_string(bibtex(site.papers.values(), site.config),
                                       append_middleware=[SeparateCoAuthors()])
    assert parsed.entries[0]["author"] == ["{Research and Development Team}", "Lovelace, Ada"]
