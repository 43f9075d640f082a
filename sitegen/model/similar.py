"""How alike papers' texts are: TF-IDF vectors of title and abstract, and each paper's nearest by cosine.

The vectors are those of scikit-learn's `TfidfVectorizer(sublinear_tf=True, min_df=2,
max_df=...)`: each word's count as 1 + log(count), times its smoothed inverse document
frequency log((n + 1) / (df + 1)) + 1, normalized to unit length; a word only one paper
uses, or one of the most common (see `vocabulary`), is left out, as are English stop
words. Written out here rather than imported: importing scikit-learn costs about 2 s of
CPU, a fifth of a cold build at 10,000 papers, and its exact all-pairs cosine grows with
the square of the shared words (see benchmarks/README.md, "Related papers").

The cost is bounded by the pairs of papers sharing a word: words are taken rarest first
until those pairs reach `PAIR_BUDGET`, so the most common words (in more than half the
papers, or past the budget) count for nothing. Rare words are the ones that say what a
paper is about, and a list of 10,000 papers still keeps thousands of them.
"""

from __future__ import annotations

import heapq
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain

WORD = re.compile(r"[^\W_]+")
NEAREST = 10  # neighbours kept per paper
MAX_SHARE = 0.5  # a word in more than this share of the papers says nothing about one of them
PAIR_BUDGET = 300_000  # pairs of papers sharing a kept word, at most: about 0.1 s of work
# Function words and the stock phrases of abstracts: they match papers on how they are written, not what about
STOP_WORDS = frozenset("""
a about above across after again against all almost also although always among an and another any are around as at
be because been before being below between both but by can could did do does doing done down during each either
enough etc even ever every few for from further had has have having here how however i if in into is it its itself
just less many may might more most much must my neither no nor not now of off often on once one only or other others
our ours out over own per perhaps rather same several she should since so some such than that the their theirs them
themselves then there these they this those though through thus to too under until up upon us very via was we were
what when where whether which while who whom whose why will with within without would yet you your approach
approaches based existing furthermore moreover new novel paper present propose proposed proposes provide results
show shows significantly state study use used uses using well work
""".split())  # noqa: SIM905

Neighbours = tuple[tuple[str, float], ...]  # (key, cosine), most alike first
Counts = tuple[tuple[str, int], ...]  # a text's words with how often it uses each, sorted (`counted`)
# Works out `part(start, end)` for the items 0..count (each text's nearest) and gives them all, in order: in two
# processes for a long list (common/forked.py `in_two`); the rows of the nearest are independent of one another
Split = Callable[[Callable[[int, int], dict[str, "Neighbours"]], int], dict[str, "Neighbours"]]


def nearest(texts: Mapping[str, str], k: int = NEAREST, budget: int = PAIR_BUDGET) -> dict[str, Neighbours]:
    """Each text's `k` most alike others by TF-IDF cosine, rounded to 4 places before ties go by key.

    Keys are visited sorted and sums taken in a fixed order, so the result does not depend
    on the mapping's order or on string hashing.
    """
    return nearest_counted({key: dict(counted(text)) for key, text in texts.items()}, k, budget)


def counted(text: str) -> tuple[tuple[str, int], ...]:
    """A text's words with how often it uses each, in order: all `nearest` needs of it (the engine keeps them
    per paper, so a title edit counts the words of one text, not of 10,000: 0.4 s at 10,000 papers)."""
    return tuple(sorted(Counter(WORD.findall(text.lower())).items()))


def nearest_counted(words: Mapping[str, Mapping[str, int]], k: int = NEAREST,
                    budget: int = PAIR_BUDGET) -> dict[str, Neighbours]:
    """`nearest`, of texts given by their words' counts (`counted`)."""
    keys = sorted(words)
    frequency = Counter(chain.from_iterable(words[key] for key in keys))  # in how many texts each word is
    return worked_out(keys, [words[key].items() for key in keys], frequency, k, budget)[0]


def worked_out(keys: list[str], counts: Sequence[Iterable[tuple[str, int]]], frequency: Mapping[str, int], k: int,
               budget: int, split: Split | None = None) -> tuple[dict[str, Neighbours], dict[str, float], list[Vector]]:
    """The nearest of texts (`keys` sorted, each text's words counted), with the vocabulary and each text's vector
    they were worked out from; `split`, if given, works out parts of the rows (in two processes)."""
    idf = vocabulary(frequency, len(keys), budget)
    postings, vectors = _postings(counts, idf)
    if split is None:
        return _top(keys, _shared(postings, len(keys)), k), idf, vectors
    rank = {word: i for i, word in enumerate(idf)}

    def part(start: int, end: int) -> dict[str, Neighbours]:
        if (start, end) == (0, len(keys)):  # not split after all (a short list): each pair visited once
            return _top(keys, _shared(postings, len(keys)), k)
        return _top(keys, _rows(postings, vectors, rank, start, end), k, start)

    return split(part, len(keys)), idf, vectors


