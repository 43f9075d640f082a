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

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import entry_from_text
from sitegen.model.site import Paper
from sitegen.render.outputs import citations

from ...conftest import BuiltSite
from ...html_tools import committed_entries, entry_date

VTC = "vtc-dnn-compilation-with-virtual-tensors-for-data-movement"
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# A LaTeX special outside math that is not escaped: '&', '%', '#', '_' without a backslash before them,
# '~' and '^' anywhere (they are written as \textasciitilde{} / \textasciicircum{}).
UNESCAPED = re.compile(r"(?<!\\)[&%#_]|[~^]")


def bib_files(output: Path) -> list[str]:
    names = ["reading-list.bib"]
    for pattern in ("papers/*/cite.bib",):
        names += sorted(p.relative_to(output).as_posix() for p in output.glob(pattern))
    return names


@cache
def parse_bib(path: Path) -> bibtexparser.Library:
    return bibtexparser.parse_string(path.read_text(encoding="utf-8"))


def fields(entry: Any) -> dict[str, str]:
    return {f.key: str(f.value) for f in entry.fields}


@cache
def slugs_by_key(output: Path) -> dict[str, str]:
    """cite key -> slug, from each paper page's own cite.bib (a `url` is the paper's, not the page's)."""
    out = {}
    for path in sorted(output.glob("papers/*/cite.bib")):
        [entry] = parse_bib(path).entries
        out[entry.key] = path.parent.name
    return out


def cited_url(meta: dict[str, Any], page: str) -> str:
    """The address a citation should give, from the front matter: the paper's own, the page's only failing that."""
    links = meta.get("links") or {}
    if meta.get("arxiv"):
        return f"https://arxiv.org/abs/{meta['arxiv']}"
    if links.get("abs"):
        return str(links["abs"])
    if meta.get("doi"):
        return f"https://doi.org/{meta['doi']}"
    return str(links.get("pdf") or page)


def cited_names(meta: dict[str, Any]) -> list[str]:
    """The authors a citation names: the entry's, then `others` where it names only the first ones."""
    names = list(meta.get("authors") or [])
    more = meta.get("authors_truncated") or (meta.get("author_count") or 0) > len(names)
    return [*names, "others"] if names and more else names


def test_every_bib_file_is_there(built_site: BuiltSite) -> None:
    names = bib_files(built_site.output)
    kinds = built_site.result.pages_by_kind
    assert len(names) == 1 + kinds["cite-bib"] == 1 + 106


def test_every_bib_parses_with_unique_keys_and_the_fields_the_entry_supports(built_site: BuiltSite) -> None:
    entries = committed_entries()
    for name in bib_files(built_site.output):
        library = parse_bib(built_site.output / name)
        assert library.failed_blocks == [], f"{name}: {[b.error for b in library.failed_blocks]}"
        keys = [e.key for e in library.entries]
        assert keys and len(keys) == len(set(keys)), f"{name}: duplicate keys"
        for entry in library.entries:
            f = fields(entry)
            slug = slugs_by_key(built_site.output)[entry.key]
            meta = entries[slug]
            assert f["url"] == cited_url(meta, built_site.base_url + f"papers/{slug}/"), f"{name}: {entry.key} url"
            assert f.get("title", "").strip("{}"), f"{name}: {entry.key} has no title"
            assert ("author" in f) == bool(meta.get("authors")), f"{name}: {entry.key} author"
            date = entry_date(meta)
            assert ("year" in f) == (date is not None), f"{name}: {entry.key} year"
            if date:
                assert f["year"] == str(date.year)
                assert f["month"] == MONTHS[date.month - 1]  # the bare month macro, not "{feb}"
            assert entry.entry_type == "misc" or meta.get("venue"), f"{name}: {entry.key} has no venue"


def test_the_whole_list_has_every_paper_once_with_the_same_entry_as_each_page(built_site: BuiltSite) -> None:
    library = parse_bib(built_site.output / "reading-list.bib")
    whole = {e.key: fields(e) for e in library.entries}
    assert len(whole) == len(library.entries) == 106
    keys = {}
    for slug in committed_entries():
        [single] = parse_bib(built_site.output / "papers" / slug / "cite.bib").entries
        assert whole[single.key] == fields(single), slug
        keys[slug] = single.key
    assert sorted(keys.values()) == sorted(whole)
    assert keys[VTC] == "hu2026vtc"


def _cited(built_site: BuiltSite, page: str) -> set[str]:
    """The papers a page's "Cite them" joins (in the browser: tests/render/outputs/test_topic_citations.py)."""
    found = re.search(r'class="cite-bundle"[^>]*data-papers="([^"]*)"', built_site.text(page))
    assert found is not None, page
    return set(found.group(1).split())


