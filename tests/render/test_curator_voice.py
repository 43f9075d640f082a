"""The curator's voice on the site: the take on cards, the verdict under a paper's title, where to start, the
home page's order, and an author's profile figures said to be the profile page's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.model.curated_lists import PICKS_SHOWN
from sitegen.pipeline.build import build

from ..html_tools import by_class, listed_papers, one, read_html, text_of
from ..site_factory import copy_site
from ..support import RecordedPage, describe_violations, run_axe, serve_directory

OLD_ADDED_TODAY = "zeta-a-2023-paper-added-today"  # last of the files: the others keep their places


def set_field(path: Path, key: str, value: str) -> None:
    text = path.read_text(encoding="utf-8")
    if re.search(rf"(?m)^{key}:", text):
        text = re.sub(rf"(?m)^{key}:.*$", f"{key}: {value}", text, count=1)
    else:
        head, body = text.split("\n", 1)
        text = f"{head}\n{key}: {value}\n{body}"
    path.write_text(text, encoding="utf-8")


def stems(root: Path) -> list[str]:
    return [p.stem for p in sorted((root / "content" / "papers").glob("*.md"))]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Twelve committed papers: one with a summary, one with notes only, five rated or pinned, and a 2023 paper
    added after every other."""
    root = copy_site(tmp_path_factory.mktemp("voice") / "site", papers=12)
    papers = root / "content" / "papers"
    names = stems(root)
    set_field(papers / f"{names[0]}.md", "summary", "'Read this first: <b>bold</b> & $x^2$ claims.'")
    set_field(papers / f"{names[0]}.md", "status", "read")
    set_field(papers / f"{names[0]}.md", "rating", "4")
    with (papers / f"{names[1]}.md").open("a", encoding="utf-8") as notes:
        notes.write("\n## Why\n\nThe notes' first paragraph speaks for the curator.\n\nA second one does not.\n")
    for name, rating in zip(names[2:6], (5, 4, 3, 5), strict=True):
        set_field(papers / f"{name}.md", "rating", str(rating))
    set_field(papers / f"{names[6]}.md", "pinned", "true")
    (papers / f"{OLD_ADDED_TODAY}.md").write_text(
        "---\ntitle: Zeta, a 2023 paper added today\ndate: 2023-03-01\nadded: 2030-01-01\n---\n", encoding="utf-8")
    build(root, root.parent / "public", "https://example.org/", search=False)
    return root, root.parent / "public"


def cards(page: object) -> dict[str, object]:
    return {a.get("href", "").split("/")[-2]: item for item in by_class(page, "item", "article")  # type: ignore[arg-type]
            for a in item.iter("a") if a.get("href", "").startswith("papers/")}


def test_a_card_shows_the_take_in_place_of_the_abstract(site: tuple[Path, Path]) -> None:
    root, public = site
    names = stems(root)
    home = cards(read_html(public / "index.html"))
    take = one(home[names[0]], "item-take")  # type: ignore[arg-type]
    assert text_of(take) == "Curator’s take: Read this first: <b>bold</b> & x2 claims."  # text, never markup
    assert not list(by_class(home[names[0]], "item-summary"))  # type: ignore[arg-type]
    assert text_of(one(home[names[1]], "item-take")) == \
        "Curator’s take: The notes' first paragraph speaks for the curator."  # type: ignore[arg-type]
    plain = home[names[2]]
    assert not list(by_class(plain, "item-take")) and list(by_class(plain, "item-summary"))  # type: ignore[arg-type]


def test_the_home_page_lists_the_latest_additions_first(site: tuple[Path, Path]) -> None:
    _, public = site
    home = read_html(public / "index.html")
    assert listed_papers(home)[0] == OLD_ADDED_TODAY
    assert "latest additions first" in text_of(one(home, "lede"))


