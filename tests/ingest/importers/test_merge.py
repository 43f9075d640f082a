"""Merging sightings of one paper, and merging imported fields into entries without losing edits."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from sitegen.content import config
from sitegen.content.tagging import Tagger
from sitegen.ingest.importers import ParsedDump, RawPaper
from sitegen.ingest.importers.identity import Papers
from sitegen.ingest.importers.merge import ORDER, Sighting, fingerprint, imported_fields, merge_into, ordered, title_key

from .conftest import CAPTURED, LISTING_A, LISTING_B, PROFILE_A, PROFILE_B, REPO

TAGGER = Tagger(config.load(REPO).tags)
Groups = dict[str, list[Sighting]]


def group(dumps: list[ParsedDump]) -> Groups:
    """The sightings of each paper, by the title key of its first sighting, as an import groups them."""
    papers = Papers([])
    papers.assign(dumps)
    return {title_key(p.sightings[0].paper.title): p.sightings for p in papers.imported()}


@pytest.fixture(scope="module")
def groups(committed: dict[str, ParsedDump]) -> Groups:
    return group(list(committed.values()))


def _fields(groups: Groups, title: str) -> dict[str, Any]:
    return imported_fields(groups[title_key(title)], TAGGER)


@pytest.mark.parametrize(("a", "b"), [
    ("Prefill \\& Decode", "prefill & decode"),
    ("FlashAttention-2:  Faster", "flashattention 2 faster"),
    ("  Title, with; punctuation!  ", "title with punctuation"),
    ("ＦＵＬＬＷＩＤＴＨ", "fullwidth"),
    ("Straße", "STRASSE"),
])
def test_title_key_ignores_case_punctuation_space_and_escapes(a: str, b: str) -> None:
    assert title_key(a) == title_key(b)


def test_title_key_tells_different_titles_apart() -> None:
    assert title_key("T3: Transparent Tracking") != title_key("T5: Transparent Tracking")


def test_four_dumps_give_106_unique_papers(groups: Groups) -> None:
    assert len(groups) == 106
    assert sum(len(s) for s in groups.values()) == 6 + 4 + 49 + 56
    assert sum(1 for s in groups.values() if len(s) == 2) == 9  # VTC and eight listing papers
    assert all(len(s) <= 2 for s in groups.values())


def test_vtc_is_one_entry_with_two_sources(groups: Groups) -> None:
    vtc = _fields(groups, "VTC: DNN Compilation with Virtual Tensors for Data Movement Elimination")
    assert vtc["date"] == dt.date(2026, 2, 11)
    assert vtc["category"] == "cs.DC" and vtc["tags"][-1] == "cs.DC"
    assert vtc["authors"] == ["Muyan Hu", "Ahan Gupta", "Jiachen Yuan"] and vtc["authors_truncated"] is True
    assert vtc["added"] == dt.date(2026, 5, 19)
    assert [s["file"] for s in vtc["sources"]] == [PROFILE_A, PROFILE_B]
    assert all(s["format"] == "author-profile" and s["captured"] == CAPTURED[PROFILE_A] for s in vtc["sources"])
    assert "upvotes" not in vtc and "author_count" not in vtc and "links" not in vtc


def test_listing_paper_seen_twice(groups: Groups) -> None:
    t3 = _fields(groups, "T3: Transparent Tracking & Triggering for Fine-grained Overlap of Compute & Collectives")
    assert t3["added"] == dt.date(2026, 4, 17)  # the earliest capture
    assert [(s["file"], s["captured"], s["line"], s["upvotes"]) for s in t3["sources"]] == [
        (LISTING_A, dt.date(2026, 4, 17), 29, 1), (LISTING_B, dt.date(2026, 5, 19), 241, 1)]
    assert (t3["author_count"], t3["upvotes"], t3["date"]) == (5, 1, dt.date(2024, 1, 29))
    assert t3["authors"] == [] and "authors_truncated" not in t3


def test_megafold_code_link_and_autosp_score(groups: Groups) -> None:
    megafold = _fields(groups, "MegaFold: System-Level Optimizations for Accelerating Protein Structure "
                               "Prediction Models")
    assert megafold["links"] == {"code": "https://github.com/Supercomputing-System-AI-Lab/MegaFold"}
    assert megafold["sources"][0]["code"] is True
    assert "protein-folding" in megafold["tags"] and "q-bio.BM" in megafold["tags"]
    autosp = _fields(groups, "AutoSP: Unlocking Long-Context LLM Training Via Compiler-Based Sequence Parallelism")
    assert autosp["score"] == 69.4 and autosp["sources"][0]["score"] == 69.4


def test_organization_and_no_meta_entries(groups: Groups) -> None:
    bench = _fields(groups, "ParallelBench: Understanding the Trade-offs of Parallel Decoding in Diffusion LLMs")
    assert bench["organization"] == "FuriosaAI" and "author_count" not in bench
    assert bench["sources"][0]["organization_id"] == "furiosa-ai"
    batch = _fields(groups, "Batch Speculative Decoding Done Right")
    assert "date" not in batch and "author_count" not in batch and "upvotes" not in batch
    assert batch["links"] == {"code": "https://github.com/eBay/spec_dec"}


def test_statesmix_and_tpla(groups: Groups) -> None:
    statesmix = _fields(groups, "StateSMix: Online Lossless Compression via Mamba State Space Models and "
                                "Sparse N-gram Context Mixing")
    assert (statesmix["date"], statesmix["upvotes"], statesmix["author_count"]) == (dt.date(2026, 4, 4), 2, 1)
    tpla = _fields(groups, "TPLA: Tensor Parallel Latent Attention for Efficient Disaggregated Prefill \\& "
                           "Decode Inference")
    assert tpla["title"].endswith("Prefill & Decode Inference")


def test_imported_fields_are_in_documented_order(groups: Groups) -> None:
    for sightings in groups.values():
        keys = list(imported_fields(sightings, TAGGER))
        assert keys == [k for k in ORDER if k in keys]
        assert keys[0] == "title" and keys[-2:] == ["abstract", "sources"]


def _dump(path: str, fmt: str, captured: dt.date, *papers: RawPaper) -> ParsedDump:
    return ParsedDump(path, fmt, captured, papers)


def test_richest_metadata_from_profile_and_listing() -> None:
    # one paper: the same title and date as the profile's, then the same abstract as that listing's
    from_listing = RawPaper(title="Shared Paper: On Things", abstract="Short.", line=13, author_count=9,
                            date=dt.date(2025, 3, 2), date_has_year=False, upvotes=4)
    later_listing = RawPaper(title="shared paper on things", abstract="Short.", line=40, author_count=9,
                             date=dt.date(2025, 3, 5), upvotes=7)
    from_profile = RawPaper(title="Shared Paper: On Things", abstract="A longer abstract; code at "
                            "https://gitlab.com/x/y.", line=12, authors=("A", "B"), authors_truncated=True,
                            category="cs.DC", score=12.0, date=dt.date(2025, 3, 2), date_has_year=True)
    dumps = [
        _dump("content/dumps/b.txt", "hf-daily-papers", dt.date(2026, 1, 1), from_listing),
        _dump("content/dumps/a.txt", "author-profile", dt.date(2026, 2, 1), from_profile),
        _dump("content/dumps/c.txt", "hf-daily-papers", dt.date(2026, 3, 1), later_listing),
    ]
    (sightings,) = group(dumps).values()
    fields = imported_fields(sightings, Tagger([]))
    assert fields["title"] == "Shared Paper: On Things"  # the first dump file's spelling
    assert fields["authors"] == ["A", "B"] and fields["authors_truncated"] is True
    assert fields["author_count"] == 9 and fields["upvotes"] == 7  # the latest capture
    assert fields["date"] == dt.date(2025, 3, 2)  # a date with a year wins over a year-less one
    assert fields["category"] == "cs.DC" and fields["tags"] == ["cs.DC"] and fields["score"] == 12.0
    assert fields["links"] == {"code": "https://gitlab.com/x/y"}
    assert fields["abstract"].startswith("A longer abstract")
    assert fields["added"] == dt.date(2026, 1, 1)
    assert [s["file"] for s in fields["sources"]] == ["b.txt", "a.txt", "c.txt"]  # by capture date


def test_merge_adds_missing_fields_and_keeps_edits() -> None:
    old = {"title": "Old", "tags": ["a"], "abstract": "x", "sources": [{"file": "1.txt", "captured": "2026-01-01"}]}
    state = {k: fingerprint(v) for k, v in old.items() if k != "sources"}
    edited = {**old, "title": "My title", "tags": ["mine"]}
    new = {"title": "New", "tags": ["b"], "abstract": "y", "upvotes": 3,
           "sources": [{"file": "2.txt", "captured": "2026-02-01"}]}
    meta, new_state = merge_into(edited, new, state, update=False)
    assert meta["title"] == "My title" and meta["tags"] == ["mine"]
    assert meta["abstract"] == "x"  # unedited, but refreshed only with --update
    assert meta["upvotes"] == 3  # missing: added
    assert [s["file"] for s in meta["sources"]] == ["1.txt", "2.txt"]
    assert new_state["upvotes"] == fingerprint(3) and new_state["abstract"] == state["abstract"]
    meta, new_state = merge_into(edited, new, state, update=True)
    assert meta["title"] == "My title" and meta["tags"] == ["mine"]  # edits survive --update
    assert meta["abstract"] == "y" and new_state["abstract"] == fingerprint("y")


def test_merge_without_state_treats_every_field_as_edited() -> None:
    meta, _ = merge_into({"title": "T", "tags": ["a"]}, {"title": "T", "tags": ["b"]}, {}, update=True)
    assert meta["tags"] == ["a"]


def test_merge_links_adds_missing_kinds_and_keeps_edited_urls() -> None:
    imported = {"links": {"code": "https://github.com/new/repo"}}
    mine = {"links": {"code": "https://github.com/my/fork", "slides": "https://example.org/s"}}
    meta, _ = merge_into(mine, imported, {"links": fingerprint({"code": "https://github.com/old"})}, update=True)
    assert meta["links"] == mine["links"]
    meta, _ = merge_into({"links": {"slides": "https://example.org/s"}}, imported, {}, update=False)
    assert meta["links"] == {"code": "https://github.com/new/repo", "slides": "https://example.org/s"}


def test_merge_is_idempotent() -> None:
    fields = {"title": "T", "tags": ["a"], "date": dt.date(2025, 1, 2), "sources": [{"file": "f", "captured": "c"}]}
    state = {k: fingerprint(v) for k, v in fields.items() if k != "sources"}
    once, state1 = merge_into(fields, fields, state, update=True)
    twice, state2 = merge_into(once, fields, state1, update=True)
    assert once == twice == fields and state1 == state2 == state


def test_ordered_puts_known_fields_first() -> None:
    meta = {"custom": 1, "sources": [], "title": "T", "tags": [], "abstract": "", "date": "d"}
    assert list(ordered(meta)) == ["title", "date", "tags", "abstract", "sources", "custom"]


def test_group_is_in_file_then_line_order(committed: dict[str, ParsedDump]) -> None:
    reversed_dumps = list(reversed(list(committed.values())))
    keys = list(group(reversed_dumps))
    assert keys[0] == title_key("VTC: DNN Compilation with Virtual Tensors for Data Movement Elimination")
    assert Path(group(reversed_dumps)[keys[0]][0].dump.path).name == PROFILE_A


def test_a_dump_import_keeps_every_api_provenance_record() -> None:
    from sitegen.ingest.importers.merge import merge_into

    apis = [{"api": "arxiv", "id": "2407.13168", "match": "title 100"}, {"api": "s2", "id": "abc", "match": "doi"}]
    existing = {"title": "T", "sources": [{"file": "a.txt", "captured": "2025-01-01"}, *apis]}
    imported = {"title": "T", "sources": [{"file": "b.txt", "captured": "2025-02-01"}]}
    meta, _ = merge_into(existing, imported, {}, update=False)
    assert [s.get("file") for s in meta["sources"]] == ["a.txt", "b.txt", None, None]
    assert meta["sources"][2:] == apis



def test_a_complete_author_list_typed_by_hand_makes_the_count_moot() -> None:
    """The whole author list typed by hand makes the listing's count and truncation mark moot: the curator deletes
    them, and neither a re-import nor `--update` puts them back. Other deleted fields come back as before."""
    imported = {"title": "T", "authors": ["Ada Lovelace"], "authors_truncated": True, "author_count": 3,
                "upvotes": 4}
    state = {k: fingerprint(v) for k, v in imported.items()}
    typed = {"title": "T", "authors": ["Ada Lovelace", "Alan Turing", "Grace Hopper"]}
    for update in (False, True):
        meta, new_state = merge_into(typed, imported, state, update=update)
        assert meta == {**typed, "upvotes": 4} and new_state == state
    short = {"title": "T", "authors": ["Ada Lovelace", "Alan Turing"]}  # still fewer than the listing counts
    meta, _ = merge_into(short, imported, state, update=False)
    assert (meta["author_count"], meta["authors_truncated"]) == (3, True)
    untouched = {"title": "T", "authors": ["Ada Lovelace"]}  # the importer's own list: its marks come back
    meta, _ = merge_into(untouched, imported, state, update=False)
    assert (meta["author_count"], meta["authors_truncated"]) == (3, True)
