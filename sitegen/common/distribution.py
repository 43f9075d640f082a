"""The name sitegen is installed under, and its installed version.

The command is `sitegen`, but on the package index that name belongs to an unrelated project
(with a higher version number: `pip install -U` would replace this tool with it), so the
distribution is `sitegen-papers`. Everything that asks pip or the installed metadata uses this.
"""

from __future__ import annotations

import importlib.metadata

DISTRIBUTION = "sitegen-papers"


def installed_version() -> str | None:
    """The version pip installed, or None when sitegen runs from a source tree nobody installed."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None
