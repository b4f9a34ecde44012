"""A position drawn as a board (inline SVG): both players' fields, life, hand, graveyard and fog, and the stage.

Drawn from the simulator's state, so a worked example shows exactly the position the simulator verified; the
play page draws an observation the same way (``hidden_hands``: the players whose hand shows as backs). The
board is narrow (``WIDTH`` user units, every text at least ``SMALLEST_TEXT``), so a 390 px phone shows it whole
at its natural size and a desktop scales it up. Each player has a band: a line with the name and the counts
(ライフ, 手札, 墓地), the field (soldiers face up with their size and labels, bulwarks as backs, a driven character
turned sideways, a character of several cards fanned), then the hand as cards, the graveyard's latest cards and
the fog. Rows that do not fit wrap. Between the bands the stage, top first, one request a line, and who holds the
chance, and the abilities in play (6.3), oldest first. Given ``before``, whatever differs from it is marked (a
thick red edge, counts as ``10→9``) and a legend says so. Text is Japanese and cards read ♠7, never S7.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass

from blackpoker.core.cards import Card
from blackpoker.render.cardart import FONT, INK, PAPER, RED, back
from blackpoker.sim.abilities import all_labels, size
from blackpoker.sim.state import PLAYER_NAMES, Character, GameState
from blackpoker.sim.text import life_answer

MUTED, EDGE, GREY = "#eef1f5", "#9aa5b5", "#444"
CHANGED = "#c2410c"
CARD_W, CARD_H = 26, 36
FAN = 22  # a fanned card's step: its corner (♠10 at 11 units) stays readable
WIDTH = 350  # fits a 390 px phone's column (358 px) at scale 1
SMALLEST_TEXT = 11  # user units: at scale 1 on a phone, 11 px
GRAVE_SHOWN = 4  # the graveyard's latest cards drawn; the count says how many there are


def _text(x: float, y: float, text: str, size: int = SMALLEST_TEXT, anchor: str = "start", fill: str = INK,
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}">{html.escape(text)}</text>')


def _card(x: float, y: float, card: Card | None, *, face_up: bool = True, driven: bool = False,
          changed: bool = False) -> str:
    """One card with its top-left corner at (x, y); ``driven`` turns it sideways about its centre; face down it
    is drawn as the one back every board and figure uses."""
    turn = f' transform="rotate(90 {x + CARD_W / 2:.1f} {y + CARD_H / 2:.1f})"' if driven else ""
    edge = f'stroke="{CHANGED}" stroke-width="2.4"' if changed else f'stroke="{INK}" stroke-width="0.8"'
    if not face_up or card is None:
        return f"<g{turn}>{back(x, y, CARD_W, CARD_H, edge=CHANGED if changed else INK, width=2.4 if changed else 0.8)}</g>"
    label = str(card)
    colour = RED if label[:1] in "♡◇" else INK
    return (f'<g{turn}><rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" height="{CARD_H}" rx="3" fill="{PAPER}" {edge}/>'
            + _text(x + 2, y + 12, label, fill=colour) + "</g>")  # in the corner: a fanned card shows it


@dataclass(frozen=True)
class _Item:
    """A block of the band laid out in rows: its size and how to draw it at a corner."""

    width: float
    height: float
    draw: Callable[[float, float], str]


def _flow(items: list[_Item], y: float, left: float = 10, right: float = WIDTH - 10, gap: float = 12) -> tuple[str, float]:
    """The items left to right, wrapping to a new row when one does not fit; the drawing and the height used."""
    out, x, row_h, top = [], left, 0.0, y
    for item in items:
        if x > left and x + item.width > right:
            top += row_h + 6
            x, row_h = left, 0.0
        out.append(item.draw(x, top))
        x += item.width + gap
        row_h = max(row_h, item.height)
    return "".join(out), top + row_h - y


def _signature(state: GameState, ch: Character) -> tuple[object, ...]:
    return (ch.cards, ch.kind, ch.driven, ch.face_up, size(state, ch) if ch.kind == "soldier" else 0,
            tuple(sorted(all_labels(state, ch))) if ch.kind == "soldier" else ())


def _text_width(text: str) -> float:
    return SMALLEST_TEXT * sum(0.62 if c.isascii() else 1.0 for c in text)


def _character(state: GameState, ch: Character, changed: bool) -> _Item:
    """A character: cards fanned (each corner showing) or turned when driven, with its size and labels below."""
    cards_w = (len(ch.cards) - 1) * FAN + (CARD_H if ch.driven else CARD_W)
    lines = ([f"サイズ {size(state, ch)}"] + (["・".join(sorted(all_labels(state, ch)))] if all_labels(state, ch) else [])
             if ch.kind == "soldier" else ["防壁"])
    width = max(cards_w, *(_text_width(line) for line in lines))

    def draw(x: float, y: float) -> str:
        out = "".join(_card(x + i * FAN + (5 if ch.driven else 0), y + (5 if ch.driven else 0), card,
                            face_up=ch.face_up, driven=ch.driven, changed=changed) for i, card in enumerate(ch.cards))
        return out + "".join(_text(x, y + CARD_H + 13 + 13 * i, line, fill=INK if i == 0 else GREY)
                             for i, line in enumerate(lines))
    return _Item(width, CARD_H + 4 + 13 * len(lines), draw)


def _pile(name: str, cards: list[tuple[Card | None, bool]], note: str = "", *, overlap: bool = False) -> _Item:
    """A named row of cards (hand, graveyard, fog): the name above, the cards fanned (``overlap``) or side by side;
    an empty pile is a dashed outline."""
    step = FAN if overlap else CARD_W + 4
    cards_w = (len(cards) - 1) * step + CARD_W if cards else CARD_W
    title = name + (f" {note}" if note else "")
    width = max(cards_w, _text_width(title))

    def draw(x: float, y: float) -> str:
        out = _text(x, y + 11, title, fill=GREY)
        if not cards:
            out += (f'<rect x="{x:.1f}" y="{y + 15:.1f}" width="{CARD_W}" height="{CARD_H}" rx="3" fill="none" '
                    f'stroke="{EDGE}" stroke-dasharray="3 2"/>')
        for i, (card, changed) in enumerate(cards):
            out += _card(x + i * step, y + 15, card, face_up=card is not None, changed=changed)
        return out
    return _Item(width, CARD_H + 15, draw)


def _count(now: int, then: int | None) -> str:
    return f"{then}→{now}" if then is not None and then != now else str(now)


def _new(now: tuple[Card, ...], then: tuple[Card, ...] | None) -> list[bool]:
    """Which of ``now``'s cards were not there before (by card, counting repeats)."""
    if then is None:
        return [False] * len(now)
    left = Counter(then)
    out = []
    for card in now:
        out.append(left[card] == 0)
        left[card] -= 1
    return out


