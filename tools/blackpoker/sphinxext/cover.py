"""``{bp-cover}``: the title page's block (subtitle, edition, author, release, copyright) from the edition."""

from __future__ import annotations

from docutils import nodes
from sphinx import addnodes

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
        return [box, _play_links()]


def _play_links() -> nodes.Node:
    """On the site (not in the printed book): the play page and the guided tutorial (pipeline/playpage.py,
    pipeline/tutorialpage.py)."""
    on_site = addnodes.only(expr="not singlehtml")
    on_site += nodes.raw("", '<p class="bp-play-links">ブラウザーで遊ぶ: <a href="play/tutorial.html">はじめての BlackPoker'
                             '(チュートリアル)</a> ・ <a href="play/index.html">コンピューターと対戦</a></p>', format="html")
    return on_site
