"""Every page reads its frame (settings, templates' environment, asset versions, the menu's flags) as one read."""

from __future__ import annotations

from pathlib import Path

from sitegen.pipeline.engine.memo import key_id
from sitegen.pipeline.site_engine import SiteEngine
from sitegen.pipeline.steps.outputs import FRAME

from ...site_factory import copy_site


def test_a_page_reads_its_frame_as_one_and_follows_it(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", papers=4)
    engine = SiteEngine(root, tmp_path / "out")
    engine.build(jobs=1)
    pages = [record for key, record in engine.engine.memo.records.items() if key[0] == "page"]
    assert pages and all(key_id(("frame", None)) in record.reads for record in pages)
    for name in FRAME:
        assert not [r for r in pages if key_id((name, None)) in r.reads], f"a page read {name} itself"
    config = root / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("title:", "title: Framed", 1), encoding="utf-8")
    engine.update([config])
    assert "Framed" in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
