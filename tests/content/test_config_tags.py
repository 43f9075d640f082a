"""Tags in site.yaml: keywords alone, or a label, a description and keywords; every mistake at its line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sitegen.common.errors import SitegenError
from sitegen.content import config
from sitegen.content.config import TagDetails

HEAD = "title: T\nbase_url: https://example.org/\n"


def load(tmp_path: Path, tags: str) -> config.SiteConfig:
    (tmp_path / "site.yaml").write_text(HEAD + tags, encoding="utf-8")
    return config.load(tmp_path)


def problems(tmp_path: Path, tags: str) -> list[str]:
    with pytest.raises(SitegenError) as raised:
        load(tmp_path, tags)
    return [d.format() for d in raised.value.diagnostics]


def test_a_tag_takes_keywords_or_a_label_a_description_and_keywords(tmp_path: Path) -> None:
    cfg = load(tmp_path, "tags:\n  kv-cache: [kv cache, prefix caching]\n  agents:\n    label: AI agents\n"
                         "    description: >-\n      Models that plan\n      and call tools.\n"
                         "    keywords: [agent, function calling]\n  moe: {label: Mixture of experts}\n")
    assert cfg.tags == (("kv-cache", ("kv cache", "prefix caching")), ("agents", ("agent", "function calling")),
                        ("moe", ()))
    assert cfg.tag("agents") == TagDetails("agents", "AI agents", "Models that plan and call tools.",
                                           ("agent", "function calling"))
    assert cfg.tag("kv-cache") == TagDetails("kv-cache", "", "", ("kv cache", "prefix caching"))
    assert cfg.tag("moe") == TagDetails("moe", "Mixture of experts")
    assert cfg.tag("nothing") is None


def test_a_misspelt_tag_setting_is_named_at_the_tags_line_with_the_right_spelling(tmp_path: Path) -> None:
    assert problems(tmp_path, "tags:\n  kv-cache: [kv cache]\n  agents:\n    lable: AI agents\n") == [
        "site.yaml:5: error[E009]: tag 'agents' has no setting 'lable'\n  hint: did you mean 'label'?"]


def test_a_label_that_is_not_text_is_refused(tmp_path: Path) -> None:
    [problem] = problems(tmp_path, "tags:\n  agents:\n    label: [AI, agents]\n    keywords: [agent]\n")
    assert problem == ("site.yaml:4: error[E010]: tag 'agents': 'label' must be text, found ['AI', 'agents']\n"
                       "  hint: e.g. agents: {label: AI agents, description: Models that plan and call tools., "
                       "keywords: [agent]}")


def test_keywords_that_are_not_a_list_of_words_are_refused_at_the_tags_line(tmp_path: Path) -> None:
    [problem] = problems(tmp_path, "tags:\n  kv-cache: [kv cache]\n  agents: {keywords: 5}\n")
    assert problem.startswith("site.yaml:5: error[E004]: tag 'agents' must map to a list of keywords, or to its "
                              "label, description and keywords")


@pytest.mark.parametrize("name", ["cs.LG", "cs.lg", "quant-ph", "stat.ML"])
def test_a_tag_named_like_an_arxiv_category_is_refused(tmp_path: Path, name: str) -> None:
    [problem] = problems(tmp_path, f"tags:\n  '{name}': [learning]\n")
    assert problem == (f"site.yaml:4: error[E011]: tag '{name}' is an arXiv category, not a topic\n  hint: a paper's "
                       "arXiv category is its `category` field and has its page under categories/; give this topic "
                       "another name, or remove it")


def test_a_control_character_in_a_tags_description_is_an_error(tmp_path: Path) -> None:
    [problem] = problems(tmp_path, 'tags:\n  agents: {description: "a\\u0007b"}\n')
    assert "error[E008]: 'tags' holds the control character U+0007" in problem


def test_the_build_stops_on_a_bad_tag_setting_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "site.yaml").write_text(HEAD + "tags:\n  agents:\n    descripton: x\n", encoding="utf-8")
    (tmp_path / "content" / "papers").mkdir(parents=True)
    run = subprocess.run([sys.executable, "-c", "from sitegen.cli import run; run()", "build", "--root",
                          str(tmp_path), "--no-search"], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "site.yaml:4: error[E009]: tag 'agents' has no setting 'descripton'" in run.stderr
    assert "hint: did you mean 'description'?" in run.stderr
    assert not (tmp_path / "public").exists()
