"""Matching an entry to lookup results: only the paper itself is accepted, and anything doubtful is not."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from sitegen.ingest.enrich.match import Ambiguous, Known, NotFound, Resolved, Scored, assess, decide, normalize
from sitegen.ingest.enrich.record import Author, Record

NAMES = ("Ashish Vaswani", "Noam Shazeer", "Niki Parmar", "Jakob Uszkoreit", "Llion Jones", "Aidan N. Gomez",
         "Lukasz Kaiser")
ABSTRACT = ("The dominant sequence transduction models are based on complex recurrent or convolutional neural "
            "networks that include an encoder and a decoder. We propose a new simple network architecture, the "
            "Transformer, based solely on attention mechanisms.")


def record(title: str, *, source: str = "arxiv", arxiv: str | None = "1706.03762", date: dt.date | None = None,
           authors: tuple[str, ...] = (), abstract: str = "", doi: str | None = None, **more: object) -> Record:
    return Record(source=source, id=arxiv or doi or title, title=title, authors=tuple(map(Author, authors)),
                  abstract=abstract, date=date, arxiv=arxiv, doi=doi, **more)  # type: ignore[arg-type]


def test_normalize_sets_markup_case_accents_and_punctuation_aside() -> None:
    assert normalize(r"Sparse {Mixture-of-Experts} for $\mathcal{O}(n)$ Attention") == \
        normalize("Sparse Mixture–of–Experts for 𝒪(n) attention") == "sparse mixture of experts for o n attention"
    assert normalize(r"Schr\"odinger's $\alpha$-Nets") == normalize("SCHRÖDINGER’S α—NETS") == "schrodinger s α nets"
    assert normalize("90% of ﬁne-tuning") == normalize(r"90\% of fine-tuning") == "90 of fine tuning"  # % no comment


def test_the_paper_from_several_sources_is_merged_with_provenance() -> None:
    known = Known("Attention Is All You Need", dt.date(2017, 6, 12), 7, NAMES, ABSTRACT.split(". ")[0])
    found = [
        record("Attention is All you Need", source="hf", date=dt.date(2017, 6, 12), authors=NAMES, upvotes=120,
               links=(("hf", "https://huggingface.co/papers/1706.03762"),)),
        record("Attention Is All You Need", date=dt.date(2017, 6, 12), authors=NAMES, abstract=ABSTRACT,
               links=(("pdf", "https://arxiv.org/pdf/1706.03762"),), category="cs.CL"),
        record("Attention is All you Need", source="s2", authors=NAMES, year=2017, venue="NeurIPS",
               doi="10.5555/3295222.3295349"),
        record("Attention Is Not All You Need", arxiv="2103.03404", date=dt.date(2021, 3, 5), authors=("Yihe Dong",)),
    ]
    decision = decide(known, found)
    assert isinstance(decision, Resolved)
    assert decision.how == "title 100, year 2017, abstract 100, authors 7/7; sources arxiv, s2, hf"
    assert decision.score == 100 and [r.source for r in decision.records] == ["arxiv", "s2", "hf"]
    merged = decision.record
    assert (merged.source, merged.abstract, merged.category) == ("arxiv", ABSTRACT, "cs.CL")
    assert (merged.doi, merged.venue, merged.upvotes, merged.year) == ("10.5555/3295222.3295349", "NeurIPS", 120, 2017)
    assert merged.links == (("pdf", "https://arxiv.org/pdf/1706.03762"), ("hf", "https://huggingface.co/papers/1706.03762"))


@pytest.mark.parametrize(("entry", "found", "why"), [
    ("Attention Is All You Need", "Attention Is Not All You Need", "title 92 < 95"),
    ("Llama 2: Open Foundation and Fine-Tuned Chat Models", "Llama 3: Open Foundation and Fine-Tuned Chat Models",
     "titles differ in a number or a negation (title 98)"),
    ("Deep Residual Learning for Image Recognition and Beyond: Part II",
     "Deep Residual Learning for Image Recognition and Beyond: Part III",
     "titles differ in a number or a negation (title 99)"),
    ("Why Language Models Hallucinate and How Retrieval Does Not Help at All",
     "Why Language Models Hallucinate and How Retrieval Does Help at All",
     "titles differ in a number or a negation (title 97)"),
    ("Scaling Rectified Flows", "Scaling Rectified Flow", "short titles differ (title 97)"),
    ("Mamba", "Mamba-2", "title 83 < 95"),
    ("Attention Is All You Need", "", "no title to compare"),
])
def test_near_titles_are_other_papers(entry: str, found: str, why: str) -> None:
    decision = decide(Known(entry), [record(found)])
    assert isinstance(decision, NotFound) and decision.rejected[0].failures == (why,)


@pytest.mark.parametrize(("entry", "found"), [
    ("Attention Is All You Need", "attention is all you need"),
    ("BERT: Pre-training of Deep Bidirectional Transformers",
     "BERT -- Pre-Training of Deep Bidirectional Transformers"),
    ("Self-Attention Rules", "Self Attention Rules"),
    (r"{FlashAttention}: Fast and Memory-Efficient Exact Attention with {IO}-Awareness",
     "FlashAttention: Fast and Memory‑Efficient Exact Attention with IO‑Awareness"),
    (r"Scaling Laws for $\alpha$-Stable Schr\"odinger Bridges", "Scaling laws for α-stable Schrödinger bridges"),
    ("Do Transformers Really Perform Badly for Graph Representation?",
     "Do Transformers Really Perform Bad for Graph Representation"),
])
def test_titles_differing_in_markup_case_or_dashes_match(entry: str, found: str) -> None:
    assert isinstance(decide(Known(entry), [record(found)]), Resolved)


def test_same_title_in_other_years_are_other_papers() -> None:
    older = record("A Survey of Large Language Models", arxiv="1901.00001", date=dt.date(2019, 1, 1))
    newer = record("A Survey of Large Language Models", arxiv="2303.18223", date=dt.date(2023, 3, 31))
    decision = decide(Known("A Survey of Large Language Models", dt.date(2023, 4, 2)), [older, newer])
    assert isinstance(decision, Resolved) and decision.record.arxiv == "2303.18223"
    assert decision.how == "title 100, year 2023"
    rejected = decide(Known("A Survey of Large Language Models", dt.date(2021, 6, 1)), [older, newer])
    assert isinstance(rejected, NotFound)
    assert [s.failures for s in rejected.rejected] == [("year 2019, the entry's 2021",),
                                                       ("year 2023, the entry's 2021",)]


def test_same_title_papers_that_both_pass_are_ambiguous_unless_one_agrees_clearly() -> None:
    december = record("Mixture of Depths", arxiv="2312.00001", date=dt.date(2023, 12, 20))
    june = record("Mixture of Depths", arxiv="2406.00001", date=dt.date(2024, 6, 3))
    undated = decide(Known("Mixture of Depths"), [december, june])
    assert isinstance(undated, Ambiguous) and {s.record.arxiv for s in undated.candidates} == {"2312.00001",
                                                                                              "2406.00001"}
    both_near = decide(Known("Mixture of Depths", dt.date(2024, 3, 1)), [december, june])
    assert isinstance(both_near, Ambiguous)  # both within a year, neither within a month
    dated = decide(Known("Mixture of Depths", dt.date(2024, 1, 2)), [december, june])
    assert isinstance(dated, Resolved) and dated.record.arxiv == "2312.00001"
    assert dated.how == "title 100, year 2023; chosen over 1 other paper(s) of that title"
    known = Known("Mixture of Depths", abstract="Tokens skip layers by routing, which saves compute in transformers.")
    verbatim = record("Mixture of Depths", arxiv="2312.00001",
                      abstract="Tokens skip layers by routing, which saves compute in transformers at scale.")
    similar = record("Mixture of Depths", arxiv="2406.00001",
                     abstract="Tokens skip layers through routers, which saves compute in large transformers.")
    by_abstract = decide(known, [verbatim, similar])
    assert isinstance(by_abstract, Resolved) and by_abstract.record.arxiv == "2312.00001"
    assert by_abstract.how == "title 100, abstract 100; chosen over 1 other paper(s) of that title"


def test_publisher_versions_without_a_shared_id_are_not_merged() -> None:
    journal = record("Graph Attention Networks", arxiv=None, doi="10.1000/journal.1", source="s2")
    workshop = record("Graph Attention Networks", arxiv=None, doi="10.1000/workshop.2", source="s2")
    assert isinstance(decide(Known("Graph Attention Networks"), [journal, workshop]), Ambiguous)
    linked = record("Graph Attention Networks", arxiv="1710.10903", doi="10.1000/journal.1")
    decision = decide(Known("Graph Attention Networks"), [journal, linked])
    assert isinstance(decision, Resolved) and len(decision.records) == 2  # the DOI joins them


def test_a_doi_shared_by_two_arxiv_papers_merges_neither() -> None:
    first = record("Graph Attention Networks", arxiv="1710.10903", doi="10.1000/gat")
    mixed_up = record("Graph Attention Networks", arxiv="2401.00001", doi="10.1000/gat", source="s2")
    decision = decide(Known("Graph Attention Networks"), [first, mixed_up])
    assert isinstance(decision, Ambiguous) and len(decision.candidates) == 2


def test_one_arxiv_paper_with_two_dois_keeps_neither() -> None:
    decision = decide(Known("Graph Attention Networks"), [
        record("Graph Attention Networks", doi="10.1000/a"), record("Graph Attention Networks", doi="10.1000/b",
                                                                   source="s2")])
    assert isinstance(decision, Resolved) and decision.record.doi is None and len(decision.records) == 2
    assert decision.how == "title 100; sources arxiv, s2; the sources' DOIs differ, none kept"


def test_missing_dates_and_counts_check_nothing() -> None:
    decision = decide(Known("Attention Is All You Need"), [record("Attention Is All You Need", authors=NAMES)])
    assert isinstance(decision, Resolved) and decision.how == "title 100"


@pytest.mark.parametrize(("count", "truncated", "found", "failures"), [
    (3, True, 7, ()),
    (7, False, 7, ()),
    (3, False, 7, ("7 authors, the entry's 3",)),
    (3, True, 2, ("2 authors, the entry's 3+",)),
    (1, False, 2, ("2 authors, the entry's 1",)),
    (3, False, 0, ()),  # the source names no authors: nothing to compare
])
def test_author_counts(count: int, truncated: bool, found: int, failures: tuple[str, ...]) -> None:
    known = Known("Attention Is All You Need", author_count=count, truncated=truncated)
    assert assess(known, record("Attention Is All You Need", authors=NAMES[:found])).failures == failures


def test_author_names_must_overlap() -> None:
    known = Known("Attention Is All You Need", authors=("Ashish Vaswani", "Noam Shazeer", "Niki Parmar"))
    assert assess(known, record("Attention Is All You Need", authors=("A. Vaswani", "N. Shazeer", "N. Parmar"))).how \
        == "title 100, authors 3/3"
    others = assess(known, record("Attention Is All You Need", authors=("Wei Zhang", "Noam Shazeer", "Li Wei")))
    assert others.failures == ("authors 1/3 in common",)
    chinese = Known("Graph Networks at Scale", authors=("Zhang Wei", "Li Na"))
    assert assess(chinese, record("Graph Networks at Scale", authors=("Wei Zhang", "Na Li", "Jun Wang"))).accepted


def test_names_fold_letters_that_do_not_decompose_but_keep_other_scripts_apart() -> None:
    """ł, ø, đ, æ, ß have no accent to drop: transliterated, `Lukasz Malecki` is `Łukasz Małecki`; names in other
    scripts are not turned into Latin look-alikes (李 is not Li)."""
    typed = Known("Graph Networks at Scale", authors=("Lukasz Malecki", "Soren Hansen", "Dorde Petrovic",
                                                       "AEsa Strasse"))
    found = record("Graph Networks at Scale", authors=("Łukasz Małecki", "Søren Hansen", "Đorđe Petrović",
                                                       "Æsa Straße"))
    assert assess(typed, found).how == "title 100, authors 4/4"
    cjk = Known("Graph Networks at Scale", authors=("李 娜", "王 军"))
    assert assess(cjk, record("Graph Networks at Scale", authors=("Li Na", "Wang Jun"))).failures == (
        "authors 0/2 in common",)


def test_an_author_count_off_by_one_passes_only_when_everything_else_is_near_certain() -> None:
    """A listing said 6, the arXiv version lists 7: with the title exact, the abstract verbatim and the date
    within a month the count may be off by one; with any of those short of that, or off by two, it may not."""
    day = dt.date(2017, 6, 12)
    known = Known("Attention Is All You Need", date=day, author_count=6, abstract=ABSTRACT)
    sure = record("Attention Is All You Need", authors=NAMES, abstract=ABSTRACT, date=day)
    scored = assess(known, sure)
    assert scored.accepted and "7 authors, the entry's 6 (off by one; all else agrees)" in scored.how
    later = record("Attention Is All You Need", authors=NAMES, abstract=ABSTRACT, date=dt.date(2018, 3, 1))
    assert assess(known, later).failures == ("7 authors, the entry's 6",)  # the date is not within a month
    paraphrase = "We propose the Transformer, a network based solely on attention, dispensing with recurrence."
    loose = record("Attention Is All You Need", authors=NAMES, abstract=paraphrase, date=day)
    assert "7 authors, the entry's 6" in assess(known, loose).failures  # the abstract is not verbatim
    two = Known("Attention Is All You Need", date=day, author_count=5, abstract=ABSTRACT)
    assert "7 authors, the entry's 5" in assess(two, sure).failures
    near = record("Attention Is All You Need.", authors=NAMES, abstract=ABSTRACT, date=day)
    assert assess(known, near).accepted  # punctuation aside, the title is the same


def test_a_short_hand_typed_author_list_is_a_lower_bound_when_its_names_lead_the_papers() -> None:
    """Only the first author typed, without `authors_truncated`: a lower bound when the names are the paper's
    first ones, in order; not when they are found elsewhere in its list, and never for an explicit count."""
    typed = Known("Attention Is All You Need", authors=("Ashish Vaswani",), author_count=1, listed_only=True)
    scored = assess(typed, record("Attention Is All You Need", authors=NAMES))
    assert scored.accepted and "the entry lists the first 1 of 7 (a lower bound)" in scored.how
    elsewhere = Known("Attention Is All You Need", authors=("Llion Jones",), author_count=1, listed_only=True)
    assert "7 authors, the entry's 1" in assess(elsewhere, record("Attention Is All You Need", authors=NAMES)).failures
    counted = Known("Attention Is All You Need", authors=("Ashish Vaswani",), author_count=1)
    assert "7 authors, the entry's 1" in assess(counted, record("Attention Is All You Need", authors=NAMES)).failures


def test_abstracts_must_agree() -> None:
    known = Known("Attention Is All You Need", abstract=ABSTRACT)
    other = assess(known, record("Attention Is All You Need", abstract="We study protein folding with diffusion."))
    assert other.failures[0].startswith("abstract ") and other.failures[0].endswith(" < 80")
    assert assess(known, record("Attention Is All You Need", abstract=ABSTRACT[:90])).how == "title 100, abstract 100"


def test_a_hand_set_arxiv_id_pins_the_paper() -> None:
    known = Known("Attention Is All You Need", arxiv="1706.03762v5")
    impostor = record("Attention Is All You Need", arxiv="2501.00001")
    decision = decide(known, [impostor])
    assert isinstance(decision, NotFound)
    assert decision.rejected[0].failures == ("arXiv 2501.00001 is not the entry's 1706.03762",)
    pinned = decide(known, [impostor, record("Attention Is All You Need")])
    assert isinstance(pinned, Resolved) and pinned.record.arxiv == "1706.03762"
    assert pinned.how == "title 100; arXiv id pinned"
    idless = decide(known, [record("Attention Is All You Need", arxiv=None, doi="10.1000/x", source="s2")])
    assert isinstance(idless, NotFound)
    assert idless.rejected[0].failures == ("no arXiv id to check against the entry's",)


def test_no_candidates_is_not_found() -> None:
    assert decide(Known("Anything"), []) == NotFound()


# Properties

WORD = st.from_regex(r"[a-zA-Zéü]{1,9}", fullmatch=True)


@given(title=st.text(min_size=1, max_size=80), authors=st.lists(st.text(max_size=20), max_size=6),
       abstract=st.text(max_size=200), date=st.none() | st.dates(), truncated=st.booleans(),
       pin=st.booleans(), source=st.sampled_from(("arxiv", "hf", "s2", "bibtex")))
def test_a_candidate_built_from_the_entry_is_accepted(title: str, authors: list[str], abstract: str,
                                                      date: dt.date | None, truncated: bool, pin: bool,
                                                      source: str) -> None:
    assume(normalize(title))
    known = Known(title, date, len(authors) or None, tuple(authors), abstract, truncated,
                  "2507.14417" if pin else None)
    itself = record(title, source=source, arxiv="2507.14417", date=date, authors=tuple(authors), abstract=abstract)
    decision = decide(known, [itself])
    assert isinstance(decision, Resolved) and decision.records == (itself,)


@given(words=st.lists(WORD, min_size=1, max_size=3), at=st.integers(0, 2), other=WORD,
       date=st.none() | st.dates())
def test_a_short_title_differing_by_a_word_is_never_accepted(words: list[str], at: int, other: str,
                                                             date: dt.date | None) -> None:
    at %= len(words)
    assume(normalize(other) != normalize(words[at]))
    changed = [*words[:at], other, *words[at + 1:]]
    decision = decide(Known(" ".join(words), date), [record(" ".join(changed), date=date)])
    assert isinstance(decision, NotFound)


POOL = (
    record("Mixture of Depths", arxiv="2312.00001", date=dt.date(2023, 12, 20), source="arxiv"),
    record("Mixture of Depths", arxiv="2312.00001", source="hf", upvotes=7),
    record("Mixture-of-Depths", arxiv="2312.00001", source="s2", doi="10.1000/mod", year=2024),
    record("Mixture of Depths", arxiv=None, doi="10.1000/mod", source="bibtex"),
    record("Mixture of Depths", arxiv="2406.00001", date=dt.date(2024, 6, 3)),
    record("Mixture of Depths", arxiv="1901.00001", date=dt.date(2019, 1, 2)),
    record("Mixture of Depth", arxiv="2402.00001", date=dt.date(2024, 2, 1)),
    record("Mixture of Depths", arxiv=None, source="bibtex"),
)
KNOWN = (Known("Mixture of Depths"), Known("Mixture of Depths", dt.date(2024, 1, 2)),
         Known("Mixture of Depths", dt.date(2019, 3, 1)), Known("Mixture of Depths", arxiv="2406.00001"))


@given(st.lists(st.sampled_from(POOL), max_size=8).flatmap(lambda found: st.tuples(st.just(found),
                                                                                  st.permutations(found))),
       st.sampled_from(KNOWN))
def test_the_decision_does_not_depend_on_candidate_order(found: tuple[list[Record], list[Record]],
                                                         known: Known) -> None:
    assert decide(known, found[0]) == decide(known, found[1])


def test_scored_says_whether_it_was_accepted() -> None:
    assert Scored(record("X"), 100, "title 100").accepted
    assert not Scored(record("X"), 0, "", ("no title to compare",)).accepted