def test_a_list_can_choose_the_order_of_publication(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    (root / "content" / "papers" / f"{OLD_ADDED_TODAY}.md").write_text(
        "---\ntitle: Zeta, a 2023 paper added today\ndate: 2023-03-01\nadded: 2030-01-01\n---\n", encoding="utf-8")
    with (root / "site.yaml").open("a", encoding="utf-8") as config:
        config.write("home_order: published\n")
    build(root, tmp_path / "public", "https://example.org/", search=False)
    home = read_html(tmp_path / "public" / "index.html")
    assert listed_papers(home)[-1] == OLD_ADDED_TODAY and "newest first" in text_of(one(home, "lede"))


def test_a_home_order_of_no_kind_is_an_error_with_the_two(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=1)
    with (root / "site.yaml").open("a", encoding="utf-8") as config:
        config.write("home_order: popular\n")
    result = CliRunner().invoke(main, ["check", "--root", str(root)])
    line = len((root / "site.yaml").read_text(encoding="utf-8").splitlines())
    assert result.exit_code == 1
    assert f"site.yaml:{line}: error[E003]: 'home_order' must be added or published, found 'popular'" in result.output
    assert "hint: added: the newest additions first; published: by publication date" in result.output


def test_start_here_lists_the_pinned_then_the_best_rated(site: tuple[Path, Path]) -> None:
    root, public = site
    names = stems(root)
    home = read_html(public / "index.html")
    picks = one(home, "picks", "section")
    assert text_of(picks.find(".//h2")) == "Start here"  # type: ignore[arg-type]
    linked = [a.get("href", "").split("/")[-2] for a in by_class(picks, "pick-title", "a")]
    assert PICKS_SHOWN == 4 and len(linked) == 4  # each group in the site's order, newest first
    assert linked[0] == names[6] and set(linked[1:3]) == {names[2], names[5]} and linked[3] in {names[0], names[3]}


def test_no_start_here_without_pinned_or_well_rated_papers(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    build(root, tmp_path / "public", "https://example.org/", search=False)
    assert not list(by_class(read_html(tmp_path / "public" / "index.html"), "picks"))


def test_the_verdict_is_read_right_after_the_title(site: tuple[Path, Path]) -> None:
    root, public = site
    name = stems(root)[0]
    page = read_html(public / "papers" / name / "index.html")
    header = one(page, "paper-header")
    verdict = one(header, "verdict")
    assert list(header).index(verdict) == 1 and next(iter(header)).tag == "h1"
    assert text_of(one(verdict, "status")) == "Read" and "rated 4 of 5" in text_of(one(verdict, "rating"))
    assert text_of(one(verdict, "verdict-take")).endswith("Read this first: <b>bold</b> & x2 claims.")
    assert one(verdict, "status").get("data-pagefind-filter") == "status:read"
    assert not list(by_class(one(page, "paper-panel"), "status"))  # said once, where it is read first


def test_the_profile_figures_are_the_profile_pages(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site")
    build(root, tmp_path / "public", "https://example.org/", search=False)
    page = read_html(tmp_path / "public" / "authors" / "ahan-gupta" / "index.html")
    figures = one(page, "profile-figures", "section")
    assert text_of(next(e for e in figures.iter() if e.get("id") == figures.get("aria-labelledby"))) == \
        "From Ahan Gupta’s profile page"
    terms = [text_of(dt) for dt in figures.iter("dt")]
    assert terms == ["h-index", "Citations", "Papers there", "Its novelty score", "Its AI score", "Primary category"]
    note = text_of(one(figures, "figure-source"))
    on_list = len(list(by_class(page, "item", "article")))
    assert note == f"From Ahan Gupta’s profile page of May 19, 2026, not computed here: it counts every paper it " \
        f"knows by them, {on_list} on this list; its scores are its own."


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_the_header_is_two_short_rows_and_every_page_passes_axe(
        page: RecordedPage, site: tuple[Path, Path], scheme: str) -> None:
    root, public = site
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
    with serve_directory(public) as base_url:
        for path in ("", f"papers/{stems(root)[0]}/", "authors/"):
            page.goto(base_url + path)
            header = page.locator(".site-header").bounding_box()
            assert header is not None and header["height"] <= 0.12 * 844, header
            tops = page.eval_on_selector_all(".site-nav li", "items => items.map(i => i.getBoundingClientRect().top)")
            assert len(set(tops)) == 1, tops  # one row, scrolled sideways
            brand, search = page.locator(".brand").bounding_box(), page.locator(".header-search").bounding_box()
            assert brand and search and abs(brand["y"] + brand["height"] / 2 - search["y"] - search["height"] / 2) < 8
            violations = run_axe(page)
            assert violations == [], describe_violations(violations)
        page.goto(base_url)
        page.locator("#site-search").focus()  # the box takes the row while one types
        page.wait_for_timeout(400)
        box = page.locator(".header-search").bounding_box()
        assert box is not None and box["width"] > 250


def test_a_paper_never_added_is_placed_by_its_date_of_publication(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=3)
    (root / "content" / "papers" / "hand-written.md").write_text(
        "---\ntitle: Hand written\ndate: 2030-01-01\n---\n", encoding="utf-8")
    build(root, tmp_path / "public", "https://example.org/", search=False)
    assert listed_papers(read_html(tmp_path / "public" / "index.html"))[0] == "hand-written"
