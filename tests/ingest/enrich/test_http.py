"""The fetcher through real sockets: pacing, Retry-After, bounded retries, timeouts, refusals."""

from __future__ import annotations

import datetime as dt
import gzip
import itertools
import socket
import threading
import time

import pytest

from sitegen import __version__
from sitegen.common.errors import Location
from sitegen.ingest.enrich import http as http_module
from sitegen.ingest.enrich.answers import SourceError, Throttled, Unreachable
from sitegen.ingest.enrich.http import Fetcher, retry_after
from tests.ingest.enrich.replay import ReplayServer, Reply

# A request's pace is stamped by the client before it sends, its arrival by the server when it
# has read it: a loaded machine can delay the second stamp by some tens of milliseconds. A wait
# after an answer (backoff, Retry-After) has no such jitter: the client waits only once the
# server has stamped the request it answers.
JITTER = 0.06


def quick(**options: object) -> Fetcher:
    """A fetcher that does not pace and barely backs off, unless a test says otherwise."""
    settings: dict[str, object] = {"delay": 0, "backoff": 0.01, "throttle_backoff": 0.01, "timeout": 5.0}
    settings.update(options)
    return Fetcher(**settings)  # type: ignore[arg-type]


def gaps(server: ReplayServer) -> list[float]:
    times = [seen.at for seen in server.seen]
    return [b - a for a, b in itertools.pairwise(times)]


def test_user_agent_names_sitegen_its_version_and_the_curators_contact(replay: ReplayServer,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SITEGEN_CONTACT", "mailto:curator@example.org")
    replay.add("/p", Reply.json({}))
    quick().get("hf", f"{replay.url}/p")
    agent = replay.seen[0].header("user-agent")
    assert agent is not None and agent.startswith(f"sitegen/{__version__} (")
    assert agent.endswith("mailto:curator@example.org)")


def test_requests_to_one_host_are_spaced_by_the_delay(replay: ReplayServer) -> None:
    replay.add("/p", Reply.json({}))
    fetcher = quick(delay=0.2)
    for n in range(4):
        fetcher.get("s2", f"{replay.url}/p?n={n}")
    assert len(replay.seen) == 4
    assert all(gap >= 0.2 - JITTER for gap in gaps(replay)), gaps(replay)


def test_without_a_delay_each_source_keeps_its_own_pace(replay: ReplayServer) -> None:
    replay.add("/p", Reply.json({}))
    fetcher = quick(delay=None)
    fetcher.get("hf", f"{replay.url}/p?n=1")
    fetcher.get("hf", f"{replay.url}/p?n=2")
    assert gaps(replay)[0] >= 0.6 - JITTER  # Hugging Face: 500 calls per 5 minutes


def test_arxiv_gets_one_connection_at_a_time(replay: ReplayServer) -> None:
    replay.add("/slow", Reply(200, b"<feed/>", delay=0.3))
    fetcher = quick()

    def ask(source: str, n: int) -> None:
        fetcher.get(source, f"{replay.url}/slow?source={source}&n={n}")

    def together(source: str) -> None:
        threads = [threading.Thread(target=ask, args=(source, n)) for n in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    together("arxiv")
    assert replay.most_in_flight == 1
    together("hf")  # the others may overlap: the one-at-a-time rule is arXiv's
    assert replay.most_in_flight > 1


def test_retry_after_in_seconds_is_honoured(replay: ReplayServer) -> None:
    replay.add("/p", Reply(429, b"slow down", (("Retry-After", "1"),)), Reply.json({"ok": True}))
    response = quick().get("s2", f"{replay.url}/p")
    assert response.status == 200 and response.json() == {"ok": True}
    assert len(replay.seen) == 2
    assert gaps(replay)[0] >= 1.0


def test_retry_after_as_an_http_date_is_honoured(replay: ReplayServer) -> None:
    when = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=2)
    header = when.strftime("%a, %d %b %Y %H:%M:%S GMT")  # whole seconds: between 1 and 2 s from now
    replay.add("/p", Reply(503, b"", (("Retry-After", header),)), Reply.json({}))
    quick().get("hf", f"{replay.url}/p")
    assert gaps(replay)[0] >= 0.9  # at least a second after the test began, less the first request's trip


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("120", 120.0),
        (" 3 ", 3.0),
        ("Wed, 21 Oct 2015 07:28:10 GMT", 10.0),
        ("Wed, 21 Oct 2015 07:27:00 GMT", 0.0),  # already past: no wait
        ("soon", None),
        ("", None),
        (None, None),
    ],
)
def test_retry_after_values(value: str | None, expected: float | None) -> None:
    now = dt.datetime(2015, 10, 21, 7, 28, 0, tzinfo=dt.UTC)
    assert retry_after(value, now) == expected