def vocabulary(frequency: Mapping[str, int], papers: int, budget: int = PAIR_BUDGET) -> dict[str, float]:
    """The words that count, with their inverse document frequency: rarest first, while the pairs fit `budget`.

    A word must be in at least two papers (else it matches none), at most `MAX_SHARE` of
    them, at least two letters long, not a number and not a stop word.
    """
    found: dict[str, float] = {}
    pairs = 0
    for df, word in sorted((df, w) for w, df in frequency.items() if 2 <= df <= papers * MAX_SHARE):
        if len(word) < 2 or word.isdigit() or word in STOP_WORDS:
            continue
        pairs += df * (df - 1) // 2
        if pairs > budget:
            break
        found[word] = math.log((papers + 1) / (df + 1)) + 1
    return found


Postings = list[list[tuple[int, float]]]  # for each kept word, the papers using it and its weight in their vector
Vector = tuple[tuple[str, float], ...]  # a paper's kept words, rarest first, with their weights in its unit vector


def _postings(counts: Iterable[Iterable[tuple[str, int]]], idf: Mapping[str, float]) -> tuple[Postings, list[Vector]]:
    """For each kept word (rarest first), the papers using it with the word's weight in their unit vector;
    and each paper's vector."""
    rank = {word: i for i, word in enumerate(idf)}
    postings: Postings = [[] for _ in rank]
    vectors: list[Vector] = []
    for paper, used in enumerate(counts):
        vector = vector_of(used, idf, rank)
        for word, weight in vector:
            postings[rank[word]].append((paper, weight))
        vectors.append(vector)
    return postings, vectors


def vector_of(used: Iterable[tuple[str, int]], idf: Mapping[str, float], rank: Mapping[str, int]) -> Vector:
    """A text's unit vector over the kept words (`rank`: their places in `idf`, rarest first), in that order."""
    weights = {word: (1 + math.log(n)) * idf[word] for word, n in used if word in rank}
    if not weights:
        return ()
    norm = math.sqrt(math.fsum(w * w for w in weights.values()))  # exact: the same in any order
    return tuple(sorted(((word, weight / norm) for word, weight in weights.items()), key=lambda pair: rank[pair[0]]))


def _shared(postings: list[list[tuple[int, float]]], papers: int) -> list[dict[int, float]]:
    """For each paper, the cosine with every other paper sharing a kept word with it."""
    rows: list[dict[int, float]] = [{} for _ in range(papers)]
    for users in postings:  # each list in paper order, the lists rarest word first: a fixed order of sums
        for a, (i, wi) in enumerate(users):
            row = rows[i]
            for j, wj in users[a + 1:]:
                product = wi * wj
                row[j] = row.get(j, 0.0) + product
                other = rows[j]
                other[i] = other.get(i, 0.0) + product
    return rows


def best(row: dict[int, float], k: int) -> list[tuple[float, int]]:
    """The `k` highest of a row as (-cosine rounded to 4 places, index): ties by key (keys are sorted)."""
    return heapq.nsmallest(k, [(-round(score, 4), j) for j, score in row.items()])


def _rows(postings: Postings, vectors: list[Vector], rank: Mapping[str, int], start: int,
          end: int) -> list[dict[int, float]]:
    """`_shared`'s rows of the papers from `start` to `end` alone, each cosine summed in the same order (word by
    word, rarest first: a product is the same either way round), so every figure is the same to the last bit."""
    rows: list[dict[int, float]] = []
    for i in range(start, end):
        row: dict[int, float] = {}
        for word, wi in vectors[i]:
            for j, wj in postings[rank[word]]:
                if j != i:
                    row[j] = row.get(j, 0.0) + wi * wj
        rows.append(row)
    return rows


def _top(keys: list[str], rows: list[dict[int, float]], k: int, start: int = 0) -> dict[str, Neighbours]:
    """The `k` highest of each row (the rows of the papers from `start` on), ties by key (keys are sorted, so by
    index)."""
    found: dict[str, Neighbours] = {}
    for i, row in enumerate(rows, start):
        if row:
            found[keys[i]] = tuple((keys[j], -score) for score, j in best(row, k))
    return found
