"""The routes: one file per page the site has, none twice, and the sitemap's pages are the plan's."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import load_content
from sitegen.model import layout, model, routes

from ..site_factory import copy_site, curate, sight


@pytest.mark.parametrize(("papers", "domain"), [(None, None), (3, "papers.example.org"), (0, None)])
def test_the_plan_has_each_page_of_the_site_once(tmp_path: Path, papers: int | None, domain: str | None) -> None:
    root = copy_site(tmp_path / "site", papers=papers)
    if papers is None:
        curate(root)  # a reading queue, with its page and feed
        sight(root)  # papers seen on two days with more upvotes: a Rising page
    cfg = replace(site_config.load(root), domain=domain, page_size=4)
    site = model.build_site(cfg, load_content(root, Report()))
    plan = routes.plan(site)
    outputs = [spec.output for spec in plan]
    assert len(outputs) == len(set(outputs)), "no file is written twice"
    kinds = Counter(spec.kind for spec in plan)
    assert kinds["paper"] == kinds["cite-bib"] == len(site.papers)
    assert kinds["author"] == kinds["author-feed"] == len(site.authors)
    assert kinds["tag"] == kinds["tag-feed"] == len(site.tags) and kinds["category"] == len(site.categories)
    # an author's or a tag's citations are joined in the browser from its papers' own files (docs/outputs.md)
    assert [o for o in outputs if o.startswith(("authors/", "tags/")) and "/papers." in o] == []
    assert kinds["year"] == len(site.years) and kinds["home"] == site.pages
    assert kinds["queue"] == kinds["queue-feed"] == (1 if site.queue else 0)
    assert kinds["rising"] == (1 if site.rising.papers else 0) == (1 if papers is None else 0)
    assert ("CNAME" in outputs) == bool(domain)
    for paper in site.papers.values():
        assert f"{layout.paper(paper.slug)}index.html" in outputs
    sitemap = next(spec for spec in plan if spec.kind == "sitemap")
    assert list(sitemap.shape) == [out for out in outputs if out.endswith("index.html")]
    recent = next(spec for spec in plan if spec.kind == "recent")
    assert recent.shape == (site.recent[: routes.RECENT_SIZE], len(site.recent), len(site.order))
    assert all(spec.shape == () for spec in plan if spec.kind not in ("recent", "sitemap"))
