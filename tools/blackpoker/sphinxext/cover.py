"""``{bp-cover}``: the title page's block (subtitle, edition, author, release, copyright) from the edition;
``{bp-colophon}``: the book's 奥付 at its end, from the same facts."""

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


class ColophonDirective(RulesDirective):
    """``{bp-colophon}``: the book's 奥付 (title, edition, release, author, address, copyright notice), all from
    the edition in ruleset.yaml. The rules state no licence beyond the copyright notice, so none is printed."""

    def run(self) -> list[nodes.Node]:
        self.note_definitions(prose=False)
        ed = self.rules.edition
        box = nodes.container(classes=["bp-colophon"])
        box += r.para(ed.title, classes=["bp-colophon-title"])
        if ed.subtitle:
            box += r.para(ed.subtitle, classes=["bp-colophon-subtitle"])
        rows = [("版", ed.edition), ("発行", ed.release), ("著者", ed.author), ("公式サイト", ed.site)]
        table = nodes.field_list(classes=["bp-colophon-facts"])
        for label, value in rows:
            if not value:
                continue
            field = nodes.field()
            field += nodes.field_name(label, label)
            body = nodes.field_body()
            if label == "公式サイト":  # this site's own root: absolute in the book (render/book.py), like the appendix
                p = nodes.paragraph()
                p += nodes.reference(value, value, refuri="index.html")
                body += p
            else:
                body += r.para(value)
            field += body
            table += field
        box += table
        box += r.para(ed.copyright, classes=["bp-colophon-copyright"])
        return [box]


def _play_links() -> nodes.Node:
    """On the site (not in the printed book): the play page and the guided tutorial (pipeline/playpage.py,
    pipeline/tutorialpage.py)."""
    on_site = addnodes.only(expr="not singlehtml")
    on_site += nodes.raw("", '<p class="bp-play-links">ブラウザーで遊ぶ: <a href="play/tutorial.html">はじめての BlackPoker'
                             '(チュートリアル)</a> ・ <a href="play/index.html">コンピューターと対戦</a></p>', format="html")
    return on_site
