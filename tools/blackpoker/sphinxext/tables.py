"""``{bp-table} NAME``: the common tables of chapters 2 and 3, drawn from the model."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from blackpoker.core.kinds import KIND
from blackpoker.core.model import Rules
from blackpoker.sphinxext import render as r
from blackpoker.sphinxext.ruleset import RulesDirective


def card_numbers(rules: Rules) -> list[nodes.Node]:
    rows = [[c.card, str(c.number) if c.number is not None else (c.text or "")] for c in rules.card_numbers]
    return [r.table(["カード", "数字"], rows, title="トランプの数字")]


def costs(rules: Rules) -> list[nodes.Node]:
    rows = [[f"{c.letter} ({c.name})", c.payment] for c in rules.costs]
    return [r.table(["表記 (名称)", "対価"], rows, title="コストの種類", widths=[2, 3])]


def disclosure_levels(rules: Rules) -> list[nodes.Node]:
    """The levels and what each means (the book lists them before the sentence that leads to the table)."""
    levels = nodes.definition_list(classes=["bp-levels"])
    for level in rules.disclosure_levels:
        item = nodes.definition_list_item()
        item += nodes.term(level.name, level.name)
        body = nodes.definition()
        body += r.para(level.description)
        item += body
        levels += item
    return [levels]


def disclosure(rules: Rules) -> list[nodes.Node]:
    """Each place's information by level."""
    header = ["場所", *(level.name for level in rules.disclosure_levels)]
    rows: list[list[r.Cell]] = [[rules.zone(d.zone).name, d.public, d.personal, d.hidden] for d in rules.disclosure]
    return [r.table(header, rows, classes=["bp-disclosure"], widths=[2, 3, 3, 3])]


def frame_formats(rules: Rules) -> list[nodes.Node]:
    rows: list[list[r.Cell]] = [[[r.ref(KIND["frame"].anchor_of(f.id), f.name)],
                                 *(r.FORMAT_MARK[fmt.id in f.formats] for fmt in rules.formats)]
            for f in rules.frames]
    return [r.table(["【フレーム】", *(fmt.name for fmt in rules.formats)], rows, title="フレーム対応一覧",
                    classes=["bp-frame-formats"], widths=[3, 2, 2, 2, 2])]


def zones(rules: Rules) -> list[nodes.Node]:
    dl = nodes.definition_list(classes=["bp-zones"])
    for zone in rules.zones:
        if not zone.common:
            continue
        item = nodes.definition_list_item()
        item += nodes.term(zone.name, zone.name)
        body = nodes.definition()
        body += r.para(zone.description or "")
        item += body
        dl += item
    return [dl]


TABLES: dict[str, Callable[[Rules], list[nodes.Node]]] = {
    "card-numbers": card_numbers, "costs": costs, "disclosure-levels": disclosure_levels, "disclosure": disclosure,
    "frame-formats": frame_formats, "zones": zones,
}


class TableDirective(RulesDirective):
    """``{bp-table} card-numbers|costs|disclosure-levels|disclosure|frame-formats|zones``."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if name not in TABLES:
            raise self.error(f"unknown bp-table '{name}'; expected one of {', '.join(TABLES)}")
        self.note_definitions(prose=False)
        out = TABLES[name](self.rules)
        for node in out:
            if isinstance(node, nodes.table) and any(isinstance(c, nodes.title) for c in node.children):
                r.target_title(node, f"tbl-{name}", self.state.document)
        return out


class OneIdPerTable(SphinxPostTransform):
    """furo wraps each table in a ``table-wrapper`` container and copies every attribute to it, ids included,
    so a labelled table's id appeared twice on the page. The table keeps it (Sphinx numbers a table by it)."""

    formats = ("html",)
    default_priority = 501  # after furo's wrapping (500)

    def run(self, **kwargs: Any) -> None:
        for wrapper in list(self.document.findall(nodes.container)):
            if "table-wrapper" not in wrapper["classes"]:
                continue
            inner = {i for table in wrapper.findall(nodes.table) for i in table["ids"]}
            wrapper["ids"] = [i for i in wrapper["ids"] if i not in inner]
