"""What readers get from an entry's arXiv id, DOI, category, authors and links.

A small site is built from two committed papers plus five written here: one with every
identifier, one with an arXiv id only (a versioned one), one with only a PDF link, one
published at a conference and one with nothing but a title. Each output is read as its consumers read it: the pages with
html5lib, the BibTeX with bibtexparser, the RIS with rispy, the CSL-JSON with json, the
pages in headless Chromium with axe-core, and the Nu Html Checker.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import bibtexparser
import pytest
import rispy

from sitegen.common.errors import Report
from sitegen.content.loader import entry_from_text
from sitegen.pipeline.build import build
from sitegen.render.paper_links import buttons, label
from tests.support import RecordedPage, SiteURL, describe_violations, describe_vnu, run_axe, run_vnu, serve_directory

from ..html_tools import by_class, classes, meta_values, one, parse_html, text_of
from ..site_factory import copy_site

BASE = "https://example.github.io/reading-list/"
AUTHORS = ["Ada Lovelace", "Łukasz Kaiser", "Grace Hopper", "Edsger W. Dijkstra", "Barbara Liskov"]
NOTHING_TITLE = "Notes & Queries: a paper known only by its title"
ENTRIES = {
    "full": f"""---
title: 'Sparse Kernels: A Study & Survey'
authors: [{", ".join(AUTHORS)}]
date: 2025-07-19
arxiv: '2507.14417'
doi: 10.1145/3731569.3764843
category: cs.dc
tags: [compilers]
links:
  code: https://github.com/example/sparse
  project: https://example.org/sparse/
  html: https://example.org/sparse/paper.html
abstract: A study of sparse kernels.
---
""",
    "arxiv-only": """---
title: A Preprint Only
authors: [Ann Lee, Bo Chen]
date: 2021-01-04
arxiv: '2101.00010v2'
category: cs.LG
---
""",
    "pdf-only": """---
title: A Workshop Paper
authors: [Cy Young]
links:
  pdf: https://example.org/workshop.pdf
---
""",
    "published": """---
title: A Conference Paper
authors: [Dee Kay, Em Ell]
date: 2025-10-13
arxiv: '2509.01234'
doi: 10.1145/3731569.3764999
venue: Proceedings of the 31st Symposium on Operating Systems Principles
---
""",
    "nothing": f"""---
title: '{NOTHING_TITLE}'
---
""",
}
IDENTITY_LABELS = ["PDF", "arXiv", "DOI", "Hugging Face", "Code", "Project", "HTML"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two committed papers and the five above, built for a project path."""
    root = copy_site(tmp_path_factory.mktemp("links") / "site", papers=2)
    for slug, text in ENTRIES.items():
        (root / "content" / "papers" / f"{slug}.md").write_text(text, encoding="utf-8")
    output = root / "public"
    build(root, output, BASE, search=False, use_cache=False)
    return output


def _page(site: Path, slug: str) -> ET.Element:
    return parse_html((site / "papers" / slug / "index.html").read_text(encoding="utf-8"))


def _row(doc: ET.Element) -> ET.Element:
    return one(doc, "paper-links", "nav")


def _buttons(doc: ET.Element) -> list[tuple[str, str]]:
    """(label, href) of each button to the paper (the title searches left out)."""
    return [(text_of(a), a.get("href", "")) for ul in by_class(_row(doc), "buttons", "ul")
            if "searches" not in classes(ul) for a in ul.iter("a")]


def _json_ld(doc: ET.Element) -> dict[str, Any]:
    [script] = [s for s in doc.iter("script") if s.get("type") == "application/ld+json"]
    return json.loads(script.text or "")  # type: ignore[no-any-return]


def _bib(site: Path, slug: str) -> tuple[str, dict[str, str]]:
    library = bibtexparser.parse_string((site / "papers" / slug / "cite.bib").read_text(encoding="utf-8"))
    assert library.failed_blocks == []
    [entry] = library.entries
    return entry.entry_type, {f.key: str(f.value) for f in entry.fields}


def _ris(site: Path, slug: str) -> dict[str, Any]:
    [record] = rispy.loads((site / "papers" / slug / "cite.ris").read_text(encoding="utf-8"))
    return record  # type: ignore[no-any-return]


def _csl(site: Path, slug: str) -> dict[str, Any]:
    [item] = json.loads((site / "papers" / slug / "cite.json").read_text(encoding="utf-8"))
    return item  # type: ignore[no-any-return]


