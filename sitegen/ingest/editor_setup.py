"""What `sitegen init` writes so an editor checks a site's YAML while the curator types.

The JSON Schemas (see content.json_schema) go into the site's `schemas/`, committed with it,
so every clone and every editor finds them at the same relative path: yaml-language-server
(VS Code, Neovim, Helix, Zed, JetBrains) reads `site.yaml`'s `$schema` modeline, and VS Code's
`yaml.schemas` setting maps the author files too. An entry's front matter is YAML inside
Markdown, which yaml-language-server does not read: `schemas/entry.schema.json` is there for
tools that validate front matter. After upgrading sitegen,
`python -m sitegen.content.json_schema schemas` writes them again.
"""

from __future__ import annotations

import json

from ..content import json_schema

FOLDER = "schemas"
MODELINE = f"# yaml-language-server: $schema={FOLDER}/site.schema.json\n"


def editor_files() -> dict[str, str]:
    """Site-relative path -> text: the three schemas and `.vscode/settings.json`."""
    files = {f"{FOLDER}/{name}": json_schema.text(document) for name, document in json_schema.documents().items()}
    settings = {
        "yaml.schemas": {
            f"./{FOLDER}/site.schema.json": "site.yaml",
            f"./{FOLDER}/author.schema.json": "content/authors/*.yaml",
        },
    }
    files[".vscode/settings.json"] = json.dumps(settings, indent=2) + "\n"
    return files
