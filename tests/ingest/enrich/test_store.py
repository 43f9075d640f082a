"""The lookup store: a second identical lookup is read from the site, never asked again."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

import pytest

from sitegen.ingest.enrich.answers import Unreachable
from sitegen.ingest.enrich.http import Fetcher
from sitegen.ingest.enrich.store import Store, StoreError, key
from tests.ingest.enrich.replay import ReplayServer, Reply

DAY = dt.date(2026, 5, 19)


def stored_fetcher(site: Path, **options: object) -> Fetcher:
    settings: dict[str, object] = {"delay": 0, "backoff": 0.01, "throttle_backoff": 0.01, "tries": 2,
                                   "today": lambda: DAY}
    settings.update(options)
    return Fetcher(store=Store.for_site(site), **settings)  # type: ignore[arg-type]


def lookups(site: Path) -> list[Path]:
    return sorted((site / "content" / "lookups").rglob("*.json"))


def test_a_second_identical_lookup_sends_no_request(replay: ReplayServer, tmp_path: Path) -> None:
    replay.add("/api/papers/2101.00010", Reply.json({"id": "2101.00010"}))
    url = f"{replay.url}/api/papers/2101.00010"
    first = stored_fetcher(tmp_path).get("hf", url)
    again = stored_fetcher(tmp_path).get("hf", url)  # a later run: a new fetcher, the same site
    assert len(replay.seen) == 1
    assert (again.status, again.json(), again.retrieved, again.stored) == (200, first.json(), DAY, True)
    assert not first.stored


def test_the_stored_file_is_small_plain_sorted_json(replay: ReplayServer, tmp_path: Path) -> None:
    replay.add("/q", Reply.json({"ok": True}))
    url = f"{replay.url}/q?id_list=2101.00010"
    stored_fetcher(tmp_path).get("arxiv", url)
    name = hashlib.sha256(url.encode()).hexdigest()[:16]
    path = tmp_path / "content" / "lookups" / "arxiv" / f"{name}.json"
    assert lookups(tmp_path) == [path]
    text = path.read_text(encoding="utf-8")
    assert list(json.loads(text)) == ["body", "retrieved", "status", "url"]
    assert json.loads(text) == {"body": '{"ok": true}', "retrieved": "2026-05-19", "status": 200, "url": url}
    assert text.endswith("\n")


def test_refresh_asks_again_and_replaces_the_stored_answer(replay: ReplayServer, tmp_path: Path) -> None:
    replay.add("/p", Reply.json({"id": "2101.00010", "upvotes": 1}), Reply.json({"id": "2101.00010", "upvotes": 2}))
    fetcher = stored_fetcher(tmp_path)
    fetcher.get("hf", f"{replay.url}/p")
    assert fetcher.get("hf", f"{replay.url}/p", refresh=True).json() == {"id": "2101.00010", "upvotes": 2}
    assert fetcher.get("hf", f"{replay.url}/p").json() == {"id": "2101.00010", "upvotes": 2}
    assert len(replay.seen) == 2


def test_not_found_is_an_answer_and_is_kept(replay: ReplayServer, tmp_path: Path) -> None:
    replay.add("/api/papers/2101.99999", Reply.json({"error": "Not Found"}, status=404))
    url = f"{replay.url}/api/papers/2101.99999"
    assert stored_fetcher(tmp_path).get("hf", url).status == 404
    assert stored_fetcher(tmp_path).get("hf", url).status == 404
    assert len(replay.seen) == 1


@pytest.mark.parametrize("status", [429, 500, 503])
def test_a_throttled_or_failing_source_is_never_kept(replay: ReplayServer, tmp_path: Path, status: int) -> None:
    replay.add("/p", Reply(status, b"try later"))
    with pytest.raises(Unreachable):
        stored_fetcher(tmp_path).get("s2", f"{replay.url}/p")
    assert lookups(tmp_path) == []


def test_only_the_answer_after_a_retry_is_kept(replay: ReplayServer, tmp_path: Path) -> None:
    replay.add("/p", Reply(503, b""), Reply.json({"ok": 1}))
    stored_fetcher(tmp_path).get("s2", f"{replay.url}/p")
    (path,) = lookups(tmp_path)
    assert json.loads(path.read_text())["status"] == 200


def test_a_post_is_kept_under_its_url_and_body(replay: ReplayServer, tmp_path: Path) -> None:
    replay.add("/paper/batch", Reply.json([None]))
    url = f"{replay.url}/paper/batch?fields=title"
    fetcher = stored_fetcher(tmp_path)
    fetcher.post_json("s2", url, {"ids": ["A"]})
    fetcher.post_json("s2", url, {"ids": ["B"]})
    fetcher.post_json("s2", url, {"ids": ["A"]})
    assert len(replay.seen) == 2
    assert [json.loads(p.read_text())["request"] for p in lookups(tmp_path)] == sorted(
        ['{"ids":["A"]}', '{"ids":["B"]}'], key=lambda body: key(url, body.encode())
    )


def test_the_key_is_the_sha256_of_the_url() -> None:
    url = "https://export.arxiv.org/api/query?id_list=2101.00010"
    assert key(url) == hashlib.sha256(url.encode()).hexdigest()[:16]
    assert key(url, b"{}") != key(url)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "not a JSON object"),
        ('{"url": "URL", "status": "200", "retrieved": "2026-05-19", "body": ""}', "needs `body`"),
        ('{"url": "URL", "status": 200, "retrieved": "May 19", "body": ""}', "not a date"),
        ('{"url": "https://elsewhere", "status": 200, "retrieved": "2026-05-19", "body": ""}', "not the answer to"),
    ],
)
def test_a_damaged_stored_lookup_is_an_error_naming_the_file(tmp_path: Path, text: str, message: str) -> None:
    url = "https://huggingface.co/api/papers/2101.00010"
    store = Store.for_site(tmp_path)
    path = store.path("hf", url)
    path.parent.mkdir(parents=True)
    path.write_text(text.replace('"URL"', json.dumps(url)), encoding="utf-8")
    with pytest.raises(StoreError, match=message) as caught:
        Fetcher(store=store, delay=0).get("hf", url)
    assert (caught.value.path, caught.value.code) == (path, "E1003")
    assert "delete the file" in caught.value.hint
