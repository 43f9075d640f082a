"""Every tag and author offers its papers as BibTeX, RIS and CSL-JSON, linked from its page beside the feed."""

from __future__ import annotations

import json

import bibtexparser
import rispy

from ...conftest import BuiltSite
from ...html_tools import committed_entries, main_of, read_html
from .test_citations import parse_bib, slugs_by_key


def papers_by_format(site: BuiltSite, folder: str) -> dict[str, list[str]]:
    """The slugs each citation file of a tag or an author holds, in order, read by each format's own reader."""
    slug = slugs_by_key(site.output)
    bib = bibtexparser.parse_string(site.text(f"{folder}/papers.bib"))
    assert bib.failed_blocks == []
    return {"bib": [slug[e.key] for e in bib.entries],
            "ris": [slug[r["id"]] for r in rispy.loads(site.text(f"{folder}/papers.ris"))],
            "json": [slug[i["id"]] for i in json.loads(site.text(f"{folder}/papers.json"))]}


def test_every_tag_and_author_has_its_papers_in_all_three_formats_in_one_order(built_site: BuiltSite) -> None:
    folders = sorted(p.parent.relative_to(built_site.output).as_posix()
                     for p in [*built_site.output.glob("tags/*/index.html"),
                               *built_site.output.glob("authors/*/index.html")])
    kinds = built_site.result.pages_by_kind
    assert len(folders) == kinds["tag"] + kinds["author"] == kinds["tag-ris"] + kinds["author-json"] > 50
    for folder in folders:
        found = papers_by_format(built_site, folder)
        assert found["ris"] == found["bib"] == found["json"] and found["bib"], folder


def test_a_tags_files_hold_exactly_its_papers_with_the_records_of_the_whole_list(built_site: BuiltSite) -> None:
    entries = committed_entries()
    found = papers_by_format(built_site, "tags/compilers")
    assert set(found["ris"]) == {s for s, m in entries.items() if "compilers" in (m.get("tags") or [])}
    whole = {r["id"]: r for r in rispy.loads(built_site.text("reading-list.ris"))}
    for record in rispy.loads(built_site.text("tags/compilers/papers.ris")):
        assert record == whole[record["id"]]
    items = {i["id"]: i for i in json.loads(built_site.text("reading-list.json"))}
    for item in json.loads(built_site.text("authors/vima-gupta/papers.json")):
        assert item == items[item["id"]]
    assert [e.key for e in parse_bib(built_site.output / "authors/vima-gupta/papers.bib").entries] == [
        i["id"] for i in json.loads(built_site.text("authors/vima-gupta/papers.json"))]


def test_tag_and_author_pages_link_the_three_files_beside_the_feed(built_site: BuiltSite) -> None:
    for page in ("tags/compilers/index.html", "authors/vima-gupta/index.html"):
        links = {a.text: a.get("href") for a in main_of(read_html(built_site.output / page)).iter("a")
                 if a.get("download") is not None}
        assert links == {"BibTeX": "../../" + page.replace("index.html", "papers.bib"),
                         "RIS": "../../" + page.replace("index.html", "papers.ris"),
                         "CSL-JSON": "../../" + page.replace("index.html", "papers.json")}, page
        for href in links.values():
            assert (built_site.output / page).parent.joinpath(href).resolve().is_file()
