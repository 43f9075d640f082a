"""Every text's nearest kept with what they were worked out from, so that an edit of a few texts works in.

`similar.nearest_counted` sums every cosine of the list: 0.3 s at 10,000 papers, nine
tenths of a title edit in the preview. An edit of a few texts moves few rows: `updated`
sums those again and merges the rest, to the last figure what starting again gives (the
property test in tests/model/test_likeness.py). A result keeps its index (each text's
vector, each word's users), in the process that made it and, as the vectors, in the memo.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from .similar import NEAREST, PAIR_BUDGET, Counts, Neighbours, Split, Vector, best, vector_of, vocabulary, worked_out


@dataclass
class Index:
    """What the nearest were summed from: made again from the texts when not at hand (a new process)."""

    idf: dict[str, float]  # the vocabulary, rarest first
    vectors: list[Vector]  # each text's unit vector, by the text's place in the sorted keys
    users: dict[str, dict[int, float]]  # each kept word's texts, with its weight in each


@dataclass
class Likeness:
    """Every text's nearest (as `similar.nearest` gives them), the texts' words and the words' frequencies."""

    near: dict[str, Neighbours]
    words: dict[str, Counts | str]  # each text's words counted, by key, sorted; as saved until read (`counts_of`)
    frequency: dict[str, int]  # in how many texts each word is
    index: Index | None = field(default=None, compare=False, repr=False)  # saved as its vectors (`saved`), if any
    # the keys whose nearest differ from those of the result this was updated from (None: worked out whole)
    changed: frozenset[str] | None = field(default=None, compare=False, repr=False)


def whole(words: Mapping[str, Counts], k: int = NEAREST, budget: int = PAIR_BUDGET,
          split: Split | None = None) -> Likeness:
    """`similar.nearest_counted` of the texts, every cosine summed (parts of the rows by `split`, if given), kept
    with what `updated` starts from."""
    return _whole(words, k, budget, split)


def _whole(words: Mapping[str, Counts | str], k: int, budget: int, split: Split | None = None) -> Likeness:
    kept = {key: counts_of(words[key]) for key in sorted(words)}
    frequency = dict(Counter(word for used in kept.values() for word, _ in used))
    near, idf, vectors = worked_out(list(kept), list(kept.values()), frequency, k, budget, split)
    return Likeness(near, dict[str, Counts | str](kept), frequency, _index(idf, vectors))


def updated(previous: Likeness, changed: Mapping[str, Counts], k: int = NEAREST,
            budget: int = PAIR_BUDGET) -> Likeness:
    """`whole` of the texts with `changed` ones (of keys `previous` has) in their place, equal to it exactly,
    working out again only the rows an edit can have moved.

    A text's vector moves only if the text changed or a word it uses weighs otherwise now
    (that word's frequency moved, or it came into the vocabulary or left it): those texts
    have their rows summed again. Any other text's cosines move only with them: its row is
    summed again if one of them was among its nearest, else their new cosines with it are
    merged into its nearest. Sums run in the order `nearest` takes, so every figure is the same.
    """
    words, frequency = dict(previous.words), dict(previous.frequency)
    for key, used in changed.items():
        for word, _ in counts_of(words[key]):
            frequency[word] -= 1
            if not frequency[word]:
                del frequency[word]
        for word, _ in used:
            frequency[word] = frequency.get(word, 0) + 1
        words[key] = used
    keys, papers = list(words), len(words)
    index = previous.index
    before = index.idf if index is not None else vocabulary(previous.frequency, papers, budget)
    idf = vocabulary(frequency, papers, budget)
    reweighed = {word for word in before.keys() | idf.keys() if before.get(word) != idf.get(word)}
    place = {key: i for i, key in enumerate(keys)}
    moved = {place[key] for key in changed}
    if index is None or not _users_known(index, reweighed, changed, frequency):
        # a word come into the vocabulary that texts not edited use: only reading every text finds them
        if reweighed:
            moved.update(i for i, used in enumerate(words.values())
                         if any(word in reweighed for word, _ in counts_of(used)))
        if len(moved) * 4 > papers:  # most rows move: summing them all in one pass is quicker
            return _anew(previous, words, k, budget)
        rank = _rank(idf)
        index = _index(idf, [vector_of(counts_of(used), idf, rank) for used in words.values()])
    else:
        for word in reweighed & index.users.keys():
            moved.update(index.users[word])
        if len(moved) * 4 > papers:
            return _anew(previous, words, k, budget)
        index = _patched(index, idf, moved, [counts_of(words[keys[i]]) for i in sorted(moved)], sorted(moved))
    near, changed_near = _merged(previous.near, keys, place, moved, index, k)
    return Likeness(near, words, frequency, index, changed_near)


def _anew(previous: Likeness, words: dict[str, Counts | str], k: int, budget: int) -> Likeness:
    """`whole`, when most rows move, yet saying whose nearest changed (a list reads only its own paper's)."""
    found = _whole(words, k, budget)
    last = previous.near
    found.changed = frozenset(key for key in words if found.near.get(key) != last.get(key))
    return found


Saved = tuple[dict[str, Neighbours], dict[str, str], dict[str, int], list[Vector] | None]