def test_tag_and_author_pages_cite_their_papers(built_site: BuiltSite) -> None:
    entries = committed_entries()
    tagged = _cited(built_site, "tags/compilers/index.html")
    assert tagged == {s for s, m in entries.items() if "compilers" in (m.get("tags") or [])}
    vima = _cited(built_site, "authors/vima-gupta/index.html")
    assert vima == {s for s, m in entries.items() if "Vima Gupta" in (m.get("authors") or [])} | {VTC}
    assert all((built_site.output / "papers" / s / "cite.bib").is_file() for s in tagged | vima)


def test_bibtex_cites_without_the_abstract_which_ris_and_csl_json_carry(built_site: BuiltSite) -> None:
    entries = committed_entries()
    with_abstract = {slug for slug, meta in entries.items() if (meta.get("abstract") or "").strip()}
    assert len(with_abstract) > 90  # the list's papers nearly all have one
    for name in bib_files(built_site.output):
        for entry in parse_bib(built_site.output / name).entries:
            assert "abstract" not in fields(entry), f"{name}: {entry.key}"
    slug_of = slugs_by_key(built_site.output)
    records = {slug_of[r["id"]]: r for r in rispy.loads(
        (built_site.output / "reading-list.ris").read_text(encoding="utf-8"))}
    items = {slug_of[i["id"]]: i for i in json.loads((built_site.output / "reading-list.json").read_text("utf-8"))}
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
    assert f["url"] == built_site.base_url + f"papers/{VTC}/"  # nothing else identifies it yet


