"""The paired cold builds and abstract edits of two checkouts, on a tiny corpus: both timed, the copies removed."""

from __future__ import annotations

from pathlib import Path

from benchmarks import compare_cold
from benchmarks.generate import generate

REPO = Path(__file__).resolve().parents[2]


def test_an_abstract_edit_replaces_the_folded_abstract_and_nothing_else() -> None:
    entry = "---\ntitle: T\nabstract: A long abstract\n  folded over\n  three lines.\ntags: [x]\n---\n\nNotes.\n"
    edited = compare_cold.abstract_edit(entry, 2)
    assert edited == ('---\ntitle: T\nabstract: "Benchmark abstract edit 2: sparse attention kernels fuse softmax tiles'
                      ' in shared memory."\ntags: [x]\n---\n\nNotes.\n')


def test_both_checkouts_are_timed_in_turns_and_the_copies_removed(tmp_path: Path) -> None:
    corpus = generate(20, tmp_path / "corpus")
    work = tmp_path / "work"
    work.mkdir()
    samples = compare_cold.compare({"old": REPO, "new": REPO}, corpus, work, rounds=1)
    assert {name: {kind: len(runs) for kind, runs in by_kind.items()} for name, by_kind in samples.items()} == \
        {"old": {"cold": 1, "abstract": 1}, "new": {"cold": 1, "abstract": 1}}
    assert all(s.wall > 0 for by_kind in samples.values() for runs in by_kind.values() for s in runs)
    assert list(work.iterdir()) == []
