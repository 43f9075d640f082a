"""Who is who: author files' names, aliases and ids resolved to people, and the model crediting each person once."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sitegen.common.errors import BuildFailed, Report
from sitegen.content import config as site_config
from sitegen.content.loader import AuthorProfile, Content, Entry, load_content
from sitegen.model import model, people
from sitegen.model.people import Byline, Redirect


def entry(slug: str, *authors: str, day: int = 1, sources: tuple[str, ...] = ()) -> Entry:
    return Entry(f"content/papers/{slug}.md", slug, f"Paper {slug}", tuple(authors), "", "",
                 date=dt.date(2024, 1, day), sources=tuple(((("file", s),)) for s in sources))


def profile(name: str, path: str = "", **fields: object) -> AuthorProfile:
    return AuthorProfile(path or f"content/authors/{name.lower().replace(' ', '-')}.yaml", "", name,
                         **fields)  # type: ignore[arg-type]


def site_of(tmp_path: Path, papers: dict[str, str], profiles: dict[str, str]) -> tuple[Path, Content]:
    """A site folder holding these files; its content loaded as a build loads it."""
    for folder, files in (("papers", papers), ("authors", profiles)):
        (tmp_path / "content" / folder).mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (tmp_path / "content" / folder / name).write_text(text, encoding="utf-8")
    report = Report()
    content = load_content(tmp_path, report)
    assert not report.items, report.format()
    return tmp_path, content


def messages(report: Report) -> list[str]:
    return [d.format() for d in sorted(report.items, key=lambda d: (d.location, d.code))]


def test_a_profile_goes_to_its_own_person_never_to_a_name_that_slugifies_alike() -> None:
    ahan = profile("Ahan Gupta", h_index=12, aliases=("A. Gupta",))
    who = people.resolve([ahan], None)
    assert who.person("Ahan Gupta") == who.person("Ahan  Gupta") == who.person("A. Gupta") == "Ahan Gupta"
    assert people.resolve([profile("José Ruiz")], None).person("Jose\u0301 Ruiz") == "José Ruiz"  # composed alike
    assert who.person("Ahán Gupta") == "Ahán Gupta" and who.profile("Ahán Gupta") is None
    assert who.profile("Ahan Gupta") is ahan
    assert who.variants == {"Ahan Gupta": ("A. Gupta",)}
    assert who.byline("A. Gupta", {"Ahan Gupta": "ahan-gupta"}) == Byline("A. Gupta", "ahan-gupta", "Ahan Gupta")
    assert who.byline("Ahan Gupta", {"Ahan Gupta": "ahan-gupta"}) == Byline("Ahan Gupta", "ahan-gupta", "")


def test_profile_authors_come_only_from_their_own_dump() -> None:
    hopper = profile("Grace Hopper", source="dump-g.txt", aliases=("G. Hopper",))
    dump = ("dump-g.txt",)
    cases = [entry("a", "X Y", sources=dump), entry("b", "X Y", sources=("other.txt",)),
             entry("c", "X Y", "Grace Hopper", sources=dump), entry("d", "G. Hopper", sources=dump)]
    assert people.resolve([hopper], None).unlisted(cases) == {"a": ("Grace Hopper",), "b": (), "c": (), "d": ()}


def test_a_paper_credits_each_person_once_in_byline_order() -> None:
    who = people.resolve([profile("Ahan Gupta", aliases=("A. Gupta",))], None)
    papers = [entry("a", "A. Gupta", "Bo Li", "Ahan Gupta"), entry("b", "Bo Li", "Bo Li"), entry("c", "Cy Ng")]
    credited, written, persons = who.credits(papers, {"a": (), "b": (), "c": ("Ahan Gupta",)})
    assert credited == {"a": ("Ahan Gupta", "Bo Li"), "b": ("Bo Li", "Bo Li"), "c": ("Cy Ng", "Ahan Gupta")}
    assert written == {"A. Gupta": "Ahan Gupta"} and persons == {"Ahan Gupta", "Bo Li", "Cy Ng"}
    for paper in papers:  # an edited entry is credited as a whole list is
        assert who.credit(paper.authors, {"c": ("Ahan Gupta",)}.get(paper.slug, ())) == credited[paper.slug]


def test_the_model_gives_a_person_one_page_with_every_paper_and_the_bylines_as_written() -> None:
    cfg = site_config.load(Path(__file__).parent)  # no site.yaml: the defaults
    content = Content((entry("a", "Ahan Gupta", "Bo Li", day=3), entry("b", "A. Gupta", "Bo Li", day=2),
                       entry("c", "Ahan K. Gupta", day=1)),
                      (profile("Ahan Gupta", h_index=12, aliases=("A. Gupta", "Ahan K. Gupta")),))
    site = model.build_site(cfg, content)
    assert [(a.name, a.slug, a.papers) for a in site.authors] == [
        ("Ahan Gupta", "ahan-gupta", ("a", "b", "c")), ("Bo Li", "bo-li", ("a", "b"))]
    assert site.author_index["ahan-gupta"].profile == content.profiles[0]
    assert site.author_index["bo-li"].coauthors == (("Ahan Gupta", "ahan-gupta", 2),)
    assert site.papers["b"].authors == (Byline("A. Gupta", "ahan-gupta", "Ahan Gupta"), Byline("Bo Li", "bo-li"))
    assert site.redirects == (Redirect("a-gupta", "ahan-gupta"), Redirect("ahan-k-gupta", "ahan-gupta"))


def test_files_sharing_an_id_are_one_person_with_a_warning_at_the_id(tmp_path: Path) -> None:
    root, content = site_of(tmp_path, {"a.md": "---\ntitle: A\nauthors: [Bo Li, Li Bo]\n---\n",
                                       "b.md": "---\ntitle: B\nauthors: [Li Bo]\n---\n"},
                            {"bo-li.yaml": "name: Bo Li\nh_index: 4\norcid: 0000-0002-1825-0097\n",
                             "li-bo.yaml": "name: Li Bo\naliases: [B. Li]\norcid: https://orcid.org/0000-0002-1825-0097\n"})
    report = Report()
    site = model.build_site(site_config.load(root), content, report=report, root=root)
    assert [(a.name, a.papers, a.profile and a.profile.h_index) for a in site.authors] == [("Bo Li", ("a", "b"), 4)]
    assert site.redirects == (Redirect("b-li", "bo-li"), Redirect("li-bo", "bo-li"))
    assert messages(report) == [
        "content/authors/li-bo.yaml:3: warning[W432]: 'Li Bo' and 'Bo Li' (content/authors/bo-li.yaml) share the "
        "ORCID iD '0000-0002-1825-0097': one person, on the page of 'Bo Li' with that file's profile\n"
        "  hint: keep one file: list 'Li Bo' in the aliases of content/authors/bo-li.yaml and delete this one"]


@pytest.mark.parametrize(("second", "message"), [
    ("name: Wei  Wang\nsemantic_scholar: '222'\n",
     "content/authors/wei-wang-2.yaml:1: warning[W431]: 'Wei  Wang' is also the name in content/authors/wei-wang.yaml, "
     "with another Semantic Scholar id: both people's papers are on one page, with that file's profile\n"
     "  hint: papers name their authors, not their ids, so two people of one name cannot be told apart here; keep "
     "the file of the one this list follows"),
    ("name: Wei Wang\nh_index: 3\n",
     "content/authors/wei-wang-2.yaml:1: warning[W431]: 'Wei Wang' is also the name in content/authors/wei-wang.yaml: "
     "one person, on one page with that file's profile\n"
     "  hint: keep one file: move what this one adds into content/authors/wei-wang.yaml and delete this one"),
])
def test_two_files_of_one_name_are_one_page_never_silently(tmp_path: Path, second: str, message: str) -> None:
    root, content = site_of(tmp_path, {"a.md": "---\ntitle: A\nauthors: [Wei Wang]\n---\n"},
                            {"wei-wang.yaml": "name: Wei Wang\nsemantic_scholar: '111'\nh_index: 9\n",
                             "wei-wang-2.yaml": second})
    report = Report()
    site = model.build_site(site_config.load(root), content, report=report, root=root)
    assert [(a.slug, a.profile and a.profile.h_index) for a in site.authors] == [("wei-wang", 9)]
    assert messages(report) == [message]


@pytest.mark.parametrize(("files", "message"), [
    ({"ahan-gupta.yaml": "name: Ahan Gupta\naliases: [A. Gupta]\n",
      "amit-gupta.yaml": "name: Amit Gupta\naliases:\n- Amit K. Gupta\n- A.  Gupta\n"},
     "content/authors/amit-gupta.yaml:4: error[E430]: 'A.  Gupta' is also an alias of 'Ahan Gupta' in "
     "content/authors/ahan-gupta.yaml: a paper naming it would be two people's\n"
     "  hint: if 'Amit Gupta' and 'Ahan Gupta' are one person, keep one file and list the other name in its aliases; "
     "if not, remove the name from one file"),
    ({"ahan-gupta.yaml": "name: Ahan Gupta\naliases: [Vima Gupta]\n", "vima-gupta.yaml": "name: Vima Gupta\n"},
     "content/authors/vima-gupta.yaml:1: error[E430]: 'Vima Gupta' is also an alias of 'Ahan Gupta' in "
     "content/authors/ahan-gupta.yaml: a paper naming it would be two people's\n"
     "  hint: if 'Vima Gupta' and 'Ahan Gupta' are one person, keep one file and list the other name in its aliases; "
     "if not, remove the name from one file"),
])
def test_a_name_two_files_give_two_people_is_an_error_at_its_line(tmp_path: Path, files: dict[str, str],
                                                                    message: str) -> None:
    root, content = site_of(tmp_path, {"a.md": "---\ntitle: A\nauthors: [A. Gupta]\n---\n"}, files)
    with pytest.raises(BuildFailed) as failed:
        model.build_site(site_config.load(root), content, root=root)
    assert [d.format() for d in failed.value.diagnostics] == [message]


def test_a_spelling_whose_address_is_another_authors_page_gets_no_redirect(tmp_path: Path) -> None:
    """'A Gupta' is someone with a page of their own at authors/a-gupta/: the alias 'A. Gupta' cannot take it."""
    root, content = site_of(tmp_path, {"a.md": "---\ntitle: A\nauthors: [Ahan Gupta, A Gupta]\n---\n"},
                            {"ahan-gupta.yaml": "name: Ahan Gupta\naliases:\n- Ahan  Gupta\n- A. Gupta\n"})
    report = Report()
    site = model.build_site(site_config.load(root), content, report=report, root=root)
    assert site.redirects == ()  # 'Ahan  Gupta' makes the person's own address: none needed
    assert [a.slug for a in site.authors] == ["a-gupta", "ahan-gupta"]
    assert messages(report) == [
        "content/authors/ahan-gupta.yaml:4: warning[W433]: 'A. Gupta' has no redirect to the page of 'Ahan Gupta': "
        "authors/a-gupta/ is the page of 'A Gupta'\n"
        "  hint: if 'A Gupta' is Ahan Gupta too, add it to the aliases in content/authors/ahan-gupta.yaml"]


def test_a_spelling_two_people_share_redirects_to_neither(tmp_path: Path) -> None:
    root, content = site_of(tmp_path, {"a.md": "---\ntitle: A\nauthors: [Ahan Gupta, Amit Gupta]\n---\n"},
                            {"ahan-gupta.yaml": "name: Ahan Gupta\naliases: [A. Gupta]\n",
                             "amit-gupta.yaml": "name: Amit Gupta\naliases: [A Gupta]\n"})
    report = Report()
    site = model.build_site(site_config.load(root), content, report=report, root=root)
    assert site.redirects == ()
    assert [d.code for d in report.items] == ["W433", "W433"]
    assert "'A. Gupta' has no redirect to the page of 'Ahan Gupta': authors/a-gupta/ is wanted by 'A Gupta' of " \
        "'Amit Gupta'" in report.format()


def test_a_person_without_papers_has_no_page_and_no_redirect() -> None:
    cfg = site_config.load(Path(__file__).parent)
    site = model.build_site(cfg, Content((entry("a", "Bo Li"),), (profile("Ahan Gupta", aliases=("A. Gupta",)),)))
    assert [a.slug for a in site.authors] == ["bo-li"] and site.redirects == ()