def test_retries_are_bounded_then_the_source_is_unreachable(replay: ReplayServer) -> None:
    replay.add("/p", Reply(503, b"down"))
    with pytest.raises(Unreachable) as caught:
        quick(tries=3).get("arxiv", f"{replay.url}/p")
    assert len(replay.seen) == 3
    host = replay.url.removeprefix("http://")
    assert str(caught.value) == f"could not reach {host}: HTTP 503 (after 3 tries)"
    diagnostic = caught.value.diagnostic(Location("content/papers/x.md", 1))
    assert diagnostic.format().startswith(f"content/papers/x.md:1: error[E1000]: could not reach {host}")


def test_each_retry_waits_twice_as_long(replay: ReplayServer) -> None:
    replay.add("/p", Reply(500, b""))
    with pytest.raises(Unreachable):
        quick(tries=3, backoff=0.15).get("hf", f"{replay.url}/p")
    first, second = gaps(replay)
    assert first >= 0.15 and second >= 0.3


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504])
def test_every_transient_status_is_retried(replay: ReplayServer, status: int) -> None:
    replay.add("/p", Reply(status, b""), Reply.json({}))
    assert quick().get("hf", f"{replay.url}/p").status == 200
    assert len(replay.seen) == 2


@pytest.mark.parametrize("status", [400, 403, 404])
def test_a_definitive_status_is_an_answer_not_a_retry(replay: ReplayServer, status: int) -> None:
    replay.add("/p", Reply.json({"error": "no"}, status=status))
    response = quick().get("hf", f"{replay.url}/p")
    assert (response.status, response.json()) == (status, {"error": "no"})
    assert len(replay.seen) == 1


def test_a_burst_of_429s_without_retry_after_is_waited_out_longer_than_other_failures(replay: ReplayServer) -> None:
    """Five 429s in a row, then an answer: throttling gets more tries (and longer waits) than a server error,
    which gives up after its four."""
    replay.add("/p", *[Reply(429, b"")] * 5, Reply.json({"ok": True}))
    fetcher = quick(throttle_backoff=0.02)
    started = time.monotonic()
    assert fetcher.get("s2", f"{replay.url}/p").json() == {"ok": True}
    assert len(replay.seen) == 6 and time.monotonic() - started >= 0.02 * (1 + 2 + 4 + 8 + 16) - JITTER
    replay.add("/q", *[Reply(503, b"")] * 5, Reply.json({"ok": True}))
    with pytest.raises(Unreachable, match=r"HTTP 503 \(after 4 tries\)") as caught:
        quick().get("s2", f"{replay.url}/q")
    assert not isinstance(caught.value, Throttled)


def test_throttling_past_every_wait_says_throttling_not_the_network(replay: ReplayServer) -> None:
    replay.add("/p", Reply(429, b""))  # repeated: the service keeps refusing
    with pytest.raises(Throttled) as caught:
        quick().get("s2", f"{replay.url}/p")
    assert "HTTP 429 (after 6 tries)" in caught.value.message
    assert "throttling" in caught.value.hint and "network" not in caught.value.hint
    assert len(replay.seen) == 6


def test_a_wait_longer_than_allowed_gives_up_at_once(replay: ReplayServer) -> None:
    replay.add("/p", Reply(429, b"", (("Retry-After", "3600"),)))
    started = time.monotonic()
    with pytest.raises(Unreachable, match="asks to wait 3600 s"):
        quick(max_wait=60).get("s2", f"{replay.url}/p")
    assert time.monotonic() - started < 1 and len(replay.seen) == 1