def test_a_paper_with_every_identifier_opens_with_its_buttons_in_order(site: Path) -> None:
    doc = _page(site, "full")
    row = _row(doc)
    assert row.get("aria-label") and row.get("data-pagefind-ignore") is not None
    assert _buttons(doc) == list(zip(IDENTITY_LABELS, [
        "https://arxiv.org/pdf/2507.14417", "https://arxiv.org/abs/2507.14417",
        "https://doi.org/10.1145/3731569.3764843", "https://huggingface.co/papers/2507.14417",
        "https://github.com/example/sparse", "https://example.org/sparse/", "https://example.org/sparse/paper.html",
    ], strict=True))
    assert not list(by_class(row, "searches")) and not list(by_class(doc, "search-note"))
    assert next(a.get("class") for a in row.iter("a")) == "button primary"  # the PDF stands out
    # the row sits right under the byline, and no second list of the same links is left lower down
    kids = [el.get("class") for el in one(doc, "paper-header", "header")]
    assert kids.index("paper-links") == kids.index("paper-authors") + 1
    assert not list(by_class(doc, "links", "ul"))
    hrefs = [a.get("href") for a in doc.iter("a")]
    assert hrefs.count("https://github.com/example/sparse") == 1


def test_an_arxiv_id_alone_gives_pdf_arxiv_and_hugging_face_but_no_doi_button(site: Path) -> None:
    doc = _page(site, "arxiv-only")
    assert _buttons(doc) == [("PDF", "https://arxiv.org/pdf/2101.00010v2"),
                             ("arXiv", "https://arxiv.org/abs/2101.00010v2"),
                             ("Hugging Face", "https://huggingface.co/papers/2101.00010")]  # HF names no version


def test_a_pdf_link_alone_is_identity_enough_for_no_searches(site: Path) -> None:
    doc = _page(site, "pdf-only")
    assert _buttons(doc) == [("PDF", "https://example.org/workshop.pdf")]
    assert not list(by_class(_row(doc), "searches"))
    assert meta_values(doc, "citation_pdf_url") == ["https://example.org/workshop.pdf"]
    assert meta_values(doc, "citation_doi") == [] and meta_values(doc, "citation_arxiv_id") == []
    assert _bib(site, "pdf-only")[1]["url"] == "https://example.org/workshop.pdf"


def test_a_paper_nothing_identifies_offers_title_searches_clearly_labelled(site: Path) -> None:
    doc = _page(site, "nothing")
    row = _row(doc)
    searches = one(row, "searches", "ul")
    note = doc.find(f".//*[@id='{searches.get('aria-labelledby')}']")
    assert note is not None and "Search for its title" in text_of(note)
    found = [(text_of(a), urlsplit(a.get("href", ""))) for a in searches.iter("a")]
    assert [text for text, _ in found] == ["Search arXiv", "Semantic Scholar", "Google Scholar"]
    arxiv, semantic, google = (url for _, url in found)
    assert (arxiv.scheme, arxiv.netloc, arxiv.path) == ("https", "arxiv.org", "/search/")
    assert parse_qs(arxiv.query) == {"query": [NOTHING_TITLE], "searchtype": ["title"]}
    assert (semantic.netloc, semantic.path, parse_qs(semantic.query)) == (
        "www.semanticscholar.org", "/search", {"q": [NOTHING_TITLE]})
    assert (google.netloc, google.path, parse_qs(google.query)) == ("scholar.google.com", "/scholar",
                                                                    {"q": [NOTHING_TITLE]})
    assert "&" not in arxiv.query.split("&searchtype")[0]  # the title's '&' is encoded, not a new parameter
    assert not list(by_class(row, "primary"))
    assert meta_values(doc, "citation_pdf_url") == [] and meta_values(doc, "citation_doi") == []
    assert "identifier" not in _json_ld(doc) and "sameAs" not in _json_ld(doc)


def test_highwire_tags_name_every_author_and_the_papers_ids(site: Path) -> None:
    doc = _page(site, "full")
    assert meta_values(doc, "citation_author") == AUTHORS
    assert meta_values(doc, "citation_arxiv_id") == ["2507.14417"]
    assert meta_values(doc, "citation_pdf_url") == ["https://arxiv.org/pdf/2507.14417"]
    assert meta_values(doc, "citation_doi") == ["10.1145/3731569.3764843"]  # the publisher's
    preprint = _page(site, "arxiv-only")
    assert meta_values(preprint, "citation_author") == ["Ann Lee", "Bo Chen"]
    assert meta_values(preprint, "citation_doi") == ["10.48550/arXiv.2101.00010"]  # arXiv's DataCite DOI


