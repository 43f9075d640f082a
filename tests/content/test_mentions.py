"""Notes that name other papers: `[[slug]]`, `[[slug|text]]` and `[[arXiv id]]`, parsed as mentions."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner

from sitegen.cli import main
from sitegen.content import markdown, mentions
from sitegen.pipeline.build import build

from ..html_tools import read_html, text_of
from ..site_factory import copy_site


def test_mentions_are_found_with_their_lines_and_rendered_as_placeholders() -> None:
    notes = markdown.render_notes("Compare [[flash-attn]].\n\nAnd [[2205.14135|Flash<b>]], `[[code]]`, [a](http://x).")
    assert notes.mentions == (("flash-attn", 0), ("2205.14135", 2))  # not the one in code
    assert '<a class="mention" data-mention="flash-attn">flash-attn</a>' in notes.html
    assert '<a class="mention" data-mention="2205.14135" data-named>Flash&lt;b&gt;</a>' in notes.html
    assert "<code>[[code]]</code>" in notes.html


def test_linked_fills_in_each_mention_or_leaves_its_text() -> None:
    html = markdown.render_notes("[[a]], [[b|my words]] and [[c]].").html
    linked = mentions.linked(html, {"a": ("../a/", "<i>A</i> title"), "b": ("../b/", "B")}.get)
    assert '<a class="mention" href="../a/"><i>A</i> title</a>' in linked  # the paper's title as the text
    assert '<a class="mention" href="../b/">my words</a>' in linked
    assert '<span class="mention missing">c</span>' in linked


def test_a_site_links_mentions_by_slug_and_arxiv_id_and_says_where_a_paper_is_mentioned(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=4)
    first, second, third, _ = sorted((root / "content" / "papers").glob("*.md"))
    text = third.read_text()
    if re.search(r"(?m)^arxiv: ", text):  # the bundled entry's own id, looked up by hand, gives way to ours
        third.write_text(re.sub(r"(?m)^arxiv: .*$", "arxiv: '2205.14135'", text, count=1))
    else:
        head, body = text.split("\n", 1)
        third.write_text(f"{head}\narxiv: '2205.14135'\n{body}")
    first.write_text(first.read_text() + f"\nSee [[{second.stem}]], [[arXiv:2205.14135v2|FlashAttention]] and "
                                          f"[[{second.stem[:-3]}]].\n")
    lines = first.read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.startswith("See [["))
    result = CliRunner().invoke(main, ["check", "--root", str(root)])
    assert result.exit_code == 0
    assert (f"content/papers/{first.name}:{line}: warning[W346]: [[{second.stem[:-3]}]] names no paper on this "
            f"list\n  hint: nearest: {second.stem}") in result.output
    build(root, tmp_path / "public", "https://example.org/", search=False)
    page = read_html(tmp_path / "public" / "papers" / first.stem / "index.html")
    links = {text_of(a): a.get("href") for a in page.iter("a") if "mention" in (a.get("class") or "")}
    second_title = text_of(read_html(tmp_path / "public" / "papers" / second.stem / "index.html").find(".//h1"))
    assert links == {second_title: f"../../papers/{second.stem}/", "FlashAttention": f"../../papers/{third.stem}/"}
    assert [text_of(s) for s in page.iter("span") if "missing" in (s.get("class") or "")] == [second.stem[:-3]]
    for named in (second, third):
        target = read_html(tmp_path / "public" / "papers" / named.stem / "index.html")
        section = next(s for s in target.iter("section") if s.get("aria-labelledby") == "mentioned-heading")
        assert [a.get("href") for a in section.iter("a")] == [f"../../papers/{first.stem}/"]
