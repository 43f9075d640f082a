"""Curator notes sit under a paper page's own h1 and "Notes" h2: their headings are shown two levels down."""

from __future__ import annotations

from sitegen.content import markdown


def test_note_headings_are_demoted_below_the_page_headings_and_nothing_else_changes() -> None:
    html = markdown.notes_to_html("# One\n\n## Two *b*\n\n### Three\n\n#### Four\n\n##### Five\n\nSetext\n---\n\n"
                                  "    # code\n\n`<h1>` and \\# not a heading\n")
    assert html.split("\n")[:6] == ["<h3>One</h3>", "<h4>Two <em>b</em></h4>", "<h5>Three</h5>", "<h6>Four</h6>",
                                    "<h6>Five</h6>", "<h4>Setext</h4>"]
    assert html.count("<h") == 6 and "><code># code\n</code></pre>" in html  # code and text that look alike stay
    assert "<p><code>&lt;h1&gt;</code> and # not a heading</p>" in html


def test_render_notes_demotes_as_notes_to_html_does() -> None:
    html, text, _, _ = markdown.render_notes("# Title\n\nBody")
    assert html.startswith("<h3>Title</h3>") and text == "Title Body"