def test_json_ld_carries_the_arxiv_id_and_doi_as_identifiers_and_same_as(site: Path) -> None:
    data = _json_ld(_page(site, "full"))
    assert data["@type"] == "ScholarlyArticle" and [a["name"] for a in data["author"]] == AUTHORS
    assert data["identifier"] == [
        {"@type": "PropertyValue", "propertyID": "arXiv", "value": "2507.14417"},
        {"@type": "PropertyValue", "propertyID": "DOI", "value": "10.1145/3731569.3764843"},
    ]
    assert data["sameAs"] == ["https://arxiv.org/abs/2507.14417", "https://doi.org/10.1145/3731569.3764843"]
    assert data["url"] == BASE + "papers/full/"  # the page describes the paper; sameAs says which one


def test_bibtex_cites_the_paper_on_arxiv_not_the_reading_list_page(site: Path) -> None:
    kind, f = _bib(site, "full")
    assert kind == "misc"  # no venue is recorded
    assert (f["eprint"], f["archiveprefix"], f["primaryclass"]) == ("2507.14417", "arXiv", "cs.DC")
    assert f["doi"] == "10.1145/3731569.3764843" and f["url"] == "https://arxiv.org/abs/2507.14417"
    assert f["author"] == " and ".join(["Lovelace, Ada", "Kaiser, Łukasz", "Hopper, Grace", "Dijkstra, Edsger W.",
                                        "Liskov, Barbara"])
    _, preprint = _bib(site, "arxiv-only")
    assert preprint["doi"] == "10.48550/arXiv.2101.00010" and preprint["eprint"] == "2101.00010v2"
    assert preprint["url"] == "https://arxiv.org/abs/2101.00010v2"
    _, nothing = _bib(site, "nothing")
    assert nothing["url"] == BASE + "papers/nothing/"  # the only address known
    assert not {"eprint", "doi", "archiveprefix"} & set(nothing)
    whole = bibtexparser.parse_string((site / "reading-list.bib").read_text(encoding="utf-8"))
    assert {e.key: e["url"] for e in whole.entries}[_key(site, "full")] == "https://arxiv.org/abs/2507.14417"


def _key(site: Path, slug: str) -> str:
    return str(bibtexparser.parse_string((site / "papers" / slug / "cite.bib").read_text("utf-8")).entries[0].key)


def test_ris_carries_the_doi_and_the_papers_address(site: Path) -> None:
    record = _ris(site, "full")
    assert record["doi"] == "10.1145/3731569.3764843" and record["urls"] == ["https://arxiv.org/abs/2507.14417"]
    assert "publisher" not in record  # published by its DOI's publisher, which no field records
    preprint = _ris(site, "arxiv-only")
    assert preprint["doi"] == "10.48550/arXiv.2101.00010" and preprint["publisher"] == "arXiv"
    assert preprint["urls"] == ["https://arxiv.org/abs/2101.00010v2"]
    assert "doi" not in _ris(site, "nothing")


def test_csl_json_follows_zoteros_preprint_convention(site: Path) -> None:
    item = _csl(site, "full")
    assert (item["DOI"], item["URL"], item["number"]) == (
        "10.1145/3731569.3764843", "https://arxiv.org/abs/2507.14417", "arXiv:2507.14417")
    assert [f"{a['given']} {a['family']}" for a in item["author"]] == AUTHORS
    preprint = _csl(site, "arxiv-only")
    assert (preprint["type"], preprint["publisher"], preprint["number"], preprint["DOI"]) == (
        "article", "arXiv", "arXiv:2101.00010v2", "10.48550/arXiv.2101.00010")
    assert "DOI" not in _csl(site, "nothing") and _csl(site, "nothing")["URL"] == BASE + "papers/nothing/"