def test_a_slow_answer_times_out_and_is_retried_within_bounds(replay: ReplayServer) -> None:
    replay.add("/p", Reply(200, b"{}", delay=3.0))
    started = time.monotonic()
    with pytest.raises(Unreachable, match=r"no answer within 0\.2 s \(after 2 tries\)"):
        quick(timeout=0.2, tries=2).get("hf", f"{replay.url}/p")
    assert time.monotonic() - started < 2
    assert len(replay.seen) == 2


def test_a_closed_port_is_unreachable_at_once() -> None:
    with socket.socket() as probe:  # a port that was free a moment ago, now closed: nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(Unreachable, match=f"could not reach 127.0.0.1:{port}: connection refused"):
        Fetcher(delay=0).get("arxiv", f"http://127.0.0.1:{port}/api/query?id_list=2101.00010")
    assert time.monotonic() - started < 1  # default retries and backoff: a refusal is not retried


def test_a_host_found_unreachable_is_not_asked_again(replay: ReplayServer) -> None:
    replay.add("/p", Reply(503, b""))
    fetcher = quick(tries=2)
    with pytest.raises(Unreachable):
        fetcher.get("hf", f"{replay.url}/p?n=1")
    with pytest.raises(Unreachable):
        fetcher.get("hf", f"{replay.url}/p?n=2")
    assert len(replay.seen) == 2


def test_post_json_sends_the_body_as_json(replay: ReplayServer) -> None:
    replay.add("/batch", Reply.json([None]))
    response = quick().post_json("s2", f"{replay.url}/batch?fields=title", {"ids": ["ARXIV:2101.00010"]})
    seen = replay.seen[0]
    assert (seen.method, seen.body, seen.header("content-type")) == (
        "POST",
        b'{"ids":["ARXIV:2101.00010"]}',
        "application/json",
    )
    assert response.json() == [None]


def test_a_compressed_answer_is_decoded(replay: ReplayServer) -> None:
    body = '{"title": "Über Lücken"}'.encode()
    headers = (("Content-Encoding", "gzip"), ("Content-Type", "application/json"))
    replay.add("/p", Reply(200, gzip.compress(body), headers))
    assert quick().get("hf", f"{replay.url}/p").json() == {"title": "Über Lücken"}


def test_an_answer_that_is_not_json_is_a_source_error(replay: ReplayServer) -> None:
    replay.add("/p", Reply(200, b"<html>captive portal</html>"))
    with pytest.raises(SourceError, match="not JSON") as caught:
        quick().get("hf", f"{replay.url}/p").json()
    assert caught.value.code == "E1001"


def test_an_answer_larger_than_any_source_sends_is_refused_unread(replay: ReplayServer,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_module, "MAX_ANSWER", 64 * 1024)
    replay.add("/big", Reply(200, b"[" + b"0," * 2_000_000 + b"0]", (("Content-Type", "application/json"),)))
    with pytest.raises(SourceError) as caught:
        quick().get("hf", f"{replay.url}/big")
    assert f"sent more than 64 KB for {replay.url}/big" in caught.value.message
    assert len(replay.seen) == 1  # refused, not retried


def test_a_compressed_answer_that_inflates_past_the_limit_is_refused(replay: ReplayServer,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(http_module, "MAX_ANSWER", 1024 * 1024)
    bomb = gzip.compress(b"0" * 50_000_000)  # 50 MB of zeros in about 50 KB
    assert len(bomb) < 100_000
    replay.add("/bomb", Reply(200, bomb, (("Content-Type", "application/json"), ("Content-Encoding", "gzip"))))
    with pytest.raises(SourceError, match="sent more than 1 MB"):
        quick().get("hf", f"{replay.url}/bomb")
    small = gzip.compress(b'{"ok": true}')
    replay.add("/small", Reply(200, small, (("Content-Type", "application/json"), ("Content-Encoding", "gzip"))))
    assert quick().get("hf", f"{replay.url}/small").json() == {"ok": True}
