"""Writing a lookup's findings into an entry: empty fields filled, a tool's short author list completed,
and a curator's edit never touched, whatever the sequence of lookups."""

from __future__ import annotations

import datetime as dt
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.ingest.enrich.apply import Found, apply, importer_fingerprints
from sitegen.ingest.enrich.record import Author, Record
from sitegen.ingest.importers.identity import abstract_key, state_keys, strict_key
from sitegen.ingest.importers.merge import fingerprint, title_key

DAY = dt.date(2026, 11, 25)
RECORD = Record(
    source="arxiv", id="2507.14417", title="Inverse Scaling in Test-Time Compute",
    authors=tuple(Author(n) for n in ("Aryo Pradipta Gema", "Alexander Hägele", "Runjin Chen")),
    abstract="We construct evaluation tasks where extending the reasoning length deteriorates performance.",
    date=dt.date(2025, 7, 19), arxiv="2507.14417", doi=None, category="cs.AI",
    links=(("pdf", "https://arxiv.org/pdf/2507.14417"), ("abs", "https://arxiv.org/abs/2507.14417")),
)


def found(record: Record = RECORD) -> Found:
    return Found(record, "title 100, year 2025", 100.0, DAY)


def imported_entry() -> tuple[dict[str, Any], dict[str, dict[str, str]]]:
    """An entry as the importer wrote it from a Daily Papers listing, and the import state it left."""
    meta: dict[str, Any] = {"title": RECORD.title, "author_count": 3, "date": dt.date(2025, 7, 21),
                            "tags": ["reasoning"], "abstract": RECORD.abstract,
                            "sources": [{"file": "001.txt", "captured": dt.date(2025, 7, 22)}]}
    key = state_keys(title_key(RECORD.title), strict_key(RECORD.title), abstract_key(RECORD.abstract))[0]
    return meta, {key: {k: fingerprint(v) for k, v in meta.items() if k != "sources"}}


def test_empty_fields_are_filled_and_provenance_recorded() -> None:
    meta, state = imported_entry()
    result = apply(meta, found(), {}, importer_fingerprints(meta, state))
    assert result.meta["arxiv"] == "2507.14417" and result.meta["category"] == "cs.AI"
    assert result.meta["authors"] == ["Aryo Pradipta Gema", "Alexander Hägele", "Runjin Chen"]
    assert result.meta["authors_truncated"] is False and result.meta["author_count"] == 3
    assert result.meta["links"] == {"pdf": "https://arxiv.org/pdf/2507.14417", "abs": "https://arxiv.org/abs/2507.14417"}
    assert result.meta["date"] == dt.date(2025, 7, 21)  # the importer's date stays: refresh was not asked for
    assert result.meta["sources"][-1] == {"api": "arxiv", "id": "2507.14417", "retrieved": DAY,
                                          "match": "title 100, year 2025", "score": 100.0}
    assert "doi" not in result.meta  # none known: the DataCite DOI is derived where needed, never stored


def test_a_truncated_author_list_a_tool_wrote_becomes_the_full_list() -> None:
    meta, state = imported_entry()
    meta |= {"authors": ["Aryo Pradipta Gema"], "authors_truncated": True}
    key = next(iter(state))
    state[key] |= {"authors": fingerprint(["Aryo Pradipta Gema"]), "authors_truncated": fingerprint(True)}
    result = apply(meta, found(), {}, importer_fingerprints(meta, state))
    assert result.meta["authors"] == [a.name for a in RECORD.authors] and result.meta["authors_truncated"] is False


def test_hand_typed_authors_and_arxiv_stay() -> None:
    meta, state = imported_entry()
    meta |= {"authors": ["A. P. Gema", "A. Hägele"], "arxiv": "2507.99999"}
    result = apply(meta, found(), {}, importer_fingerprints(meta, state))
    assert result.meta["authors"] == ["A. P. Gema", "A. Hägele"] and result.meta["arxiv"] == "2507.99999"


def test_refresh_replaces_only_what_a_tool_wrote() -> None:
    meta, state = imported_entry()
    first = apply(meta, found(), {}, importer_fingerprints(meta, state))
    published = Record(**{**RECORD.__dict__, "doi": "10.1000/journal.1", "category": "cs.LG"})
    edited = first.meta | {"category": "cs.CL"}  # the curator disagreed with the category
    again = apply(edited, found(published), first.state, importer_fingerprints(edited, state), refresh=True)
    assert again.meta["doi"] == "10.1000/journal.1" and again.meta["category"] == "cs.CL"
    assert again.meta["date"] == RECORD.date  # the importer's date was a tool's: refreshed


def test_a_second_run_with_the_same_answer_changes_nothing() -> None:
    meta, state = imported_entry()
    first = apply(meta, found(), {}, importer_fingerprints(meta, state))
    later = Found(RECORD, "title 100, year 2025", 100.0, DAY + dt.timedelta(days=30))
    second = apply(first.meta, later, first.state, importer_fingerprints(first.meta, state))
    assert second.changed == [] and second.meta == first.meta


FIELD_VALUES = {
    "authors": st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=4),
    "category": st.sampled_from(["cs.CL", "cs.LG", "math.OC"]),
    "doi": st.sampled_from(["10.1/a", "10.2/b"]),
    "arxiv": st.sampled_from(["2507.00001", "2401.12345"]),
    "date": st.dates(dt.date(2020, 1, 1), dt.date(2026, 1, 1)),
    "venue": st.text(min_size=1, max_size=10),
}
RECORDS = st.builds(
    lambda authors, category, doi, date: Record(**{**RECORD.__dict__, "authors": tuple(map(Author, authors)),
                                                   "category": category, "doi": doi, "date": date}),
    FIELD_VALUES["authors"], FIELD_VALUES["category"], st.none() | FIELD_VALUES["doi"], FIELD_VALUES["date"])


@settings(max_examples=60, deadline=None)
@given(steps=st.lists(st.one_of(
    st.tuples(st.just("edit"), st.sampled_from(sorted(FIELD_VALUES)), st.data()),
    st.tuples(st.just("enrich"), RECORDS, st.booleans())), max_size=8))
def test_hand_edits_survive_any_sequence_of_lookups(steps: list[tuple[Any, ...]]) -> None:
    meta, state = imported_entry()
    mine: dict[str, str] = {}
    edited: dict[str, Any] = {}
    for step in steps:
        if step[0] == "edit":
            name, data = step[1], step[2]
            value = data.draw(FIELD_VALUES[name])
            meta = meta | {name: value}
            tools = {mine.get(name)} | importer_fingerprints(meta, state).get(name, set())
            if fingerprint(value) in tools:  # the very value a tool wrote: no edit can be told apart
                edited.pop(name, None)
            else:
                edited[name] = value
        else:
            result = apply(meta, found(step[1]), mine, importer_fingerprints(meta, state), refresh=step[2])
            meta, mine = result.meta, result.state
        for name, value in edited.items():
            assert meta[name] == value, f"the hand-edited {name} was overwritten"
