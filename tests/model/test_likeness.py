"""Neighbours worked out from the last result after an edit: the same, to the last figure, as starting again."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.model import likeness, similar

from .test_similar import words


def _counted(texts: dict[str, str]) -> dict[str, similar.Counts]:
    return {key: similar.counted(text) for key, text in texts.items()}


def _same(found: likeness.Likeness, wanted: likeness.Likeness) -> None:
    """Equal to the last figure, and in the same order (the memo fingerprints the neighbours' encoding)."""
    assert list(found.near.items()) == list(wanted.near.items())
    assert {key: likeness.counts_of(used) for key, used in found.words.items()} == wanted.words
    assert found.frequency == wanted.frequency


@settings(max_examples=300, deadline=None)
@given(texts=st.dictionaries(st.text("abcdef", min_size=1, max_size=4), st.lists(words, max_size=12).map(" ".join),
                             min_size=2, max_size=14),
       edits=st.lists(st.tuples(st.integers(0, 100), st.lists(words, max_size=12).map(" ".join)), min_size=1,
                      max_size=4),
       budget=st.integers(0, 40), k=st.integers(1, 4), saved=st.sampled_from(["kept", "saved", "saved bare"]))
def test_an_edit_worked_in_equals_the_neighbours_worked_out_again(texts: dict[str, str],
                                                                  edits: list[tuple[int, str]], budget: int,
                                                                  k: int, saved: str) -> None:
    """Texts edited one at a time, each time from the last result, its index kept (the preview) or the result read
    back from the memo (a new process), with the index's vectors or without: the same as starting again."""
    keys = sorted(texts)
    found = likeness.whole(_counted(texts), k, budget)
    for at, text in edits:
        changed = {keys[at % len(keys)]: similar.counted(text)}
        texts = {**texts, **dict.fromkeys(changed, text)}
        if saved != "kept":  # through the memo's encoding, as a new process reads it back
            near, words, frequency, vectors = likeness.saved(found)
            data = msgspec.msgpack.encode((near, words, frequency, vectors if saved == "saved" else None))
            found = likeness.restored(*msgspec.msgpack.decode(data, type=likeness.Saved), budget=budget)
            assert (found.index is not None) == (saved == "saved")
        found = likeness.updated(found, changed, k, budget)
        _same(found, likeness.whole(_counted(texts), k, budget))
    assert found.near == similar.nearest(texts, k, budget)


def test_an_edit_of_one_rare_word_sums_again_only_the_rows_it_reaches(monkeypatch: pytest.MonkeyPatch) -> None:
    """A list of 400 texts, one given a word two others have: the three texts' rows and those of the texts that had
    one of them among their nearest are summed again, not 400."""
    texts = {f"p{i:03}": f"topic{i // 2} shared{i % 7} common{i % 3}" for i in range(400)}
    before = likeness.whole(_counted(texts))
    summed: list[int] = []
    real = likeness._row
    monkeypatch.setattr(likeness, "_row", lambda paper, *rest: summed.append(paper) or real(paper, *rest))
    texts["p010"] += " topic77"
    after = likeness.updated(before, {"p010": similar.counted(texts["p010"])})
    _same(after, likeness.whole(_counted(texts)))
    assert after.near["p010"][0][0] in {"p154", "p155"} and "p010" in {o for o, _ in after.near["p154"]}
    assert 3 <= len(summed) < len(texts) / 4
