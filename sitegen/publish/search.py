"""Full-text search: Pagefind (the `pagefind-bin` wheel ships it) over records made from the model.

Each paper's record (`search_records`) is the searchable part of its page: title, authors, notes
and abstract, with tag, author, year, category, status and rating filters and a date sort. Pagefind
reads the records, not the built site: it used to parse all 18,000 pages of a 10,000-paper site for
the 10,000 that carry the text, in 2.3 GB. Its memory still grows by about 130 KB a paper, so the
records are cut into shards of `SHARD_SIZE` consecutive papers, oldest first, each its own Pagefind
bundle in `pagefind/s<N>/`, indexed two at a time; the search page searches them all
(`sitegen-search.json` lists them) and merges the results. A shard whose records did not change
since the last index is kept as it was, so an edit re-indexes one shard; which shards changed is
the engine's to say (pipeline/steps/search_shards.py), and a shard's records are made only when it
is indexed. Search is an optional step:
without a runnable binary the build says so and succeeds without it.

Beside the shards the bundle holds `sitegen-words.json`, the words of the indexed titles, most
frequent first: the search page suggests the nearest of them (or of the tags, which Pagefind's
filters already list) when a query finds nothing, offline.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import xxhash

from ..common.code_digest import code_digest
from ..common.fsutil import exchange
from . import pagefind_stable
from .search_records import Record

BUNDLE = "pagefind"
MANIFEST = "sitegen-search.json"
WORDS_FILE = "sitegen-words.json"
TITLES_FILE = "sitegen-titles.json"  # in each shard: in how many of its titles each word is, for the words file
# Papers a shard holds: Pagefind takes about 240 MB for 2,000, and two shards are indexed at once. Past
# MOST_SHARDS shards the size doubles (a search opens every shard); it changes only then, so an edit or a new
# paper still changes one shard. The preview indexes smaller shards, for an edit found sooner.
SHARD_SIZE = 2000
PREVIEW_SHARD_SIZE = 500
MOST_SHARDS = 32
PARALLEL = 2
TIMEOUT = 600  # seconds one Pagefind run may take
# Parts of a record that stay out of the full text (their filters and metadata are still read): tag chips would
# otherwise crowd every excerpt, and so would the "Abstract"/"Notes" headings. Tags remain searchable as a filter.
EXCLUDE_SELECTORS = (".paper .tags", ".paper .links", ".paper-authors .muted", ".paper section > h2")
# Pagefind's own interfaces, which the search page does not use: not copied into every shard of the site.
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
          "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js")
FRAGMENT_SIGNATURE = b"pagefind_dcd"  # what a decompressed Pagefind fragment starts with, before its JSON
# Letters and digits, hyphenated runs kept whole ("layer-parallel") and also split into their parts.
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
MIN_WORD = 3  # shorter words are never suggested (the search page does not search a lone 2-letter word)


@dataclass(frozen=True)
class SearchIndex:
    """The outcome of the indexing step."""

    ok: bool
    seconds: float = 0.0
    message: str = ""
    files: int = 0
    size: int = 0
    shards: int = 0
    indexed: int = 0  # shards Pagefind indexed this time (the others were kept)
    peak_kb: int = 0  # the largest peak memory of one Pagefind run


@dataclass(frozen=True)
class Shard:
    """Consecutive records indexed together: how many, the digest of what they say (`contents`), and the
    records themselves, or None until they are needed (the last bundle may hold a shard of these contents)."""

    name: str
    papers: int
    contents: str
    records: tuple[Record, ...] | None


def binary() -> Path | None:
    """The Pagefind executable: the wheel's copy, else one on PATH."""
    try:
        import pagefind_bin  # type: ignore[import-not-found]

        return Path(pagefind_bin.get_executable())  # pagefind, or pagefind.exe on Windows
    except (ImportError, OSError, AttributeError):
        pass
    found = shutil.which("pagefind")
    return Path(found) if found else None


