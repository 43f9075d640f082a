"""Per-paper fragments of the whole-list files, kept on disk between build processes.

A front-matter edit re-renders the files that show every paper: the reading lists
(BibTeX, RIS, CSL-JSON) and `papers.json`. A new `sitegen build`
process would render 10,000 BibTeX entries, RIS records and JSON lines from
nothing to rewrite them. With these stores it joins saved fragments and renders only the
papers that changed.

A store is written by whichever renderer (a worker process, in a parallel build) renders
its whole-list file, since that renderer holds a fragment of every paper at that moment.
Two checks keep a fragment honest: the store is stamped with the build's inputs (sitegen
version, settings, templates, assets), and each fragment with its paper's fingerprint
(the entry file's digest, route, links and cite key). Anything that does not match is
rendered again. Fragments as UTF-8 text with a JSON index, never pickle; a store that
cannot be read or written only makes the next edit slower.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from dataclasses import dataclass
from functools import cached_property, partial
from itertools import accumulate, compress, count
from operator import ne
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from ..common import digest
from ..common.fsutil import write_all, write_atomic
from ..common.lazy import LazyDict
from ..model.model import Paper

FOLDER = "fragments"
SUFFIX = ".store"

# spec kind of a whole-list file -> the renderer cache it joins (see Renderer.caches)
WHOLE_LIST = {"reading-list-bib": "bib", "reading-list-ris": "ris", "reading-list-json": "csl",
              "papers-json": "records"}
OUTPUT_OF = {"bib": "reading-list.bib", "ris": "reading-list.ris", "csl": "reading-list.json",
             "records": "papers.json"}
LAYOUT = ".layout"  # where each paper's piece sits in a whole-list output file (see FragmentStores.save_layout)
# the stores only those files use
WHOLE_LIST_ONLY = frozenset({"csl", "records"})
# ... and of files that join many papers' fragments of a store (loaded for them, saved only by the above)
MANY = WHOLE_LIST | {"author-bib": "bib", "tag-bib": "bib"}
# the stores other files read as text (the rest are only joined, as bytes)
READ_AS_TEXT = frozenset(store for kind, store in MANY.items() if kind not in WHOLE_LIST)


DIGEST_SIZE = digest.SIZE  # bytes of a piece's digest
MANY_MOVED = 64  # papers out of their place in a whole-list file beyond which each is looked up (FilePieces.moved)


def piece_digest(data: bytes | memoryview) -> bytes:
    """A piece's digest, from which its whole-list file's identity is made (see `identity`)."""
    return digest.raw(data)


def identity(frame: tuple[bytes, bytes, bytes], sums: bytes | bytearray) -> str:
    """What the outputs table remembers a whole-list file by: its prefix, separator and suffix
    (`frame`) and its pieces' digests, not the digest of its bytes.

    Equal pieces in the same frame give the same identity, and so an unchanged file is not
    written again. Hashing the four files of a front-matter edit at 10,000 papers meant
    reading their 88 MB back from the last build's files, 160 ms of the edit; the last
    build's pieces' digests come with its layout instead (see FragmentStores.save_layout).
    `sums` holds the digests back to back.
    """
    made = digest.Hasher()
    for part in frame:
        made.update(b"%d\x1f" % len(part))
        made.update(part)
    made.update(sums)
    return made.hexdigest()


def fingerprint(paper: Paper) -> str:
    """What a paper's fragments follow from besides settings and templates: its file, route, links and cite key."""
    refs = ["\x1d".join(f"{r.name}\x1e{r.slug}" for r in group)
            for group in (paper.authors, paper.unlisted_authors, paper.tags)]
    category = f"{paper.category.name}\x1e{paper.category.slug}" if paper.category else ""
    text = "\x1f".join((paper.entry.digest, paper.route, paper.cite_key, category, *refs))
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]


