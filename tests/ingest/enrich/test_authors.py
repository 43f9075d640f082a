"""Author ids from lookups into `content/authors/*.yaml`: the planner on files, then `sitegen enrich` end to end.

People are told apart as the importer tells them apart: 'Ahán Gupta' is not 'Ahan Gupta'
though both make the file name ahan-gupta.yaml. An id never merges two profiles, never
replaces one already written, and a profile is made only for a name a source gave an id.
"""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from sitegen.cli import main
from sitegen.common.errors import Report
from sitegen.content.loader import load_profile
from sitegen.ingest.enrich.authors import Resolved, load, plan
from sitegen.ingest.enrich.record import Author, Record
from tests.ingest.enrich.replay import ReplayServer, Reply

ENTRY = "content/papers/a.md"
AHAN = "content/authors/ahan-gupta.yaml"
SCICODE = json.loads((Path(__file__).parent / "fixtures" / "hf" / "search_scicode.json").read_text())[0]["paper"]


def s2(*authors: Author) -> Record:
    return Record("s2", "p1", "A Paper", authors=authors)


def paper(*records: Record, names: tuple[str, ...] | None = None, shown: str = ENTRY) -> Resolved:
    listed = names if names is not None else tuple(dict.fromkeys(a.name for r in records for a in r.authors))
    return Resolved(shown, 3, listed, records)


def write(root: Path, name: str, text: str) -> Path:
    path = root / "content" / "authors" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def planned(root: Path, *papers: Resolved) -> tuple[dict[str, str], list[str]]:
    """The files the planner would write (relative path -> text) and its messages."""
    report = Report()
    files = load(root, report)
    assert report.items == []
    writes = plan(papers, files, root, report)
    return {p.relative_to(root).as_posix(): t for p, t in writes.items()}, [d.format() for d in report.items]


def test_a_name_given_ids_gets_a_minimal_profile_that_loads(tmp_path: Path) -> None:
    record = s2(Author("Minyang Tian", (("s2", "2111"), ("hf", "mtian8"))), Author("Luyu Gao"))
    writes, messages = planned(tmp_path, paper(record))
    assert writes == {"content/authors/minyang-tian.yaml":
                      "name: Minyang Tian\nsemantic_scholar: '2111'\nhuggingface: mtian8\n"}  # no file for Luyu Gao
    assert messages == []
    path = write(tmp_path, "minyang-tian.yaml", writes["content/authors/minyang-tian.yaml"])
    report = Report()
    profile = load_profile(path, tmp_path, report)
    assert report.items == [] and profile is not None
    assert (profile.semantic_scholar, profile.huggingface, profile.orcid) == ("2111", "mtian8", None)
    assert planned(tmp_path, paper(record)) == ({}, [])  # a second run has nothing to add


def test_an_existing_profile_gains_the_id_and_keeps_its_fields_and_comments(tmp_path: Path) -> None:
    write(tmp_path, "lukasz-kaiser.yaml", "# figures from the profile page\nname: Łukasz Kaiser\nh_index: 50\n"
          "homepage: https://example.org/~lk  # his own\n")
    decomposed = unicodedata.normalize("NFD", "Łukasz  Kaiser")  # the same person but for composition and spacing
    record = Record("hf", "2407.13168", "A Paper", authors=(Author(decomposed, (("hf", "lukaszkaiser"),)),))
    writes, messages = planned(tmp_path, paper(record))
    assert writes == {"content/authors/lukasz-kaiser.yaml":
                      "# figures from the profile page\nname: Łukasz Kaiser\nh_index: 50\n"
                      "# his own\nhomepage: https://example.org/~lk\nhuggingface: lukaszkaiser\n"}
    assert messages == []


def test_an_id_already_in_the_file_is_kept_whoever_wrote_it(tmp_path: Path) -> None:
    write(tmp_path, "wei-zhang.yaml", "name: Wei Zhang\nsemantic_scholar: 111\norcid: 0000-0002-1825-0097\n")
    same = paper(s2(Author("Wei Zhang", (("s2", "111"),))))
    assert planned(tmp_path, same) == ({}, [])  # the hand-typed number is the same id
    other = paper(s2(Author("Wei Zhang", (("s2", "222"),))), shown="content/papers/b.md")
    assert planned(tmp_path, other) == ({}, [
        "content/authors/wei-zhang.yaml:2: warning[W1071]: semantic_scholar 111 kept; Semantic Scholar gives "
        "'Wei Zhang' the author id '222' in content/papers/b.md\n"
        "  hint: two people may share the name; correct the file by hand if its id is wrong"])


