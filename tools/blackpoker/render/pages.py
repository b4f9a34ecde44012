"""The Jinja environment of the site's own pages (the play page, the tutorial, 版の違い): autoescaping and
StrictUndefined always, the page's own template folder with the shared one (``templates/shared``: the head every
such page opens with) beside it, and the one font stack as ``bp_fonts``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from blackpoker.core.paths import TEMPLATES
from blackpoker.render.fonts import stylesheet as font_stylesheet

SHARED = TEMPLATES / "shared"


def page_environment(folder: Path, **options: Any) -> Environment:
    """The environment for the templates of ``folder`` (``options``: more of Jinja's, e.g. ``finalize``)."""
    env = Environment(loader=FileSystemLoader([folder, SHARED]), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, **options)
    env.globals["bp_fonts"] = Markup(font_stylesheet())  # render/fonts.py: the one font stack
    return env
