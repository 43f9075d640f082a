"""The graph as a step: worked out again only when what it is made of moved, and saved with the memo."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from sitegen.model.collab import Collaboration
from sitegen.pipeline.build import build
from sitegen.pipeline.persisted import open_memo
from sitegen.pipeline.site_engine import SiteEngine
from sitegen.pipeline.steps import codecs

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "site"
KEY = ("collaboration", None)


def edit(root: Path, name: str, field: str, value: str) -> Path:
    path = root / "content" / "papers" / f"{name}.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(rf"^{field}:.*?(?=^\w)", f"{field}: {value}\n", text, count=1, flags=re.M | re.S),
                    encoding="utf-8")
    return path


def test_the_graph_is_worked_out_again_only_when_its_authors_or_tags_move(tmp_path: Path) -> None:
    root = tmp_path / "site"
    shutil.copytree(GOLDEN, root)
    engine = SiteEngine(root, tmp_path / "public")
    engine.build()
    graph = engine.engine.memo.records[KEY].value
    assert isinstance(graph, Collaboration) and len(graph.nodes) == 11  # L. Kaiser is Łukasz Kaiser

    change = engine.update([edit(root, "tensor2tensor", "title", "'Tensor2Tensor, retitled'"),
                            edit(root, "latent-retrieval", "date", "2019-07-01")])
    assert engine.engine.memo.records[KEY].value is graph, "a title or a date leaves the graph as it was"
    assert "network/graph.json" not in change.written
    # the page is written again all the same: its panel lists each author's newest papers, by title
    assert "Tensor2Tensor, retitled" in (tmp_path / "public" / "network" / "index.html").read_text(encoding="utf-8")

    change = engine.update([edit(root, "tensor2tensor", "authors", "[Ashish Vaswani, Jakob Uszkoreit]")])
    again = engine.engine.memo.records[KEY].value
    assert again is not graph and "Jakob Uszkoreit" in {n.name for n in again.nodes}
    assert {"network/index.html", "network/graph.json"} <= set(change.written)
    assert "Jakob Uszkoreit" in (tmp_path / "public" / "network" / "graph.json").read_text(encoding="utf-8")

    change = engine.update([edit(root, "tensor2tensor", "tags", "[attention, compilers]")])
    assert engine.engine.memo.records[KEY].value is not again, "a cluster's name follows its tags"


def test_the_graph_is_saved_with_the_memo(tmp_path: Path) -> None:
    """A new process that renders the network page again (its template edited) needs no model to do it."""
    root = tmp_path / "site"
    shutil.copytree(GOLDEN, root)
    build(root, tmp_path / "public", search=False)
    memo, table = open_memo(root, None, False)
    memo.use_codec(codecs.encode, codecs.decode)  # as the engine made over it would
    record = memo.get(KEY)
    assert table is not None and record is not None and record.saved is not None
    saved = memo.decode(KEY, record.saved)
    assert isinstance(saved, Collaboration) and len(saved.nodes) == 11 and saved.clusters[0].tags[0].name
