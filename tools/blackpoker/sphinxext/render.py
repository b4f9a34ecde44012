"""Small builders of docutils nodes shared by the directives.

Text from the definitions only ever goes into ``nodes.Text`` (escaped by every writer) or through
:func:`html.escape` into raw HTML, so nothing in the YAML is interpreted as markup.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Sequence

from docutils import nodes
from sphinx import addnodes

from blackpoker.core.model import Block, Rules, Ruling, TextList

FORMAT_MARK = {True: "○", False: "×"}
_RED_SUITS = re.compile(r"([♡♥◇♦])")
_ENUM = {"numbered": "arabic", "lettered": "upperalpha"}


Cell = str | nodes.Node | list[nodes.Node]  # a table cell: text (escaped, suits coloured) or ready nodes
Field = Cell | Sequence[nodes.Node] | None  # a field's body; None or empty leaves the field out


def suited(text: str) -> list[nodes.Node]:
    """Text nodes with the red suits (♡ ◇) wrapped so CSS can colour them."""
    out: list[nodes.Node] = []
    for piece in _RED_SUITS.split(text):
        if not piece:
            continue
        if _RED_SUITS.fullmatch(piece):
            out.append(nodes.inline(piece, piece, classes=["bp-red"]))
        else:
            out.append(nodes.Text(piece))
    return out


def needs_ruby(name: str) -> bool:
    """A reading helps a reader only over kanji (兵士召喚): over kana (アップ) it spells the name again."""
    return any(unicodedata.name(c, "").startswith("CJK UNIFIED IDEOGRAPH") for c in name)


def ruby(name: str, reading: str) -> list[nodes.Node]:
    """``<ruby>name<rt>reading</rt></ruby>``; the name stays a text node so references and search see it. An
    entry without a reading (an imported edition's), or whose name has no kanji, is its name alone (the reading
    still finds it in the search and sorts it in the index)."""
    if not reading or not needs_ruby(name):
        return suited(name)
    return [nodes.raw("", "<ruby>", format="html"), *suited(name),
            nodes.raw("", f"<rt>{html.escape(reading)}</rt></ruby>", format="html")]


def para(text: str, classes: Sequence[str] = ()) -> nodes.paragraph:
    node = nodes.paragraph("", "", classes=list(classes))
    node.extend(suited(text))
    return node


def blocks(content: Iterable[Block]) -> list[nodes.Node]:
    """Paragraphs and numbered (1.), bulleted (・) and lettered (A.) lists, nested as in the definitions."""
    out: list[nodes.Node] = []
    for block in content:
        if isinstance(block, str):
            out.append(para(block))
        else:
            out.append(text_list(block))
    return out


def text_list(block: TextList) -> nodes.Element:
    if block.style == "bulleted":
        lst: nodes.Element = nodes.bullet_list(bullet="・", classes=["bp-bulleted"])
    else:
        lst = nodes.enumerated_list(enumtype=_ENUM[block.style], prefix="", suffix=".")
    for item in block.items:
        li = nodes.list_item()
        li += para(item.text)
        li.extend(blocks(item.sub))
        lst += li
    return lst


LABEL_COLUMN = 7  # characters of a field label that fit the print's label column (print.css: 66.75pt at 9pt)
SHORT_VALUE = 12  # characters of a plain value that print.css may run on one line with its neighbours (トリガー 直接 スピード 通常)
LINE_EMS = 36  # ems of a printed entry card's line (A5, 9pt, the card's padding): a run of short fields never wraps


def _ems(text: str) -> float:
    """The printed width of ``text`` in ems: full-width characters one, the others about half."""
    return sum(1.0 if ord(c) > 0x2E7F else 0.55 for c in text)


def short_runs(rows: Sequence[tuple[str, str | None]]) -> list[list[str]]:
    """The classes of each row (label, plain value or None) that print.css uses to set runs of short fields on one
    line each: ``bp-short`` on every row of a run, ``bp-short-start`` on the first (its label in the label
    column), ``bp-short-end`` on the last (the line ends after it). A run ends before a row that would pass the
    line's width, which stays an ordinary row (two runs never meet); a lone short row is an ordinary row too."""
    runs: list[list[int]] = []
    width = 0.0
    for i, (label, value) in enumerate(rows):
        if value is None or len(value) > SHORT_VALUE or len(label) > LABEL_COLUMN:
            runs.append([])
            continue
        cost = _ems(label) + 0.4 + _ems(value) + 1.4
        if runs and runs[-1] and width + cost <= LINE_EMS:
            runs[-1].append(i)
            width += cost
        elif runs and runs[-1]:  # the line is full: this row stands alone, a run may start after it
            runs.append([])
        else:
            runs.append([i])
            width = LABEL_COLUMN + 1 + _ems(value) + 1.4
    classes: list[list[str]] = [[] for _ in rows]
    for run in (r for r in runs if len(r) > 1):
        for i in run:
            classes[i].append("bp-short")
        classes[run[0]].append("bp-short-start")
        classes[run[-1]].append("bp-short-end")
    return classes


