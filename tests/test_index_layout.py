"""The book's index at scale (issue 25, item 10): a kana group of thousands of entries (5,000 actions named alike)
flows in two columns page by page; as two floats going on over pages, WeasyPrint's work grew with the square of
the group's length."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from docutils import nodes

from blackpoker.core.paths import SOURCE
from blackpoker.render.fonts import stylesheet
from blackpoker.render.pdfparts import render_part
from blackpoker.sphinxext.index import FLOW_OVER, IndexEntry, index_group
from blackpoker.sphinxext.kana import sort_key

TAGS = {nodes.container: "div", nodes.bullet_list: "ul", nodes.list_item: "li", nodes.paragraph: "p",
        nodes.inline: "span"}


def _entries(n: int) -> list[IndexEntry]:
    return [IndexEntry(sort_key("しけんまほう"), f"項目{i:04d}", "", f"item-{i}") for i in range(n)]


def _html(node: nodes.Node) -> str:
    """The group as Sphinx writes it (the cross-reference resolved to a link), enough for the print stylesheet."""
    if isinstance(node, nodes.Text):
        return html.escape(str(node))
    assert isinstance(node, nodes.Element)
    inner = "".join(_html(child) for child in node.children)
    if node.tagname == "pending_xref":
        return f'<a class="reference internal" href="#{node["reftarget"]}">{inner}</a>'
    tag = TAGS[type(node)]
    classes = " ".join(node.get("classes", []))
    return f'<{tag} class="{classes}">{inner}</{tag}>'


def test_a_short_group_keeps_its_two_halves_and_a_long_one_flows() -> None:
    short = index_group(_entries(FLOW_OVER))
    assert "bp-index-flow" not in short["classes"]
    assert [len(lst.children) for lst in short.children] == [FLOW_OVER // 2, FLOW_OVER // 2]
    long = index_group(_entries(FLOW_OVER + 1))
    assert "bp-index-flow" in long["classes"] and [len(lst.children) for lst in long.children] == [FLOW_OVER + 1]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_a_long_group_reads_in_order_page_by_page(tmp_path: Path) -> None:
    count = 3 * FLOW_OVER
    targets = "".join(f'<p id="item-{i}">{i}</p>' for i in range(count))
    page = (f'<!doctype html><html lang="ja"><head><meta charset="utf-8"><style>{stylesheet()}</style>'
            f'<link rel="stylesheet" href="print.css"></head><body><div class="body">'
            f'<div class="bp-index">{_html(index_group(_entries(count)))}</div>'
            f'<div style="break-before: page">{targets}</div></div></body></html>')
    data, info = render_part(page, (SOURCE / "_static").as_uri() + "/")
    pdf = tmp_path / "index.pdf"
    pdf.write_bytes(data)
    seen: list[list[int]] = []
    for number in range(1, info.pages + 1):
        text = subprocess.run(["pdftotext", "-f", str(number), "-l", str(number), "-layout", str(pdf), "-"],
                              check=True, capture_output=True, text=True).stdout
        found = [int(n) for n in re.findall(r"項目(\d{4})", text)]
        if found:
            seen.append(sorted(found))
    assert len(seen) >= 2, "the group should take more than one page"
    assert [n for numbers in seen for n in numbers] == list(range(count))  # each page a run: no float goes on
