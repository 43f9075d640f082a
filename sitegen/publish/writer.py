"""Write a build atomically: stage into a temporary directory beside the output, then swap.

Files whose bytes did not change are hard-linked from the previous build, so their
modification times stay as they were; stale files disappear with the old tree. A
failed build removes its staging directory and leaves the previous output untouched.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..common import platforms
from ..common.digest import of as output_digest
from ..common.errors import Location, SitegenError
from ..common.fsutil import exchange, write_all

MARKER = ".nojekyll"  # every sitegen build has it; an output folder without it is not ours


@dataclass
class Stage:
    """The staging directory of one build and what was written into it."""

    path: Path
    previous: Path
    written: int = 0
    unchanged: int = 0
    files: set[str] = field(default_factory=set)
    digests: dict[str, str] = field(default_factory=dict)  # relative path -> digest of its bytes (see digest)
    # relative path -> (size, mtime_ns) as staged, for the engine's table of outputs (persisted.Table), which
    # then stats none of them (64,674 stats at 10,000 papers, after the rendering, in one process)
    stats: dict[str, tuple[int, int]] = field(default_factory=dict)
    _folders: set[str] = field(default_factory=set, repr=False)
    _into: str = field(default="", repr=False)
    _from: str | None = field(default=None, repr=False)  # None: no previous build to reuse files of

    def __post_init__(self) -> None:
        self._into = str(self.path) + os.sep
        self._from = str(self.previous) + os.sep if self.previous.is_dir() else None

    def _target(self, relative: str) -> str:
        """The staged path of a route; anything that could leave the staging folder is refused.

        The staging folder is new and holds no links, so checking the parts of the route
        (no absolute path, no empty, '.' or '..' part, no backslash) is as strict as resolving
        it, and much cheaper for tens of thousands of files.
        """
        parts = relative.split("/")
        if relative.startswith("/") or "\\" in relative or "" in parts or "." in parts or ".." in parts:
            raise SitegenError.single(Location(relative), "E501", "refusing to write outside the output directory")
        return self._into + relative if os.sep == "/" else os.path.join(self._into, *parts)

    def write(self, relative: str, data: bytes | bytearray, digest: str | None = None) -> None:
        """Stage one file, reusing the previous build's file when the bytes are equal.

        `digest`: its digest (see sitegen.common.digest), if the caller has it already (a whole-list file is made
        from its pieces' digests).
        """
        target = self._target(relative)
        folder = os.path.dirname(target)
        if folder not in self._folders:  # one mkdir per folder, not one per file
            os.makedirs(folder, exist_ok=True)
            self._folders.add(folder)
        old = None if self._from is None else self._from + relative
        st = None if old is None else _same_bytes(old, data)
        if old is not None and st is not None and _linked(old, target):
            self.unchanged += 1
        else:
            # os.open and os.write: a buffered file object costs more than the write itself
            fd = os.open(target, platforms.WRITE_FLAGS, 0o666)
            try:
                write_all(fd, data)
                st = os.fstat(fd)  # the mtime of the last write, which no later step moves
            finally:
                os.close(fd)
            self.written += 1
        self.stats[relative] = (st.st_size, st.st_mtime_ns)
        self.files.add(relative)
        self.digests[relative] = digest or output_digest(data)

    def copy(self, relative: str, source: Path) -> None:
        """Stage a static file by path."""
        self.write(relative, source.read_bytes())


def _linked(old: str, target: str) -> bool:
    """Hard-link the previous build's file as the new one; False where the file system has no hard links (FAT,
    exFAT, some network shares), for the caller to write the bytes instead."""
    try:
        os.link(old, target)
    except OSError as exc:
        if exc.errno in (errno.EEXIST, errno.ENOSPC):
            raise
        return False
    return True


def _same_bytes(path: str, data: bytes | bytearray) -> os.stat_result | None:
    """The file's stat when it holds exactly `data`, else None."""
    try:
        st = os.stat(path)
        if st.st_size != len(data):
            return None
        with open(path, "rb") as file:
            return st if file.read() == data else None
    except OSError:
        return None


def check_output(output: Path, root: Path) -> None:
    """Refuse an output folder whose replacement would destroy something that is not a build."""
    out, site = output.resolve(), root.resolve()
    if site.is_relative_to(out) or any(out.is_relative_to(site / p) for p in ("content", "themes")):
        raise SitegenError.single(Location(str(output)), "E502",
                                  "the output folder must not contain the site or lie inside content/ or themes/",
                                  "use the default public/ or another empty folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise SitegenError.single(Location(str(output)), "E503",
                                  "the output folder holds files that are not a sitegen build; not replacing them",
                                  "empty it or choose another --output folder")


