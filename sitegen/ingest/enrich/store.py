"""The raw answers of past lookups, kept inside the site so a later run reads instead of asking.

One small JSON file per lookup at `content/lookups/<source>/<key>.json`, where the key is
the first 16 hex digits of the SHA-256 of the URL (and of the body, for a POST). The files
are plain and reviewable in a diff: what a source said, and when. Of an answer, only what
the parsers read is kept, in the source's own format (kept.py): the folder is committed
with the site, and most of a Hugging Face answer is never read. Files kept whole by older
versions read as before. Only answers are kept (200, and 404 "no such paper"); a throttled or failing
source is asked again next time. Deleting the folder only means asking again.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from pathlib import Path

from sitegen.common.fsutil import NotAFile, read_regular, write_atomic
from sitegen.ingest.enrich.answers import EnrichError, Response
from sitegen.ingest.enrich.kept import kept

LOOKUPS = Path("content") / "lookups"


class StoreError(EnrichError):
    """A stored answer that cannot be read back: damaged, hand-edited, or not for the URL it is filed under."""

    code = "E1003"
    hint = "delete the file to look the paper up again"

    def __init__(self, path: Path, message: str):
        super().__init__(message)
        self.path = path


def key(url: str, data: bytes | None = None) -> str:
    """The file name stem of a lookup: a POST's body is part of what was asked, so part of the key."""
    digest = hashlib.sha256(url.encode())
    if data is not None:
        digest.update(b"\n")
        digest.update(data)
    return digest.hexdigest()[:16]


class Store:
    """Stored lookups under `root` (a site's `content/lookups`), one folder per source."""

    def __init__(self, root: Path):
        self.root = root

    @classmethod
    def for_site(cls, site: Path) -> Store:
        """The store of the site at `site`."""
        return cls(site / LOOKUPS)

    def path(self, source: str, url: str, data: bytes | None = None) -> Path:
        """Where the answer to this lookup is kept."""
        return self.root / source / f"{key(url, data)}.json"

    def load(self, source: str, url: str, data: bytes | None = None) -> Response | None:
        """The stored answer to this lookup, None when there is none; StoreError when it is unreadable."""
        path = self.path(source, url, data)
        try:
            raw, _ = read_regular(path)
        except FileNotFoundError:
            return None
        except (NotAFile, OSError) as exc:
            raise StoreError(path, f"the stored lookup cannot be read: {exc.strerror or exc}") from None
        return _decode(path, raw, url, data)

    def save(self, source: str, response: Response, data: bytes | None = None) -> Path:
        """Keep what the parsers read of an answer, atomically: a reader sees the old file or the new one, never half
        of one. Plain text, not compressed: git compresses it, and a refresh is stored as a small delta."""
        path = self.path(source, response.url, data)
        record: dict[str, object] = {
            "body": kept(source, response.status, response.body),
            "retrieved": response.retrieved.isoformat(),
            "status": response.status,
            "url": response.url,
        }
        if data is not None:
            record["request"] = data.decode()
        text = json.dumps(record, sort_keys=True, ensure_ascii=False, indent=1) + "\n"
        write_atomic(path, text)
        return path


def _decode(path: Path, raw: bytes, url: str, data: bytes | None) -> Response:
    """A stored file back into a Response, every field checked: the file is the user's to edit."""
    try:
        record = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise StoreError(path, f"the stored lookup is not valid JSON: {exc}") from None
    if not isinstance(record, dict):
        raise StoreError(path, "the stored lookup is not a JSON object")
    body, status, retrieved = record.get("body"), record.get("status"), record.get("retrieved")
    if record.get("url") != url or (data is not None and record.get("request") != data.decode()):
        raise StoreError(path, f"the stored lookup is not the answer to {url}")
    if not isinstance(body, str) or type(status) is not int or not isinstance(retrieved, str):
        raise StoreError(path, "the stored lookup needs `body` (text), `status` (a number) and `retrieved` (a date)")
    try:
        day = dt.date.fromisoformat(retrieved)
    except ValueError:
        raise StoreError(path, f"`retrieved` is not a date (YYYY-MM-DD): {retrieved!r}") from None
    return Response(url, status, body, day, stored=True)