def test_latex_specials_in_titles_are_escaped(built_site: BuiltSite) -> None:
    library = parse_bib(built_site.output / "reading-list.bib")
    titles = {slugs_by_key(built_site.output)[e.key]: fields(e)["title"] for e in library.entries}
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
    a brace without a partner spelled out in full; math is kept only when its braces nest both as
    BibTeX counts them ('\\{' too) and as bibtexparser does (the escaped ones skipped)."""
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

    def nests(math: str, skip_escaped: bool = False) -> bool:
        depth = 0
        for i, char in enumerate(math):
            if char in "{}" and not (skip_escaped and i and math[i - 1] == "\\"):
                depth += 1 if char == "{" else -1
                if depth < 0:
                    return False
        return depth == 0

    text = " ".join(text.split())
    out, last = [], 0
    for match in re.finditer(r"(?<!\\)\$(?!\s*\$)(.+?)(?<!\\)\$", text, re.DOTALL):
        if nests(match.group(0)) and nests(match.group(0), True) and "\\\\" not in match.group(0):
            out += [plain(text[last:match.start()]), match.group(0)]
            last = match.end()
    return "".join([*out, plain(text[last:])])


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="\\{}&%$#_~^ \n\x00aZé", max_size=40))
def test_latex_escape_replaces_each_special_character_as_spelled_out(text: str) -> None:
    assert citations.latex_escape(text) == _escaped_char_by_char(text)


def test_math_whose_braces_nest_for_bibtex_only_is_escaped_so_every_reader_keeps_the_next_field() -> None:
    text = "---\ntitle: 'A $\\{}$ title'\nauthors: ['Ann w$\\{}$w']\ntags: ['k$\\{}$']\ndate: 2024-01-02\n---\n"
    entry = entry_from_text(text, "content/papers/t.md", "t", Report())
    assert entry is not None
    paper = Paper(entry, "papers/t/", (), (), None, "w2024a")
    library = bibtexparser.parse_string(citations.bibtex([paper], site_config.SiteConfig()))
    assert library.failed_blocks == [] and len(library.entries) == 1
    f = fields(library.entries[0])
    assert {"title", "author", "keywords", "url"} <= set(f), f
    assert f["title"] == r"{A \$\textbackslash{}\{\}\$ title}"


def test_hostile_titles_and_names_still_give_a_parseable_bib_entry() -> None:
    text = ("---\ntitle: 'Braces } { and @misc{evil, title = {x}} & 100% \\\\ $a_{b}$'\n"
            "authors: ['J. {Weird} Name', 'Ann \"Q\" Lee']\ndate: 2024-03-05\n---\n")
    report = Report()
    entry = entry_from_text(text, "content/papers/evil.md", "evil", report)
    assert entry is not None, report.format()
    cfg = site_config.SiteConfig()
    paper = Paper(entry, "papers/evil/", (), (), None, "name2024braces")
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
        assert names == cited_names(meta)
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
        assert [a.get("literal") or f"{a['given']} {a['family']}" for a in item.get("author", [])] == cited_names(meta)


@pytest.mark.parametrize("month", range(1, 13))
def test_every_month_is_written_as_its_macro(month: int) -> None:
    report = Report()
    entry = entry_from_text("---\ntitle: T\n---\n", "content/papers/t.md", "t", report)
    assert entry is not None
    paper = Paper(dataclasses.replace(entry, date=dt.date(2024, month, 1)), "papers/t/", (), (), None, "t2024")
    text = citations.bibtex([paper], site_config.SiteConfig())
    assert f"month = {MONTHS[month - 1]}," in text


def test_an_author_name_containing_and_stays_one_author() -> None:
    import bibtexparser
    from bibtexparser.middlewares import SeparateCoAuthors

    from sitegen.common.errors import Report
    from sitegen.content.config import SiteConfig
    from sitegen.content.loader import Content, entry_from_text
    from sitegen.model.model import build_site
    from sitegen.render.outputs.citations import bibtex

    text = "---\ntitle: Teams\nauthors: [Research and Development Team, Ada Lovelace]\ndate: 2024-01-02\n---\n"
    entry = entry_from_text(text, "content/papers/teams.md", "teams", Report())
    assert entry is not None
    site = build_site(SiteConfig(), Content((entry,), ()))
    parsed = bibtexparser.parse_string(bibtex(site.papers.values(), site.config),
                                       append_middleware=[SeparateCoAuthors()])
    assert parsed.entries[0]["author"] == ["{Research and Development Team}", "Lovelace, Ada"]


@pytest.mark.parametrize(("arxiv", "doi"), [("2507.14417", "10.48550/arXiv.2507.14417"),
                                            ("2507.14417v3", "10.48550/arXiv.2507.14417"),
                                            ("hep-th/9901001", "10.48550/arXiv.hep-th/9901001")])
def test_an_arxiv_preprint_is_cited_by_its_ids_in_every_format(arxiv: str, doi: str) -> None:
    text = f"---\ntitle: T\nauthors: [Ann Lee]\ndate: 2025-07-19\narxiv: '{arxiv}'\ncategory: cs.lg\n---\n"
    entry = entry_from_text(text, "content/papers/t.md", "t", Report())
    assert entry is not None
    paper = Paper(entry, "papers/t/", (), (), None, "lee2025t")
    cfg = site_config.SiteConfig()
    [bib] = bibtexparser.parse_string(citations.bibtex([paper], cfg)).entries
    f = fields(bib)
    assert bib.entry_type == "misc"
    assert (f["eprint"], f["archiveprefix"], f["primaryclass"], f["doi"], f["url"]) == (
        arxiv, "arXiv", "cs.LG", doi, f"https://arxiv.org/abs/{arxiv}")
    [record] = rispy.loads(citations.ris([paper], cfg))
    assert (record["doi"], record["urls"], record["publisher"]) == (doi, [f"https://arxiv.org/abs/{arxiv}"], "arXiv")
    [item] = json.loads(citations.csl_json([paper], cfg))
    assert (item["type"], item["DOI"], item["URL"], item["number"], item["publisher"]) == (
        "article", doi, f"https://arxiv.org/abs/{arxiv}", f"arXiv:{arxiv}", "arXiv")


@pytest.mark.parametrize(("venue", "bib_type", "field", "ris", "csl"), [
    ("Journal of Machine Learning Research", "article", "journal", "JOUR", "article-journal"),
    ("IEEE Transactions on Parallel & Distributed Systems", "article", "journal", "JOUR", "article-journal"),
    ("Proceedings of the VLDB Endowment", "article", "journal", "JOUR", "article-journal"),
    ("International Conference on Machine Learning", "inproceedings", "booktitle", "CONF", "paper-conference"),
    ("arXiv.org", "misc", None, "GEN", "article"),  # a preprint server is no venue
])
def test_a_venue_makes_the_entry_an_article_or_a_conference_paper(venue: str, bib_type: str, field: str | None,
                                                                  ris: str, csl: str) -> None:
    text = f"---\ntitle: T\nauthors: [Ann Lee]\ndate: 2025-07-19\nvenue: '{venue}'\n---\n"
    entry = entry_from_text(text, "content/papers/t.md", "t", Report())
    assert entry is not None
    paper = Paper(entry, "papers/t/", (), (), None, "lee2025t")
    cfg = site_config.SiteConfig()
    [bib] = bibtexparser.parse_string(citations.bibtex([paper], cfg)).entries
    assert bib.entry_type == bib_type
    if field:
        assert fields(bib)[field] == citations.latex_escape(venue)
    [record] = rispy.loads(citations.ris([paper], cfg))
    assert record["type_of_reference"] == ris and record.get("secondary_title") == (venue if field else None)
    [item] = json.loads(citations.csl_json([paper], cfg))
    assert item["type"] == csl and item.get("container-title") == (venue if field else None)