def saved(found: Likeness) -> Saved:
    """As the memo saves it: each text's words as one string ("word count word count"), which a new process decodes
    in a fiftieth of the time 600,000 pairs take and parses only for the texts it reads; and the index's vectors,
    so that it need not make them from every text's words again."""
    words = {key: used if isinstance(used, str) else " ".join(f"{word} {n}" for word, n in used)
             for key, used in found.words.items()}
    return found.near, words, found.frequency, found.index.vectors if found.index is not None else None


def restored(near: dict[str, Neighbours], words: dict[str, str], frequency: dict[str, int],
             vectors: list[Vector] | None, budget: int = PAIR_BUDGET) -> Likeness:
    """`saved` back, its index made from the vectors (not from the words) when they are the texts'."""
    index = None
    if vectors is not None and len(vectors) == len(words):
        idf = vocabulary(frequency, len(words), budget)
        if all(word in idf for vector in vectors for word, _ in vector):
            index = _index(idf, vectors)
    return Likeness(near, dict(words), frequency, index)


def counts_of(used: Counts | str) -> Counts:
    """A text's words counted, from the form `saved` keeps them in if need be."""
    if isinstance(used, str):
        parts = used.split()
        return tuple(zip(parts[::2], map(int, parts[1::2]), strict=True))
    return used


def _users_known(index: Index, reweighed: set[str], changed: Mapping[str, Counts],
                 frequency: Mapping[str, int]) -> bool:
    """Whether every text using a reweighed word is known without reading them all: a word was kept before (its
    users are indexed), or is kept now and used only by edited texts."""
    for word in reweighed:
        if word in index.users or word not in frequency:
            continue
        if sum(1 for used in changed.values() if any(w == word for w, _ in used)) < frequency[word]:
            return False
    return True


def _rank(idf: Mapping[str, float]) -> dict[str, int]:
    return {word: i for i, word in enumerate(idf)}


def _index(idf: dict[str, float], vectors: list[Vector]) -> Index:
    users: dict[str, dict[int, float]] = {word: {} for word in idf}
    for paper, vector in enumerate(vectors):
        for word, weight in vector:
            users[word][paper] = weight
    return Index(idf, vectors, users)


def _patched(index: Index, idf: dict[str, float], moved: set[int], used: list[Counts], order: list[int]) -> Index:
    """The index with the moved texts' vectors made again; the rest are shared with `index`, which stays as it was
    (an update that fails keeps the last result whole). A text not moved uses no reweighed word: its vector,
    and the order of its words, are as they were."""
    rank = _rank(idf)
    vectors = list(index.vectors)
    users = {word: found for word, found in index.users.items() if word in idf}
    copied: set[str] = set()

    def own(word: str) -> dict[int, float]:
        if word not in copied:
            users[word] = dict(users.get(word, {}))
            copied.add(word)
        return users[word]

    for paper, counts in zip(order, used, strict=True):
        for word, _ in vectors[paper]:
            if word in users:
                own(word).pop(paper, None)
        vectors[paper] = vector_of(counts, idf, rank)
        for word, weight in vectors[paper]:
            own(word)[paper] = weight
    for word in idf.keys() - users.keys():
        users[word] = {}
    return Index(idf, vectors, users)


def _row(paper: int, index: Index) -> dict[int, float]:
    """One text's cosines, summed in the order `similar._shared` sums them (its words rarest first)."""
    row: dict[int, float] = {}
    users = index.users
    for word, weight in index.vectors[paper]:
        for other, weighs in users[word].items():
            if other != paper:
                row[other] = row.get(other, 0.0) + weight * weighs
    return row


def _merged(last: Mapping[str, Neighbours], keys: list[str], place: Mapping[str, int], moved: set[int],
            index: Index, k: int) -> tuple[dict[str, Neighbours], frozenset[str]]:
    """The nearest after the `moved` texts' vectors changed: their rows and those of texts that had one of them
    among their nearest summed again; their new cosines merged into the nearest of every other text they reach.
    With them, the keys whose nearest are not as they were."""
    moved_keys = {keys[i] for i in moved}
    near = dict(last)
    again = {place[key] for key, found in near.items() if any(other in moved_keys for other, _ in found)}
    rows = {i: _row(i, index) for i in moved | again}
    for i, row in rows.items():
        found = best(row, k)
        if found:
            near[keys[i]] = tuple((keys[j], -score) for score, j in found)
        else:
            near.pop(keys[i], None)
    offered: dict[int, list[tuple[float, int]]] = {}
    for i in moved:
        for j, score in rows[i].items():
            if j not in rows:
                offered.setdefault(j, []).append((-round(score, 4), i))
    for j, offers in offered.items():
        kept = [(-score, place[other]) for other, score in near.get(keys[j], ())]
        near[keys[j]] = tuple((keys[o], -score) for score, o in heapq.nsmallest(k, kept + offers))
    touched = {keys[i] for i in rows} | {keys[j] for j in offered}
    changed = frozenset(key for key in touched if near.get(key) != last.get(key))
    return {key: near[key] for key in keys if key in near}, changed  # in key order, as `whole` gives them