class FingerprintedPapers(LazyDict[str, Paper]):
    """Papers made when first read, whose fingerprints were saved with them (see model_cache.SavedPapers).

    An edit's pages show thousands of list items stored by the last full build; each is
    used while its paper's fingerprint is the one it was saved with, and making every
    one of those papers to work out its fingerprint was a third of rendering the pages.
    """

    marks: dict[str, str]  # slug -> fingerprint of the paper as saved

    def saved_mark(self, slug: str) -> str | None:
        """The paper's fingerprint while it is the paper as saved (neither made nor set here), else None."""
        return None if slug in self._made else self.marks.get(slug)


@dataclass
class Previous:
    """The output folder as the last build left it, for pieces of its whole-list files.

    `digests`: each output file's digest as the build state remembers it (the output is
    checked against that state before anything is written); `stale`: the papers whose
    pieces may have changed since, which are rendered again.
    """

    folder: Path
    digests: Mapping[str, str]
    stale: set[str]


class FragmentStores:
    """The stores in one folder, for one set of build inputs (`stamp`)."""

    def __init__(self, folder: Path, stamp: str, layouts: bool = True):
        """`layouts=False`: no one will read a whole-list file's layout (the preview's scratch stores)."""
        self.folder = folder
        self.stamp = stamp
        self.layouts = layouts
        self.reused: dict[str, int | None] = {}  # store name -> fragments taken from disk (None: no store)
        self._marks: dict[str, tuple[Paper, str]] = {}  # slug -> (paper, fingerprint): once per paper, not per store
        self.previous: Previous | None = None
        self._items: ItemStore | None = None

    def items(self) -> ItemStore:
        """The item stores of the last full build."""
        if self._items is None:
            self._items = ItemStore(self)
        return self._items

    def save_items(self, index: int, items: Mapping[tuple[str, str, int], str], papers: Mapping[str, Paper]) -> None:
        """Save a render process's list items and feed entries, a store per variant (see ItemStore)."""
        if not self.layouts:  # the preview keeps its items in memory
            return
        variants: dict[str, list[tuple[str, str, int]]] = {}
        for key in items:
            if key[0] in papers:
                variants.setdefault(item_variant(key), []).append(key)
        for variant, keys in variants.items():
            path = self.folder / f"{ITEMS}-{index}-{variant}{SUFFIX}"
            tmp = self.folder / f".{path.name}.{os.getpid()}.tmp"
            # encoded as they are written: 50 MB of items at 10,000 papers, held at once, set the build's peak memory
            rows = ((key[0], self.mark(papers[key[0]]), items[key].encode("utf-8")) for key in keys)
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                write_store(tmp, self.stamp, rows)
                os.replace(tmp, path)
            except OSError:  # only the next edit is slower
                tmp.unlink(missing_ok=True)

    def clear_items(self) -> None:
        """Remove the item stores, and any a render process did not finish: a full build saves its own."""
        with contextlib.suppress(OSError):
            for path in [*self.folder.glob(f"{ITEMS}-*{SUFFIX}"), *self.folder.glob(f".{ITEMS}-*.tmp")]:
                path.unlink(missing_ok=True)

    def close(self) -> None:
        if self._items is not None:
            self._items.close()
            self._items = None

    def mark(self, paper: Paper) -> str:
        """The paper's fingerprint (see `fingerprint`), worked out once per Paper object."""
        known = self._marks.get(paper.slug)
        if known is not None and known[0] is paper:  # the preview swaps in new Paper objects after an edit
            return known[1]
        mark = fingerprint(paper)
        self._marks[paper.slug] = (paper, mark)
        return mark

    def mark_of(self, slug: str, papers: Mapping[str, Paper]) -> str:
        """The fingerprint of `papers[slug]`, without making a paper whose fingerprint was saved with it."""
        if isinstance(papers, FingerprintedPapers) and (saved := papers.saved_mark(slug)) is not None:
            return saved
        return self.mark(papers[slug])

    def load(self, name: str, papers: Mapping[str, Paper]) -> dict[str, bytes] | FilePieces:
        """The fragments (UTF-8) of papers unchanged since they were saved.

        From the whole-list output file itself when its layout is known and `previous`
        names what changed since it was written (as FilePieces); else from the store, each
        fragment checked against its paper's fingerprint.
        """
        pieces_ = self._from_output(name)
        if pieces_ is not None:
            self.reused[name] = len(pieces_)
            return pieces_
        self.reused[name] = None  # no usable store: the whole-list file's renderer saves one
        found: dict[str, bytes] = {}
        try:
            stamp, rows = read_store(self._path(name))
            if stamp != self.stamp:
                return {}
            for slug, mark, piece in rows:
                if slug in papers and self.mark_of(slug, papers) == mark:
                    found[slug] = piece()
        except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
            return {}
        self.reused[name] = len(found)
        return found

    def worth_saving(self, name: str, held: int) -> bool:
        """Rewrite a store unless nearly all of it came from disk (one edit should not rewrite megabytes)."""
        reused = self.reused.get(name)
        return reused is None or held - reused > max(20, held // 100)

    def _from_output(self, name: str) -> FilePieces | None:
        previous, output = self.previous, OUTPUT_OF.get(name)
        if previous is None or output is None:
            return None
        try:
            layout = msgspec.json.decode((self.folder / f"{name}{LAYOUT}").read_bytes())  # 10,000 slugs: 3x json
            if layout.get("stamp") != self.stamp or layout.get("digest") != previous.digests.get(output):
                return None
            handle = open(previous.folder / output, "rb")  # noqa: SIM115  (read from as the file is joined again)
            found = None
            try:
                if os.fstat(handle.fileno()).st_size == layout["size"]:
                    found = FilePieces(handle, layout["size"], layout["head"], layout["gap"], layout["slugs"],
                                       layout["lengths"], bytes.fromhex(layout["digests"]), previous.stale)
            finally:
                if found is None:  # else the renderer closes it once the update has rendered
                    handle.close()
            return found
        except (OSError, ValueError, KeyError, TypeError, AttributeError):  # msgspec's DecodeError is a ValueError
            return None

    def save_layout(self, name: str, slugs: Iterable[str], lengths: list[int], sums: bytes | bytearray,
                    frame: tuple[bytes, bytes, bytes], size: int, digest: str) -> None:
        """Remember where each paper's piece sits in the whole-list file just joined.

        `lengths` and `sums`: each piece's length, and digest (back to back), in the order of `slugs`; `frame`:
        the bytes before the first piece, between two and after the last; `size` and `digest`:
        the file's length and identity, as the outputs table will hold it. The next
        build process then takes the unchanged papers' pieces from the file it finds in
        the output, where loading the store meant checking 10,000 fingerprints.
        """
        if not self.layouts:
            return
        layout = {"stamp": self.stamp, "digest": digest, "size": size, "head": len(frame[0]), "gap": len(frame[1]),
                  "slugs": list(slugs), "lengths": lengths, "digests": sums.hex()}
        with contextlib.suppress(OSError):  # only the next edit is slower
            write_atomic(self.folder / f"{name}{LAYOUT}", msgspec.json.encode(layout), durable=False)

    def _path(self, name: str) -> Path:
        return self.folder / f"{name}{SUFFIX}"

    def tried(self, name: str) -> bool:
        """Whether this process has looked for the store (or saved it) already."""
        return name in self.reused

    def save(self, name: str, fragments: Iterable[tuple[str, bytes | memoryview]], papers: Mapping[str, Paper]) -> None:
        """Write a store of these (slug, UTF-8 text) pairs, each marked with its paper's fingerprint."""
        rows = ((slug, self.mark(paper), data) for slug, data in fragments if (paper := papers.get(slug)) is not None)
        tmp = self.folder / f".{name}.{os.getpid()}.tmp"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            count = write_store(tmp, self.stamp, rows)
            os.replace(tmp, self._path(name))
            for legacy in self.folder.glob("*.json"):  # stores of older versions, one JSON row a piece
                legacy.unlink(missing_ok=True)
        except OSError:  # only the next edit is slower
            tmp.unlink(missing_ok=True)
            return
        self.reused[name] = count


class FilePieces:
    """The pieces of the last build's whole-list file, where its layout says they sit.

    Papers are found by their place in that file, and a run of papers that follow each other
    there as they do now is read as one span, separators and all: at 10,000 papers a view
    per piece cost more than the join. Spans are read, not mapped: a mapped file's pages
    count in the process's resident memory, 88 MB for the four files of a title edit.
    Papers in `stale` (edited, or moved by an edit) are left out.
    """

    def __init__(self, handle: BinaryIO, size: int, head: int, gap: int, slugs: list[str], lengths: list[int],
                 sums: bytes, stale: set[str]):
        if len(slugs) != len(lengths) or head + sum(lengths) + gap * max(len(lengths) - 1, 0) > size \
                or len(sums) != DIGEST_SIZE * len(slugs):
            raise ValueError("the layout does not fit the file")
        self.handle, self.gap, self.lengths = handle, gap, lengths  # open until the update has rendered
        self.sums = sums  # each piece's digest, back to back
        self.slugs, self.stale = slugs, stale
        self.path = Path(handle.name)
        self.starts = list(accumulate((length + gap for length in lengths[:-1]), initial=head))

    @cached_property
    def place(self) -> dict[str, int]:
        """Slug -> place in the file, but for stale papers (made when first asked: `moved` seldom needs it)."""
        stale = self.stale
        return {slug: i for i, slug in enumerate(self.slugs) if slug not in stale}

    def __len__(self) -> int:
        return len(self.place)

    def moved(self, order: tuple[str, ...], fresh: Set[str]) -> list[int] | None:
        """The places in `order` whose piece is not the file's piece at that place: a different
        paper's, a stale one's or one in `fresh`; None when the file holds another number of
        papers or many places differ (then each paper is looked up by its place).

        A front-matter edit changes a piece or two of 10,000 and may move a paper among those
        of its date; comparing the orders in C beats looking each paper up (16 ms a file).
        """
        slugs = self.slugs
        if len(order) != len(slugs) or len(fresh) + len(self.stale) > MANY_MOVED:
            return None
        places = list(compress(count(), map(ne, order, slugs)))
        if len(places) > MANY_MOVED:
            return None
        differ = set(places)
        for slug in self.stale | fresh:
            try:
                at = order.index(slug)
            except ValueError:
                continue
            differ.add(at)
        return sorted(differ)

    def size(self, first: int, last: int) -> int:
        """The length of the span from place `first` to place `last`, separators included."""
        return self.starts[last] + self.lengths[last] - self.starts[first]

    def where(self, first: int, last: int) -> tuple[int, int]:
        """That span as (offset, length) in the file."""
        return self.starts[first], self.size(first, last)

    def span(self, first: int, last: int) -> bytes:
        """The pieces from place `first` to place `last`, and the separators between them."""
        size = self.size(first, last)
        data = os.pread(self.handle.fileno(), size, self.starts[first])
        if len(data) != size:
            raise OSError(f"{self.handle.name}: cut short since its layout was saved")
        return data

    def read_into(self, view: memoryview, first: int, last: int) -> None:
        """Read that span into `view`, which is its size: no bytes object in between."""
        _read_exactly(self.handle, view, self.starts[first])

    def digest(self, at: int) -> bytes:
        """The digest of the piece at place `at` (see `piece_digest`), as its layout holds it."""
        return self.sums[at * DIGEST_SIZE:(at + 1) * DIGEST_SIZE]

    def get(self, slug: str) -> bytes | None:
        i = self.place.get(slug)
        return None if i is None else self.span(i, i)

    def held_at(self, slug: str) -> int | None:
        """A paper's place in the file, None if stale or not there (without making `place` for one paper)."""
        if "place" in self.__dict__:
            return self.place.get(slug)
        if slug in self.stale:
            return None
        try:
            return self.slugs.index(slug)
        except ValueError:
            return None

    def close(self) -> None:
        self.handle.close()


class Spliced:
    """A whole-list file to write: spans of the last build's file with new bytes between them.

    The kernel copies the spans from file to file (`os.copy_file_range`) when the file is
    written, so the 22 MB of each of a front-matter edit's four whole-list files at 10,000
    papers are never held in this process: in a buffer their fresh pages cost more than
    the join, and stood in the edit's peak memory. A part is bytes or a span,
    (offset, length) in `source`.
    """

    def __init__(self, source: Path, parts: list[bytes | tuple[int, int]]):
        self.source, self.parts = source, parts
        self.size = sum(len(part) if isinstance(part, bytes) else part[1] for part in parts)

    def __len__(self) -> int:
        return self.size

    def write_to(self, fd: int) -> None:
        """Write the file at `fd`'s position: spans copied in the kernel, or through a buffer where it cannot."""
        with open(self.source, "rb") as handle:
            for part in self.parts:
                if isinstance(part, bytes):
                    write_all(fd, part)
                else:
                    _copy_span(handle, fd, *part)

    def __bytes__(self) -> bytes:
        with open(self.source, "rb") as handle:
            return b"".join(part if isinstance(part, bytes) else os.pread(handle.fileno(), part[1], part[0])
                            for part in self.parts)


_CHUNK = 1 << 20


def _chunked(offset: int, length: int) -> Iterator[tuple[int, int]]:
    end = offset + length
    while offset < end:
        yield offset, min(_CHUNK, end - offset)
        offset += _CHUNK


def _read_exactly(source: BinaryIO, view: memoryview, offset: int) -> None:
    if os.preadv(source.fileno(), [view], offset) != len(view):
        raise OSError(f"{source.name}: cut short since its layout was saved")


def _copy_span(source: BinaryIO, fd: int, offset: int, length: int) -> None:
    end = offset + length
    try:
        while offset < end:
            copied = os.copy_file_range(source.fileno(), fd, end - offset, offset)
            if copied == 0:
                raise OSError(f"{source.name}: cut short since its layout was saved")
            offset += copied
    except OSError as exc:  # another file system, or none that can: copy through a buffer
        if exc.errno not in (errno.EXDEV, errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
            raise
        buffer = bytearray(_CHUNK)
        for start, size in _chunked(offset, end - offset):
            with memoryview(buffer)[:size] as view:
                _read_exactly(source, view, start)
                write_all(fd, view)


ITEMS = "items"  # list items and feed entries: items-<render process>-<variant>.store


def item_variant(key: tuple[str, str, int]) -> str:
    """The store a renderer's list item (slug, link root or "feed", heading level or full text) goes to.

    One store per link root and heading level (and for full and short feed entries): an edit's
    pages read the indexes of the variants they show, 10,000 rows each at 10,000 papers.
    """
    return hashlib.sha1(f"{key[1]}\x1f{key[2]}".encode()).hexdigest()[:10]


class ItemStore:
    """The list items and feed entries the last full build rendered, read when asked for.

    A front-matter edit at 10,000 papers renders the pages of the edited paper's authors,
    tags and year in a new process: 3,700 list items, half of that render, which the last
    full build already rendered. A variant's indexes are read when one of its items is
    first asked for, an item when asked for, and it is used only while its paper's
    fingerprint is the one it was saved with.
    """

    def __init__(self, stores: FragmentStores):
        self._stores = stores
        # variant -> slug -> (fingerprint, file, offset, length)
        self._variants: dict[str, dict[str, tuple[str, BinaryIO, int, int]]] = {}
        self._files: list[BinaryIO] = []

    def get(self, key: tuple[str, str, int], papers: Mapping[str, Paper]) -> str | None:
        """The stored item of `key`, if it was saved for the paper `papers` holds now."""
        variant = item_variant(key)
        rows = self._variants.get(variant)
        if rows is None:
            rows = self._variants[variant] = self._read(variant)
        row = rows.get(key[0])
        if row is None or self._stores.mark_of(key[0], papers) != row[0]:
            return None
        _, handle, offset, length = row
        data = os.pread(handle.fileno(), length, offset)
        return str(data, "utf-8") if len(data) == length else None

    def _read(self, variant: str) -> dict[str, tuple[str, BinaryIO, int, int]]:
        rows: dict[str, tuple[str, BinaryIO, int, int]] = {}
        for path in sorted(self._stores.folder.glob(f"{ITEMS}-*-{variant}{SUFFIX}")):
            try:
                handle = open(path, "rb")  # noqa: SIM115  (read from until the render is done)
            except OSError:
                continue
            try:
                stamp, index = read_index(handle)
            except (OSError, ValueError, KeyError, TypeError, IndexError):
                stamp, index = "", []
            if stamp != self._stores.stamp:
                handle.close()
                continue
            self._files.append(handle)
            for slug, mark, offset, length in index:
                rows[slug] = (mark, handle, offset, length)
        return rows

    def close(self) -> None:
        for handle in self._files:
            handle.close()
        self._files.clear()
        self._variants.clear()


def pieces(view: memoryview, head: int, gap: int, lengths: list[int]) -> Iterator[memoryview]:
    """The pieces of a joined whole-list file, as views: `head` bytes before the first, `gap` between each."""
    start = head
    for length in lengths:
        yield view[start:start + length]
        start += length + gap


def write_store(path: Path, stamp: str, rows: Iterable[tuple[str, str, bytes | memoryview]]) -> int:
    """Write a store: every fragment's UTF-8 bytes back to back, then an index, then where the index starts.

    The index is one JSON line, {"stamp": ..., "rows": [[slug, fingerprint, byte length], ...]},
    and the last line is its byte offset. Fragments are written as they come (a store is never
    built whole in memory), and reading one takes a slice and a decode, where a JSON row per
    fragment took 0.6 s of parsing at 10,000 papers.
    """
    index: list[list[Any]] = []
    offset = 0
    with open(path, "wb") as handle:
        for slug, mark, data in rows:
            handle.write(data)
            index.append([slug, mark, len(data)])
            offset += len(data)
        handle.write(json.dumps({"stamp": stamp, "rows": index}, ensure_ascii=False, separators=(",", ":"))
                     .encode("utf-8"))
        handle.write(b"\n%d\n" % offset)
    return len(index)


def read_index(handle: BinaryIO) -> tuple[str, list[tuple[str, str, int, int]]]:
    """A store's stamp and where each fragment sits: (name, fingerprint, offset, length), without reading them."""
    size = os.fstat(handle.fileno()).st_size
    tail = os.pread(handle.fileno(), min(size, 32), max(0, size - 32))
    last = tail.rindex(b"\n", 0, len(tail) - 1)
    start = int(tail[last + 1:])
    head = _INDEX.decode(os.pread(handle.fileno(), size - len(tail) + last - start, start))
    rows: list[tuple[str, str, int, int]] = []
    offset = 0
    for name, mark, length in head.rows:
        rows.append((name, mark, offset, length))
        offset += length
    if offset != start:
        raise ValueError(f"{handle.name}: the index does not match the fragments")
    return head.stamp, rows


class _Index(msgspec.Struct):
    stamp: str
    rows: list[tuple[str, str, int]]


_INDEX = msgspec.json.Decoder(_Index)


def read_store(path: Path) -> tuple[str, list[tuple[str, str, Callable[[], bytes]]]]:
    """A store's stamp and its rows (slug, fingerprint, the fragment's bytes when called); ValueError if damaged."""
    with open(path, "rb") as handle:
        stamp, index = read_index(handle)
        data = handle.read()
    return stamp, [(slug, mark, partial(_piece, data, offset, offset + length)) for slug, mark, offset, length in index]


def _piece(data: bytes, start: int, end: int) -> bytes:
    return data[start:end]


def stamp(inputs: dict[str, Any]) -> str:
    """A digest of a build's inputs (see buildstate.input_fingerprint)."""
    return hashlib.sha256(json.dumps(inputs, sort_keys=True, default=str).encode("utf-8")).hexdigest()
