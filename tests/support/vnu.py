"""The Nu Html Checker (vnu.jar from the npm package vnu-jar) over many files in one JVM.

    errors = run_vnu(sorted(public_dir.rglob("*.html")))
    assert not errors, describe_vnu(errors)

Needs ``npm ci`` (node_modules/vnu-jar) and Java 17+. When either is missing the calling test is skipped with
the reason, except on CI (``CI=true``) where it fails.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from .env import VNU_JAR, find_java, missing_tool

__all__ = ["VnuError", "describe_vnu", "run_vnu"]

# Keep each command line well under ARG_MAX; a site with thousands of pages still needs only a few JVM starts.
_MAX_ARGS_CHARS = 500_000


@dataclass(frozen=True)
class VnuError:
    file: str
    line: int | None
    column: int | None
    message: str
    extract: str = ""
    type: str = "error"

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        where += f":{self.column}" if self.line is not None and self.column is not None else ""
        extract = f"  [{self.extract.strip()}]" if self.extract.strip() else ""
        return f"{where}: {self.message}{extract}"


def _file_of(url: str) -> str:
    parts = urlsplit(url)
    return unquote(parts.path) if parts.scheme == "file" else url


def _chunks(paths: list[str]) -> Iterable[list[str]]:
    chunk: list[str] = []
    size = 0
    for path in paths:
        if chunk and size + len(path) + 1 > _MAX_ARGS_CHARS:
            yield chunk
            chunk, size = [], 0
        chunk.append(path)
        size += len(path) + 1
    if chunk:
        yield chunk


def run_vnu(
    paths: Iterable[str | Path],
    *,
    ignore: Iterable[str] = (),
    also_check_css: bool = False,
    timeout: float = 600,
) -> list[VnuError]:
    """Validate HTML files (or whole directories: their *.html files) and return the errors (empty when valid).

    Runs ``java -jar node_modules/vnu-jar/build/dist/vnu.jar --errors-only --format json --skip-non-html`` once for
    all paths (split only for huge command lines). Files are reported with absolute paths. ``ignore`` holds regular
    expressions; an error whose message matches one (re.search) is dropped. A path that does not exist is
    reported as an error (vnu itself would silently skip it).
    """
    if not VNU_JAR.is_file():
        missing_tool(f"Nu Html Checker not installed: {VNU_JAR} is missing (run `npm ci`)")
    java = find_java()
    if java is None:
        missing_tool("java is not on PATH; the Nu Html Checker (vnu.jar) needs Java 17+")
    patterns = [re.compile(pattern) for pattern in ignore]

    errors: list[VnuError] = []
    existing: list[str] = []
    for path in paths:
        resolved = Path(path).resolve()
        if resolved.exists():
            existing.append(str(resolved))
        else:
            errors.append(VnuError(str(resolved), None, None, "file not found", type="non-document-error"))

    options = ["--errors-only", "--format", "json", "--skip-non-html", "--no-langdetect", "--stdout"]
    if also_check_css:
        options.append("--also-check-css")
    for chunk in _chunks(existing):
        command = [java, "-Xss4m", "-jar", str(VNU_JAR), *options, *chunk]  # absolute paths: never taken for options
        proc = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", timeout=timeout, check=False)
        try:
            report = json.loads(proc.stdout)
        except json.JSONDecodeError as exc:
            raise RuntimeError(
                f"vnu exited {proc.returncode} without a JSON report\nstdout: {proc.stdout[-2000:]}\n"
                f"stderr: {proc.stderr[-2000:]}"
            ) from exc
        for message in report.get("messages", []):
            kind = message.get("type", "error")
            if kind not in {"error", "non-document-error"}:
                continue  # "info" (warnings) are not errors
            text = str(message.get("message", ""))
            if any(pattern.search(text) for pattern in patterns):
                continue
            line = message.get("firstLine", message.get("lastLine"))
            column = message.get("firstColumn", message.get("lastColumn"))
            errors.append(
                VnuError(
                    file=_file_of(str(message.get("url", ""))),
                    line=int(line) if line is not None else None,
                    column=int(column) if column is not None else None,
                    message=text,
                    extract=str(message.get("extract", "")),
                    type=str(kind),
                )
            )
        if proc.returncode != 0 and not report.get("messages"):
            raise RuntimeError(f"vnu exited {proc.returncode} with no messages\nstderr: {proc.stderr[-2000:]}")
    return errors


def describe_vnu(errors: Iterable[VnuError], root: str | Path | None = None) -> str:
    """One line per error (paths shown relative to ``root`` when given), for assertion messages."""
    lines = []
    prefix = str(Path(root).resolve()) + "/" if root is not None else None
    for error in errors:
        line = str(error)
        if prefix and line.startswith(prefix):
            line = line[len(prefix) :]
        lines.append(line)
    return f"{len(lines)} HTML error(s):\n" + "\n".join(lines)
