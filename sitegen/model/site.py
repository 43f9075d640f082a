"""The model's data: a paper placed in the site, an author, a tag, and the site that holds them.

Apart from `model`, which builds them, so that the modules that check or read a site import its shape and not its
making (no import cycle).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from ..content.config import SiteConfig
from ..content.loader import AuthorProfile, Entry
from . import signals
from .citations import Citations
from .mentions import Mentions
from .network import Network, Ref
from .people import Byline, People, Redirect
from .timeline import Year


@dataclass(frozen=True)
class Paper:
    """An entry placed in the site: its links to authors and tags, neighbours in time."""

    entry: Entry
    route: str
    authors: tuple[Byline, ...]  # as written, each linking to its person's page
    tags: tuple[Ref, ...]
    category: Ref | None
    cite_key: str
    newer: str | None = None  # slug of the next paper in time
    older: str | None = None
    # Profile authors the source hid behind "et al.": the paper is in their profile dump.
    unlisted_authors: tuple[Byline, ...] = ()
    mentions: Mentions | None = None  # what its notes name, and whose notes name it (model/mentions.py)
    citations: Citations | None = None  # the papers on the list it cites and that cite it (model/citations.py)

    @property
    def slug(self) -> str:
        return self.entry.slug

    @property
    def year(self) -> int | None:
        return self.entry.date.year if self.entry.date else None


@dataclass(frozen=True)
class Author:
    """An author page: their papers newest first, co-authors and topics.

    Co-authors and topics are worked out when first read: counting every author's
    co-authors grows with the square of the author lists, and an incremental build
    renders only a few author pages.
    """

    name: str
    slug: str
    papers: tuple[str, ...]
    profile: AuthorProfile | None = None
    network: Network | None = field(default=None, compare=False, repr=False)

    @cached_property
    def _links(self) -> tuple[tuple[Ref, ...], tuple[Ref, ...], int]:
        if self.network is None:
            return (), (), 0
        return self.network.links(self.name, self.papers)

    @property
    def coauthors(self) -> tuple[Ref, ...]:
        """The most frequent co-authors, at most MAX_COAUTHORS."""
        return self._links[0]

    @property
    def topics(self) -> tuple[Ref, ...]:
        """The author's most frequent tags, at most MAX_TOPICS."""
        return self._links[1]

    @property
    def coauthor_total(self) -> int:
        """How many different people the author wrote with."""
        return self._links[2]


@dataclass(frozen=True)
class Tag:
    """A tag (topic or arXiv category) page with its papers and related tags."""

    name: str
    slug: str
    papers: tuple[str, ...]
    related: tuple[Ref, ...]
    is_category: bool = False
    title: str = ""


@dataclass(frozen=True)
class Site:
    """Everything the renderer needs, as plain frozen data."""

    config: SiteConfig
    papers: Mapping[str, Paper]  # slug -> paper, newest first (a saved model's are made when read)
    order: tuple[str, ...]  # slugs newest first (undated last)
    recent: tuple[str, ...]  # slugs by date added, newest first
    authors: tuple[Author, ...]
    tags: tuple[Tag, ...]
    categories: tuple[Tag, ...]
    years: tuple[Year, ...]
    pages: int = 1
    queue: tuple[str, ...] = ()  # the reading queue (see `curated_lists.queue_key`)
    picks: tuple[str, ...] = ()  # where to start: pinned, then best rated papers (`curated_lists.pick_key`)
    home: tuple[str, ...] = ()  # the home page's papers: by date added (`curated_lists.home_key`) or `order`
    mentions: Mapping[str, Mentions] = field(default_factory=dict)  # slug -> what its notes name, who names it
    citations: Mapping[str, Citations] = field(default_factory=dict)  # slug -> whom it cites, who cites it
    arxiv_slugs: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)  # arXiv id -> slug
    # The papers that gained most upvotes between the last two captures, and what that is worked out from
    rising: signals.Rising = field(default_factory=signals.Rising)
    upvotes: Mapping[str, signals.History] = field(default_factory=dict, repr=False)  # slug -> upvotes by day
    author_index: dict[str, Author] = field(default_factory=dict)
    tag_index: dict[str, Tag] = field(default_factory=dict)
    redirects: tuple[Redirect, ...] = ()  # the addresses of people's other spellings
    # What `model_patch` needs to patch the site after an edit without building it again.
    cite_bases: dict[str, str] = field(default_factory=dict, compare=False, repr=False)  # slug order
    network: Network | None = field(default=None, compare=False, repr=False)
    people: People = field(default_factory=People, compare=False, repr=False)

    @property
    def queued(self) -> bool:
        """Whether the reading queue has a page: what the menu of every page shows of it."""
        return bool(self.queue)

    @property
    def has_rising(self) -> bool:
        """Whether the Rising page exists (some paper gained upvotes): what every page's menu shows of it."""
        return bool(self.rising.papers)