def size_for(papers: int, smallest: int) -> int:
    """`smallest`, doubled until `papers` fit in MOST_SHARDS shards."""
    size = smallest
    while papers > size * MOST_SHARDS:
        size *= 2
    return size


def _format() -> str:
    """Part of each shard's digest and of the manifest: other code may index other things, so a new sitegen
    re-indexes every shard (see common.code_digest)."""
    return f"sitegen-search {code_digest()}"


def record_digest(record: Record) -> str:
    """What one record says, as a shard's contents count it."""
    return xxhash.xxh3_128_hexdigest(f"{record.path}\0{record.html}".encode())


def contents(record_digests: Iterable[str]) -> str:
    """The digest of a shard's records, in their order (the engine's `search_shard` step makes the same)."""
    return xxhash.xxh3_128_hexdigest("\0".join(record_digests).encode())


def _stamped(contents: str, exe: Path) -> str:
    """A shard's digest in the manifest: its contents, and the code and Pagefind that index them."""
    return hashlib.sha256(repr((_format(), exe.stat().st_size, EXCLUDE_SELECTORS, contents)).encode()).hexdigest()


def shards(records: Sequence[Record], smallest: int) -> list[Shard]:
    """`records` cut into shards of consecutive records, each with its contents' digest."""
    size = size_for(len(records), smallest)
    made = []
    for number, start in enumerate(range(0, len(records), size)):
        part = tuple(records[start:start + size])
        made.append(Shard(f"s{number}", len(part), contents(record_digest(r) for r in part), part))
    return made


def index(bundle: Path, records: Sequence[Record], previous: Path | None = None,
          shard_size: int | None = None) -> SearchIndex:
    """Write the search bundle for `records` into the new folder `bundle`, keeping the shards of the bundle
    `previous` whose records are unchanged; never raises for a missing or failing binary."""
    return index_shards(bundle, shards(records, shard_size or SHARD_SIZE), previous)


def index_shards(bundle: Path, made: Sequence[Shard], previous: Path | None = None,
                 make: Callable[[Shard], Sequence[Record]] | None = None) -> SearchIndex:
    """Write the search bundle of these shards into the new folder `bundle`, taking from the bundle `previous`
    those it holds; `make` gives the records of a shard given without them that must be indexed."""
    exe = binary()
    if exe is None:
        return SearchIndex(False, message="search index skipped: Pagefind is not installed "
                                          "(pip install 'pagefind[bin]')")
    started = time.perf_counter()
    digests = {shard.name: _stamped(shard.contents, exe) for shard in made}
    kept = _kept(previous) if previous is not None else {}
    bundle.mkdir(parents=True)
    sizes: dict[str, tuple[int, int]] = {}  # shard -> (files, bytes)
    fresh = []
    for shard in made:
        digest = digests[shard.name]
        if digest in kept and (size := _keep(*kept[digest], bundle / shard.name)) is not None:
            sizes[shard.name] = size
        elif shard.records is not None:
            fresh.append(shard)
        elif make is not None:
            fresh.append(Shard(shard.name, shard.papers, shard.contents, tuple(make(shard))))
        else:
            raise ValueError(f"shard {shard.name} is not in the last index and has no records to index")
    try:
        peak = _run_all(exe, bundle, fresh)
    except PagefindFailed as failed:
        shutil.rmtree(bundle, ignore_errors=True)
        return SearchIndex(False, message=f"search index skipped: {failed}")
    sizes.update((shard.name, _size(bundle / shard.name)) for shard in fresh)
    manifest = {"format": _format(), "shards": [{"path": f"{s.name}/", "papers": s.papers, "digest": digests[s.name],
                                              "files": sizes[s.name][0], "bytes": sizes[s.name][1]} for s in made]}
    (bundle / MANIFEST).write_text(json.dumps(manifest, separators=(",", ":")) + "\n", encoding="utf-8",
                                    newline="")
    write_words(bundle)
    extra = [bundle / MANIFEST, bundle / WORDS_FILE]
    return SearchIndex(True, time.perf_counter() - started, "", sum(f for f, _ in sizes.values()) + len(extra),
                       sum(b for _, b in sizes.values()) + sum(p.stat().st_size for p in extra),
                       len(made), len(fresh), peak)


