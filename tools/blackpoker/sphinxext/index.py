"""``{bp-index}``: the 索引, in gojūon order under kana headings.

It merges the printed v8.1 index terms (``source/index-terms.yaml``: term, reading, label) with every
definition entry (its name and ``reading``), each linking to its place. In the PDF the print stylesheet
adds the page number of each link.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes

from blackpoker.core.kinds import Named, anchor, label
from blackpoker.core.model import Rules
from blackpoker.sphinxext import render as r
from blackpoker.sphinxext.kana import GROUP_ORDER, group_of, sort_key
from blackpoker.sphinxext.ruleset import RulesDirective, read_yaml_list


@dataclass(frozen=True, order=True)
class IndexEntry:
    key: tuple[str, str]
    term: str
    kind: str
    label: str

    @property
    def reading(self) -> str:
        return self.key[1]


class IndexTermsError(ValueError):
    """A malformed index-terms file; the message names the file and the item."""


def read_terms(path: Path) -> list[IndexEntry]:
    items = read_yaml_list(path, "terms", "the index terms", IndexTermsError)
    out = []
    for i, item in enumerate(items):
        if not (isinstance(item, dict) and all(isinstance(item.get(k), str) and item[k] for k in ("term", "reading", "label"))):
            raise IndexTermsError(f"{path}: terms[{i}]: expected term, reading and label (non-empty strings)")
        out.append(IndexEntry(sort_key(item["reading"]), item["term"], "", item["label"]))
    return out


def definition_entries(rules: Rules) -> list[IndexEntry]:
    """Every named definition, labelled as its generated list labels it."""
    entries: list[Named] = [*rules.actions, *rules.characters, *rules.fogs, *rules.trumps, *rules.frames]
    return [IndexEntry(sort_key(e.reading or e.name), e.name, label(e), anchor(e)) for e in entries]


def all_entries(rules: Rules, terms_file: Path) -> list[IndexEntry]:
    return sorted(set(read_terms(terms_file) + definition_entries(rules)))


class IndexDirective(RulesDirective):
    """``{bp-index}``: the whole index; the terms file comes from ``blackpoker_index_terms``."""

    def run(self) -> list[nodes.Node]:
        self.note_definitions(prose=False)
        path = Path(self.env.srcdir) / self.config.blackpoker_index_terms
        self.env.note_dependency(str(path))
        try:
            entries = all_entries(self.rules, path)
        except IndexTermsError as exc:
            raise self.error(str(exc)) from None
        groups: dict[str, list[IndexEntry]] = {}
        for e in entries:
            groups.setdefault(group_of(e.reading), []).append(e)
        box = nodes.container(classes=["bp-index"])
        nav = nodes.paragraph(classes=["bp-index-nav"])
        for g in GROUP_ORDER:
            if g in groups:
                nav += nodes.reference(g, g, refid=f"idx-{g}")
                nav += nodes.Text(" ")
        box += nav
        for g in GROUP_ORDER:
            if g not in groups:
                continue
            head = nodes.rubric(g, g, classes=["bp-index-group"], ids=[f"idx-{g}"])
            box += head
            box += index_group(groups[g])
        return [box]


# A group with more entries than this flows in two CSS columns: two floats side by side that go on over pages
# cost WeasyPrint time growing with the square of their length (each page lays the rest of the float out again:
# 960 entries of one kana took 49 s against 18 s in columns). The printed book's groups are far smaller (29 at
# most) and keep their floats: balancing columns makes WeasyPrint lay a short index out over and over.
FLOW_OVER = 80


def index_group(items: list[IndexEntry]) -> nodes.container:
    """One kana's entries: two lists side by side, the first half and the second, read column by column; a long
    group (over FLOW_OVER) one list that the print stylesheet flows in two columns, page by page."""
    half = -(-len(items) // 2)
    parts = [items] if len(items) > FLOW_OVER else [items[:half], items[half:]]
    columns = nodes.container(classes=["bp-index-columns", *(["bp-index-flow"] if len(parts) == 1 else [])])
    for part in parts:
        lst = nodes.bullet_list(classes=["bp-index-list"])
        for e in part:
            li = nodes.list_item()
            p = nodes.paragraph()
            p += r.ref(e.label, e.term)
            if e.kind:  # apart from the name, in words too (「裏切札（切札）」, not 「裏切札切札」)
                p += nodes.Text(" ")
                p += nodes.inline(e.kind, f"（{e.kind}）", classes=["bp-index-kind"])
            li += p
            lst += li
        if part:
            columns += lst
    return columns


def add_term_entries(app: Any, doctree: nodes.document) -> None:
    """``doctree-read``: an invisible index entry for each 索引 term at the section or entry it points to, so the
    search page finds the term and opens that place (the entries' own names get theirs in lists.py)."""
    path = Path(app.env.srcdir) / app.config.blackpoker_index_terms
    try:
        terms = read_terms(path)
    except IndexTermsError:  # the {bp-index} directive reports it, at its place
        return
    app.env.note_dependency(str(path))
    by_label: dict[str, list[str]] = {}
    for term in terms:
        by_label.setdefault(term.label, []).append(term.term)
    for node in list(doctree.findall(nodes.Element)):
        ids: list[str] = node.get("ids", [])
        for target in [i for i in ids if i in by_label]:
            entry = addnodes.index(entries=[("single", t, target, "main", None) for t in by_label[target]], inline=False)
            if isinstance(node, nodes.section):
                node.insert(1, entry)  # after its title
            elif node.parent is not None:
                node.parent.insert(node.parent.index(node), entry)
