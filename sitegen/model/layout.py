"""Where each kind of page lives: the one place the site's routes are spelled.

A route is a folder of the output ('tags/ml/'); the render plan writes a page's files
inside it ('tags/ml/index.html', 'tags/ml/feed.xml'). The model checks that no two
things claim one route (`collisions`), so no two files can share an output path.
"""

from __future__ import annotations

# sitegen's own pages and folders, which nothing named in the content may take
QUEUE = "queue/"  # the reading queue's page and feed
RISING = "rising/"  # the papers that gained most upvotes between the last two captures
NETWORK = "network/"  # the co-author network's page and its data
CITATIONS = NETWORK + "citations/"  # the network page's citation view
RESERVED = ("authors/", "categories/", NETWORK, "page/", "pagefind/", "papers/", QUEUE, "recent/", RISING, "search/",
            "static/", "tags/", "timeline/")


def home(number: int) -> str:
    """A page of the paginated home list: the site's root, then 'page/2/' and on."""
    return "" if number == 1 else f"page/{number}/"


def paper(slug: str) -> str:
    return f"papers/{slug}/"


def author(slug: str) -> str:
    return f"authors/{slug}/"


def tag(slug: str) -> str:
    return f"tags/{slug}/"


def category(slug: str) -> str:
    return f"categories/{slug}/"


def year(slug: str) -> str:
    return f"timeline/{slug}/"
