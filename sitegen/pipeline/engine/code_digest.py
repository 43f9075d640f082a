"""The digest of sitegen's own code: part of every saved memo's stamp.

A memo made by other code may hold results the code in hand would not give, so it is
never used: no version number has to be bumped by hand when a change alters the output.
The package's Python sources are read once per process (about 150 files, a few ms).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from ...common.digest import Hasher

PACKAGE = Path(__file__).resolve().parents[2]  # sitegen/


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