def _band(state: GameState, player: int, y: float, before: GameState | None, hidden: bool) -> tuple[str, float]:
    """One player's band from ``y``; returns its drawing and its height."""
    p = state.players[player]
    b = before.players[player] if before is not None else None
    turn = "(ターン)" if state.turn_player == player else ""
    life = (life_answer(len(p.life)).removesuffix("です") if hidden and len(p.life) >= 10  # 2.11.1's public answer
            else _count(len(p.life), len(b.life) if b else None))
    counts = (f"ライフ {life} ・ "
              f"手札 {_count(len(p.hand), len(b.hand) if b else None)} ・ "
              f"墓地 {_count(len(p.graveyard), len(b.graveyard) if b else None)}")
    head = (_text(10, y + 16, f"{PLAYER_NAMES[player]} {turn}".strip(), size=12, weight="bold")
            + _text(WIDTH - 10, y + 16, counts, anchor="end"))
    was = Counter(_signature(before, ch) for ch in b.field) if b is not None and before is not None else None
    chars = []
    for ch in p.field:
        sig = _signature(state, ch)
        changed = was is not None and was[sig] == 0
        if was is not None and was[sig]:
            was[sig] -= 1
        chars.append(_character(state, ch, changed))
    if chars:
        field, field_h = _flow(chars, y + 24)
    else:
        field, field_h = _text(10, y + 38, "場: なし", fill="#666"), 18
    fog_cards = tuple(c for fog in p.fog for c in fog.cards)
    fog_then = tuple(c for fog in b.fog for c in fog.cards) if b is not None else None
    grave = p.graveyard[-GRAVE_SHOWN:]
    grave_new = _new(p.graveyard, b.graveyard if b is not None else None)[-GRAVE_SHOWN:]
    piles = [_pile("手札", [(None if hidden else c, n) for c, n in zip(p.hand, _new(p.hand, b.hand if b else None),
                                                                      strict=True)]),
             _pile("墓地", list(zip(grave, grave_new, strict=True)), "(上が右)" if len(p.graveyard) > 1 else "",
                   overlap=True)]
    if fog_cards or fog_then:
        piles.append(_pile("フォグ", list(zip(fog_cards, _new(fog_cards, fog_then), strict=True))))
    rest, rest_h = _flow(piles, y + 24 + field_h + 10)
    height = 24 + field_h + 10 + rest_h + 8
    frame = f'<rect x="2" y="{y:.1f}" width="{WIDTH - 4}" height="{height:.1f}" rx="6" fill="{MUTED}" stroke="{EDGE}"/>'
    return frame + head + field + rest, height


