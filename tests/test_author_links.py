"""An author's profiles elsewhere (Semantic Scholar, Hugging Face, ORCID): their fields, then the built page.

The ids are checked where the file says them, at their line; the page links each
profile with a plain label, and only on the page of the person the profile file names.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.common.errors import Report
from sitegen.content.loader import AuthorProfile, load_profile
from sitegen.pipeline.build import build
from tests.support import describe_vnu, run_vnu

from .html_tools import by_class, parse_html, text_of

BASE = "https://example.org/list/"
ALL_IDS = "semantic_scholar: '1741101'\nhuggingface: mtian8\norcid: 0000-0002-1694-233X\n"


def profile(tmp_path: Path, text: str) -> tuple[AuthorProfile | None, list[str]]:
    path = tmp_path / "content" / "authors" / "a.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    report = Report()
    loaded = load_profile(path, tmp_path, report)
    return loaded, [d.format() for d in report.items]


def test_the_three_ids_load_as_text_with_an_unquoted_number_and_an_orcid_address_accepted(tmp_path: Path) -> None:
    loaded, messages = profile(tmp_path, "name: Ann Lee\nsemantic_scholar: 1741101\nhuggingface: nlogn-27\n"
                                         "orcid: https://orcid.org/0000-0002-1825-0097\n")
    assert messages == [] and loaded is not None
    assert (loaded.semantic_scholar, loaded.huggingface, loaded.orcid) == ("1741101", "nlogn-27", "0000-0002-1825-0097")


@pytest.mark.parametrize(("line", "message"), [
    ("orcid: 0000-0002-1825-0098",
     "content/authors/a.yaml:2: error[E203]: 'orcid': ORCID iD '0000-0002-1825-0098' has a wrong check digit "
     "(it should end in 7)\n  hint: copy the iD again from the person's orcid.org page"),
    ("orcid: 0000-0002-1825-009",
     "content/authors/a.yaml:2: error[E203]: 'orcid': invalid ORCID iD '0000-0002-1825-009'\n"
     "  hint: expected something like 0000-0002-1825-0097"),
    ("semantic_scholar: ann-lee",
     "content/authors/a.yaml:2: error[E203]: 'semantic_scholar': invalid Semantic Scholar author id 'ann-lee'\n"
     "  hint: expected something like 1741101 (the number at the end of the author's semanticscholar.org/author/ "
     "address)"),
    ("semantic_scholar: '1٢٣'",  # digits, but not ASCII ones
     "content/authors/a.yaml:2: error[E203]: 'semantic_scholar': invalid Semantic Scholar author id '1٢٣'\n"
     "  hint: expected something like 1741101 (the number at the end of the author's semanticscholar.org/author/ "
     "address)"),
    ("huggingface: ann/lee",
     "content/authors/a.yaml:2: error[E203]: 'huggingface': invalid Hugging Face user name 'ann/lee'\n"
     "  hint: expected something like mtian8 (the name in the account's huggingface.co/ address)"),
    ("huggingface: 2024",
     "content/authors/a.yaml:2: error[E203]: 'huggingface': Hugging Face user name 2024 was read as a number\n"
     "  hint: quote it so YAML keeps it as text: 'mtian8'"),
])
def test_a_bad_id_is_an_error_at_its_line(tmp_path: Path, line: str, message: str) -> None:
    loaded, messages = profile(tmp_path, f"name: Ann Lee\n{line}\nh_index: 3\n")
    assert loaded is None and messages == [message]


def test_sitegen_check_names_the_file_and_line_of_a_bad_orcid(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text("title: T\nbase_url: https://example.org/\n", encoding="utf-8")
    profile(tmp_path, "name: Ann Lee\nh_index: 3\norcid: '0000-0002-1825-0098'\n")
    result = CliRunner().invoke(main, ["check", "--root", str(tmp_path)])
    assert result.exit_code == 1
    assert "content/authors/a.yaml:3: error[E203]: 'orcid': ORCID iD '0000-0002-1825-0098' has a wrong check digit" \
        in " ".join(result.output.split())


PAPER = "---\ntitle: A Paper\nauthors: [Minyang Tian, Ahán Gupta, Ahan Gupta, Luyu Gao]\ndate: 2024-07-18\n---\n"
PROFILES = {
    "minyang-tian.yaml": f"name: Minyang Tian\nh_index: 9\n{ALL_IDS}",
    "ahan-gupta.yaml": "name: Ahan Gupta\nsemantic_scholar: '9001'\nhuggingface: ahan\n",
    "luyu-gao.yaml": "name: Luyu Gao\nh_index: 20\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("author-links")
    (root / "site.yaml").write_text(f"title: T\nbase_url: {BASE}\n", encoding="utf-8")
    (root / "content" / "papers").mkdir(parents=True)
    (root / "content" / "papers" / "a-paper.md").write_text(PAPER, encoding="utf-8")
    (root / "content" / "authors").mkdir()
    for name, text in PROFILES.items():
        (root / "content" / "authors" / name).write_text(text, encoding="utf-8")
    build(root, root / "public", BASE, search=False, use_cache=False)
    return root / "public"


def page(site: Path, slug: str) -> ET.Element:
    return parse_html((site / "authors" / slug / "index.html").read_text(encoding="utf-8"))


def links(doc: ET.Element) -> list[tuple[str, str]] | None:
    """(label, href) of the profile links in the page header; None when the page has none."""
    navs = list(by_class(doc, "profile-links", "nav"))
    if not navs:
        return None
    [nav] = navs
    assert nav.get("aria-label", "").startswith("Profiles of ")
    return [(text_of(a), a.get("href", "")) for a in nav.iter("a")]


def test_the_author_page_links_each_profile_under_its_name(site: Path) -> None:
    doc = page(site, "minyang-tian")
    assert links(doc) == [("Semantic Scholar", "https://www.semanticscholar.org/author/1741101"),
                          ("Hugging Face", "https://huggingface.co/mtian8"),
                          ("ORCID", "https://orcid.org/0000-0002-1694-233X")]
    main = doc.find(".//main")
    assert main is not None
    heading, nav = list(main)[:2]
    assert heading.tag == "h1" and text_of(heading) == "Minyang Tian" and nav.tag == "nav"


def test_a_page_without_ids_has_no_links(site: Path) -> None:
    assert links(page(site, "luyu-gao")) is None


def test_a_name_alike_never_shows_another_persons_profiles(site: Path) -> None:
    assert links(page(site, "ahan-gupta")) == [("Semantic Scholar", "https://www.semanticscholar.org/author/9001"),
                                               ("Hugging Face", "https://huggingface.co/ahan")]
    [other] = [p.name for p in (site / "authors").iterdir() if p.name.startswith("ahan-gupta-")]
    assert text_of(page(site, other).find(".//h1")) == "Ahán Gupta"  # type: ignore[arg-type]
    assert links(page(site, other)) is None


def test_author_pages_with_and_without_links_are_valid_html(site: Path) -> None:
    pages = [site / "authors" / slug / "index.html" for slug in ("minyang-tian", "luyu-gao", "ahan-gupta")]
    errors = run_vnu(pages)
    assert not errors, describe_vnu(errors, site)
