"""The routes: `rows` names the same files as `plan`, in the same order, for any site."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import load_content
from sitegen.model import model, routes

from ..site_factory import copy_site


@pytest.mark.parametrize(("papers", "domain"), [(None, None), (3, "papers.example.org"), (0, None)])
def test_rows_are_the_plan_without_dependencies(tmp_path: Path, papers: int | None, domain: str | None) -> None:
    root = copy_site(tmp_path / "site", papers=papers)
    cfg = site_config.load(root)
    cfg = replace(cfg, domain=domain, page_size=4)
    site = model.build_site(cfg, load_content(root, Report()))
    planned = [(s.output, s.kind, s.key, s.template) for s in routes.plan(site)]
    listed = list(routes.rows(site.order, [a.slug for a in site.authors], [t.slug for t in site.tags],
                              [c.slug for c in site.categories], [y.slug for y in site.years], site.pages,
                              site.config.domain))
    assert listed == planned
