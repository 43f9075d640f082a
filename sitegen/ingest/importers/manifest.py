"""The committed record of when each dump was captured (`content/dumps/manifest.yaml`).

Dumps print dates without a year ('Feb 11'); the capture date resolves them, so it
must be remembered, not guessed anew on every import.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from ...common.errors import Location, SitegenError
from ...common.fsutil import write_atomic
from ...content import frontmatter

MANIFEST = "manifest.yaml"
HEADER = (
    "# When each dump in this folder was captured (YYYY-MM-DD).\n"
    "# Dates a dump prints without a year take the capture year, or the year before when\n"
    "# they would fall after the capture. `sitegen import --captured DATE FILE` records here.\n"
)


def load(dumps: Path, shown_as: str) -> dict[str, dt.date]:
    """File name -> capture date; an absent manifest is an empty one."""
    path = dumps / MANIFEST
    if not path.exists():
        return {}
    try:
        data, lines = frontmatter.load_yaml(path.read_text(encoding="utf-8-sig"), shown_as)
    except (OSError, UnicodeDecodeError):
        raise SitegenError.single(Location(shown_as, 1), "E330", "cannot read the manifest as UTF-8 text",
                                  "save it as UTF-8") from None
    except frontmatter.FrontMatterError as exc:
        raise SitegenError([exc.diagnostic]) from None
    if data is not None and not isinstance(data, dict):
        raise SitegenError.single(Location(shown_as, 1), "E330", "the manifest must be a mapping",
                                  "write 'captured:', then one 'file name: YYYY-MM-DD' per line")
    captured = (data or {}).get("captured") or {}
    if not isinstance(captured, dict):
        raise SitegenError.single(Location(shown_as, lines.get("captured", 1)), "E330",
                                  "'captured' must map file names to dates")
    result: dict[str, dt.date] = {}
    for name, value in captured.items():
        if not isinstance(value, dt.date):
            raise SitegenError.single(Location(shown_as, lines.get("captured", 1)), "E330",
                                      f"capture date of {name} must be YYYY-MM-DD, found {value!r}")
        result[str(name)] = value
    return result


def render(captured: dict[str, dt.date]) -> str:
    """The manifest's text, sorted by file name so it diffs cleanly."""
    return HEADER + frontmatter.dump_yaml({"captured": dict(sorted(captured.items()))})


def save(dumps: Path, captured: dict[str, dt.date]) -> None:
    """Write the manifest (an import writes it together with its entries instead)."""
    write_atomic(dumps / MANIFEST, render(captured))
