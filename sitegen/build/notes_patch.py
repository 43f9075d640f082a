"""Re-render the page of a paper whose notes alone changed, in a new process, without the model.

A notes edit changes the paper's own page, its line of papers.json and its entries in
the full-text feeds that list it (what depends on `notes:<slug>` in the render plan).
Loading 10,000 entries and rebuilding the model to render those costs seconds, so every
build also remembers each paper's place in the site, as plain JSON in
`.sitegen-cache/papers/`: its author, tag and category links, cite key and neighbours in
time. A notes edit then renders the page from the entry, its two neighbours and that record.

Before trusting this partial site, the page is rendered once more as it was before the
edit and compared with the file on disk. A theme that reads anything else from the
site (a count of all papers, say) gives different bytes, and the build takes the
model-based path instead; so does any doubt (no record, a record of another build,
a warning in the entry, an output file touched by hand). In papers.json and the feeds,
the paper's old line and entries, rendered again, must each be found once, and are
replaced by the new ones.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from .. import __version__
from ..common.digest import of as output_digest
from ..common.errors import Report, SitegenError
from ..common.fsutil import StagedFiles, write_atomic
from ..content.cache import CACHE_DIR, EntryCache
from ..content.config import SiteConfig
from ..content.loader import Entry, load_entry, same_front_matter, slug_of
from ..model import layout, model
from ..model.routes import PageSpec, paper_page
from ..publish.writer import journal_for
from ..render.feeds import FULL_TEXT
from ..render.fragments import fingerprint
from ..render.outputs.data import paper_line
from ..render.render import Renderer, asset_hashes, make_environment
from ..render.theme import static_files

RECORDS = "papers"  # a folder of shards under .sitegen-cache/
STATE = "signature.json"  # in that folder: the list signature the records were saved under
MAX_FILES = 20  # more changed entries than this are not a quick edit
# The feeds whose entries show a paper's notes (feeds.FULL_TEXT), by output path
NOTES_FEEDS = {"feed": "feed.xml", "recent-feed": "recent/feed.xml", "queue-feed": f"{layout.QUEUE}feed.xml"}


def _shard(slug: str) -> str:
    return hashlib.sha1(slug.encode("utf-8")).hexdigest()[:2]


def _record(paper: model.Paper) -> dict[str, Any]:
    return {
        "path": paper.entry.source_path, "route": paper.route, "cite_key": paper.cite_key,
        "authors": [list(r[:2]) for r in paper.authors], "unlisted": [list(r[:2]) for r in paper.unlisted_authors],
        "tags": [list(r[:2]) for r in paper.tags], "category": list(paper.category[:2]) if paper.category else None,
        "newer": paper.newer, "older": paper.older,
    }


def save_records(root: Path, site: model.Site, signature: str, changed: Iterable[str] | None = None,
                 previous: str | None = None) -> None:
    """Remember every paper's links and neighbours; only shards whose text changed are rewritten.

    With `changed` (the slugs whose record may differ from the one saved under the
    `previous` signature, as a patched model reports them), only those records' shards are
    read and rewritten: after a title edit that moves a cite key, a handful of shards in
    place of all 256. The signature lives in one small file, written last; it is removed
    first, so records half rewritten are never trusted.
    """
    folder = root / CACHE_DIR / RECORDS
    with contextlib.suppress(OSError):  # a cache that cannot be written is only a slower next edit
        if changed is not None and previous is not None and _saved_signature(folder) == previous:
            shards = _updated_shards(folder, site, changed)
            stale: list[Path] = []
        else:
            shards = defaultdict(dict)
            for slug, paper in site.papers.items():
                shards[_shard(slug)][slug] = _record(paper)
            folder.mkdir(parents=True, exist_ok=True)
            stale = [path for path in folder.glob("*.json") if path.stem not in shards and path.name != STATE]
        # msgspec, not json.dumps: 256 shards of 10,000 records took 0.28 s, in a child beside the render
        texts = {prefix: msgspec.json.encode({"version": __version__, "papers": dict(sorted(records.items()))}
                                             ).decode("utf-8") for prefix, records in shards.items()}
        rewrite = {prefix: text for prefix, text in texts.items() if _text(folder / f"{prefix}.json") != text}
        if not rewrite and not stale and _saved_signature(folder) == signature:
            return
        (folder / STATE).unlink(missing_ok=True)
        for path in stale:
            path.unlink()
        for prefix, text in rewrite.items():
            write_atomic(folder / f"{prefix}.json", text, durable=False)
        write_atomic(folder / STATE, json.dumps({"version": __version__, "signature": signature}), durable=False)


def _updated_shards(folder: Path, site: model.Site, changed: Iterable[str]) -> dict[str, dict[str, Any]]:
    """The saved shards holding these slugs, with their records as the site now has them."""
    shards: dict[str, dict[str, Any]] = {}
    for slug in changed:
        prefix = _shard(slug)
        if prefix not in shards:
            raw = json.loads(_text(folder / f"{prefix}.json") or "{}")
            shards[prefix] = raw["papers"] if raw.get("version") == __version__ else {}
        paper = site.papers.get(slug)
        if paper is None:
            shards[prefix].pop(slug, None)
        else:
            shards[prefix][slug] = _record(paper)
    return shards


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def _saved_signature(folder: Path) -> str | None:
    """The signature the saved records hold under; None when there is none of this version."""
    try:
        raw = json.loads((folder / STATE).read_text(encoding="utf-8"))
        return raw["signature"] if raw.get("version") == __version__ else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _load_record(root: Path, slug: str) -> dict[str, Any] | None:
    """A paper's saved record (the caller has checked the records' signature)."""
    try:
        raw = json.loads((root / CACHE_DIR / RECORDS / f"{_shard(slug)}.json").read_text(encoding="utf-8"))
        if raw.get("version") != __version__:
            return None
        record = raw["papers"].get(slug)
        return record if isinstance(record, dict) else None
    except (OSError, ValueError, KeyError, AttributeError, TypeError):
        return None


def _refs(rows: list[list[str]]) -> tuple[model.Ref, ...]:
    return tuple(model.Ref(name, slug) for name, slug in rows)


def _paper(entry: Entry, record: dict[str, Any]) -> model.Paper:
    category = record["category"]
    return model.Paper(
        entry=entry, route=record["route"], authors=_refs(record["authors"]), tags=_refs(record["tags"]),
        category=model.Ref(category[0], category[1]) if category else None, cite_key=record["cite_key"],
        newer=record["newer"], older=record["older"], unlisted_authors=_refs(record["unlisted"]),
    )


def _partial_site(config: SiteConfig, papers: list[model.Paper]) -> model.Site:
    return model.Site(config=config, papers={p.slug: p for p in papers}, order=(), recent=(), authors=(),
                      tags=(), categories=(), years=())


@dataclass
class Patched:
    """Pages rewritten by a quick notes edit, with the rows the build state needs."""

    written: list[str]
    unchanged: list[str]
    outputs: dict[str, list[Any]]  # output path -> [digest, size, mtime_ns], as in build.json
    marks: dict[str, str]  # slug -> the edited paper's fingerprint (see fragments.fingerprint)


class _Neighbours:
    """Entries of other papers, read from the entry cache through the last build's table."""

    def __init__(self, root: Path, cache: EntryCache, entries: dict[str, list[Any]]):
        self.root, self.cache, self.entries = root, cache, entries

    def paper(self, slug: str | None) -> model.Paper | None:
        if slug is None:
            return None
        record = _load_record(self.root, slug)
        row = self.entries.get(record["path"]) if record else None
        entry = self.cache.get(row[0], record["path"], slug) if record and row else None
        if record is None or entry is None:
            raise LookupError(slug)
        return _paper(entry, record)


