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
