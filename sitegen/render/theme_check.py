"""`sitegen check`'s look at the theme: resolved and every template loaded, as a build would load them."""

from __future__ import annotations

from pathlib import Path

import jinja2

from ..common.errors import Report, SitegenError
from ..content.config import SiteConfig
from .render import make_environment
from .template_errors import diagnostic


def check_theme(root: Path, cfg: SiteConfig, report: Report) -> None:
    """Add a diagnostic for a theme that cannot be found and for each template that cannot be loaded."""
    try:
        env = make_environment(root, cfg)
    except SitegenError as exc:
        report.extend(exc.diagnostics)
        return
    for name in env.list_templates(extensions=("html", "xml")):
        try:
            env.get_template(name)
        except SitegenError as exc:
            report.extend(exc.diagnostics)
        except (jinja2.TemplateError, OSError, RecursionError) as exc:
            report.add(diagnostic(exc, env, root, name, name))