@contextmanager
def staged(output: Path) -> Iterator[Stage]:
    """Yield a Stage; on success swap it in for `output`, on any error discard it.

    The swap is one atomic exchange where the system has one, so `output` is at every
    moment a whole site, the old one or the new; the old tree is then removed from where
    the stage was. Staging folders carry this process's id, so the next start can tell a
    killed build's leftovers from a build still running (see `recover`).
    """
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{output.name}.build-{os.getpid()}-", dir=output.parent))
    stage = Stage(tmp, output)
    try:
        yield stage
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    tmp.chmod(0o755)
    if output.is_dir() and not output.is_symlink() and exchange(tmp, output):
        shutil.rmtree(tmp, ignore_errors=True)  # the old tree now
        return
    old = None
    if output.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{output.name}.old-{os.getpid()}-", dir=output.parent))
        os.replace(output, old / "tree")
    os.replace(tmp, output)
    if old:
        shutil.rmtree(old, ignore_errors=True)


_journals = itertools.count()


def journal_for(output: Path) -> Path:
    """A new journal's path for an in-place update of `output` (see fsutil.StagedFiles)."""
    return output.parent / f".{output.name}.journal-{os.getpid()}-{next(_journals)}"


LEFTOVER_KINDS = ("build", "old", "journal")
LEFTOVERS_INSIDE = (".pagefind-new", ".pagefind-old")  # a search index being swapped in (see search.refresh)


def recover(output: Path) -> list[str]:
    """Finish or clear what a killed build left beside and inside `output`; the names handled.

    A journal whose renames had begun is finished (its temporaries are whole and were all
    written before it named them); temporaries it did not name are removed, as are staging
    folders and old trees. Leftovers of a process still running are left alone.
    """
    prefix = f".{output.name}."
    try:
        names = sorted(os.listdir(output.parent))
    except OSError:
        return []
    handled = []
    for name in names:
        kind, _, rest = name[len(prefix):].partition("-")
        if not name.startswith(prefix) or kind not in LEFTOVER_KINDS or _running(rest.split("-")[0]):
            continue
        path = output.parent / name
        if kind == "journal":
            _replay(path, output)
        elif kind == "old" and not os.path.lexists(output) and (path / "tree").is_dir():
            # killed between the two renames of a swap without an exchange (`staged`): the old site goes back
            os.replace(path / "tree", output)
            shutil.rmtree(path, ignore_errors=True)
        else:
            shutil.rmtree(path, ignore_errors=True)
        handled.append(name)
    for name in LEFTOVERS_INSIDE:
        if (output / name).exists():
            bundle = output / name[1:].rsplit("-", 1)[0]  # .pagefind-old -> pagefind
            if name.endswith("-old") and not os.path.lexists(bundle):  # killed between the two renames
                os.replace(output / name, bundle)
            else:
                shutil.rmtree(output / name, ignore_errors=True)
            handled.append(f"{output.name}/{name}")
    return handled


def _running(pid: str) -> bool:
    """Whether `pid` (as written in a leftover's name) is another process that is still running."""
    return pid.isdigit() and int(pid) != os.getpid() and platforms.process_alive(int(pid))


def _replay(journal: Path, output: Path) -> None:
    """Finish a journaled update's renames and removals, then remove every temporary left in `output`."""
    try:
        plan = json.loads(journal.read_text(encoding="utf-8"))
        renames, removals = plan["renames"], plan["removals"]
    except (OSError, ValueError, KeyError, TypeError):
        renames, removals = [], []
    for tmp, target in renames:
        with contextlib.suppress(FileNotFoundError):
            os.replace(tmp, target)
    for target in removals:
        Path(target).unlink(missing_ok=True)
    for folder, _, files in os.walk(output):
        for name in files:
            if name.startswith(".") and name.endswith(".tmp"):
                Path(folder, name).unlink(missing_ok=True)
    journal.unlink(missing_ok=True)


def stale_count(previous: Path, files: set[str]) -> int:
    """How many files of the previous build the new one no longer has."""
    if not previous.is_dir():
        return 0
    return sum(1 for p in previous.rglob("*") if p.is_file() and p.relative_to(previous).as_posix() not in files)
