"""The preview's policy on the engine: the edited paper's page before the reload, the rest after, downloads
when asked for, and failures that leave what is pending as it was (`sitegen serve` keeps its site so)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sitegen.common.errors import SitegenError
from sitegen.model import routes
from sitegen.pipeline.build import build
from sitegen.pipeline.site_engine import SiteEngine
from sitegen.serve.serve import ON_REQUEST

from ..site_factory import copy_site, tree_bytes
from .test_incremental import PAPERS
from .test_incremental import _papers as papers
from .test_incremental import _replace_field as replace_field


def preview_state(root: Path, output: Path) -> SiteEngine:
    """The engine with the preview's policy: no asset versions, no fsync, downloads on request, pages after."""
    return SiteEngine(root, output, asset_versions=False, durable=False, on_request=ON_REQUEST, write_later=True)


def clean_build(root: Path, folder: Path) -> Path:
    build(root, folder, search=False, use_cache=False)
    return folder


def clean_preview(root: Path, folder: Path) -> Path:
    """What a preview started now would show: its pages link unversioned assets."""
    SiteEngine(root, folder, asset_versions=False).build()
    return folder


def test_downloads_left_pending_are_written_as_the_site_stands_after_a_failed_edit(tmp_path: Path) -> None:
    """Pending downloads are written as the site stands: after a failed edit, without it; once the cause is
    fixed, with the failed batch's edits applied too."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    state = preview_state(root, tmp_path / "out")
    state.full()
    first, second = papers(root)[1], papers(root)[4]
    replace_field(first, "title", "'A first title edit'")
    state.update([first])
    assert state.pending, "the downloads wait for a request"
    template = root / "themes/default/templates/paper.html"  # the edited paper's page: rendered in the update
    good_template = template.read_text()
    template.write_text(good_template.replace("{% block main %}", "{% block main %}{{ no_such_variable }}", 1))
    replace_field(second, "title", "'A title edit that fails'")
    with pytest.raises(SitegenError):
        state.update([second, template])  # one batch of saves: the paper's page fails
    template.write_text(good_template)
    state.update([template])  # the failed batch's entry edit is applied with it
    state.flush()
    clean = clean_build(root, tmp_path / "clean")
    for name in routes.WHOLE_LIST_FILES:
        assert (tmp_path / "out" / name).read_bytes() == (clean / name).read_bytes(), name


def test_the_preview_writes_an_edited_papers_page_first_and_the_rest_after(tmp_path: Path) -> None:
    """The update renders the edited paper's own page; its other pages wait, unchanged on disk, for `flush`."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    out = tmp_path / "out"
    state = preview_state(root, out)
    state.full()
    edited = papers(root)[2]
    replace_field(edited, "title", "'Written first'")
    slug = edited.stem
    authors = [a.slug for a in state.engine.get("paper", slug).authors]
    before = {f: (out / f).read_bytes() for f in (routes.author_page(a) for a in authors)}
    change = state.update([edited])
    assert change.written == [routes.paper_page(slug)], "only the edited paper's own page before the reload"
    assert "Written first" in (out / routes.paper_page(slug)).read_text()
    waiting = state.waiting()
    assert change.deferred == len(waiting) > 0 and set(before) <= set(waiting)
    assert not set(waiting) & set(routes.WHOLE_LIST_FILES), "downloads still wait for a request"
    assert {f: (out / f).read_bytes() for f in before} == before, "not written yet"
    written = state.flush(waiting).written
    assert set(before) <= set(written) and not state.waiting()
    assert all("Written first" in (out / f).read_text() for f in before)
    state.flush()
    assert tree_bytes(out) == tree_bytes(clean_preview(root, tmp_path / "clean"))


def test_a_template_failing_on_the_edited_data_refuses_the_edit_at_once_naming_its_line(tmp_path: Path) -> None:
    """The list item is rendered in the update (pages read it): the edit fails whole, its error at the template's
    line, nothing is written or left pending, and fixing the template catches up."""
    root = copy_site(tmp_path / "site", papers=PAPERS)
    out = tmp_path / "out"
    state = preview_state(root, out)
    state.full()
    item = root / "themes/default/templates/partials/item.html"
    good = item.read_text()
    item.write_text(good + "{% if 'EXPLODE' in e.title %}{{ no_such_variable }}{% endif %}\n")
    state.update([item])  # no paper's title has it yet: every listing renders
    before = tree_bytes(out)
    edited = papers(root)[2]
    replace_field(edited, "title", "'EXPLODE on the listings'")
    with pytest.raises(SitegenError) as failed:
        state.update([edited])
    assert "themes/default/templates/partials/item.html:" in failed.value.diagnostics[0].format()
    assert tree_bytes(out) == before and not state.waiting()
    item.write_text(good)
    state.update([item])
    state.flush()
    assert not state.pending
    assert tree_bytes(out) == tree_bytes(clean_preview(root, tmp_path / "clean"))
