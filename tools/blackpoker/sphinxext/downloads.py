"""``{bp-downloads} book|lite|std|pro|mast|all|views``: the appendix's addresses of the book and the action lists.

Each address is printed as a reader types it (``?format=mast&frame=pack``: ids, nothing percent-encoded),
absolute under the ruleset's ``site``; each PDF says which print it is. Each links to the file in this build, so
the site works offline and paper shows where to go. The lists, their prints and the allowed format + frame views
come from the model: a new format or frame appears here by itself.
"""

from __future__ import annotations

from urllib.parse import quote

from docutils import nodes

from blackpoker.core.typography import COLON
from blackpoker.render.actionlist.view import list_pages
from blackpoker.sphinxext.ruleset import RulesDirective

BOOK = (("通常版", "blackpoker.pdf"), ("中綴じ印刷用", "blackpoker-booklet.pdf"))
PRINTS = (("", "A5"), ("-2up", "A4 2in1"), ("-booklet", "中綴じ冊子"))


class DownloadsDirective(RulesDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        self.note_definitions(prose=False)
        what = self.arguments[0]
        pages = {p.key: p for p in list_pages(self.rules)}
        if what == "book":
            rows: list[tuple[str, list[tuple[str, str]]]] = [(label, [("", path)]) for label, path in BOOK]
        elif what in pages:
            page = pages[what]
            # the book's addresses: the full list, filtered to a format; a frame's own list is its page
            html = {"all": "actionlist/html/all.html", "format": f"actionlist/html/all.html?format={quote(page.key)}",
                    "frame": f"actionlist/html/{page.filename}"}[page.scope]
            rows = [("URL", [("", html)]), ("PDF", [(label, f"actionlist/pdf/{page.pdf_stem}{suffix}.pdf") for suffix, label in PRINTS])]
        elif what == "views":
            rows = [(f"{f.name} + {fr.name}", [("", f"actionlist/html/all.html?format={quote(f.id)}&frame={quote(fr.id)}")])
                    for f in self.rules.formats for fr in self.rules.frames_for_format(f.id)]
        else:
            raise self.error(f"unknown bp-downloads '{what}'; expected book, views or one of {', '.join(pages)}")
        listing = nodes.definition_list(classes=["bp-downloads"])
        for label, paths in rows:
            item = nodes.definition_list_item()
            item += nodes.term(label, label)
            for kind, path in paths:
                definition = nodes.definition()
                para = nodes.paragraph()
                if kind:  # which print this PDF is (A5, two to a sheet, a booklet)
                    para += nodes.inline(f"{kind}{COLON}", f"{kind}{COLON}", classes=["bp-download-kind"])
                shown = self.rules.edition.address(path)  # as a reader types it: ids, nothing percent-encoded
                para += nodes.reference(shown, shown, refuri=path, classes=["bp-download"])
                definition += para
                item += definition
            listing += item
        return [listing]
