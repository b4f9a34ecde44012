"""``{bp-cover}``: the title page's block (subtitle, edition, author, release, copyright) from the edition."""

from __future__ import annotations

from docutils import nodes

from blackpoker.sphinxext import render as r
from blackpoker.sphinxext.ruleset import RulesDirective


class CoverDirective(RulesDirective):
    def run(self) -> list[nodes.Node]:
        self.note_definitions(prose=False)
        ed = self.rules.edition
        box = nodes.container(classes=["bp-cover"])
        if ed.subtitle:
            box += r.para(ed.subtitle, classes=["bp-subtitle"])
        box += r.para(ed.edition, classes=["bp-edition"])
        box += r.para(f"{ed.author} 著 · {ed.release} 発行 · {ed.copyright}", classes=["bp-meta"])
        return [box]
