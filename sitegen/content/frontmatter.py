"""Split `---` front matter from a Markdown body and load it with a strict YAML loader.

Strict means: safe types only, duplicate keys are errors, anchors and aliases are
refused, and every key remembers the file line it stood on so later validation can
point at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from ..common.errors import Diagnostic, Location
from . import controls, yaml_aliases

try:  # the C parser is several times faster; the pure one behaves the same
    _BaseLoader: type = yaml.CSafeLoader
    _BaseDumper: type = yaml.CSafeDumper
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _BaseLoader = yaml.SafeLoader
    _BaseDumper = yaml.SafeDumper


class DuplicateKey(yaml.MarkedYAMLError):
    """A mapping names the same key twice; YAML would silently keep the last."""


_STR, _MAP, _SEQ = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_SPECIAL_KEYS = frozenset({"tag:yaml.org,2002:merge", "tag:yaml.org,2002:value"})


class _NotPlain(Exception):
    """The document needs PyYAML's own constructor (an alias, a merge key, an unusual tag)."""


class StrictLoader(_BaseLoader):  # type: ignore[misc,valid-type]
    """Safe loader that rejects duplicate keys instead of keeping the last silently."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Node] = {}
        if not isinstance(node, yaml.MappingNode):  # e.g. '!!map' on a list: let PyYAML raise its error
            return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)  # type: ignore[no-untyped-call]
            try:
                duplicate = key in seen
            except TypeError:  # a list or mapping as key: a YAML error, not a crash
                raise yaml.constructor.ConstructorError(
                    "while constructing a mapping", node.start_mark, "found unhashable key", key_node.start_mark,
                ) from None
            if duplicate:
                raise DuplicateKey(
                    "while constructing a mapping", node.start_mark,
                    f"found duplicate key {key!r}", key_node.start_mark,
                )
            seen[key] = key_node
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]

    def construct_document(self, node: yaml.Node) -> Any:
        """The document's data; plain mappings, lists and text are made here without PyYAML's
        per-node machinery (two thirds of loading an entry's front matter), anything else by it.

        A document using an alias, a merge key or a tag on a mapping or list, and one with
        any error, is made by PyYAML's own constructor throughout, as before: its errors, and
        which of several it reports first, are PyYAML's.
        """
        try:
            data = self._plain(node, set())
        except (_NotPlain, yaml.YAMLError, ValueError, KeyError, TypeError):
            data = None
        self.constructed_objects.clear()  # left as PyYAML's construct_document leaves them
        self.recursive_objects.clear()
        self.state_generators.clear()
        return super().construct_document(node) if data is None else data

    def _plain(self, node: yaml.Node, seen: set[int]) -> Any:
        if id(node) in seen:  # an alias: the same node again
            raise _NotPlain
        seen.add(id(node))
        tag = node.tag
        if tag == _STR and type(node) is yaml.ScalarNode:
            return node.value
        if tag == _MAP and type(node) is yaml.MappingNode:
            data: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                if key_node.tag in _SPECIAL_KEYS:
                    raise _NotPlain
                key = self._plain(key_node, seen)
                if key in data:  # (an unhashable key raises TypeError)
                    raise _NotPlain
                data[key] = self._plain(value_node, seen)
            return data
        if tag == _SEQ and type(node) is yaml.SequenceNode:
            return [self._plain(item, seen) for item in node.value]
        if type(node) is yaml.ScalarNode:  # a date, number, boolean or null, as PyYAML reads it
            return self.construct_object(node, deep=True)  # deep: a tag it makes in steps ('!!map') fails here
        raise _NotPlain

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """An explicit tag on text it cannot read ('!!int x') is a YAML error at that node."""
        try:
            return super().construct_object(node, deep=deep)
        except (ValueError, KeyError, TypeError):
            what = repr(node.value) if isinstance(node, yaml.ScalarNode) else "this value"
            tag = str(node.tag).replace("tag:yaml.org,2002:", "!!")
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {what} as {tag}", node.start_mark,
            ) from None

    def construct_lenient_timestamp(self, node: yaml.ScalarNode) -> Any:
        """Keep an impossible date such as 2026-13-01 as text so validation can name it."""
        if not self.timestamp_regexp.match(node.value):  # an explicit '!!timestamp' on other text
            return node.value
        try:
            return self.construct_yaml_timestamp(node)  # type: ignore[no-untyped-call]
        except ValueError:
            return node.value


StrictLoader.add_constructor("tag:yaml.org,2002:timestamp", StrictLoader.construct_lenient_timestamp)


class KeyLines(dict[str, int]):
    """The file line of each key (see load_yaml), and whether the text was free of backslashes.

    YAML refuses a control character written as it is; only an escape in double quotes
    ('\\a', '\\x1b') makes one. Validation looks for them only where `plain` is False.
    """

    plain = False


@dataclass(frozen=True)
class Document:
    """A parsed entry file: its metadata, body and where each part starts."""

    meta: dict[str, Any]
    body: str
    key_lines: dict[str, int] = field(default_factory=dict)  # 1-based file lines, also of 'key/item' (see load_yaml)
    body_line: int = 1
    has_front_matter: bool = True
    warnings: tuple[Diagnostic, ...] = ()  # what was cleaned from the body (see clean_body)


class FrontMatterError(Exception):
    """The file could not be split or its YAML could not be read."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic
        super().__init__(diagnostic.format())


def split(text: str) -> tuple[str | None, str, int]:
    """Return (yaml_text, body, body_start_line); yaml_text is None when there is no block.

    CRLF and a lone CR end lines as LF does (as in YAML and CommonMark).
    """
    text = _lf(text.lstrip("\ufeff"))
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return None, text, 1
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "\n".join(lines[1:i]) + "\n", "\n".join(lines[i + 1 :]), i + 2
    return "", "", 0  # opened but never closed


def load_yaml(text: str, path: str, first_line: int = 1) -> tuple[Any, dict[str, int]]:
    """Strictly load YAML; errors become diagnostics at the right file line.

    `first_line` is the file line the YAML text starts on (2 for front matter).
    Anchors and aliases are refused before anything is built (see `yaml_aliases`).
    """
    alias = yaml_aliases.first_alias(text, path, first_line)
    if alias is not None:
        raise FrontMatterError(alias)
    loader = StrictLoader(text)
    try:
        node = loader.get_single_node()  # type: ignore[no-untyped-call]
        data = loader.construct_document(node) if node is not None else None  # type: ignore[no-untyped-call]
        lines = _key_lines(loader, node, first_line)
        lines.plain = "\\" not in text
    except DuplicateKey as exc:
        mark = exc.problem_mark
        line = (mark.line if mark else 0) + first_line
        raise FrontMatterError(Diagnostic(
            Location(path, line), "E102", exc.problem or "duplicate key",
            "each key may appear once; remove or merge the repeated one",
        )) from None
    except yaml.YAMLError as exc:
        raise FrontMatterError(_yaml_diagnostic(exc, path, first_line, text)) from None
    finally:
        loader.dispose()  # type: ignore[no-untyped-call]
    return data, lines


def _key_lines(loader: StrictLoader, node: yaml.Node | None, first_line: int) -> KeyLines:
    """The file line of each top-level key, and of each item one level down, as 'links/code' or
    'authors/2' (for errors about one item). A key YAML reads as no text ('1', 'null', 'true')
    is found both as written and as validation names it (str() of the value: 'None', 'True')."""
    lines = KeyLines()
    if not isinstance(node, yaml.MappingNode):
        return lines
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        names = [key_node.value] if key_node.tag == _STR else [key_node.value, _key_text(loader, key_node)]
        for key in names:
            lines.setdefault(key, key_node.start_mark.line + first_line)
            if isinstance(value_node, yaml.MappingNode):
                for item_key, _ in value_node.value:
                    if isinstance(item_key, yaml.ScalarNode):
                        line = item_key.start_mark.line + first_line
                        lines.setdefault(f"{key}/{item_key.value}", line)
                        if item_key.tag != _STR:
                            lines.setdefault(f"{key}/{_key_text(loader, item_key)}", line)
            elif isinstance(value_node, yaml.SequenceNode):
                for i, item in enumerate(value_node.value):
                    lines.setdefault(f"{key}/{i}", item.start_mark.line + first_line)
    return lines


def _key_text(loader: StrictLoader, node: yaml.ScalarNode) -> str:
    return str(loader.construct_object(node, deep=True))


_UNCLOSED = {"while scanning a quoted scalar": "a quoted value", "while parsing a flow sequence": "a [ list",
             "while parsing a flow mapping": "a { mapping"}


def _yaml_diagnostic(exc: yaml.YAMLError, path: str, first_line: int, text: str) -> Diagnostic:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    hint = "check the indentation and quoting on this line"
    unclosed = _UNCLOSED.get(getattr(exc, "context", None) or "")
    context_mark = getattr(exc, "context_mark", None)
    if unclosed and context_mark is not None:  # point where the quote or bracket opens, not where text ran out
        mark, problem = context_mark, f"{unclosed} opened here is not closed ({problem})"
        hint = "close it on this line, or quote the whole value"
    line = (mark.line + first_line) if mark is not None else first_line
    col = (mark.column + 1) if mark is not None else 0
    if isinstance(exc, yaml.reader.ReaderError) and isinstance(exc.character, int):  # a NUL, BEL, ESC …
        at = exc.position  # an index into the text; no mark
        line, col = first_line + text.count("\n", 0, at), at - text.rfind("\n", 0, at)
        problem = f"control character {controls.name(chr(exc.character))} is not allowed"
        hint = "delete the invisible control character from this line"
    elif "mapping values are not allowed" in problem:
        hint = "a value containing ': ' must be quoted, e.g. title: 'BERT: Pre-training …'"
    elif "found character '\\t'" in problem or (mark is not None and _char_at(text, mark.line, mark.column) == "\t"):
        hint = "YAML does not allow tabs for indentation; use spaces"
    return Diagnostic(Location(path, line, col), "E101", f"invalid YAML: {problem}", hint)


def _char_at(text: str, line: int, column: int) -> str:
    """The character at a 0-based line and column, or '' (the C parser names no tab in its message)."""
    lines = text.split("\n")
    return lines[line][column : column + 1] if line < len(lines) else ""


def parse(text: str, path: str) -> Document:
    """Parse an entry file into a Document, raising FrontMatterError with a file line."""
    yaml_text, body, body_line = split(text)
    if yaml_text is None:
        raise FrontMatterError(Diagnostic(
            Location(path, 1), "E100", "missing front matter",
            "an entry starts with a line '---', its YAML fields, then another '---'",
        ))
    if body_line == 0:
        raise FrontMatterError(Diagnostic(
            Location(path, 1), "E100", "front matter is opened with '---' but never closed",
            "add a line '---' after the last field",
        ))
    data, key_lines = load_yaml(yaml_text, path, first_line=2)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FrontMatterError(Diagnostic(
            Location(path, 2), "E103", "front matter must be a mapping of fields",
            "write one 'key: value' per line",
        ))
    body, warnings = clean_body(body, body_line, path)
    return Document(data, body, key_lines, body_line, warnings=warnings)


def clean_body(body: str, body_line: int, path: str) -> tuple[str, tuple[Diagnostic, ...]]:
    """The body without control characters, and a warning at the line of the first one."""
    found = controls.CONTROL.search(body)  # one scan of the text: the body of nearly every entry is clean
    if found is None:
        return body, ()
    line = body_line + body.count("\n", 0, found.start())
    return controls.clean(body), (Diagnostic(
        Location(path, line), "W341", f"control character {controls.name(found.group())} removed from the notes",
        "it is invisible, and no feed or page may hold it; delete it from the file", severity="warning",
    ),)


class _PlainDumper(_BaseDumper):  # type: ignore[misc,valid-type]
    """Never writes &anchors/*aliases: equal dates in two places stay two plain dates."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def dump_yaml(data: Any) -> str:
    """Dump YAML that always loads back to `data` (quoting ids, colons, 'yes' …)."""
    return yaml.dump(  # type: ignore[no-any-return]
        data, Dumper=_PlainDumper, allow_unicode=True, sort_keys=False,
        default_flow_style=False, width=88,
    )


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def render(meta: dict[str, Any], body: str) -> str:
    """Serialize an entry: front matter block, then the body, ending in one newline."""
    text = "---\n" + dump_yaml(meta) + "---\n"
    body = _lf(body).strip("\n")  # a body ending in CR would otherwise end in CRLF, one line shorter when read
    if body:
        text += "\n" + body + "\n"
    return text