def _stage(state: GameState, y: float) -> tuple[str, float]:
    """The stage, top first, one request a line, and the chance."""
    chance = "ルール" if state.chance is None else PLAYER_NAMES[state.chance]
    requests = list(reversed(state.stage))
    out = [_text(10, y + 14, f"ステージ ({len(requests)})", weight="bold"),
           _text(WIDTH - 10, y + 14, f"チャンス: {chance}", anchor="end", weight="bold")]
    if not requests:
        out.append(_text(100, y + 14, "空", fill="#666"))
    top = y + 22
    for i, r in enumerate(requests):
        label = f"{'上: ' if i == 0 else ''}{state.rules.action(r.action_id).name}({PLAYER_NAMES[r.controller]})"
        out.append(f'<rect x="10" y="{top:.1f}" width="{WIDTH - 20}" height="18" rx="3" fill="{PAPER}" '
                   f'stroke="{INK}" stroke-width="0.8"/>')
        out.append(_text(16, top + 13, label))
        top += 22
    return "".join(out), top - y + 2


SCOPES = {"all": "全ての", "your": "あなたの", "this": "この"}


def ability_lines(state: GameState) -> list[str]:
    """The abilities in play (6.3), oldest first, as a reader reads them: scope, whose, the text, on which soldier."""
    out = []
    for m in sorted(state.modifiers, key=lambda m: m.timestamp):
        on = state.find(m.target) if m.target is not None else None
        where = f"({PLAYER_NAMES[on.owner]}の{''.join(str(c) for c in on.cards)})" if on is not None else ""
        whose = f"・{PLAYER_NAMES[m.owner]}" if m.scope == "your" else ""
        out.append(f"[{SCOPES.get(m.scope, m.scope)}{whose}] {m.source or '能力'}{where}")
    return out


def _wrap(line: str, room: float) -> list[str]:
    out, cur = [], ""
    for ch in line:
        if cur and _text_width(cur + ch) > room:
            out.append(cur)
            cur = "　" + ch
        else:
            cur += ch
    return out + [cur] if cur else out


def _abilities(state: GameState, y: float) -> tuple[str, float]:
    """The abilities in play, a line each (wrapped), so an example of 6.4.2 shows what makes the sizes."""
    lines = [part for line in ability_lines(state) for part in _wrap(line, WIDTH - 20)]
    if not lines:
        return "", 0
    out = [_text(10, y + 14, "有効な能力(古い順)", weight="bold")]
    out += [_text(10, y + 30 + 15 * i, line) for i, line in enumerate(lines)]
    return "".join(out), 22 + 15 * len(lines)


def board_svg(state: GameState, title: str, *, before: GameState | None = None,
              hidden_hands: Collection[int] = (), since: str = "はじめ", bottom: int = 0) -> str:
    """The whole board: the other player's band, the stage, then ``bottom``'s band below, as that player sees the
    table (A by default, as the book's examples are told from A; the play page puts the person there).

    ``before``: an earlier position of the same game; what changed since is marked, and the legend names that
    position (``since``: はじめ, the example's start; the play page: the player's last decision). ``hidden_hands``: players
    whose hand is drawn as backs and whose life shows as 2.11.1 answers 「ライフは何枚?」 (10枚以上 from ten): an
    observation's opponent."""
    parts, y = [], 2.0
    for i, player in enumerate((1 - bottom, bottom)):
        drawing, height = _band(state, player, y, before, player in hidden_hands)
        parts.append(drawing)
        y += height + 6
        if i == 0:
            drawing, height = _stage(state, y)
            parts.append(drawing)
            y += height + 4
            drawing, height = _abilities(state, y)
            parts.append(drawing)
            y += height + (4 if height else 0)
    if before is not None:
        parts.append(f'<rect x="10" y="{y + 2:.1f}" width="14" height="10" rx="2" fill="{PAPER}" stroke="{CHANGED}" '
                     f'stroke-width="2.4"/>' + _text(30, y + 12, f"太い枠・→: {since}から変わったところ", fill=GREY))
        y += 18
    total = int(y + 2)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {total}" role="img" '
            f'class="bp-svg bp-board" style="max-width:{WIDTH * 1.5:.0f}px; '
            f'--bp-min-width:{WIDTH * 11 / SMALLEST_TEXT:.0f}px" font-family="{FONT}">'
            f"<title>{html.escape(title)}</title>{''.join(parts)}</svg>")


def card_svg(label: str | None, name: str, *, face_down: bool = False) -> str:
    """One card drawn large (a trump's イメージ when no picture is given): its key card in the corners and its name
    in the middle, or its back when the card is face down."""
    w, h = 70, 98
    if face_down:
        body = [back(1, 1, w - 2, h - 2, edge=INK, width=1, radius=6)]
    else:
        body = [f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="6" fill="{PAPER}" stroke="{INK}" stroke-width="1"/>']
        if label:
            colour = RED if label[:1] in "♡◇" else INK
            body.append(_text(6, 16, label, size=12, fill=colour))
            body.append(f'<g transform="rotate(180 {w / 2} {h / 2})">{_text(6, 16, label, size=12, fill=colour)}</g>')
    body.append(_text(w / 2, h / 2 + 4, name, anchor="middle", weight="bold"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" role="img" class="bp-svg bp-card" '
            f'style="width:{w * 1.2:.0f}px" font-family="{FONT}"><title>{html.escape(name)}</title>{"".join(body)}</svg>')

