"""The enrich pacing benchmark: its services answer in the recorded shapes, and the log is replayed at the
published pacing."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import enrich_pacing
from benchmarks.enrich_pacing import paced


def test_requests_wait_for_their_service_and_for_each_other() -> None:
    assert paced([], 0.3) == 0
    assert paced([("arxiv", "/"), ("arxiv", "/")], 0.3) == pytest.approx(3.3)  # the second waits for arXiv's 3 s
    assert paced([("hf", "/"), ("s2", "/"), ("hf", "/")], 0.3) == pytest.approx(0.9)  # s2 does not wait for hf
    assert paced([("hf", "/"), ("hf", "/")], 1.0) == 2.0  # an answer slower than the pace sets the pace


def test_a_small_list_is_enriched_against_the_local_services(tmp_path: Path) -> None:
    result = enrich_pacing.measure(60, enrich_pacing.ROOT, tmp_path, 0.3)
    requests = result["requests"]
    assert isinstance(requests, dict) and requests["hf"] < 60  # Daily Papers entries matched by month
    assert isinstance(result["resolved"], int) and result["resolved"] >= 54
    assert result["lookup_files"] and isinstance(result["paced_seconds"], int) and result["paced_seconds"] > 0
