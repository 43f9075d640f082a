"""A withdrawn paper (`withdrawn: true`) says so near its title, on its page and on the lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.pipeline.build import build

from ..html_tools import by_class, one, read_html, text_of
from ..site_factory import copy_site
from ..support import RecordedPage, describe_violations, run_axe, serve_directory


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """Three committed papers, the first marked withdrawn by hand; the built site and both papers' stems."""
    root = copy_site(tmp_path_factory.mktemp("withdrawn") / "site", papers=3)
    first, second = sorted((root / "content" / "papers").glob("*.md"))[:2]
    head, body = first.read_text(encoding="utf-8").split("\n", 1)
    first.write_text(f"{head}\nwithdrawn: true\n{body}", encoding="utf-8")
    build(root, root.parent / "public", "https://example.org/", search=False)
    return root.parent / "public", first.stem, second.stem


def test_the_paper_page_shows_a_withdrawn_notice_under_the_title(built: tuple[Path, str, str]) -> None:
    public, withdrawn, _ = built
    page = read_html(public / "papers" / withdrawn / "index.html")
    header = one(page, "paper-header")
    children = list(header)
    notice = one(header, "withdrawn-notice")
    assert children.index(notice) == 1 and children[0].tag == "h1"  # read right after the title
    assert text_of(notice).startswith("Withdrawn")
    assert notice.tag == "p" and not notice.get("hidden")


def test_a_paper_not_withdrawn_shows_no_notice(built: tuple[Path, str, str]) -> None:
    public, _, other = built
    page = read_html(public / "papers" / other / "index.html")
    assert list(by_class(page, "withdrawn-notice")) == [] and list(by_class(page, "status-withdrawn")) == []


def test_the_list_card_carries_a_withdrawn_badge(built: tuple[Path, str, str]) -> None:
    public, withdrawn, _ = built
    home = read_html(public / "index.html")
    cards = {a.get("href"): item for item in by_class(home, "item", "article")
             for a in item.iter("a") if a.get("href", "").startswith("papers/")}
    badges = {href for href, item in cards.items() if list(by_class(item, "status-withdrawn"))}
    assert badges == {f"papers/{withdrawn}/"}
    assert text_of(one(cards[f"papers/{withdrawn}/"], "status-withdrawn")) == "Withdrawn"


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_notice_and_the_badge_pass_axe(page: RecordedPage, built: tuple[Path, str, str], scheme: str,
                                           width: int) -> None:
    public, withdrawn, _ = built
    page.set_viewport_size({"width": width, "height": 900})
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    with serve_directory(public) as base_url:
        for path in (f"papers/{withdrawn}/", ""):
            page.goto(base_url + path)
            violations = run_axe(page)
            assert violations == [], describe_violations(violations)
