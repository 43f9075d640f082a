"""The list's own citation graph: `cites:` matched against the list's arXiv ids and DOIs, both ways."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from click.testing import CliRunner

from sitegen.cli import main
from sitegen.content.loader import Entry
from sitegen.model.citations import Citations, counts, id_key, site_citations
from sitegen.pipeline.build import build
from sitegen.pipeline.site_engine import SiteEngine

from ..html_tools import by_class, parse_html, read_html, text_of
from ..site_factory import copy_site, tree_bytes


def entry(slug: str, *, arxiv: str | None = None, doi: str | None = None, cites: tuple[str, ...] = ()) -> Entry:
    return Entry(f"content/papers/{slug}.md", slug, slug.title(), (), "", "", arxiv=arxiv, doi=doi, cites=cites,
                 date=dt.date(2024, 1, 1))


def test_ids_are_matched_as_the_list_writes_them() -> None:
    assert id_key("2205.14135v2") == id_key("arXiv:2205.14135") == "2205.14135"
    assert id_key("10.1145/ABC.1") == id_key(" 10.1145/abc.1") == "doi:10.1145/abc.1"
    assert id_key("hep-th/9901001") == "hep-th/9901001"
    assert id_key("not an id") is None


def test_each_paper_knows_whom_it_cites_on_the_list_and_who_cites_it() -> None:
    entries = [
        entry("a", arxiv="2205.14135", cites=("10.1000/B", "2101.99999", "2205.14135", "10.1000/c")),
        entry("b", doi="10.1000/b", cites=("2205.14135v1",)),
        entry("c", arxiv="2301.00001", doi="10.1000/C"),
        entry("d", cites=("10.1000/elsewhere",)),  # cites nothing on the list: no record
        entry("e", doi="10.1000/b"),  # a DOI another paper holds first: the first owns it
    ]
    assert site_citations(entries) == {
        "a": Citations(cites=("b", "c"), cited_by=("b",)),  # never itself; the unknown id left out
        "b": Citations(cites=("a",), cited_by=("a",)),
        "c": Citations(cited_by=("a",)),
    }
    assert counts(site_citations(entries)) == {"a": 1, "b": 1, "c": 1}


def _cite(path: Path, ids: list[str]) -> None:
    text = path.read_text()
    head, body = text.split("\n", 1)
    path.write_text(f"{head}\ncites: [{', '.join(repr(i) for i in ids)}]\n{body}")


def _arxiv(path: Path) -> str:
    found = re.search(r"(?m)^arxiv: '?([0-9.]+)'?$", path.read_text())
    assert found, path
    return found[1]


def test_paper_pages_say_what_they_cite_and_what_cites_them(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site")
    papers = sorted(p for p in (root / "content" / "papers").glob("*.md") if "\narxiv: " in p.read_text())
    citing, cited, also, bystander = papers[:4]
    _cite(citing, [_arxiv(cited) + "v3", f"arXiv:{_arxiv(also)}", "10.9999/not-on-the-list"])
    _cite(also, [_arxiv(cited)])
    assert CliRunner().invoke(main, ["check", "--root", str(root)]).exit_code == 0
    build(root, tmp_path / "public", "https://example.org/", search=False)

    def section(path: Path, heading: str) -> list[str]:
        page = read_html(tmp_path / "public" / "papers" / path.stem / "index.html")
        found = [s for s in page.iter("section") if s.get("aria-labelledby") == heading]
        return [a.get("href") or "" for s in found for a in s.iter("a")]

    assert sorted(section(citing, "cites-heading")) == sorted(f"../../papers/{p.stem}/" for p in (cited, also))
    assert section(citing, "cited-by-heading") == []
    assert sorted(section(cited, "cited-by-heading")) == sorted(f"../../papers/{p.stem}/" for p in (citing, also))
    assert section(also, "cited-by-heading") == [f"../../papers/{citing.stem}/"]
    assert section(bystander, "cites-heading") == section(bystander, "cited-by-heading") == []
    page = read_html(tmp_path / "public" / "papers" / cited.stem / "index.html")
    heading = next(h for h in page.iter("h2") if h.get("id") == "cited-by-heading")
    assert text_of(heading) == "Cited by on this list 2"


def test_a_bad_id_in_cites_is_an_error_at_its_line(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    path = sorted((root / "content" / "papers").glob("*.md"))[0]
    head, body = path.read_text().split("\n", 1)
    path.write_text(f"{head}\ncites:\n- '2205.14135'\n- not-an-id\n{body}")
    result = CliRunner().invoke(main, ["check", "--root", str(root)])
    assert result.exit_code != 0
    assert f"content/papers/{path.name}:4: error" in result.output
    assert "'not-an-id' is neither an arXiv id nor a DOI" in result.output


def test_new_citations_render_the_pages_they_link_and_the_citation_view_and_no_other(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=12)
    papers = sorted(p for p in (root / "content" / "papers").glob("*.md") if "\narxiv: " in p.read_text())
    citing, cited = papers[1], papers[4]
    engine = SiteEngine(root, tmp_path / "out")
    engine.build()
    _cite(citing, [_arxiv(cited)])
    change = engine.update([citing])
    pages = {out for out in change.written if out.endswith(".html")}
    assert pages == {f"papers/{citing.stem}/index.html", f"papers/{cited.stem}/index.html",
                     "network/citations/index.html"}
    clean = tmp_path / "clean"
    build(root, clean, search=False)
    assert tree_bytes(tmp_path / "out") == tree_bytes(clean)
    citing.write_text(citing.read_text().replace("title: ", "title: Retitled ", 1))  # in the drawing: drawn again
    assert "network/citations/index.html" in engine.update([citing]).written
    other = next(p for p in sorted((root / "content" / "papers").glob("*.md")) if p not in (citing, cited))
    other.write_text(other.read_text().replace("title: ", "title: Retitled ", 1))  # not in it: left alone
    assert "network/citations/index.html" not in engine.update([other]).written


def test_a_rebuild_in_a_new_process_links_new_citations(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=12)
    papers = sorted(p for p in (root / "content" / "papers").glob("*.md") if "\narxiv: " in p.read_text())
    citing, cited = papers[2], papers[5]
    build(root, tmp_path / "out", search=False)  # the model saved on disk, read back by the next build
    _cite(citing, [_arxiv(cited)])
    result = build(root, tmp_path / "out", search=False)
    assert 2 <= result.written < 20  # the two pages, the feeds and data files: not the site
    assert "Cited by on this list" in (tmp_path / "out" / "papers" / cited.stem / "index.html").read_text()
    clean = tmp_path / "clean"
    build(root, clean, search=False)
    assert tree_bytes(tmp_path / "out") == tree_bytes(clean)


def test_a_tag_page_can_put_the_papers_the_list_cites_most_first(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site")
    with_ids = sorted(p for p in (root / "content" / "papers").glob("*.md") if "\narxiv: " in p.read_text())
    tag = "attention"
    tagged = [p for p in with_ids if f"\n- {tag}\n" in p.read_text()]
    assert len(tagged) >= 3
    most, some = tagged[-1], tagged[-2]  # the last in file order: not the newest, whatever their dates
    citing = [p for p in with_ids if p not in (most, some)][:3]
    _cite(citing[0], [_arxiv(most), _arxiv(some)])
    for path in citing[1:]:
        _cite(path, [_arxiv(most)])
    config = root / "site.yaml"

    def order() -> list[str]:
        build(root, tmp_path / "public", "https://example.org/", search=False)
        page = parse_html((tmp_path / "public" / "tags" / tag / "index.html").read_text())  # read again each time
        return [a.get("href") or "" for h in by_class(page, "item-title") for a in h.iter("a")]

    published = order()
    config.write_text(config.read_text() + "\ntag_order: cited\n")
    cited = order()
    assert cited[:2] == [f"../../papers/{most.stem}/", f"../../papers/{some.stem}/"]
    assert sorted(cited) == sorted(published) and cited[2:] == [h for h in published if h not in cited[:2]]
    config.write_text(config.read_text().replace("tag_order: cited", "tag_order: most"))
    result = CliRunner().invoke(main, ["check", "--root", str(root)])
    assert result.exit_code != 0 and "'tag_order' must be published or cited, found 'most'" in result.output