def bundle_size(bundle: Path) -> tuple[int, int] | None:
    """(files, bytes) of a bundle as its manifest says, or None when there is none to read (no index)."""
    try:
        manifest = json.loads((bundle / MANIFEST).read_text(encoding="utf-8"))
        extra = [bundle / MANIFEST, bundle / WORDS_FILE]
        return (sum(int(e["files"]) for e in manifest["shards"]) + len(extra),
                sum(int(e["bytes"]) for e in manifest["shards"]) + sum(p.stat().st_size for p in extra))
    except (OSError, ValueError, LookupError, TypeError, AttributeError):
        return None


def _kept(previous: Path) -> dict[str, tuple[Path, tuple[int, int]]]:
    """The shards of a previous bundle by digest, with the files and bytes its manifest says they hold."""
    try:
        manifest = json.loads((previous / MANIFEST).read_text(encoding="utf-8"))
        if manifest.get("format") != _format():
            return {}
        return {entry["digest"]: (previous / entry["path"], (int(entry["files"]), int(entry["bytes"])))
                for entry in manifest["shards"]}
    except (OSError, ValueError, LookupError, TypeError, AttributeError):
        return {}


def _size(folder: Path) -> tuple[int, int]:
    """How many files a shard holds, and their bytes."""
    files = size = 0
    for top, _, names in os.walk(folder):
        for name in names:
            files += 1
            size += os.stat(os.path.join(top, name)).st_size
    return files, size


def _keep(source: Path, expected: tuple[int, int], target: Path) -> tuple[int, int] | None:
    """A shard of the previous bundle taken over, hard-linked where the file system allows, and its files and
    bytes; None if it is not there as the manifest says (it lost or changed a file): it is then indexed again."""
    seen = [0, 0]

    def link(src: str, dst: str) -> None:
        seen[0] += 1
        seen[1] += os.stat(src).st_size
        try:
            os.link(src, dst)
        except OSError:
            shutil.copy2(src, dst)

    try:
        shutil.copytree(source, target, copy_function=link)
    except (OSError, shutil.Error):
        seen = [-1, -1]
    if tuple(seen) != expected:
        shutil.rmtree(target, ignore_errors=True)
        return None
    return expected


class PagefindFailed(Exception):
    """A Pagefind run that could not start, failed or ran out of time."""


def _run_all(exe: Path, bundle: Path, fresh: list[Shard]) -> int:
    """Index the shards that changed, `PARALLEL` at a time; the largest peak memory of one run, in KB."""
    if not fresh:
        return 0
    env = dict(os.environ)
    if len(fresh) > 1:
        env["RAYON_NUM_THREADS"] = "1"  # one thread each: the runs side by side use the cores
    with (tempfile.TemporaryDirectory(prefix="sitegen-search-") as work,
          ThreadPoolExecutor(max_workers=min(PARALLEL, len(fresh))) as pool):
        peaks = list(pool.map(lambda shard: _run(exe, Path(work), bundle, shard, env), fresh))
    return max(peaks)


def _run(exe: Path, work: Path, bundle: Path, shard: Shard, env: dict[str, str]) -> int:
    """Write one shard's records and index them into `bundle/<shard>/`; Pagefind's peak memory in KB."""
    site = work / shard.name
    for record in shard.records or ():
        target = site / record.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(record.html, encoding="utf-8", newline="")
    output = bundle / shard.name
    excludes = [arg for selector in EXCLUDE_SELECTORS for arg in ("--exclude-selectors", selector)]
    log = work / f"{shard.name}.log"
    try:
        with log.open("wb") as err:
            proc = subprocess.Popen([str(exe), "--site", str(site), "--output-path", str(output), *excludes,
                                     "--silent"], stdin=subprocess.DEVNULL, stdout=err, stderr=err, env=env)
    except OSError as exc:
        raise PagefindFailed(f"Pagefind could not run here ({exc})") from None
    timer = threading.Timer(TIMEOUT, proc.kill)
    timer.start()
    try:
        peak = _wait(proc)
    finally:
        timer.cancel()
    if proc.returncode != 0:
        detail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-1:] or ["no output"]
        raise PagefindFailed(f"Pagefind failed ({detail[0]})")
    shutil.rmtree(site)
    pagefind_stable.stabilize(output)
    for name in UNUSED:
        (output / name).unlink(missing_ok=True)
    titles = [title for path in sorted(output.glob("fragment/*.pf_fragment"))
              if (title := _fragment_title(path)) is not None]
    counts = title_counts(titles)
    text = json.dumps(dict(sorted(counts.items())), ensure_ascii=False, separators=(",", ":"))
    (output / TITLES_FILE).write_text(text + "\n", encoding="utf-8", newline="")
    return peak


