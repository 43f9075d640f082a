"""The folders of a site's content the build reads, with the suffix of the files it reads in each.

Apart from the loader, so that a rebuild with nothing to do finds its inputs without importing
what parses them.
"""

from __future__ import annotations

FOLDERS = {"content/papers": ".md", "content/authors": ".yaml"}
