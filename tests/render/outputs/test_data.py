"""`papers.json`: every entry's front matter as JSON, for other tools."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from ...conftest import BuiltSite
from ...html_tools import as_shown, committed_entries


def _plain(value: Any) -> Any:
    """Front matter as JSON would carry it: dates as ISO text, everything else as is."""
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, str):
        return value.strip()
    return value


def test_papers_json_has_every_entry_with_its_front_matter(built_site: BuiltSite) -> None:
    items = json.loads((built_site.output / "papers.json").read_text(encoding="utf-8"))
    assert isinstance(items, list) and len(items) == 106
    by_slug = {item["slug"]: item for item in items}
    assert set(by_slug) == set(committed_entries())
    for slug, written in committed_entries().items():
        item, meta = by_slug[slug], as_shown(written)
        for key, value in meta.items():
            if value in (None, [], {}, False, ""):
                assert key not in item, f"{slug}: empty {key} is left out"
            else:
                assert item[key] == _plain(value), f"{slug}: {key}"
        assert set(item) - set(meta) <= {"slug", "url"}, slug  # front matter only: no notes
        assert item["url"] == built_site.base_url + f"papers/{slug}/"
        assert (built_site.output / "papers" / slug / "index.html").is_file()


def test_papers_json_is_newest_first_like_the_home_page(built_site: BuiltSite) -> None:
    items = json.loads((built_site.output / "papers.json").read_text(encoding="utf-8"))
    dates = [item.get("date") for item in items]
    dated = [d for d in dates if d]
    assert dated == sorted(dated, reverse=True)
    assert dates[len(dated):] == [None] * (len(dates) - len(dated))


def test_a_json_line_is_one_line_with_sorted_keys_and_reads_back_as_its_values() -> None:
    from sitegen.render.outputs.data import json_line

    tricky = "two\nlines, a tab\t, a quote \" a backslash \\ a NUL \x00, Łukasz, 数学, \u2028 and </script>"
    item = {"title": tricky, "date": dt.date(2024, 2, 29), "authors": ("Ada", "Łukasz"), "b": 1,
            "a": {"z": 2, "y": None}}
    line = json_line(item)
    assert "\n" not in line and "\r" not in line  # papers.json keeps one paper per line
    assert json.loads(line) == {"title": tricky, "date": "2024-02-29", "authors": ["Ada", "Łukasz"], "b": 1,
                                "a": {"z": 2, "y": None}}
    assert list(json.loads(line)) == ["a", "authors", "b", "date", "title"]
    assert list(json.loads(line)["a"]) == ["y", "z"]
    assert "Łukasz" in line  # UTF-8 as it is, not \u escapes