def _wait(proc: subprocess.Popen[bytes]) -> int:
    """Wait for Pagefind; its peak memory in KB (0 where the system does not say it: Windows has no wait4)."""
    if not hasattr(os, "wait4"):
        proc.wait()
        return 0
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return int(usage.ru_maxrss)


def title_counts(titles: list[str]) -> Counter[str]:
    """The distinct lower-case words of `titles` and in how many titles each appears."""
    counts: Counter[str] = Counter()
    for title in titles:
        found: set[str] = set()
        for run in _WORD.findall(title.lower()):
            found.add(run)
            found.update(run.split("-"))
        counts.update(word for word in found if len(word) >= MIN_WORD)
    return counts


def title_words(counts: Counter[str]) -> list[str]:
    """The words, in how many titles each appears (most first), then A to Z."""
    return sorted(counts, key=lambda word: (-counts[word], word))


def _fragment_title(path: Path) -> str | None:
    """The title in one Pagefind page record; None where the record is not in the format this was written for."""
    try:
        raw = gzip.decompress(path.read_bytes())
        if not raw.startswith(FRAGMENT_SIGNATURE):
            return None
        title = json.loads(raw[len(FRAGMENT_SIGNATURE):]).get("meta", {}).get("title")
    except (OSError, EOFError, zlib.error, ValueError, AttributeError):
        return None
    return title if isinstance(title, str) else None


def fragment_paths(bundle: Path) -> list[Path]:
    """Every page record of every shard, in a fixed order."""
    return sorted(bundle.glob("s*/fragment/*.pf_fragment"))


def write_words(bundle: Path) -> None:
    """Write the bundle's title words from each shard's counts, read from the page records Pagefind wrote
    (tests pin the format): a kept shard's counts are not made again."""
    counts: Counter[str] = Counter()
    for path in sorted(bundle.glob(f"s*/{TITLES_FILE}")):
        counts.update(json.loads(path.read_text(encoding="utf-8")))
    text = json.dumps({"words": title_words(counts)}, ensure_ascii=False, separators=(",", ":"))
    (bundle / WORDS_FILE).write_text(text + "\n", encoding="utf-8", newline="")


def refresh(site_dir: Path, made: Sequence[Shard], make: Callable[[Shard], Sequence[Record]] | None = None
            ) -> SearchIndex:
    """Bring the index of a built or served site up to date: build beside it, keeping the shards that did
    not change (`make` gives the records of the others, see `index_shards`), then swap it in."""
    fresh = site_dir / f".{BUNDLE}-new"
    shutil.rmtree(fresh, ignore_errors=True)
    current = site_dir / BUNDLE
    result = index_shards(fresh, made, current if current.is_dir() else None, make)
    if not result.ok:
        shutil.rmtree(fresh, ignore_errors=True)
        return result
    if current.is_dir() and exchange(fresh, current):  # never a moment without an index
        shutil.rmtree(fresh, ignore_errors=True)
        return result
    old = site_dir / f".{BUNDLE}-old"
    shutil.rmtree(old, ignore_errors=True)
    if current.exists():
        current.rename(old)
    fresh.rename(current)
    shutil.rmtree(old, ignore_errors=True)
    return result
