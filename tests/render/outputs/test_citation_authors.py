"""BibTeX, RIS and CSL-JSON cite the same authors, and the same "et al." for a list naming only the first ones.

Each format is read back by its own reader (bibtexparser, rispy, json), and pandoc's citeproc
renders the author string of each file: what a paper written with pandoc would print.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import bibtexparser
import pypandoc
import pytest
import rispy

from sitegen.common.errors import Report
from sitegen.content.config import SiteConfig
from sitegen.content.loader import entry_from_text
from sitegen.model.site import Paper
from sitegen.render.outputs import citations

# A CSL style that prints only the authors, with Chicago's rule for "et al." (which reads `others` as one)
AUTHORS_ONLY = """<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0">
  <info><title>Authors only</title><id>authors-only</id><updated>2024-01-01T00:00:00+00:00</updated></info>
  <citation><layout><text variable="title"/></layout></citation>
  <bibliography><layout>
    <names variable="author"><name and="text" delimiter=", " et-al-min="11" et-al-use-first="7"/>
      <substitute><text value="[none]"/></substitute></names>
  </layout></bibliography>
</style>
"""
ANN_BEN_CY = "authors: [Ann Lee, Ben Ng, Cy Oh]\n"


def paper(front_matter: str) -> Paper:
    text = f"---\ntitle: A Study\ndate: 2024-05-06\n{front_matter}---\n"
    entry = entry_from_text(text, "content/papers/a-study.md", "a-study", Report())
    assert entry is not None
    return Paper(entry, "papers/a-study/", (), (), None, "lee2024study")


def cited_authors(tmp_path: Path, name: str, text: str) -> str:
    """The bibliography pandoc --citeproc makes of one citation file, in the authors-only style."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "style.csl").write_text(AUTHORS_ONLY, encoding="utf-8")
    (tmp_path / "doc.md").write_text('---\nnocite: "@*"\n---\n', encoding="utf-8")
    done = subprocess.run([pypandoc.get_pandoc_path(), "doc.md", "--citeproc", "--bibliography", name,
                           "--csl", "style.csl", "-t", "plain", "--wrap=none"],
                          cwd=tmp_path, capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.strip()


def formats(p: Paper) -> dict[str, str]:
    cfg = SiteConfig()
    return {"cite.bib": citations.bibtex([p], cfg), "cite.ris": citations.ris([p], cfg),
            "cite.json": citations.csl_json([p], cfg)}


@pytest.mark.parametrize(("front_matter", "printed"), [
    (ANN_BEN_CY, "Ann Lee, Ben Ng, and Cy Oh"),
    (ANN_BEN_CY + "authors_truncated: true\n", "Ann Lee, Ben Ng, Cy Oh, et al."),
    (ANN_BEN_CY + "author_count: 9\n", "Ann Lee, Ben Ng, Cy Oh, et al."),
    ("authors: [Ann Lee]\nauthors_truncated: true\n", "Ann Lee et al."),
    ("authors: []\nauthor_count: 7\n", "[none]"),
])
def test_pandoc_prints_the_same_authors_from_bibtex_ris_and_csl_json(tmp_path: Path, front_matter: str,
                                                                       printed: str) -> None:
    printed_by = {name: cited_authors(tmp_path, name, text) for name, text in formats(paper(front_matter)).items()}
    assert printed_by == dict.fromkeys(printed_by, printed)


def test_a_truncated_list_ends_in_others_in_each_format_as_its_reader_sees_it() -> None:
    out = formats(paper(ANN_BEN_CY + "author_count: 9\n"))
    [entry] = bibtexparser.parse_string(out["cite.bib"]).entries
    assert entry.fields_dict["author"].value == "Lee, Ann and Ng, Ben and Oh, Cy and others"
    [record] = rispy.loads(out["cite.ris"])
    assert record["authors"] == ["Lee, Ann", "Ng, Ben", "Oh, Cy", "others"]
    [item] = json.loads(out["cite.json"])
    assert item["author"][-1] == {"literal": "others"} and len(item["author"]) == 4


def test_a_whole_list_has_no_others() -> None:
    out = formats(paper(ANN_BEN_CY))
    assert "others" not in out["cite.bib"] and "others" not in out["cite.ris"] and "others" not in out["cite.json"]


@pytest.mark.parametrize(("count", "note"), [(1, "1 author, name not recorded"), (7, "7 authors, names not recorded"),
                                             (None, "authors not recorded")])
def test_unnamed_authors_are_noted_alike_in_every_format_in_good_english(count: int | None, note: str) -> None:
    out = formats(paper("authors: []\n" + (f"author_count: {count}\n" if count else "")))
    [entry] = bibtexparser.parse_string(out["cite.bib"]).entries
    assert entry.fields_dict["note"].value == note and "author" not in entry.fields_dict
    [record] = rispy.loads(out["cite.ris"])
    assert record["notes"] == [note] and "authors" not in record
    [item] = json.loads(out["cite.json"])
    assert item["note"] == note and "author" not in item
