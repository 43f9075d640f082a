"""Names the importer wrote, family first and without accents, become the paper's once it is resolved.

End to end: a profile dump imported (`sitegen import`), the paper resolved against the replay
server (`sitegen enrich`, or `sitegen import ID`), then the built site read back from its
pages: one author page per person, the old spelling's address sending readers on to it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from sitegen.cli import main
from sitegen.content.frontmatter import load_yaml, parse
from sitegen.pipeline.build import build
from tests.html_tools import by_class, main_of, read_html, text_of
from tests.ingest.enrich.replay import FIXTURES, ReplayServer, Reply

SCICODE = json.loads((FIXTURES / "hf" / "search_scicode.json").read_text())[0]["paper"]
AUTHORS = [a["name"] for a in SCICODE["authors"]]  # Minyang Tian, Luyu Gao, Shizhuo Dylan Zhang, …
FAMILY_FIRST = ["Tian Minyang", "Gao Luyu", "Zhang Shizhuo Dylan", "Chen Xinan", "Wu Bohao", "Peng Hao"]
ENTRY = "scicode-a-research-coding-benchmark-curated-by-scientists.md"
OTHER = "a-paper-nobody-has-written-yet.md"
OTHER_ABSTRACT = ("We study how a paper that no index has heard of can still be listed on its author's profile "
                  "page, and what a reading list makes of it while it stays unresolved.")


def _dump(authors: list[str]) -> str:
    """An author-profile dump of Tian Minyang, as the aggregator prints it (see the seeds), with two papers."""
    abstract = " ".join(SCICODE["summary"].split())
    return "\n".join([
        "Tian Minyang", "", "AI", "h-index9", "2papers", "40citations", "Novelty61%", "AI Score50", "", "2 Papers", "",
        "AIJul 18, 2024", SCICODE["title"], "", ", ".join(authors), "", abstract, "",
        "CLMar 3, 2025", "A Paper Nobody Has Written Yet", "", "Tian Minyang, Lee Ann", "", OTHER_ABSTRACT, ""])


@pytest.fixture
def site(tmp_path: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SITEGEN_HF_API", f"{replay.url}/api")
    monkeypatch.setenv("SITEGEN_ARXIV_API", f"{replay.url}/api/query")
    monkeypatch.setenv("SITEGEN_S2_API", f"{replay.url}/graph/v1")
    replay.add("/api/papers/search", Reply.json([]))
    replay.add("/api/papers/search", Reply.fixture("hf/search_scicode.json"),
               query={"q": SCICODE["title"], "limit": "10"})
    replay.add("/api/query", Reply.fixture("arxiv/empty_id_0000.0000.xml"))
    replay.add("/api/query", Reply.fixture("arxiv/id_2407.13168_scicode.xml"),
               query={"id_list": "2407.13168", "start": "0", "max_results": "1"})
    replay.add("/api/papers/2407.13168", Reply.fixture("hf/paper_2407.13168.json"))
    root = tmp_path / "site"
    (root / "content" / "dumps").mkdir(parents=True)
    (root / "site.yaml").write_text("title: Test list\nbase_url: https://example.org/\n", encoding="utf-8")
    return root


def sitegen(root: Path, command: str, *args: str) -> Result:
    result = CliRunner().invoke(main, [command, "--root", str(root), *args])
    assert result.exit_code == 0, result.output
    return result


def imported(root: Path, authors: list[str] = FAMILY_FIRST) -> None:
    dump = root / "content" / "dumps" / "tian-minyang.txt"
    dump.write_text(_dump(authors), encoding="utf-8")
    sitegen(root, "import", str(dump), "--captured", "2026-05-19")


def enrich(root: Path, *args: str) -> Result:
    return sitegen(root, "enrich", "--delay", "0", "--sources", "hf,arxiv", *args)


def meta(root: Path, name: str) -> dict[str, Any]:
    path = root / "content" / "papers" / name
    return parse(path.read_text(encoding="utf-8"), name).meta


def profile(root: Path, name: str) -> dict[str, Any]:
    data, _ = load_yaml((root / "content" / "authors" / name).read_text(encoding="utf-8"), name)
    return data


def test_enrich_writes_the_papers_names_over_the_importers(site: Path) -> None:
    imported(site)
    assert meta(site, ENTRY)["authors"] == FAMILY_FIRST  # as the dump wrote them
    enrich(site)
    assert meta(site, ENTRY)["authors"] == AUTHORS
    assert meta(site, OTHER)["authors"] == ["Tian Minyang", "Lee Ann"]  # unresolved: as the importer wrote it


def test_the_profile_takes_the_papers_spelling_and_keeps_the_old_as_an_alias(site: Path) -> None:
    imported(site)
    enrich(site)
    owner = profile(site, "tian-minyang.yaml")
    assert owner["name"] == "Minyang Tian" and owner["aliases"] == ["Tian Minyang"] and owner["h_index"] == 9
    assert profile(site, "luyu-gao.yaml") == {"name": "Luyu Gao", "aliases": ["Gao Luyu"], "huggingface": "Luyu"}
    assert profile(site, "xinan-chen.yaml") == {"name": "Xinan Chen", "aliases": ["Chen Xinan"]}
    folder = site / "content"
    before = {p: p.read_bytes() for p in folder.rglob("*.*") if "lookups" not in p.parts}
    enrich(site, "--refresh")
    assert {p: p.read_bytes() for p in folder.rglob("*.*") if "lookups" not in p.parts} == before


def test_the_built_site_has_one_page_per_person_and_the_old_spelling_leads_there(site: Path) -> None:
    imported(site)
    enrich(site)
    build(site, search=False)
    public = site / "public" / "authors"
    page = read_html(public / "minyang-tian" / "index.html")
    assert [text_of(h) for h in by_class(main_of(page), "item-title")] == [
        "A Paper Nobody Has Written Yet", SCICODE["title"]]
    for old, new in (("tian-minyang", "minyang-tian"), ("gao-luyu", "luyu-gao")):
        redirect = read_html(public / old / "index.html")
        refresh = [m.get("content") for m in redirect.iter("meta") if m.get("http-equiv") == "refresh"]
        assert refresh == [f"0; url=../../authors/{new}/"], old
        assert not list(by_class(redirect, "item-title"))  # no second page of papers
    index = main_of(read_html(public / "index.html"))
    listed = [text_of(a) for a in index.iter("a") if "authors/" in a.get("href", "")]
    assert "Minyang Tian" in listed and "Tian Minyang" not in listed and "Gao Luyu" not in listed


def test_importing_the_dump_again_keeps_one_profile_and_the_papers_names(site: Path) -> None:
    imported(site)
    enrich(site)
    before = sorted(p.name for p in (site / "content" / "authors").iterdir())
    imported(site)
    sitegen(site, "import", str(site / "content" / "dumps" / "tian-minyang.txt"), "--update")
    assert sorted(p.name for p in (site / "content" / "authors").iterdir()) == before
    assert profile(site, "tian-minyang.yaml")["name"] == "Minyang Tian"
    assert meta(site, ENTRY)["authors"] == AUTHORS
    sitegen(site, "check")


def test_import_by_id_into_the_imported_entry_writes_the_papers_names(site: Path) -> None:
    imported(site)
    sitegen(site, "import", "--delay", "0", "2407.13168")
    assert meta(site, ENTRY)["authors"] == AUTHORS
    assert profile(site, "tian-minyang.yaml")["aliases"] == ["Tian Minyang"]
    assert profile(site, "hao-peng.yaml") == {"name": "Hao Peng", "aliases": ["Peng Hao"]}


def test_names_typed_by_hand_are_never_replaced(site: Path) -> None:
    imported(site)
    entry = site / "content" / "papers" / ENTRY
    typed = ["Tian Minyang", "Gao Luyu", "Zhang S. D.", "Chen Xinan", "Wu Bohao", "Peng Hao"]
    text = entry.read_text(encoding="utf-8").replace("- Zhang Shizhuo Dylan\n", "- Zhang S. D.\n")
    entry.write_text(text, encoding="utf-8")
    assert meta(site, ENTRY)["authors"] == typed
    enrich(site)
    assert meta(site, ENTRY)["authors"] == typed
    assert meta(site, ENTRY)["arxiv"] == "2407.13168"  # resolved all the same
    assert profile(site, "tian-minyang.yaml")["name"] == "Tian Minyang"
    assert "aliases" not in profile(site, "tian-minyang.yaml")
    assert sorted(p.name for p in (site / "content" / "authors").iterdir()) == ["tian-minyang.yaml"]


def test_a_name_with_no_counterpart_among_the_papers_leaves_the_list_and_says_so(site: Path) -> None:
    names = [*FAMILY_FIRST[:5], "Peng Hui"]  # the paper's sixth author is Hao Peng
    imported(site, names)
    result = enrich(site, "--report", str(site / "report.md"))
    assert meta(site, ENTRY)["authors"] == names
    assert meta(site, ENTRY)["arxiv"] == "2407.13168"
    assert (f"content/papers/{ENTRY}:3: warning[W1076]: the authors the importer wrote stay as they are: "
            "'Peng Hui' is none of the paper's authors\n"
            "  hint: if the entry's names are misspelt, write them as the paper does") in result.output
    assert "'Peng Hui' is none of the paper's authors" in (site / "report.md").read_text(encoding="utf-8")
    assert "aliases" not in profile(site, "tian-minyang.yaml")
