"""A damaged cache is read as empty, never trusted: any cache file damaged any way, then an edit, builds the
site a build without the cache builds.

Every kind of file `.sitegen-cache/` holds (the memo, the entry cache's shards, compiled templates) is
damaged at random in each way a disk or a person damages files: zeroed, bit-flipped, swapped with
another, cut short, emptied, or replaced by a folder. The build after it must exit as usual, without
an internal error, and write what a clean build writes.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from sitegen.content.cache import CACHE_DIR
from sitegen.pipeline.build import build
from sitegen.pipeline.engine.memo import key_id

from ..site_factory import copy_site, tree_bytes

PAPERS = 6
DAMAGES = ("zeroed", "flipped", "swapped", "truncated", "emptied", "folder")
KINDS = ("engine", "entries", "templates")


def _edit(root: Path, n: int) -> None:
    """A title edit, then (odd n) a notes edit too, of one entry."""
    entry = sorted((root / "content" / "papers").glob("*.md"))[n % PAPERS]
    text = entry.read_text(encoding="utf-8").replace("\ntitle: ", f"\ntitle: Revised {n} ", 1)
    entry.write_text(text + (f"\nA later remark {n}.\n" if n % 2 else ""), encoding="utf-8")


def _damage(path: Path, how: str, other: Path, chance: random.Random) -> None:
    data = path.read_bytes()
    if how == "zeroed" and data:
        start = chance.randrange(len(data))
        data = data[:start] + bytes(min(4096, len(data) - start)) + data[start + 4096:]
    elif how == "flipped" and data:
        flipped = bytearray(data)
        for _ in range(chance.randint(1, 8)):
            at = chance.randrange(len(flipped))
            flipped[at] ^= 1 << chance.randrange(8)
        data = bytes(flipped)
    elif how == "swapped":
        data, other_data = other.read_bytes(), data
        other.write_bytes(other_data)
    elif how == "truncated":
        data = data[: chance.randrange(len(data) + 1)]
    elif how == "emptied":
        data = b""
    if how == "folder":
        path.unlink()
        path.mkdir()
        (path / "inside").write_bytes(data[:10])
    else:
        path.write_bytes(data)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_site(tmp_path_factory.mktemp("built") / "site", papers=PAPERS)
    build(root, root / "public", search=False)
    _edit(root, 100)  # an edit in place too: the memo's rows rewritten, not only made
    build(root, root / "public", search=False)
    return root


@pytest.mark.parametrize("kind", KINDS)
def test_any_cache_file_damaged_any_way_then_an_edit_builds_what_a_clean_build_does(
        built: Path, tmp_path: Path, kind: str) -> None:
    chance = random.Random(f"{kind}-46")
    for trial in range(len(DAMAGES) * 2):
        how = DAMAGES[trial % len(DAMAGES)]
        root = tmp_path / f"site-{trial}"
        shutil.copytree(built, root, symlinks=True)
        files = sorted(p for p in (root / CACHE_DIR / kind).rglob("*") if p.is_file())
        assert files, f"no {kind} files to damage"
        target = chance.choice(files)
        _damage(target, how, chance.choice(sorted((root / CACHE_DIR).rglob("*.*"), key=str)), chance)
        _edit(root, trial)
        clean = tmp_path / f"clean-{trial}"
        shutil.copytree(root, clean, symlinks=True, ignore=shutil.ignore_patterns(CACHE_DIR, "public"))
        build(root, root / "public", search=False)  # raises on any error: none is expected
        build(clean, clean / "public", search=False, use_cache=False)
        assert tree_bytes(root / "public") == tree_bytes(clean / "public"), f"{how} {target.name}: another site"
        shutil.rmtree(root)
        shutil.rmtree(clean)


def test_a_value_forged_in_the_memo_is_never_trusted(built: Path, tmp_path: Path) -> None:
    """A row whose value was changed behind its checksum (a citation piece the whole-list files join)."""
    root = tmp_path / "site"
    shutil.copytree(built, root, symlinks=True)
    memo = root / CACHE_DIR / "engine" / "memo.sqlite"
    with sqlite3.connect(memo) as db:
        forged = 0
        for ident, step, value in list(db.execute("SELECT id, step, value FROM memo WHERE value IS NOT NULL")):
            if step in ("piece", "item", "paper", "plan"):
                db.execute("UPDATE memo SET value = ? WHERE id = ?", (bytes(value).replace(b"a", b"o"), ident))
                forged += 1
    assert forged and key_id(("plan", None))
    _edit(root, 7)
    clean = tmp_path / "clean"
    shutil.copytree(root, clean, symlinks=True, ignore=shutil.ignore_patterns(CACHE_DIR, "public"))
    build(root, root / "public", search=False)
    build(clean, clean / "public", search=False, use_cache=False)
    assert tree_bytes(root / "public") == tree_bytes(clean / "public")
