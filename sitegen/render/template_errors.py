"""A broken theme template as the user sees it: its file, its line and a hint, never a traceback.

Jinja reports most mistakes itself, with the template's name and line; what it leaves
to Python is told here: a template file that is not UTF-8 (a bare UnicodeDecodeError),
and templates that extend or include themselves without end (a RecursionError a
thousand frames deep). The loops are looked for only once rendering has failed, so a
working theme costs nothing more.
"""

from __future__ import annotations

import os
import posixpath
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path

import jinja2
from jinja2 import nodes
from jinja2.loaders import split_template_path

from ..common.errors import Diagnostic, Location, SitegenError, relpath

TEMPLATE_SUFFIXES = (".html", ".xml", ".txt")
_VERBS = {"extends": "extends", "include": "includes", "import": "imports"}


class ThemeLoader(jinja2.FileSystemLoader):
    """The templates folders of a theme chain, first match wins; a file that is not UTF-8 is an error naming it."""

    def __init__(self, folders: list[Path], root: Path):
        super().__init__([str(folder) for folder in folders])
        self.root = root

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        try:
            return super().get_source(environment, template)
        except UnicodeDecodeError:
            raise SitegenError([self._not_utf8(template)]) from None

    def _not_utf8(self, template: str) -> Diagnostic:
        """Where the first byte that is not UTF-8 is (line and column), in the file the template was read from."""
        path = self.file_of(template)
        data = Path(path).read_bytes() if path else b""
        try:
            data.decode("utf-8")
            start, byte = 0, 0
        except UnicodeDecodeError as exc:
            start, byte = exc.start, data[exc.start]
        line = data.count(b"\n", 0, start) + 1
        col = start - (data.rfind(b"\n", 0, start) + 1) + 1
        return Diagnostic(Location(relpath(Path(path or template), self.root), line, col), "E405",
                          f"template is not UTF-8 text (byte 0x{byte:02x})",
                          "save the file as UTF-8; templates are read as UTF-8 whatever the system's encoding")

    def file_of(self, template: str) -> str | None:
        """The file a template name is read from, as `get_source` finds it."""
        pieces = split_template_path(template)
        for folder in self.searchpath:
            filename = posixpath.join(folder, *pieces)
            if os.path.isfile(filename):
                return filename
        return None

    def shown_folders(self) -> str:
        return ", ".join(f"{relpath(Path(folder), self.root)}/" for folder in self.searchpath)


def diagnostic(exc: BaseException, env: jinja2.Environment, root: Path, template: str, output: str) -> Diagnostic:
    """The diagnostic for an exception raised while rendering `template` (for the output `output`)."""
    if isinstance(exc, RecursionError):
        return endless(env, root, template, exc)
    line: int | None
    if isinstance(exc, jinja2.TemplateSyntaxError):
        filename, line = exc.filename, exc.lineno
        hint = "check the tag against the Jinja template syntax; each block, if and for needs its end tag"
    else:
        filename, line = innermost_frame(exc)
        hint = _hint(exc, env)
    if isinstance(exc, jinja2.TemplateNotFound):
        message = f"template error: template '{exc.name}' not found"
    else:
        message = f"template error: {getattr(exc, 'message', None) or exc}"
    if not isinstance(exc, jinja2.TemplateSyntaxError):
        message += f" (while rendering {output})"
    where = relpath(Path(filename), root) if filename else "themes"
    return Diagnostic(Location(where, line or 0), "E401", message, hint)


def _hint(exc: BaseException, env: jinja2.Environment) -> str:
    if isinstance(exc, jinja2.TemplateNotFound) and isinstance(env.loader, ThemeLoader):
        return f"looked in {env.loader.shown_folders()}"
    if isinstance(exc, jinja2.UndefinedError):
        return "a template sees only what sitegen gives it; the default theme's templates use each name there is"
    return ""


def innermost_frame(exc: BaseException) -> tuple[str | None, int | None]:
    """The innermost template file and line of a render-time exception."""
    found: tuple[str | None, int | None] = (None, None)
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.endswith(TEMPLATE_SUFFIXES):
            found = (frame.filename, frame.lineno)
    return found


def endless(env: jinja2.Environment, root: Path, template: str, exc: RecursionError) -> Diagnostic:
    """Rendering recursed without end: name the templates that extend or include each other in a loop."""
    names = [template, *sorted(env.list_templates(extensions=("html", "xml", "txt")))]
    loop = next((found for name in names if (found := find_loop(env, name))), None)
    if loop is None:  # a macro calling itself, or a loop through names only known when rendering
        filename, line = innermost_frame(exc)
        return Diagnostic(Location(relpath(Path(filename), root) if filename else "themes", line or 0), "E404",
                          "template calls itself without end (recursion too deep)",
                          "a macro or include that calls itself needs a condition that stops it")
    names = [step[0] for step in loop]
    at = names.index(min(names))  # the same loop is told alike from wherever it was met
    loop = loop[at:] + loop[:at]
    first, kind, line = loop[0][:3]
    loader = env.loader
    path = loader.file_of(first) if isinstance(loader, ThemeLoader) else None
    where = Location(relpath(Path(path), root) if path else first, line)
    chain = " -> ".join([name for name, *_ in loop] + [first])
    if all(step[1] == "extends" for step in loop):
        if len(loop) > 1:
            return Diagnostic(where, "E403", f"templates extend each other in a loop: {chain}",
                              "one of them must extend a template outside the loop, or none")
        return Diagnostic(where, "E403", "template extends itself",
                          f"a theme's {first} hides the default theme's, so it cannot extend it: copy the "
                          f"default's {first} into the theme and edit the copy, or extend a template of another name")
    message = f"template {_VERBS[kind]} itself" if len(loop) == 1 else \
        f"templates include each other in a loop: {chain}"
    return Diagnostic(where, "E404", message, "an include that leads back to its own template needs a condition "
                                               "that stops it, or it never ends")


def find_loop(env: jinja2.Environment, start: str) -> list[tuple[str, str, int, str]] | None:
    """The first loop of extends/include/import from `start`: (template, kind, line, target) steps."""
    path: list[tuple[str, str, int, str]] = []
    on_path: dict[str, int] = {}
    done: set[str] = set()

    def visit(name: str) -> list[tuple[str, str, int, str]] | None:
        on_path[name] = len(path)
        for kind, target, line in references(env, name):
            path.append((name, kind, line, target))
            if target in on_path:
                return path[on_path[target]:]
            if target not in done and (found := visit(target)):
                return found
            path.pop()
        del on_path[name]
        done.add(name)
        return None

    return visit(start)


def references(env: jinja2.Environment, name: str) -> Iterator[tuple[str, str, int]]:
    """(kind, template, line) of each extends, include and import of a template named in its text."""
    if env.loader is None:
        return
    try:
        source, filename, _ = env.loader.get_source(env, name)
        tree = env.parse(source, name, filename)
    except (jinja2.TemplateError, SitegenError, OSError):
        return
    kinds = {nodes.Extends: "extends", nodes.Include: "include", nodes.Import: "import", nodes.FromImport: "import"}
    for node in tree.find_all(tuple(kinds)):
        target = getattr(node, "template", None)
        if isinstance(target, nodes.Const) and isinstance(target.value, str):
            yield kinds[type(node)], target.value, node.lineno
