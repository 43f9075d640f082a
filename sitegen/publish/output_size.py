"""What a build published, in files and bytes, and the hosts whose limits it passes (see docs/outputs.md).

Worked out from the sizes the build already holds (its staging record, or the table of outputs the
memo keeps), never by walking the output: at 10,000 papers that would be 90,000 stats after every edit.
A site too large for its host is refused only when it is deployed, minutes later; this says so at
every build, with the kinds of file that weigh most.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..common.errors import Diagnostic, Location


@dataclass(frozen=True)
class HostLimit:
    """A limit a host puts on a published site."""

    host: str
    what: str  # as the warning says it
    most_bytes: int | None = None
    most_files: int | None = None
    hint: str = ""


# The limits of the host sitegen publishes to (its Pages workflow, `sitegen deploy`); docs/outputs.md gives these
# and other hosts' limits. Only these warn: a warning at every build about a host the list is not published to
# would be noise.
HOST_LIMITS = (
    HostLimit("GitHub Pages", "a published site of at most 1 GB", most_bytes=1_000_000_000,
              hint="see docs/outputs.md for what each kind of file costs and where a larger list can be published"),
)
_SLUG_FOLDERS = frozenset({"papers", "authors", "tags", "categories", "timeline", "page"})


@dataclass(frozen=True)
class OutputSize:
    """The files and bytes of a whole output, and the kinds of file that weigh most."""

    files: int
    bytes: int
    heaviest: tuple[tuple[str, int, int], ...] = ()  # (kind, files, bytes), heaviest first, when asked for

    def said(self) -> str:
        return f"{_files(self.files)}, {human(self.bytes)}"


def measured(sizes: Mapping[str, tuple[int, ...]], more_files: int = 0, more_bytes: int = 0) -> OutputSize:
    """The output of these (size, ...) rows by path, with files counted apart (the search index's)."""
    total = sum(row[0] for row in sizes.values()) + more_bytes
    size = OutputSize(len(sizes) + more_files, total)
    if any(_passes(limit, size) for limit in HOST_LIMITS):
        size = OutputSize(size.files, size.bytes, heaviest(sizes))
    return size


def kind_of(path: str) -> str:
    """A file's kind as a pattern of paths: 'authors/*/papers.bib' for every author's BibTeX file."""
    first, _, rest = path.partition("/")
    if first in _SLUG_FOLDERS and "/" in rest:
        return f"{first}/*/{rest.partition('/')[2]}"
    return path


def heaviest(sizes: Mapping[str, tuple[int, ...]], most: int = 3) -> tuple[tuple[str, int, int], ...]:
    """The `most` kinds of file with the most bytes: (kind, files, bytes)."""
    kinds: dict[str, list[int]] = {}
    for path, row in sizes.items():
        tally = kinds.setdefault(kind_of(path), [0, 0])
        tally[0] += 1
        tally[1] += row[0]
    ranked = sorted(kinds.items(), key=lambda kv: (-kv[1][1], kv[0]))[:most]
    return tuple((kind, files, size) for kind, (files, size) in ranked)


def _passes(limit: HostLimit, size: OutputSize) -> bool:
    return (limit.most_bytes is not None and size.bytes > limit.most_bytes) or \
        (limit.most_files is not None and size.files > limit.most_files)


def warnings(size: OutputSize, output: str) -> list[Diagnostic]:
    """A warning for each host limit the output passes, naming the kinds of file that weigh most."""
    found = []
    for limit in HOST_LIMITS:
        if not _passes(limit, size):
            continue
        weighed = "; ".join(f"{kind}: {_files(files)}, {human(b)}" for kind, files, b in size.heaviest)
        found.append(Diagnostic(Location(output), "W801",
                                f"the site is {size.said()}, past {limit.host}'s limit of {limit.what}"
                                f"{f' (heaviest: {weighed})' if weighed else ''}",
                                limit.hint, severity="warning"))
    return found


def _files(count: int) -> str:
    return f"{count:,} file{'' if count == 1 else 's'}"


def human(count: int) -> str:
    """Bytes as people read them: '950 KB', '1.75 GB' (powers of 1,000, as hosts state their limits)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("KB", 1e3)):
        if count >= scale:
            value = count / scale
            return f"{value:.3g} {unit}" if value < 100 else f"{value:,.0f} {unit}"
    return f"{count} B"
