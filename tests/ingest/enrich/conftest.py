"""The replay server for the enrich clients' tests: started per test on 127.0.0.1, then stopped."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.ingest.enrich.replay import ReplayServer

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
ENDPOINT_VARIABLES = ("SITEGEN_ARXIV_API", "SITEGEN_HF_API", "SITEGEN_S2_API", "SITEGEN_S2_KEY")


@pytest.fixture
def replay(monkeypatch: pytest.MonkeyPatch) -> Iterator[ReplayServer]:
    """A running replay server; no proxy is in the way, and no endpoint of the real services is configured."""
    for name in PROXY_VARIABLES + ENDPOINT_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    server = ReplayServer().start()
    try:
        yield server
    finally:
        server.stop()
