"""Diagnostics that always name a file and a line, collected rather than raised one by one."""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, order=True)
class Location:
    """Where a problem is: a path relative to the site root, a 1-based line, an optional column."""

    path: str
    line: int = 0
    col: int = 0

    def __str__(self) -> str:
        text = self.path
        if self.line:
            text += f":{self.line}"
            if self.col:
                text += f":{self.col}"
        return text


@dataclass(frozen=True)
class Diagnostic:
    """One problem: `path:line: error[CODE]: message`, then an optional hint line."""

    location: Location
    code: str
    message: str
    hint: str = ""
    severity: str = "error"

    def format(self) -> str:
        text = f"{self.location}: {self.severity}[{self.code}]: {self.message}"
        if self.hint:
            text += f"\n  hint: {self.hint}"
        return text


@dataclass
class Report:
    """Collects every diagnostic of a run so the user sees all problems at once."""

    items: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        self.items.append(diagnostic)

    def error(self, location: Location, code: str, message: str, hint: str = "") -> None:
        self.add(Diagnostic(location, code, message, hint))

    def warning(self, location: Location, code: str, message: str, hint: str = "") -> None:
        self.add(Diagnostic(location, code, message, hint, severity="warning"))

    def extend(self, diagnostics: Report | list[Diagnostic]) -> None:
        self.items.extend(diagnostics.items if isinstance(diagnostics, Report) else diagnostics)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.items)

    def format(self) -> str:
        ordered = sorted(self.items, key=lambda d: (d.location, d.code))
        return "\n".join(d.format() for d in ordered)


class SitegenError(Exception):
    """An expected failure carrying diagnostics; the CLI prints them and exits non-zero."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(d.format() for d in diagnostics))

    @classmethod
    def single(cls, location: Location, code: str, message: str, hint: str = "") -> SitegenError:
        return cls([Diagnostic(location, code, message, hint)])


class BuildFailed(SitegenError):
    """Raised when validation or rendering found errors; nothing was written."""


def relpath(path: Path, root: Path) -> str:
    """Path as shown in messages: relative to the site root when inside it, POSIX separators."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


_OS_HINTS = {
    errno.ENOSPC: "the disk is full: free some space and run the command again (nothing was half-written)",
    errno.EDQUOT: "the disk quota is used up: free some space and run the command again",
    errno.EROFS: "the folder is on a read-only file system: choose another one (e.g. --output)",
    errno.EACCES: "permission denied: check the folder's owner and permissions",
    errno.EPERM: "permission denied: check the folder's owner and permissions",
}


def os_error(exc: OSError) -> Diagnostic:
    """An operating-system failure as a diagnostic naming the file it concerns."""
    where = relpath(Path(os.fsdecode(exc.filename)), Path.cwd()) if exc.filename else "."
    hint = _OS_HINTS.get(exc.errno or 0, "check the path named and try again")
    return Diagnostic(Location(where), "E900", exc.strerror or str(exc), hint)
