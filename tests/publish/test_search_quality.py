"""Search quality: 20 queries on the bundled list and the papers that must come first, through the search page.

The queries and their answers are in search_queries.json. The same check runs on any built copy of the
bundled list, to compare two indexes (how the figures in benchmarks/README.md were taken):

    python -m tests.publish.test_search_quality PUBLIC_DIR [BASE_PATH]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from ..conftest import BuiltSite
from ..support import RecordedPage, launch_chromium, serve_directory

QUERIES = json.loads((Path(__file__).parent / "search_queries.json").read_text(encoding="utf-8"))["queries"]
READY = ", ".join(f"#search[data-state={state}]" for state in ("done", "idle", "unavailable", "failed"))


def ranked(page: Any, base_url: str, query: str) -> list[str]:
    """The slugs the search page lists for `query`, in its order (typed into the box of a loaded page)."""
    if "/search/" not in page.url:
        page.goto(base_url + "search/")
        page.wait_for_selector(READY)
    page.locator("#search-query").fill(query)
    page.wait_for_function("([q]) => new URLSearchParams(location.search).get('q') === q", arg=[query])
    page.wait_for_function("() => document.querySelector('#search').dataset.state === 'done'")
    hrefs = [a.get_attribute("href") or "" for a in page.locator("a.result-link").all()]
    return [href.rstrip("/").rsplit("/", 1)[-1] for href in hrefs]


def misses(page: Any, base_url: str) -> dict[str, list[str]]:
    """The queries whose wanted papers are not the first results, with what came first instead."""
    missed = {}
    for item in QUERIES:
        found = ranked(page, base_url, item["query"])
        if sorted(found[: len(item["first"])]) != sorted(item["first"]):
            missed[item["query"]] = found[:3]
    return missed


def test_twenty_queries_put_the_right_papers_first(page: RecordedPage, built_site: BuiltSite) -> None:
    assert len(QUERIES) == 20
    with serve_directory(built_site.output, built_site.base_path) as base_url:
        assert misses(page, base_url) == {}
    page.assert_clean()


def main() -> None:
    """Print each query's first results and whether they are the wanted ones, for the built site given."""
    site, base_path = Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "/reading-list/"
    with launch_chromium() as browser, serve_directory(site, base_path) as base_url:
        page = browser.new_page()
        good = 0
        for item in QUERIES:
            found = ranked(page, base_url, item["query"])
            right = sorted(found[: len(item["first"])]) == sorted(item["first"])
            good += right
            rank = [found.index(slug) + 1 if slug in found else None for slug in item["first"]]
            print(f"{'ok ' if right else 'MISS'} {item['query']!r}: wanted at {rank}, {len(found)} results")
        print(f"{good} of {len(QUERIES)} queries put the wanted papers first")


if __name__ == "__main__":
    main()