def test_names_alike_are_different_people_each_with_their_own_file(tmp_path: Path) -> None:
    write(tmp_path, "ahan-gupta.yaml", "name: Ahan Gupta\nh_index: 12\n")
    record = s2(Author("Ahán Gupta", (("s2", "9001"),)))
    writes, messages = planned(tmp_path, paper(record))
    [(shown, text)] = writes.items()
    assert shown.startswith("content/authors/ahan-gupta-") and shown != AHAN
    assert text == "name: Ahán Gupta\nsemantic_scholar: '9001'\n"
    assert messages == [
        f"content/papers/a.md:3: warning[W712]: author profile 'Ahán Gupta' is not 'Ahan Gupta' ({AHAN}), "
        f"though both make the file name ahan-gupta.yaml; it gets its own file {shown}\n"
        "  hint: if they are one person, merge the two files by hand and delete one"]


def test_a_name_in_a_profiles_aliases_is_that_person(tmp_path: Path) -> None:
    write(tmp_path, "ahan-gupta.yaml", "name: Ahan Gupta\naliases: [Ahán Gupta]\n")
    writes, messages = planned(tmp_path, paper(s2(Author("Ahán Gupta", (("s2", "9001"),)))))
    assert writes == {AHAN: "name: Ahan Gupta\naliases:\n- Ahán Gupta\nsemantic_scholar: '9001'\n"}
    assert messages == []


def test_an_id_another_profile_holds_is_a_warning_not_a_merge(tmp_path: Path) -> None:
    write(tmp_path, "ahan-gupta.yaml", "name: Ahan Gupta\nsemantic_scholar: '9001'\n")
    writes, messages = planned(tmp_path, paper(s2(Author("Ahán Gupta", (("s2", "9001"), ("hf", "ahan"))))))
    assert len(writes) == 1 and next(iter(writes.values())) == "name: Ahán Gupta\nhuggingface: ahan\n"
    assert "warning[W712]" in messages[1] and messages[:1] == [
        "content/papers/a.md:3: warning[W1070]: Semantic Scholar author id '9001' of 'Ahán Gupta' belongs also to "
        f"{AHAN} ('Ahan Gupta'); not recorded\n"
        "  hint: if they are one person, keep one profile file and list 'Ahán Gupta' in its aliases"]
    assert (tmp_path / AHAN).read_text(encoding="utf-8") == "name: Ahan Gupta\nsemantic_scholar: '9001'\n"


def test_an_id_two_names_are_given_in_one_run_is_recorded_for_neither(tmp_path: Path) -> None:
    first = paper(s2(Author("Ahan Gupta", (("s2", "9001"),))))
    second = paper(s2(Author("Ahán Gupta", (("s2", "9001"),))), shown="content/papers/b.md")
    writes, messages = planned(tmp_path, second, first)
    assert writes == {}
    assert [m.split("\n")[0] for m in messages] == [
        "content/papers/a.md:3: warning[W1070]: Semantic Scholar author id '9001' of 'Ahan Gupta' belongs also to "
        "'Ahán Gupta' in content/papers/b.md; not recorded",
        "content/papers/b.md:3: warning[W1070]: Semantic Scholar author id '9001' of 'Ahán Gupta' belongs also to "
        "'Ahan Gupta' in content/papers/a.md; not recorded"]


def test_one_name_given_two_ids_gets_neither(tmp_path: Path) -> None:
    first = paper(s2(Author("Wei Zhang", (("s2", "111"),))))
    second = paper(s2(Author("Wei Zhang", (("s2", "222"),))), shown="content/papers/b.md")
    assert planned(tmp_path, first, second) == ({}, [
        "content/papers/a.md:3: warning[W1075]: Semantic Scholar gives 'Wei Zhang' the author ids '111' and '222' "
        "(in content/papers/a.md, content/papers/b.md); recorded neither\n"
        "  hint: two people may share the name; add the right one to their profile by hand"])


