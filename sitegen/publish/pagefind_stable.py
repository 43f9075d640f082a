"""The same bytes for the same index: Pagefind's filter files put in one order.

Pagefind 1.5 writes the values of each filter (every author, tag, year) in the order of a Rust hash
map, which changes from run to run, so two builds of the same site gave filter files of other bytes
and other names, a new metadata file naming them and a new `pagefind-entry.json`: every deploy
committed churn (Pagefind/pagefind#638 made the page fragments stable in 1.3; the filters are not).
The browser reads a filter file into a map, so the order is free: here each file's values are
sorted, the file named by a digest of its bytes, the sorts listed by name, and the metadata and entry
files rewritten to name them. The files are gzip over `pagefind_dcd` and CBOR; anything not in that
form is left as it is (the bundle still works, only not byte-stable) and `stabilize` says so by
returning False.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cbor2

SIGNATURE = b"pagefind_dcd"
ENTRY = "pagefind-entry.json"
FILTERS_AT = 3  # the metadata: [version, pages, word chunks, filters [[name, file]], sorts, metadata fields]
SORTS_AT = 4  # [[name, page numbers in order]]: in hash-map order too, once a site sorts by more than the date


def _read(path: Path) -> Any:
    raw = gzip.decompress(path.read_bytes())
    if not raw.startswith(SIGNATURE):
        raise ValueError(f"{path.name}: not a Pagefind data file")
    return cbor2.loads(raw[len(SIGNATURE):])


def _write(prefix: str, value: Any, digits: int, place: Callable[[str], Path]) -> str:
    """Write `value` as Pagefind does, named by the digest of its content (`place` puts a name in its folder)."""
    data = SIGNATURE + cbor2.dumps(value)
    name = f"{prefix}{hashlib.sha256(data).hexdigest()[:digits]}"
    place(name).write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    return name


def stabilize(bundle: Path) -> bool:
    """Sort the filter values of every language in one Pagefind bundle and rename what that changes."""
    try:
        entry = json.loads((bundle / ENTRY).read_text(encoding="utf-8"))
        for language in entry["languages"].values():
            language["hash"] = _language(bundle, language["hash"])
        (bundle / ENTRY).write_text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")), encoding="utf-8",
                                 newline="")
    except (OSError, EOFError, zlib.error, ValueError, LookupError, TypeError, cbor2.CBORError):
        return False
    return True


def _language(bundle: Path, meta_hash: str) -> str:
    """One language's metadata and filters made stable; the metadata file's new hash. Everything is read
    before anything is written, so a file not in the expected form leaves the bundle as it was."""
    meta_path = bundle / f"pagefind.{meta_hash}.pf_meta"
    meta = _read(meta_path)
    prefix = meta_hash.rsplit("_", 1)[0] + "_"
    read = [(name, bundle / "filter" / f"{file_hash}.pf_filter") for name, file_hash in meta[FILTERS_AT]]
    contents = [(name, path, _read(path)) for name, path in sorted(read)]
    filters = []
    for name, path, (key, values) in contents:
        path.unlink()
        filters.append([name, _write(prefix, [key, sorted(values)], 7,
                                     lambda n: bundle / "filter" / f"{n}.pf_filter")])
    meta[FILTERS_AT] = filters
    meta[SORTS_AT] = sorted(meta[SORTS_AT], key=lambda sort: str(sort[0]))
    meta_path.unlink()
    return _write(prefix, meta, 10, lambda n: bundle / f"pagefind.{n}.pf_meta")
