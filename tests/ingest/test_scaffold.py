"""`sitegen init` + `sitegen new` + `sitegen build`: a new reading list works at once."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from click.testing import CliRunner

from sitegen.cli import main
from sitegen.content import frontmatter

from ..support import crawl_links, describe_broken


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.mark.parametrize("base_url,base_path", [
    ("https://reader.example.org/", "/"), ("https://someone.github.io/reading-list/", "/reading-list/"),
])
def test_init_new_build_gives_a_working_site(tmp_path: Path, base_url: str, base_path: str) -> None:
    site = tmp_path / "list"
    assert run("init", str(site), "--title", "Papers: to read")[0] == 0
    code, output = run("new", "--root", str(site), "Łukasz's paper: <b>x</b> & ../../etc", "--date", "2024-02-03",
                       "--tags", "attention, kv-cache", "--author", "Łukasz Kaiser", "--author", "Ada Lovelace")
    assert code == 0, output
    entry = site / "content/papers/lukasz-s-paper-b-x-b-etc.md"
    doc = frontmatter.parse(entry.read_text(), "entry")
    assert doc.meta["title"] == "Łukasz's paper: <b>x</b> & ../../etc"
    assert doc.meta["authors"] == ["Łukasz Kaiser", "Ada Lovelace"]
    assert doc.meta["date"] == dt.date(2024, 2, 3) and doc.meta["tags"] == ["attention", "kv-cache"]
    assert run("check", "--root", str(site))[0] == 0
    code, output = run("build", "--root", str(site), "--base-url", base_url, "--no-search")
    assert code == 0, output
    public = site / "public"
    assert (public / "papers/lukasz-s-paper-b-x-b-etc/index.html").is_file()
    assert (public / "authors/lukasz-kaiser/index.html").is_file()
    assert (public / "papers/attention-is-all-you-need/index.html").is_file()
    assert not (tmp_path / "etc").exists()
    broken = crawl_links(public, base_path)
    assert not broken, describe_broken(broken)
    assert (site / ".github/workflows/pages.yml").is_file() and (site / "content/dumps").is_dir()
    assert (site / ".github/workflows/daily.yml").read_text() == (
        Path(__file__).resolve().parents[2] / "sitegen/ingest/starter/daily.yml").read_text()


def test_init_refuses_an_existing_site(tmp_path: Path) -> None:
    site = tmp_path / "list"
    assert run("init", str(site))[0] == 0
    before = (site / "site.yaml").read_text()
    code, output = run("init", str(site), "--title", "Other")
    assert code != 0 and "a site already exists here" in output
    assert (site / "site.yaml").read_text() == before


def test_new_refuses_a_duplicate_title_and_keeps_slugs_unique(tmp_path: Path) -> None:
    site = tmp_path / "list"
    run("init", str(site))
    code, output = run("new", "--root", str(site), "attention is all you need!")
    assert code != 0 and "already on the list" in output
    assert run("new", "--root", str(site), "Attention is all you need, again")[0] == 0
    assert run("new", "--root", str(site), "Attention is all you need — again")[0] != 0
    assert len(list((site / "content/papers").glob("*.md"))) == 2


def test_new_takes_the_curators_verdict_and_leaves_the_common_fields_to_fill_in(tmp_path: Path) -> None:
    site = tmp_path / "list"
    run("init", str(site))
    code, output = run("new", "--root", str(site), "Ring Attention", "--status", "reading", "--rating", "4",
                       "--notes", "Blockwise, **overlapped** with the ring's sends.")
    assert code == 0, output
    path = site / "content" / "papers" / "ring-attention.md"
    text = path.read_text(encoding="utf-8")
    doc = frontmatter.parse(text, path.name)
    assert doc.meta["status"] == "reading" and doc.meta["rating"] == 4
    assert doc.body.strip() == "Blockwise, **overlapped** with the ring's sends."
    front = text.split("---\n")[1]
    commented = [line.split(":")[0].removeprefix("# ") for line in front.splitlines() if line.startswith("# ")]
    assert commented == ["date", "arxiv", "doi", "venue", "links"]  # not rating: it was given
    for line in front.splitlines():  # each placeholder is a valid field once its `# ` is removed
        if line.startswith("# "):
            uncommented = frontmatter.parse(f"---\ntitle: T\n{line[2:]}\n---\n", "x.md").meta
            assert len(uncommented) == 2
    assert run("check", "--root", str(site))[0] == 0
    assert run("new", "--root", str(site), "Another", "--rating", "6")[0] == 2
    assert run("new", "--root", str(site), "Another", "--status", "done")[0] == 2


@pytest.mark.parametrize(("title", "option"), [
    ("2205.14135", "--arxiv"), ("arXiv:2205.14135v2", "--arxiv"), ("https://arxiv.org/abs/2205.14135", "--url"),
    ("https://huggingface.co/papers/2205.14135", "--url"),
])
def test_an_id_or_url_given_as_the_title_is_offered_as_its_option(tmp_path: Path, title: str, option: str) -> None:
    site = tmp_path / "list"
    run("init", str(site))
    code, output = run("new", "--root", str(site), title)
    assert code == 2 and f"sitegen new {option} {title}" in output, output
    assert len(list((site / "content" / "papers").glob("*.md"))) == 1  # only init's example


def test_new_open_starts_the_editor_on_the_new_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    site = tmp_path / "list"
    run("init", str(site))
    opened = tmp_path / "opened.txt"
    editor = tmp_path / "editor.py"
    editor.write_text(f"import sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n", encoding="utf-8")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", f"{sys.executable} {editor}")
    code, output = run("new", "--root", str(site), "Ring Attention", "--open")
    assert code == 0, output
    assert Path(opened.read_text(encoding="utf-8")) == site / "content" / "papers" / "ring-attention.md"


def test_a_title_ending_in_dashes_keeps_its_front_matter_whole(tmp_path: Path) -> None:
    """The placeholders go before the closing `---` line, not after the first `---` a title happens to hold."""
    site = tmp_path / "list"
    run("init", str(site))
    code, output = run("new", "--root", str(site), "Attention, revisited ---")
    assert code == 0, output
    (path,) = [p for p in (site / "content" / "papers").glob("*.md") if "revisited" in p.name]
    doc = frontmatter.parse(path.read_text(encoding="utf-8"), path.name)
    assert doc.meta["title"] == "Attention, revisited ---" and doc.body == ""


@pytest.mark.parametrize(("given", "written"), [("2024-07", "date: 2024-07\n"), ("2024", "date: 2024\n")])
def test_new_takes_a_month_or_a_year_alone(tmp_path: Path, given: str, written: str) -> None:
    site = tmp_path / "list"
    assert run("init", str(site))[0] == 0
    code, output = run("new", "--root", str(site), "A paper of some month", "--date", given)
    assert code == 0, output
    text = (site / "content/papers/a-paper-of-some-month.md").read_text()
    assert written in text and "# date:" not in text
    assert run("check", "--root", str(site))[0] == 0


@pytest.mark.parametrize("given", ["2024-13", "24-07", "July 2024", "2024-07-32"])
def test_new_refuses_a_date_of_no_form_and_says_the_forms(tmp_path: Path, given: str) -> None:
    site = tmp_path / "list"
    assert run("init", str(site))[0] == 0
    code, output = run("new", "--root", str(site), "A paper", "--date", given)
    assert code == 2 and "YYYY-MM-DD, or YYYY-MM or YYYY" in output
    assert not (site / "content/papers/a-paper.md").exists()