def test_a_paper_with_a_venue_is_cited_as_published_there(site: Path) -> None:
    venue = "Proceedings of the 31st Symposium on Operating Systems Principles"
    doc = _page(site, "published")
    assert meta_values(doc, "citation_conference_title") == [venue] and not meta_values(doc, "citation_journal_title")
    facts = [" ".join(text_of(part) for part in d) for d in one(doc, "facts", "dl")]
    assert f"Venue {venue}" in facts
    kind, f = _bib(site, "published")
    assert (kind, f["booktitle"], f["doi"]) == ("inproceedings", venue, "10.1145/3731569.3764999")
    assert f["eprint"] == "2509.01234" and f["url"] == "https://arxiv.org/abs/2509.01234"
    record = _ris(site, "published")
    assert (record["type_of_reference"], record["secondary_title"]) == ("CONF", venue) and "publisher" not in record
    item = _csl(site, "published")
    assert (item["type"], item["container-title"], item["DOI"]) == ("paper-conference", venue,
                                                                     "10.1145/3731569.3764999")
    assert "number" not in item  # an issue number to a style: the arXiv id stays in the URL


def test_labels_come_from_a_table_not_from_capitalizing_the_kind() -> None:
    assert [label(k) for k in ("pdf", "html", "hf", "arxiv", "doi", "code", "project")] == [
        "PDF", "HTML", "Hugging Face", "arXiv", "DOI", "Code", "Project"]
    assert label("poster_session") == "Poster session" and label("openreview") == "OpenReview"


def test_a_known_site_or_project_is_named_as_it_names_itself_and_a_curators_spelling_is_kept() -> None:
    assert [label(k) for k in ("vllm", "sglang", "github", "youtube", "pytorch", "wandb", "colab")] == [
        "vLLM", "SGLang", "GitHub", "YouTube", "PyTorch", "W&B", "Colab"]
    assert [label(k) for k in ("vLLM", "TensorRT-LLM", "MyBench_v2")] == ["vLLM", "TensorRT-LLM", "MyBench v2"]


def test_an_arxiv_abs_link_is_not_a_second_arxiv_button_and_a_doi_is_percent_encoded() -> None:
    text = ("---\ntitle: T\narxiv: '2507.14417'\ndoi: '10.1000/a#b?c'\nlinks:\n  abs: https://arxiv.org/abs/2507.14417\n"
            "  pdf: https://arxiv.org/pdf/2507.14417v1\n  slides: https://example.org/s\n---\n")
    entry = entry_from_text(text, "content/papers/t.md", "t", Report())
    assert entry is not None
    assert [(b.label, b.url) for b in buttons(entry)] == [
        ("PDF", "https://arxiv.org/pdf/2507.14417v1"),  # the entry's own PDF link wins over the derived one
        ("arXiv", "https://arxiv.org/abs/2507.14417"),
        ("DOI", "https://doi.org/10.1000/a%23b%3Fc"),
        ("Hugging Face", "https://huggingface.co/papers/2507.14417"),
        ("Slides", "https://example.org/s"),
    ]


def test_paper_pages_with_and_without_ids_are_valid_html(site: Path) -> None:
    pages = [site / "papers" / slug / "index.html" for slug in ENTRIES]
    errors = run_vnu(pages)
    assert not errors, describe_vnu(errors, site)


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[SiteURL]:
    with serve_directory(site, "/reading-list/") as base_url:
        yield base_url


@pytest.mark.parametrize("slug", ["full", "nothing"])
def test_the_row_is_accessible_in_both_palettes_with_44px_targets_on_phones(
        page: RecordedPage, served: SiteURL, slug: str) -> None:
    page.goto(served.url(f"papers/{slug}/"), wait_until="load")
    for scheme, width in (("light", 390), ("dark", 1280), ("dark", 390), ("light", 1280)):
        page.emulate_media(color_scheme=scheme)
        page.set_viewport_size({"width": width, "height": 800})
        violations = run_axe(page, context=".paper-links")
        assert violations == [], f"{slug} at {width} px, {scheme}: " + describe_violations(violations)
        boxes = page.eval_on_selector_all(".paper-links a", "els => els.map(e => e.getBoundingClientRect().toJSON())")
        assert boxes and all(b["right"] <= width for b in boxes)
        if width == 390:
            assert min(b["height"] for b in boxes) >= 44 and min(b["width"] for b in boxes) >= 44
    for _ in range(40):  # the keyboard reaches the row, and its focus ring shows
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.closest('.paper-links') !== null"):
            break
    focused = page.evaluate("() => { const s = getComputedStyle(document.activeElement);"
                            " return [document.activeElement.closest('.paper-links') !== null, s.outlineStyle]; }")
    assert focused[0] and focused[1] != "none"
    page.assert_clean()
