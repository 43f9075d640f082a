"""The related papers' quality on the bundled list, measured as benchmarks/README.md reports it: well above chance."""

from __future__ import annotations

import re

import pytest

from benchmarks import related_quality


def test_the_related_papers_agree_with_the_curators_tags_far_more_than_random_picks() -> None:
    figures = related_quality.measure(seeds=20)
    chance = figures["random"]
    for name in ("related papers", "text alone", "tags withheld"):  # the last two: the tags are not in the score
        assert figures[name].tag >= 2 * chance.tag, name
        assert figures[name].jaccard >= 3 * chance.jaccard, name
    shipped = figures["related papers"]
    assert shipped.tag >= figures["text alone"].tag, "the tags in the score only add to what the text finds"
    assert shipped.author is not None and chance.author is not None and shipped.author >= 5 * chance.author
    assert shipped.listed > 4.9, "nearly every paper has a full list"


def test_the_command_prints_one_row_per_way_of_choosing(capsys: pytest.CaptureFixture[str]) -> None:
    related_quality.main(["--seeds", "3"])
    rows = capsys.readouterr().out.splitlines()
    assert [row.split("  ")[0] for row in rows[1:]] == ["related papers", "text alone", "tags withheld", "random"]


def test_the_command_times_the_neighbours_and_the_lists(capsys: pytest.CaptureFixture[str]) -> None:
    related_quality.main(["--timing"])
    assert re.fullmatch(r"106 papers: neighbours \d+\.\d\d s, lists \d+\.\d\d s of CPU\n", capsys.readouterr().out)
