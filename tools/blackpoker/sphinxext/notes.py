"""``{bp-rulings} kind:id`` (visible 「裁定」 notes) and ``{bp-changes}`` (the changes of this edition)."""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx.util import logging

from blackpoker.core.kinds import FRAME_ACTION_NAME, KIND, anchor
from blackpoker.core.model import Action, Character, Fog, Rules, Ruling, Trump
from blackpoker.sphinxext import render as r
from blackpoker.sphinxext.ruleset import RulesDirective

logger = logging.getLogger(__name__)
_REF = re.compile(r"^(section|action|character|fog|trump|frame):[a-z0-9.\-]+$")


class RulingsDirective(RulesDirective):
    """``{bp-rulings} section:6.4.2``: every ruling whose ``applies_to`` names that place."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        ref = self.arguments[0]
        if not _REF.match(ref):
            raise self.error(f"'{ref}' is not a ruling place; expected e.g. 'section:6.4.2' or 'action:equip'")
        self.note_definitions(prose=False)
        found = self.rules.rulings_for(ref)
        if not found:
            logger.warning("no ruling in rulings.yaml applies to '%s'", ref, location=self.get_location())
        return [ruling_at(self.rules, ruling, ref, self.state.document) for ruling in found]


def ruling_at(rules: Rules, ruling: Ruling, place: str, document: nodes.document) -> nodes.Element:
    """The ruling where it applies: in full at its first place (``applies_to`` order); at every other place one
    line that links there, so a ruling of five trumps is read once, not five times."""
    first = ruling.applies_to[0]
    if place == first:
        return r.ruling_note(ruling, document)
    line = nodes.paragraph(classes=["bp-ruling-ref"])
    line += nodes.Text(f"裁定: {ruling.title}(")
    line += place_link(rules, first)
    line += nodes.Text(" に記載)")
    return line


def place_link(rules: Rules, place: str) -> nodes.Node:
    """A link to where a ruling applies: ``section:6.4.2`` → ``sec-6-4-2``, ``action:equip`` → ``act-equip``."""
    kind, ident = place.split(":", 1)
    if kind == "section":
        return r.ref("sec-" + ident.replace(".", "-"), ident)
    entry_kind = KIND[kind]
    return r.ref(entry_kind.anchor_of(ident), entry_kind.lookup(rules, ident).name)


class ChangesDirective(RulesDirective):
    """``{bp-changes}``: entries updated in this edition (by kind, linked), then every ruling of the project."""

    def run(self) -> list[nodes.Node]:
        self.note_definitions(prose=False)
        rules = self.rules
        version = rules.edition.version
        kinds: list[tuple[str, tuple[Action | Character | Fog | Trump, ...]]] = [
            (KIND["action"].name, rules.format_actions), (FRAME_ACTION_NAME, rules.frame_actions),
            (KIND["character"].name, rules.characters), (KIND["fog"].name, rules.fogs), (KIND["trump"].name, rules.trumps),
        ]
        out: list[nodes.Node] = [r.para(f"更新バージョンに {version} を持つ項目です。各項目の「{version} で変更」が目印です。")]
        for title, entries in kinds:
            changed = [e for e in entries if rules.is_changed(e)]
            if not changed:
                continue
            out.append(nodes.rubric(title, title, classes=["bp-changes-kind"]))
            lst = nodes.bullet_list(classes=["bp-changes"])
            for e in changed:
                li = nodes.list_item()
                p = nodes.paragraph()
                p += r.ref(anchor(e), f"{e.name} ({e.category})")
                li += p
                lst += li
            out.append(lst)
        out.append(nodes.rubric("裁定", "裁定", classes=["bp-changes-kind"]))
        out.append(r.para("原文があいまいな箇所、誤っている箇所について、本書では次のように定めます。"))
        lst = nodes.bullet_list(classes=["bp-changes-rulings"])
        for ruling in rules.rulings:
            lst += self.ruling_item(ruling)
        out.append(lst)
        return out

    def ruling_item(self, ruling: Ruling) -> nodes.list_item:
        li = nodes.list_item()
        head = nodes.paragraph()
        head += nodes.strong(ruling.title, ruling.title)
        head += nodes.Text(" (対象: ")
        for i, place in enumerate(ruling.applies_to):
            if i:
                head += nodes.Text("、")
            head += place_link(self.rules, place)
        head += nodes.Text(")")
        li += head
        li += r.para(ruling.ruling)
        return li


def amended_role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
                 options: dict[str, Any] | None = None, content: list[str] | None = None,
                 ) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``{bp-amended}`合計+5の修正 <ability-order-example-sum>```: the book's words, kept verbatim, marked as
    amended by a ruling, with a link to the ruling's note (so a reader never takes the book's +5 for the rule)."""
    match = re.fullmatch(r"(.+?)\s*<([a-z0-9-]+)>", text, re.S)
    env = inliner.document.settings.env
    rules: Rules = env.config.blackpoker_rules
    ids = {ruling.id for ruling in rules.rulings}
    if match is None or match.group(2) not in ids:
        message = inliner.reporter.error(
            f"bp-amended: expected `the book's words <ruling-id>` with a ruling id of rulings.yaml, got {text!r}",
            line=lineno)
        return [inliner.problematic(rawtext, rawtext, message)], [message]
    words, ruling_id = match.groups()
    mark = nodes.superscript(classes=["bp-amended-mark"])
    mark += r.ref(r.ruling_label(ruling_id), "※裁定")
    return [nodes.inline(words, words, classes=["bp-amended"]), mark], []
