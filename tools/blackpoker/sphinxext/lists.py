"""``{bp-list} KIND``: the generated lists of 4.3.x and 5.3.x, one entry per definition.

Each entry shows every field the rules show, carries its stable label (``act-<id>``, ``char-<id>``,
``fog-<id>``, ``trump-<id>``, ``frame-<id>``) and the rulings that apply to it.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Sequence
from typing import TypeVar

from docutils import nodes
from sphinx import addnodes

from blackpoker.core.cards import SUIT_SYMBOLS, SUITS, parse_card, rank_text
from blackpoker.core.field_labels import FIELD_LABELS as FIELD
from blackpoker.core.field_labels import FRAME_LABELS as FRAME
from blackpoker.core.kinds import KIND, RULEBOOK_LISTS, anchor, official_anchors
from blackpoker.core.model import Action, Character, Fog, Frame, Trump
from blackpoker.render.board import card_svg
from blackpoker.sphinxext import render as r
from blackpoker.sphinxext.figures import frame_layout_figure
from blackpoker.sphinxext.kana import to_hiragana, to_katakana
from blackpoker.sphinxext.notes import ruling_at
from blackpoker.sphinxext.ruleset import RulesDirective

E = TypeVar("E", Action, Character, Fog, Trump)
FRAME_ACTIONS_SECTION = "sec-5-3-2"  # source/frame.md: 5.3.2 フレームアクションリスト, where a frame's actions are


class ListDirective(RulesDirective):
    """``{bp-list} actions|characters|fogs|frames|frame-actions|frame-fogs|trumps``."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        kind = self.arguments[0]
        builders: dict[str, Callable[[], list[nodes.Node]]] = {
            # the book starts each group of the long format action list on a new page (and renders it alone)
            "actions": lambda: self.grouped(self.rules.format_actions, self.rules.action_groups, self.action,
                                            page_per_group=True),
            "frame-actions": lambda: self.grouped(self.rules.frame_actions, self.rules.frame_action_groups,
                                                  self.action),
            "characters": lambda: self.grouped(self.rules.characters, None, self.character),
            "fogs": lambda: self.grouped(self.rules.format_fogs, None, self.fog),
            "frame-fogs": lambda: self.grouped(self.rules.frame_fogs, None, self.fog),
            "trumps": lambda: self.trump_intro() + self.grouped(self.rules.trumps, None, self.trump),
            "frames": self.frames,
        }
        if kind not in builders:
            raise self.error(f"unknown bp-list '{kind}'; expected one of {', '.join(builders)}")
        if RULEBOOK_LISTS[kind] != self.env.docname:  # the action lists link each entry to that page
            raise self.error(f"bp-list '{kind}' belongs on the page '{RULEBOOK_LISTS[kind]}' "
                             f"(core/kinds.py: RULEBOOK_LISTS), not on '{self.env.docname}'")
        self.note_definitions()
        box = nodes.container(classes=["bp-list", f"bp-list-{kind}"])
        box.extend(builders[kind]())
        return [box]

    def trump_intro(self) -> list[nodes.Node]:
        """The trump list's introduction and its 補足 (the official trumpData), where the edition has them."""
        about = self.rules.trump_about
        if about is None:
            return []
        out: list[nodes.Node] = [r.para(p, classes=["bp-intro"]) for p in about.description.split("\n\n")]
        if about.design_note:
            out.append(r.field_list([(FIELD["design_note"], about.design_note)]))
        return out

    # --- structure ------------------------------------------------------------------------------
    def grouped(self, entries: Sequence[E], order: Sequence[str] | None,
                render: Callable[[E], nodes.Element], page_per_group: bool = False) -> list[nodes.Node]:
        """Entries under their group headings, after a contents list (目次) like the printed lists.

        ``page_per_group`` marks the group headings but the first ``bp-page-group``: in print each later group
        starts a page, so the book can render (and cache) each group on its own (book.py); the first follows
        the heading and text before the list on their page (a page break there left them alone on a page)."""
        groups: dict[str, list[E]] = {g: [] for g in order or ()}
        for e in entries:
            groups.setdefault(_group(e), []).append(e)
        groups = {g: es for g, es in groups.items() if es}
        contents = nodes.bullet_list(classes=["bp-contents"])
        out: list[nodes.Node] = [r.para("目次", classes=["bp-contents-title"]), contents]
        for n, (group, members) in enumerate(groups.items()):
            item = nodes.list_item()
            item += r.para(group)
            sub = nodes.bullet_list()
            for e in members:
                li = nodes.list_item()
                p = nodes.paragraph()
                p += r.ref(_label(e), f"{e.name} ({e.category})")
                li += p
                sub += li
            item += sub
            contents += item
            classes = ["bp-group", "bp-page-group"] if page_per_group and n > 0 else ["bp-group"]
            out.append(nodes.rubric(group, "", *r.suited(group), classes=classes))
            out.extend(render(e) for e in members)
        return out

    def entry(self, e: Action | Character | Fog | Trump | Frame, label: str, category: str | None) -> nodes.container:
        box = nodes.container(classes=["bp-entry"])
        title = nodes.rubric("", "", classes=["bp-entry-title"])
        title.extend(r.ruby(e.name, e.reading))
        if category:
            title += nodes.Text(f" ({category})")
        r.target_title(title, label, self.state.document)
        # the official site's anchors (act-summonsSoldier, the tutorial's act-summonssoldier) lead here too: extra
        # ids, which the HTML writer gives as empty elements before the title (unique: core/checks.py)
        title["ids"].extend(official_anchors(e))
        box += r.search_entry(e.name, label)
        # its reading finds it too, in hiragana or katakana (へいししょうかん, ヘイシショウカン; あっぷ for アップ)
        for alias in dict.fromkeys((to_hiragana(e.reading), to_katakana(e.reading))):
            if alias and alias != e.name:
                box += r.search_entry(alias, label)
        box += title
        if not isinstance(e, Frame):  # on the site, the entry in the action list (a frame's: with its frame)
            frames = getattr(e, "frames", ())
            query = f"?frame={frames[0]}" if frames else ""
            link = nodes.paragraph(classes=["bp-list-link"])
            link += nodes.reference("", "アクションリストで見る", refuri=f"actionlist/html/all.html{query}#{label}")
            on_site = addnodes.only(expr="not singlehtml")
            on_site += link
            box += on_site
        return box

    def badges(self, e: Action | Character | Fog | Trump, *parts: str) -> nodes.paragraph:
        """The one-line summary: shorthand, $cost, ★key card, and the changed-in-this-edition mark."""
        p = nodes.paragraph(classes=["bp-summary"])
        for part in parts:
            if part:
                p += nodes.inline("", "", *r.suited(part), classes=["bp-badge"])
                p += nodes.Text(" ")
        if self.rules.is_changed(e):
            text = f"{self.rules.edition.version} で変更"
            p += nodes.inline(text, text, classes=["bp-changed"])
        return p

    def availability(self, e: Action | Character | Fog | Trump) -> tuple[str, nodes.Node | list[nodes.Node] | None]:
        frames = getattr(e, "frames", ())
        if frames:
            refs: list[nodes.Node] = []
            for i, fid in enumerate(frames):
                if i:
                    refs.append(nodes.Text("、"))
                refs.append(r.ref(KIND["frame"].anchor_of(fid), self.rules.frame(fid).name))
            p = nodes.paragraph()
            p.extend(refs)
            return (FIELD["frames"], p)
        return (FIELD["formats"], r.format_table(self.rules, getattr(e, "formats", ())))

    def tail(self, e: Action | Character | Fog | Trump, kind: str) -> list[tuple[str, nodes.Node | list[nodes.Node] | str | None]]:
        story = getattr(e, "story", None)
        flavor = getattr(e, "flavor", None)
        flavor_nodes: list[nodes.Node] = []
        if flavor:
            flavor_nodes.append(r.para(flavor, classes=["bp-flavor"]))
            speaker = getattr(e, "flavor_speaker", None)
            if speaker:
                flavor_nodes.append(r.para(f"～ {speaker} ～", classes=["bp-speaker"]))
        return [(FIELD["story"], story), (FIELD["flavor"], flavor_nodes),
                (FIELD["introduced"], e.introduced), (FIELD["updated"], ", ".join(e.updated)),
                (FIELD["design_note"], e.design_note)]

    def finish(self, box: nodes.container, e: object, kind: str, ident: str) -> nodes.container:
        place = KIND[kind].ruling_ref(ident)
        for ruling in self.rules.rulings_for(place):
            box += ruling_at(self.rules, ruling, place, self.state.document)
        return box

    # --- entries ----------------------------------------------------------------------------------
    def action(self, a: Action) -> nodes.Element:
        box = self.entry(a, KIND["action"].anchor_of(a.id), a.category)
        box += self.badges(a, a.shorthand, f"${a.cost_text}" if a.cost else "", f"★{a.key_card}" if a.key_card else "")
        target = a.target
        rows = [self.availability(a),
                (FIELD["trigger"], a.trigger.label), (FIELD["speed"], a.speed.label), (FIELD["timing"], a.timing.label),
                (FIELD["key_card"], a.key_card), (FIELD["key_unit"], a.key_unit), (FIELD["cost"], self.cost(a)),
                (FIELD["note"], f"※{a.note}" if a.note else None),
                (FIELD["activation_condition"], a.activation_condition), (FIELD["trigger_condition"], a.trigger_condition),
                (FIELD["target"], target),
                (FIELD["effect"], r.blocks(a.effect)), *self.tail(a, "action")]
        box += r.field_list(rows)
        return self.finish(box, a, "action", a.id)

    def cost(self, a: Action) -> nodes.Node | None:
        if not a.cost:
            return None
        p = nodes.paragraph()
        for letter in a.cost:
            ct = self.rules.cost_type(letter)
            p += nodes.abbreviation(letter, letter, explanation=f"{ct.name}: {ct.payment}")
        return p

    def character(self, c: Character) -> nodes.Element:
        box = self.entry(c, KIND["character"].anchor_of(c.id), c.category)
        box += self.badges(c, f"★{c.key_card}")
        labels = nodes.bullet_list(classes=["bp-labels"])
        for label in c.labels:
            li = nodes.list_item()
            li += r.para(f"<{label.name}>" + (f" ({label.condition})" if label.condition else ""))
            labels += li
        abilities = [r.para(f"{ab.name}: {ab.text}" if ab.name else ab.text) for ab in c.abilities]
        summoned = nodes.paragraph()
        for i, aid in enumerate(c.summoned_by):
            if i:
                summoned += nodes.Text("、")
            summoned += r.ref(KIND["action"].anchor_of(aid), self.rules.action(aid).name)
        rows = [self.availability(c), (FIELD["key_card"], c.key_card), (FIELD["size"], c.size),
                (FIELD["note"], f"※{c.note}" if c.note else None), (FIELD["labels"], labels),
                (FIELD["ability"], abilities), (FIELD["summoned_by"], summoned), *self.tail(c, "character")]
        box += r.field_list(rows)
        return self.finish(box, c, "character", c.id)

    def fog(self, f: Fog) -> nodes.Element:
        box = self.entry(f, KIND["fog"].anchor_of(f.id), f.category)
        box += self.badges(f, f"★{f.key_card}")
        placed = nodes.paragraph()
        placed += r.ref(KIND["action"].anchor_of(f.placed_by), self.rules.action(f.placed_by).name)
        rows = [self.availability(f), (FIELD["key_card"], f.key_card), (FIELD["target"], f.target), (FIELD["ability"], f.ability),
                (FIELD["placed_by"], placed), *self.tail(f, "fog")]
        box += r.field_list(rows)
        return self.finish(box, f, "fog", f.id)

    def trump(self, t: Trump) -> nodes.Element:
        box = self.entry(t, KIND["trump"].anchor_of(t.id), t.category)
        box += self.badges(t, f"★{t.key_card}")
        enables: nodes.Node | None = None
        if t.enables:
            enables = nodes.paragraph()
            enables += r.ref(KIND["action"].anchor_of(t.enables), self.rules.action(t.enables).name)
        rows = [self.availability(t), (FIELD["key_card"], t.key_card), (FIELD["ability"], t.ability),
                (FIELD["grants_label"], f"<{t.grants_label}>" if t.grants_label else None),
                (FIELD["enables"], enables), (FIELD["image"], _image(t)), *self.tail(t, "trump")]
        box += r.field_list(rows)
        return self.finish(box, t, "trump", t.id)

    # --- frames -----------------------------------------------------------------------------------
    def frames(self) -> list[nodes.Node]:
        contents = nodes.bullet_list(classes=["bp-contents"])
        out: list[nodes.Node] = [r.para("目次", classes=["bp-contents-title"]), contents]
        for f in self.rules.frames:
            li = nodes.list_item()
            p = nodes.paragraph()
            p += r.ref(KIND["frame"].anchor_of(f.id), f.name)
            li += p
            contents += li
            out.append(self.frame(f))
        return out

    def frame(self, f: Frame) -> nodes.Element:
        rules = self.rules
        box = self.entry(f, KIND["frame"].anchor_of(f.id), None)
        box["classes"].append("bp-frame")
        figure: nodes.Node = frame_layout_figure(rules, f, self.state.document)
        setup = nodes.enumerated_list(enumtype="arabic", prefix="", suffix=".")
        for step in f.setup:
            li = nodes.list_item()
            li += r.para(step)
            setup += li
        if f.image is not None:  # the edition's own picture of the layout (the official image)
            data = base64.b64encode(f.image.data).decode("ascii")
            figure = nodes.raw("", f'<img class="bp-frame-image" src="data:{f.image.media_type};base64,{data}" '
                               f'alt="{html.escape(f.name)}の{FRAME["image"]}">', format="html")
        parent: nodes.Node | None = None
        if f.inherits:
            parent = nodes.paragraph()
            parent += r.ref(KIND["frame"].anchor_of(f.inherits), rules.frame(f.inherits).name)
        rows: list[tuple[str, nodes.Node | list[nodes.Node] | str | None]] = [
            (FRAME["image"], figure),
            (FRAME["inherits"], parent),
            (FIELD["formats"], r.format_table(rules, f.formats)),
            (FRAME["deck"], self.deck(f) if f.deck else [r.para("なし")]),
            (FRAME["setup"], [setup, r.para(f.setup_continues)] if f.setup else None),
            (FRAME["actions"], self.links("次のアクションが追加で利用可能です。", "action",
                                    [(a, rules.action(a).name) for a in f.actions], FRAME_ACTIONS_SECTION)),
            (FRAME["fogs"], self.links("次のフォグが追加で利用可能です。", "fog",
                                  [(x, rules.fog(x).name) for x in f.fogs])),
            (FRAME["trumps"], self.links("次の切札が利用可能です。", "trump",
                                 [(x, rules.trump(x).name) for x in f.trumps])),
            (FRAME["characters"], self.links("次のキャラクターが利用可能です。", "character",
                                      [(x, rules.character(x).name) for x in f.characters])),
            (FRAME["disclosure"], self.disclosure(f)),
        ]
        box += r.field_list(rows)
        return self.finish(box, f, "frame", f.id)

    def deck(self, f: Frame) -> list[nodes.Node]:
        assert f.deck is not None
        out: list[nodes.Node] = [r.para(f.deck.text)]
        if f.deck.cards:
            cards = [parse_card(code) for code in f.deck.cards]
            lst = nodes.bullet_list(classes=["bp-deck"])
            for suit in SUITS:
                ranks = [rank_text(c.rank) for c in cards if c.suit == suit]
                if ranks:
                    li = nodes.list_item()
                    li += r.para(f"{SUIT_SYMBOLS[suit]} {', '.join(ranks)}")
                    lst += li
            jokers = sum(1 for c in cards if c.is_joker)
            if jokers:
                li = nodes.list_item()
                li += r.para(f"Joker × {jokers}")
                lst += li
            out.append(lst)
        return out

    def links(self, intro: str, kind: str, items: list[tuple[str, str]], details: str | None = None) -> list[nodes.Node]:
        """``intro``, the entries as links and, as the book has it, 「詳細は次を参照してください。」 and the section
        ``details`` (its label) that holds them."""
        if not items:
            return []
        lst = nodes.bullet_list()
        for ident, name in items:
            li = nodes.list_item()
            p = nodes.paragraph()
            p += r.ref(KIND[kind].anchor_of(ident), name)
            li += p
            lst += li
        more: list[nodes.Node] = []
        if details:
            see = nodes.paragraph()
            see += r.numref(details)
            more = [r.para("詳細は次を参照してください。"), see]
        return [r.para(intro), lst, *more]

    def disclosure(self, f: Frame) -> list[nodes.Node]:
        if not f.disclosure:
            return []
        header = ["場所", *(level.name for level in self.rules.disclosure_levels)]
        rows = [[self.rules.zone(d.zone).name, d.public, d.personal, d.hidden] for d in f.disclosure]
        return [r.para("このフレームで定義されている領域の公開レベルは次の通りです。"),
                r.table(header, rows, classes=["bp-disclosure"], widths=[2, 3, 3, 3])]


def _group(e: Action | Character | Fog | Trump) -> str:
    return getattr(e, "group", None) or e.category


def _label(e: Action | Character | Fog | Trump) -> str:
    return anchor(e)


def _image(t: Trump) -> nodes.raw:
    """A trump's イメージ: its picture from the definitions (embedded: the site and the book need no file), or
    the card drawn from its key card (its back for a face-down trump)."""
    if t.image is not None:
        data = base64.b64encode(t.image.data).decode("ascii")
        alt = html.escape(f"{t.name}のイメージ")
        return nodes.raw("", f'<img class="bp-trump-image" src="data:{t.image.media_type};base64,{data}" alt="{alt}">',
                         format="html")
    face_down = t.key is not None and t.key.face_down
    return nodes.raw("", card_svg(t.key_card if not face_down else None, t.name, face_down=face_down), format="html")
