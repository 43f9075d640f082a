"""`content/import-state.json`: what the importer last wrote into each field, to tell edits apart.

A damaged state is an error, not an empty state: guessing could not lose an edit (every
field would count as edited) but it would silently forget what the importer owns.
"""

from __future__ import annotations

import json
from pathlib import Path

from ...common.errors import Diagnostic, Location

STATE_FILE = "import-state.json"
HINT = ("fix it, or delete it to start afresh (every field then counts as a hand edit, so nothing is "
        "overwritten)")

State = dict[str, dict[str, str]]


def load(path: Path, shown: str, problems: list[Diagnostic]) -> State:
    """The state as a mapping of keys to field fingerprints; {} when absent, a diagnostic when damaged."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError:
        problems.append(Diagnostic(Location(shown, 1), "E720", "the import state is not valid UTF-8 text", HINT))
        return {}
    except OSError as exc:
        problems.append(Diagnostic(Location(shown), "E720", f"cannot read the import state: {exc.strerror or exc}",
                                   HINT))
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.append(Diagnostic(Location(shown, exc.lineno, exc.colno), "E721",
                                   f"the import state is not valid JSON: {exc.msg}", HINT))
        return {}
    except (ValueError, RecursionError):  # a number too long for int(), lists nested too deep
        problems.append(Diagnostic(Location(shown, 1), "E721", "the import state is not an import state: it "
                                   "holds a number or nesting far beyond what the importer writes", HINT))
        return {}
    return _checked(data, text, shown, problems)


def _checked(data: object, text: str, shown: str, problems: list[Diagnostic]) -> State:
    if not isinstance(data, dict):
        problems.append(Diagnostic(Location(shown, 1), "E722", "the import state must be a JSON object of "
                                   f"entries, found {type(data).__name__}", HINT))
        return {}
    for key, fields in data.items():
        if not (isinstance(fields, dict) and all(isinstance(v, str) for v in fields.values())):
            problems.append(Diagnostic(Location(shown, _line_of(text, key)), "E722",
                                       f"the import state of {key[:60]!r} must map field names to fingerprints "
                                       "(text)", HINT))
            return {}
    return data


def _line_of(text: str, key: str) -> int:
    """The line where `key` is written as an object key, or 1."""
    at = text.find(json.dumps(key, ensure_ascii=False) + ":")
    if at < 0:
        at = text.find(json.dumps(key) + ":")
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def render(state: State) -> str:
    """The state as written: sorted keys, one field per line, so it diffs cleanly."""
    return json.dumps(state, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
