"""The Jinja environment and the values every action-list template sees."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from blackpoker.core.field_labels import short_labels
from blackpoker.core.kinds import KIND
from blackpoker.core.model import Rules, TextList
from blackpoker.core.paths import TEMPLATES
from blackpoker.core.typography import for_readers
from blackpoker.render.actionlist.inline import InlineMarkup
from blackpoker.render.actionlist.view import ListPage
from blackpoker.render.pdfparts import css_string
from blackpoker.render.qr import qr_svg

TEMPLATE_DIR = TEMPLATES / "actionlist"
STATIC_DIR = TEMPLATE_DIR / "static"


@dataclass(frozen=True)
class Ref:
    """A cross-reference to another entry; ``anchor`` is None when the target is not on this page."""

    name: str
    anchor: str | None


def make_environment(rules: Rules, help_refs: Mapping[str, str] | None = None) -> Environment:
    """The lists' Jinja environment; ``help_refs`` (web pages only) links 「防壁の置き方」 and the like in the
    entries' text to the help panel (title → the panel's id)."""
    env = Environment(loader=FileSystemLoader(TEMPLATE_DIR), autoescape=True, undefined=StrictUndefined,
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                      # every output, literal text beside an expression included: no template may need an ASCII ~
                      finalize=lambda value: for_readers(value) if isinstance(value, str) else value)
    env.filters["rich"] = InlineMarkup(rules.labels, help_refs or {})
    env.filters["css_string"] = lambda text: Markup(css_string(text))
    env.tests["textlist"] = lambda block: isinstance(block, TextList)
    env.globals["qr_svg"] = qr_svg
    env.globals["label"] = short_labels()  # the entries' field names (core/field_labels.py)
    return env


def _refs(rules: Rules, page: ListPage) -> dict[str, Any]:
    """Lookups from ids to names and, where present on the page, anchors."""
    anchors = page.anchors

    def ref(kind: str, id: str) -> Ref:
        anchor = KIND[kind].anchor_of(id)
        return Ref(KIND[kind].lookup(rules, id).name, anchor if anchor in anchors else None)

    return {
        "action_ref": lambda id: ref("action", id),
        "character_ref": lambda id: ref("character", id),
        "frame_name": lambda id: rules.frame(id).name,
        "format_name": lambda id: rules.format(id).name,
    }


def filter_data(rules: Rules, page: ListPage) -> dict[str, Any]:
    """What the all-list's script needs: formats, frames with their formats (Table 3.1), categories."""
    return {
        "formats": [{"id": f.id, "name": f.name} for f in rules.formats],
        "frames": [{"id": f.id, "name": f.name, "formats": list(f.formats)} for f in rules.frames],
        "categories": list(page.categories),
    }


def page_context(rules: Rules, page: ListPage, pages: tuple[ListPage, ...]) -> dict[str, Any]:
    edition = rules.edition
    return {
        "rules": rules,
        "edition": edition,
        "edition_label": f"{edition.edition} ({edition.version})",
        "page": page,
        "pages": pages,
        "costs": {c.letter: c for c in rules.costs},
        "formats": rules.formats,
        "frames": rules.frames,
        "filters": filter_data(rules, page),
        **_refs(rules, page),
    }


def static_files() -> list[Path]:
    return sorted(p for p in STATIC_DIR.iterdir() if p.is_file())
