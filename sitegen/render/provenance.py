"""Where an entry came from, said as sentences for its page, from its `sources` records.

`sitegen import` writes one record per dump line ("format", "captured" and the signals the
dump showed) and `sitegen enrich` one per API answer ("api", "id", "retrieved"); see
docs/content-format.md. A reader learns where the paper was seen and when, never the
names of the dump files, which mean something only on the curator's disk.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

# Where a kind of dump showed the paper, as a reader knows the place
DUMPS = {"hf-daily-papers": "Seen on Hugging Face Daily Papers",
         "author-profile": "Listed in an author's profile on a paper-ranking site"}
# The APIs `sitegen enrich` asks (sitegen/ingest/enrich/run.py), by their records' "api"
APIS = {"hf": "Hugging Face", "arxiv": "arXiv", "s2": "Semantic Scholar", "bibtex": "a BibTeX file"}


def sentences(sources: Iterable[Iterable[tuple[str, Any]]]) -> tuple[str, ...]:
    """One sentence per record that says anything, in the entry's order, without repeats."""
    said = (_sentence(dict(record)) for record in sources)
    return tuple(dict.fromkeys(s for s in said if s))


def _sentence(record: Mapping[str, Any]) -> str:
    if record.get("api"):
        name = APIS.get(str(record["api"]), str(record["api"]))
        ident = f" as {record['id']}" if record.get("id") else ""
        if record["api"] == "hand":  # looked up by the curator: the page that confirmed it, by its site's name
            host = urlsplit(str(record.get("url", ""))).hostname or ""
            return f"Identified by hand{ident}{f' from {host}' if host else ''}{_on(record.get('retrieved'))}"
        return f"Identified on {name}{ident}{_on(record.get('retrieved'))}"
    if not record.get("format"):
        return ""
    where = DUMPS.get(str(record["format"]), f"Imported from a {record['format']} list")
    return f"{where}{_on(record.get('captured'))}{_signals(record)}"


def _signals(record: Mapping[str, Any]) -> str:
    """What the dump showed of the paper's standing: its upvotes, its score."""
    said = []
    if isinstance(record.get("upvotes"), int):
        said.append(f"{record['upvotes']} upvote{'' if record['upvotes'] == 1 else 's'}")
    if isinstance(record.get("score"), int | float) and not isinstance(record.get("score"), bool):
        said.append(f"a score of {record['score']:g}")
    return " with " + " and ".join(said) if said else ""


def _on(value: Any) -> str:
    """' on Apr 17, 2026' (the site's way of writing a day), or nothing when no day is recorded."""
    if isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value[:10])
        except ValueError:
            return ""
    if isinstance(value, dt.datetime):
        value = value.date()
    return f" on {value:%b} {value.day}, {value.year}" if isinstance(value, dt.date) else ""
