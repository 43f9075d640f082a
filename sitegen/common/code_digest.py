"""The digest of sitegen's own code: the version of every file sitegen keeps for itself.

A memo, entry cache, compiled template or search shard made by other code may hold what the
code in hand would not make, so each is stamped with this digest and read as empty under
another: no format version is bumped by hand when a change alters what they hold.
The package's Python sources are read once per process (about 150 files, a few ms).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from .digest import Hasher

PACKAGE = Path(__file__).resolve().parents[1]  # sitegen/


@cache
def code_digest() -> str:
    """A digest of every Python source of the installed package, by relative path and content."""
    return of_tree(PACKAGE)


def of_tree(folder: Path) -> str:
    """A digest of the `.py` files under `folder`: names and bytes, in sorted order."""
    hasher = Hasher()
    for path in sorted(folder.rglob("*.py")):
        name = path.relative_to(folder).as_posix().encode()
        data = path.read_bytes()
        hasher.update(b"%d:%s%d:" % (len(name), name, len(data)))
        hasher.update(data)
    return str(hasher.hexdigest())