def test_one_account_given_to_two_authors_of_a_paper_is_recorded_for_neither(tmp_path: Path) -> None:
    """Hugging Face's answer for SciCode gives the account haopeng01 to Hao Peng and to Shizhuo Dylan Zhang."""
    from sitegen.ingest.enrich.hf import paper_record

    record = paper_record(SCICODE)
    writes, messages = planned(tmp_path, paper(record))
    assert "content/authors/hao-peng.yaml" not in writes and "content/authors/shizhuo-dylan-zhang.yaml" not in writes
    assert writes["content/authors/minyang-tian.yaml"] == "name: Minyang Tian\nhuggingface: mtian8\n"
    assert messages == [
        "content/papers/a.md:3: warning[W1073]: Hugging Face gives the account 'haopeng01' to 'Shizhuo Dylan Zhang' "
        "and 'Hao Peng'; recorded for none of them\n"
        "  hint: one account is one person: add it to the right profile by hand"]


def test_an_id_that_is_not_one_is_never_written(tmp_path: Path) -> None:
    ann = Author("Ann Lee", (("hf", "../admin"), ("orcid", "0000-0002-1825-0098")))  # a wrong check digit
    record = Record("hf", "x", "A Paper", authors=(ann,))
    writes, messages = planned(tmp_path, paper(record))
    assert writes == {}
    assert [m.split("\n")[0] for m in messages] == [
        "content/papers/a.md:3: warning[W1072]: Hugging Face gives 'Ann Lee' the account '../admin', which is not a "
        "valid one; not recorded",
        "content/papers/a.md:3: warning[W1072]: ORCID gives 'Ann Lee' the iD '0000-0002-1825-0098', which is not a "
        "valid one; not recorded"]


def test_a_name_the_entry_does_not_list_gets_nothing(tmp_path: Path) -> None:
    record = s2(Author("A. Lee", (("s2", "5"),)))
    assert planned(tmp_path, paper(record, names=("Ann Lee",))) == ({}, [])


# `sitegen enrich` end to end, against the replay server


@pytest.fixture
def site(tmp_path: Path, replay: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SITEGEN_HF_API", f"{replay.url}/api")
    monkeypatch.setenv("SITEGEN_ARXIV_API", f"{replay.url}/api/query")
    replay.add("/api/papers/search", Reply.fixture("hf/search_scicode.json"),
               query={"q": SCICODE["title"], "limit": "10"})
    replay.add("/api/query", Reply.fixture("arxiv/id_2407.13168_scicode.xml"),
               query={"id_list": "2407.13168", "start": "0", "max_results": "1"})
    root = tmp_path / "site"
    (root / "content" / "papers").mkdir(parents=True)
    (root / "site.yaml").write_text("title: Test list\nbase_url: https://example.org/\n", encoding="utf-8")
    (root / "content" / "papers" / "scicode.md").write_text(
        f"---\ntitle: '{SCICODE['title']}'\ndate: 2024-07-18\n---\n", encoding="utf-8")
    write(root, "luyu-gao.yaml", "name: Luyu Gao\nh_index: 20\n")
    return root


def enrich(root: Path, *args: str) -> Result:
    return CliRunner().invoke(main, ["enrich", "--root", str(root), "--delay", "0", "--sources", "hf,arxiv", *args])


def authors_of(root: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((root / "content" / "authors").glob("*.yaml"))}


def test_enrich_records_the_hub_accounts_of_the_papers_authors(site: Path) -> None:
    result = enrich(site)
    assert result.exit_code == 0, result.output
    files = authors_of(site)
    assert files["luyu-gao.yaml"] == "name: Luyu Gao\nh_index: 20\nhuggingface: Luyu\n"
    assert files["minyang-tian.yaml"] == "name: Minyang Tian\nhuggingface: mtian8\n"
    assert files["bohao-wu.yaml"] == "name: Bohao Wu\nhuggingface: nlogn-27\n"
    assert set(files) == {"luyu-gao.yaml", "minyang-tian.yaml", "bohao-wu.yaml"}  # haopeng01 is in doubt
    assert "warning[W1073]" in result.output
    again = enrich(site, "--refresh")
    assert again.exit_code == 0, again.output
    assert authors_of(site) == files


def test_a_dry_run_writes_no_profile(site: Path) -> None:
    before = authors_of(site)
    result = enrich(site, "--dry-run")
    assert result.exit_code == 0, result.output
    assert authors_of(site) == before


def test_an_unreadable_author_file_stops_the_run_before_anything_is_written(site: Path, replay: ReplayServer) -> None:
    write(site, "broken.yaml", "name: [unclosed\n")
    entry = site / "content" / "papers" / "scicode.md"
    before = entry.read_text(encoding="utf-8")
    result = enrich(site)
    assert result.exit_code == 1
    assert "content/authors/broken.yaml:1" in result.output and "error[" in result.output
    assert entry.read_text(encoding="utf-8") == before
    assert replay.seen == []
