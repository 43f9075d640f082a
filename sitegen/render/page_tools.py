"""What a page's context builder may ask of the renderer that calls it.

A Protocol, so that the builders (`pages`, `network`, the sitemap) depend on this shape and not on `render`, which
imports them: the renderer and the engine's recording renderer both provide it.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Protocol

from markupsafe import Markup

from ..model.site import Paper, Site


class PageTools(Protocol):
    """The site being rendered, its list items, and the per-paper pieces shared by every page of a build."""

    @property
    def site(self) -> Site: ...

    @property
    def bib_entries(self) -> MutableMapping[str, str]:
        """slug -> BibTeX entry."""

    @property
    def lastmods(self) -> MutableMapping[str, str]:
        """slug -> its page's lastmod in the sitemap."""

    def item(self, slug: str, root: str, level: int = 3) -> Markup: ...

    def items(self, slugs: tuple[str, ...] | list[str], root: str, level: int = 3) -> list[Markup]: ...

    def coins(self, paper: Paper) -> str: ...

    def json_ld(self, paper: Paper) -> Markup: ...