def field_list(rows: Iterable[tuple[str, Field]]) -> nodes.field_list:
    """A field list of (label, body); rows whose body is None or empty are left out, as the rules do."""
    fl = nodes.field_list(classes=["bp-fields"])
    kept = [(label, body) for label, body in rows if not (body is None or body == [] or body == "")]
    runs = short_runs([(label, body if isinstance(body, str) else None) for label, body in kept])
    for (label, body), run in zip(kept, runs, strict=True):
        # a label longer than the print's label column (7 characters) takes two lines: its value keeps the room
        field = nodes.field(classes=["bp-long-label"] if len(label) > LABEL_COLUMN else [])
        field["classes"].extend(run)
        field += nodes.field_name(label, label)
        fb = nodes.field_body()
        if isinstance(body, str):
            fb += para(body)
        elif isinstance(body, list):
            fb.extend(body)
        else:
            fb += body
        field += fb
        fl += field
    return fl


def table(header: Sequence[str], rows: Sequence[Sequence[Cell]], *,
          title: str | None = None, classes: Sequence[str] = (), widths: Sequence[int] | None = None) -> nodes.table:
    """A plain table; cells are text (escaped, suits coloured) or ready nodes."""
    tbl = nodes.table(classes=["bp-table", *classes])
    if title:
        tbl += nodes.title(title, title)
    group = nodes.tgroup(cols=len(header))
    for w in widths or [1] * len(header):
        group += nodes.colspec(colwidth=w)
    thead = nodes.thead()
    thead += _row(header)
    group += thead
    tbody = nodes.tbody()
    for r in rows:
        tbody += _row(r)
    group += tbody
    tbl += group
    return tbl


def _row(cells: Sequence[str | nodes.Node | list[nodes.Node]]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        if isinstance(cell, str):
            entry += para(cell)
        elif isinstance(cell, list):
            p = nodes.paragraph()
            p.extend(cell)
            entry += p
        else:
            entry += cell
        row += entry
    return row


def format_table(rules: Rules, formats: Sequence[str]) -> nodes.table:
    """The ○/× row of an entry's フォーマット."""
    return table([f.name for f in rules.formats], [[FORMAT_MARK[f.id in formats] for f in rules.formats]],
                 classes=["bp-formats"])


def ref(label: str, text: str) -> addnodes.pending_xref:
    """A cross-reference to a label (resolved by Sphinx for each builder, so it works in singlehtml too)."""
    node = addnodes.pending_xref("", refdomain="std", reftype="ref", reftarget=label, refexplicit=True,
                                 refwarn=True)
    node += nodes.inline(text, "", *suited(text))
    return node


def numref(label: str, title: str = "{number} {name}") -> addnodes.pending_xref:
    """A numbered reference to a section or figure, as ``{numref}`` writes it (「5.3.2 フレームアクションリスト」)."""
    node = addnodes.pending_xref("", refdomain="std", reftype="numref", reftarget=label, refexplicit=True,
                                 refwarn=True)
    node += nodes.inline(title, title)
    return node


def ruling_label(ruling_id: str) -> str:
    """The label of a ruling's note (where it is printed in full), for the marks in the text it amends."""
    return f"ruling-{ruling_id}"


def ruling_note(ruling: Ruling, document: nodes.document) -> nodes.admonition:
    """A visible 「裁定」 note: the problem in the source, then the project's decision."""
    note = nodes.admonition(classes=["bp-ruling"])
    target_title(note, ruling_label(ruling.id), document)
    note += nodes.title("", f"裁定: {ruling.title}")
    note += para(f"原文: {ruling.source}", classes=["bp-ruling-source"])
    note += para(ruling.ruling)
    return note


def search_entry(term: str, label: str) -> addnodes.index:
    """An invisible index entry for ``term`` at ``label``: the search page lists it first, opening that anchor
    (found whole or by half of it at least: 世代 finds 世代交代, which full-text search of Japanese misses)."""
    return addnodes.index(entries=[("single", term, label, "main", None)], inline=False)


def target_title(node: nodes.Element, label: str, document: nodes.document) -> None:
    """Give ``node`` the explicit label ``label`` (so {ref}, {numref} and #label links find it)."""
    node["ids"].append(label)
    node["names"].append(label)
    document.note_explicit_target(node, node)
