"""Text similarity: TF-IDF cosine nearest neighbours, against the definition worked out the long way."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.common import forked
from sitegen.model import similar

from ..html_tools import REPO, committed_entries


def _naive(texts: dict[str, str], k: int = similar.NEAREST, budget: int = similar.PAIR_BUDGET) -> dict[str, list[str]]:
    """The definition: full TF-IDF vectors over the vocabulary, every pair's cosine, sorted."""
    words = {key: Counter(similar.WORD.findall(text.lower())) for key, text in texts.items()}
    frequency = Counter(w for used in words.values() for w in used)
    idf = similar.vocabulary(frequency, len(texts), budget)
    vectors = {}
    for key, used in words.items():
        vector = {w: (1 + math.log(c)) * idf[w] for w, c in used.items() if w in idf}
        norm = math.sqrt(sum(v * v for v in vector.values()))
        vectors[key] = {w: v / norm for w, v in vector.items()}
    found = {}
    for key, vector in vectors.items():
        scored = [(-round(sum(v * other.get(w, 0.0) for w, v in vector.items()), 4), o)
                  for o, other in vectors.items() if o != key and vector.keys() & other.keys()]
        if scored:
            found[key] = [o for _, o in sorted(scored)[:k]]
    return found


def _bundled() -> dict[str, str]:
    return {slug: f"{meta['title']}\n{meta.get('abstract') or ''}" for slug, meta in committed_entries().items()}


def test_the_bundled_lists_neighbours_are_the_cosines_worked_out_the_long_way() -> None:
    texts = _bundled()
    fast = {key: [o for o, _ in near] for key, near in similar.nearest(texts).items()}
    assert fast == _naive(texts)
    assert len(fast) == len(texts), "every paper of the list has neighbours"


words = st.sampled_from(["tensor", "kernel", "cache", "gpu", "sparse", "attention", "the", "of", "compiler", "Kernel",
                         "GPUs", "3d"])


@settings(max_examples=60, deadline=None)
@given(texts=st.dictionaries(st.text("abcdef", min_size=1, max_size=4), st.lists(words, max_size=12).map(" ".join),
                             min_size=2, max_size=12),
       budget=st.integers(0, 40))
def test_any_small_list_matches_the_definition_whatever_the_budget(texts: dict[str, str], budget: int) -> None:
    fast = {key: [o for o, _ in near] for key, near in similar.nearest(texts, budget=budget).items()}
    assert fast == _naive(texts, budget=budget)


def test_rare_words_match_and_common_ones_do_not() -> None:
    texts = {
        "a": "Pipeline parallelism with zero bubbles for the training of transformers",
        "b": "Zero bubbles: pipeline parallelism scheduling for transformers",
        "c": "Quantized attention kernels for transformers",
        "d": "Attention kernels, quantized, for transformers on GPUs",
        "e": "A survey of transformers",
    }
    near = similar.nearest(texts)
    assert near["a"][0][0] == "b" and near["c"][0][0] == "d"
    assert "e" not in near, "'transformers' is in every paper and 'survey' in one: nothing to match on"
    assert all(0 < score <= 1 for found in near.values() for _, score in found)


def test_stop_words_numbers_and_single_letters_never_count() -> None:
    frequency = Counter({"the": 2, "we": 2, "2024": 2, "x": 2, "kernel": 2, "gpu": 9})
    assert set(similar.vocabulary(frequency, papers=10)) == {"kernel"}, "'gpu' is in most papers"


def test_past_the_budget_the_most_common_words_go_first() -> None:
    frequency = Counter({"rare": 2, "middling": 3, "common": 4})
    assert set(similar.vocabulary(frequency, papers=10, budget=1 + 3)) == {"rare", "middling"}
    assert set(similar.vocabulary(frequency, papers=10, budget=3)) == {"rare"}


def test_the_neighbours_do_not_depend_on_string_hashing() -> None:
    """Sets and dicts of words iterate in another order in each process: the scores must not move."""
    code = ("import json, sys; from sitegen.model import similar; from tests.html_tools import committed_entries; "
            "t = {s: m['title'] + '\\n' + (m.get('abstract') or '') for s, m in committed_entries().items()}; "
            "print(json.dumps(similar.nearest(dict(reversed(list(t.items()))))))")
    runs = {subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=REPO,
                           env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO)}).stdout
            for seed in ("1", "2", "3")}
    assert len(runs) == 1




def _in_parts(cuts: list[int]) -> similar.Split:
    """A split that works the rows out in consecutive parts ending at `cuts` (then the rest), in this process."""

    def split(part: Callable[[int, int], dict[str, similar.Neighbours]], count: int) -> dict[str, similar.Neighbours]:
        found: dict[str, similar.Neighbours] = {}
        start = 0
        for end in [*(c for c in cuts if c < count), count]:
            found.update(part(start, end))
            start = end
        return found

    return split


@settings(max_examples=60, deadline=None)
@given(texts=st.dictionaries(st.text("abcdef", min_size=1, max_size=4), st.lists(words, max_size=12).map(" ".join),
                             min_size=2, max_size=12),
       budget=st.integers(0, 40), cuts=st.lists(st.integers(1, 11), max_size=3).map(sorted))
def test_rows_worked_out_in_parts_are_the_whole_computation_to_the_last_bit(texts: dict[str, str], budget: int,
                                                                            cuts: list[int]) -> None:
    keys = sorted(texts)
    counts = [similar.counted(texts[key]) for key in keys]
    frequency = Counter(word for used in counts for word, _ in used)
    whole = similar.worked_out(keys, counts, frequency, similar.NEAREST, budget)
    parted = similar.worked_out(keys, counts, frequency, similar.NEAREST, budget, _in_parts(cuts))
    assert parted == whole and list(parted[0]) == list(whole[0])  # every cosine, and the keys' order


def test_the_bundled_lists_rows_in_two_processes_are_the_whole_computation() -> None:
    texts = _bundled()
    keys = sorted(texts)
    counts = [similar.counted(texts[key]) for key in keys]
    frequency = Counter(word for used in counts for word, _ in used)
    whole = similar.worked_out(keys, counts, frequency, similar.NEAREST, similar.PAIR_BUDGET)[0]
    split = similar.worked_out(keys, counts, frequency, similar.NEAREST, similar.PAIR_BUDGET,
                               lambda part, count: forked.in_two(part, count, dict[str, similar.Neighbours], 1))[0]
    assert split == whole and list(split) == list(whole)