def patch(root: Path, output: Path, config: SiteConfig, changed: list[Path], saved_entries: dict[str, list[Any]],
          table: dict[str, list[Any]], signature: str, cache: EntryCache) -> Patched | None:
    """Rewrite the pages of entries whose notes alone changed; None when this cannot be done safely."""
    if not changed or len(changed) > MAX_FILES or _saved_signature(root / CACHE_DIR / RECORDS) != signature:
        return None  # the records were saved for another site, or half saved
    edits: list[tuple[Entry, Entry]] = []
    for file in changed:
        path = file.relative_to(root).as_posix()
        row = saved_entries.get(path)
        if row is None or not file.is_file():
            return None  # an entry added or removed changes listings
        old = cache.get(row[0], path, slug_of(file.stem))
        report = Report()
        new = load_entry(file, root, report, previous=old) if old else None
        if old is None or new is None or report.items or not _notes_only(old, new):
            return None
        edits.append((old, new))
    env = make_environment(root, config)
    renderer_assets = asset_hashes(static_files(root, config.theme))
    neighbours = _Neighbours(root, cache, saved_entries)
    pages: dict[str, bytes | bytearray] = {}
    marks: dict[str, str] = {}
    try:
        for old, new in edits:
            record = _load_record(root, old.slug)
            if record is None:
                return None
            before, after = _paper(old, record), _paper(new, record)
            around = [p for p in (neighbours.paper(record["newer"]), neighbours.paper(record["older"])) if p]
            spec = PageSpec(paper_page(old.slug), "paper", old.slug, "paper.html")
            on_disk = (output / spec.output).read_bytes()
            if Renderer(_partial_site(config, [before, *around]), env, root, renderer_assets).render(spec) != on_disk:
                return None  # the page shows more of the site than the record holds, or was edited by hand
            pages[spec.output] = Renderer(_partial_site(config, [after, *around]), env, root,
                                          renderer_assets).render(spec)
            marks[new.slug] = fingerprint(after)
            renderers = [Renderer(_partial_site(config, [p]), env, root, renderer_assets) for p in (before, after)]
            if not _swap_lists(output, pages, [paper_line(p, config) for p in (before, after)],
                               [r.feed_entry(p, True) for r, p in zip(renderers, (before, after), strict=True)],
                               config.absolute(before.route)):
                return None
    except (SitegenError, LookupError, OSError, ValueError, TypeError, AttributeError):
        return None  # any failure of the partial site means: take the ordinary path, which reports it
    written, unchanged, rows = [], [], {}
    staged = StagedFiles(durable=False, journal=journal_for(output))  # all pages or none, even if killed half-way
    try:
        for out, data in sorted(pages.items()):
            if (output / out).read_bytes() == data:
                unchanged.append(out)
            else:
                staged.add(output / out, data)
                written.append(out)
    except BaseException:
        staged.discard()
        raise
    staged.commit()
    for out in written:
        st = (output / out).stat()
        rows[out] = [output_digest(pages[out]), st.st_size, st.st_mtime_ns]
    for _, new in edits:
        cache.put(table[new.source_path][0], new)
    return Patched(written, unchanged, rows, marks)


def _swap_lists(output: Path, pages: dict[str, bytes | bytearray], lines: list[str], entries: list[str],
               url: str) -> bool:
    """Put a paper's new line into papers.json and its new entry into the full-text feeds that list it.

    `lines` and `entries` are the (old, new) line and entry; each old one must be in its file
    once, as the last build wrote it. False when it is not (a theme whose feed shows more of the
    site than the paper, a file edited by hand): the caller then takes the model-based path.
    """
    swaps = [("papers.json", *lines)]
    for name in (NOTES_FEEDS[kind] for kind in FULL_TEXT):
        if name in pages or (output / name).is_file():
            swaps.append((name, *entries))
    for name, old, new in swaps:
        data = pages.get(name) or (output / name).read_bytes()
        before, after = old.encode("utf-8"), new.encode("utf-8")
        count = data.count(before)
        if count == 0 and name != "papers.json" and url.encode("utf-8") not in data:
            continue  # a feed not listing the paper
        if count != 1:
            return False
        pages[name] = data.replace(before, after) if before != after else data
    return True


def _notes_only(old: Entry, new: Entry) -> bool:
    return old.slug == new.slug and same_front_matter(old, new)
