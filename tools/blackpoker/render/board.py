"""A position drawn as a board (inline SVG): both players' fields, life, hand, graveyard and fog, and the stage.

Drawn from the simulator's state, so a worked example shows exactly the position the simulator verified. Each
player has a band: a line with their life and hand counts and the hand's cards, then the field (soldiers face
up with their size and labels, bulwarks face down, a driven character turned sideways, a character of several
cards fanned) with the graveyard's top card and the fog on the right. Between the two bands, the stage as a
stack (top first) and who holds the chance. Text is Japanese and cards read ♠7, never S7.
"""

from __future__ import annotations

import html

from blackpoker.core.cards import Card
from blackpoker.sim.abilities import all_labels, size
from blackpoker.sim.state import PLAYER_NAMES, Character, GameState
from blackpoker.sim.text import life_answer

FONT = "'BIZ UDPGothic', 'BIZ UDGothic', 'Noto Sans CJK JP', sans-serif"
INK, PAPER, RED, MUTED, EDGE, BACK = "#222", "#fff", "#b0202a", "#eef1f5", "#9aa5b5", "#c9d2e0"
MOVED = "#d97706"  # the outline of a card that moved since the player's last decision (the play page)
CARD_W, CARD_H = 24, 34
WIDTH = 400
SMALLEST_TEXT = 9  # the labels under a soldier: a page never shows them below 11 px (it scrolls sideways)


def _text(x: float, y: float, text: str, size: int = 10, anchor: str = "start", fill: str = INK,
          weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}">{html.escape(text)}</text>')


def _card(x: float, y: float, card: Card | None, *, face_up: bool = True, driven: bool = False,
          marked: frozenset[Card] = frozenset()) -> str:
    """One card with its top-left corner at (x, y); ``driven`` turns it sideways about its centre; a card in
    ``marked`` (it moved since the reader's last decision) gets a thick outline and a dot."""
    turn = f' transform="rotate(90 {x + CARD_W / 2:.1f} {y + CARD_H / 2:.1f})"' if driven else ""
    fill = PAPER if face_up else BACK
    moved = card is not None and card in marked
    stroke = f'stroke="{MOVED}" stroke-width="2.2"' if moved else f'stroke="{INK}" stroke-width="0.8"'
    mark = ' class="bp-moved"' if moved else ""
    out = (f'<g{turn}{mark}><rect x="{x:.1f}" y="{y:.1f}" width="{CARD_W}" '
           f'height="{CARD_H}" rx="3" fill="{fill}" {stroke}/>')
    if moved:
        out += f'<circle cx="{x + CARD_W - 4:.1f}" cy="{y + CARD_H - 4:.1f}" r="2.5" fill="{MOVED}"/>'
    if face_up and card is not None:
        label = str(card)
        colour = RED if label[:1] in "♡◇" else INK
        out += _text(x + 2.5, y + 12, label, size=10, fill=colour)  # in the corner: a fanned card shows it
    elif not face_up:
        out += (f'<path d="M{x + 4:.1f} {y + 4:.1f} L{x + CARD_W - 4:.1f} {y + CARD_H - 4:.1f} '
                f'M{x + CARD_W - 4:.1f} {y + 4:.1f} L{x + 4:.1f} {y + CARD_H - 4:.1f}" stroke="#8792a6" '
                f'stroke-width="0.8"/>')
    return out + "</g>"


def _character(state: GameState, ch: Character, x: float, y: float,
               marked: frozenset[Card] = frozenset()) -> tuple[str, float]:
    """A character at (x, y); returns its drawing and its width (cards fanned, each corner showing; driven turned)."""
    out = ""
    fan = 18
    for i, card in enumerate(ch.cards):
        cx = x + i * fan + (5 if ch.driven else 0)
        out += _card(cx, y + (5 if ch.driven else 0), card, face_up=ch.face_up, driven=ch.driven, marked=marked)
    width: float = (len(ch.cards) - 1) * fan + (CARD_H if ch.driven else CARD_W)
    if ch.kind == "soldier":
        out += _text(x, y + CARD_H + 11, f"サイズ {size(state, ch)}", size=9)
        labels = "・".join(sorted(all_labels(state, ch)))
        if labels:
            out += _text(x, y + CARD_H + 22, labels, size=SMALLEST_TEXT, fill="#444")
        width = max(width, 9 * 6 * 0.75, SMALLEST_TEXT * len(labels))
    else:
        out += _text(x, y + CARD_H + 11, "防壁", size=9, fill="#444")
    return out, width


def _band(state: GameState, player: int, y: float, *, hand_shown: bool = True,
          marked: frozenset[Card] = frozenset()) -> tuple[str, float]:
    """One player's band from ``y``: a line with the counts and the hand (its cards when ``hand_shown``), then the
    field, with the graveyard's top card and the fog on the right; returns its drawing and its height."""
    p = state.players[player]
    turn = " (ターン)" if state.turn_player == player else ""
    height = 20 + CARD_H + 28
    out = [f'<rect x="4" y="{y:.1f}" width="{WIDTH - 8}" height="{height}" rx="6" fill="{MUTED}" stroke="{EDGE}"/>',
           _text(12, y + 14, f"{PLAYER_NAMES[player]}{turn}", size=11, weight="bold"),
           _text(90, y + 14, (f"ライフ {len(p.life)} 枚" if hand_shown else f"ライフ {life_answer(len(p.life)).rstrip('です')}")
                 + f" ・ 手札 {len(p.hand)} 枚"
                             + (f": {''.join(str(c) for c in p.hand)}" if p.hand and hand_shown else ""), size=10)]
    row = y + 20
    right = WIDTH - 12
    if p.fog:
        cards = [c for fog in p.fog for c in fog.cards]
        right -= 27 * (len(cards) - 1) + CARD_W
        for i, card in enumerate(cards):
            out.append(_card(right + i * 27, row, card, marked=marked))
        out.append(_text(right, row + CARD_H + 11, "フォグ", size=9, fill="#444"))
        right -= 10
    right -= CARD_W
    if p.graveyard:
        out.append(_card(right, row, p.graveyard[-1], marked=marked))
    else:
        out.append(f'<rect x="{right:.1f}" y="{row:.1f}" width="{CARD_W}" height="{CARD_H}" rx="3" fill="none" '
                   f'stroke="{EDGE}" stroke-dasharray="3 2"/>')
    out.append(_text(right, row + CARD_H + 11, "墓地", size=9, fill="#444"))
    x = 12.0
    for ch in p.field:
        drawing, width = _character(state, ch, x, row, marked)
        out.append(drawing)
        x += width + 12
    if not p.field:
        out.append(_text(12, row + 20, "場: なし", size=9, fill="#666"))
    return "".join(out), height


def _stage(state: GameState, y: float) -> tuple[str, float]:
    """The stage (top first) and the chance, between the bands."""
    chance = "ルール" if state.chance is None else PLAYER_NAMES[state.chance]
    requests = list(reversed(state.stage))
    out = [_text(12, y + 13, f"ステージ ({len(requests)})", size=10, weight="bold"),
           _text(WIDTH - 12, y + 13, f"チャンス: {chance}", size=10, anchor="end", weight="bold")]
    x = 90.0
    for i, r in enumerate(requests):
        label = f"{'上 ' if i == 0 else ''}{state.rules.action(r.action_id).name}({PLAYER_NAMES[r.controller]})"
        w = 10 * len(label) * 0.85 + 10
        out.append(f'<rect x="{x:.1f}" y="{y + 1:.1f}" width="{w:.1f}" height="17" rx="3" fill="{PAPER}" '
                   f'stroke="{INK}" stroke-width="0.8"/>')
        out.append(_text(x + 5, y + 13, label, size=10))
        x += w + 6
    if not requests:
        out.append(_text(x, y + 13, "空", size=10, fill="#666"))
    return "".join(out), 22


def board_svg(state: GameState, title: str, *, viewer: int | None = None,
              marked: frozenset[Card] = frozenset()) -> str:
    """The whole board: B's band, the stage, A's band (A below, as the book's examples are told from A).

    With a ``viewer`` (the play page's player), drawn below, and only what that player may see: the other player's hand as a count
    and its life as 2.11.1 answers 「ライフは何枚?」 (10枚以上 from ten), and the cards in ``marked`` outlined."""
    top, bottom = (0, 1) if viewer == 1 else (1, 0)  # the viewer below
    parts, y = [], 4.0
    drawing, height = _band(state, top, y, hand_shown=viewer in (None, top), marked=marked)
    parts.append(drawing)
    y += height + 6
    drawing, height = _stage(state, y)
    parts.append(drawing)
    y += height + 6
    drawing, height = _band(state, bottom, y, hand_shown=viewer in (None, bottom), marked=marked)
    parts.append(drawing)
    total = int(y + height + 4)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {total}" role="img" '
            f'class="bp-svg bp-board" style="max-width:{WIDTH * 1.5:.0f}px; '
            f'--bp-min-width:{WIDTH * 11 / SMALLEST_TEXT:.0f}px" font-family="{FONT}">'
            f"<title>{html.escape(title)}</title>{''.join(parts)}</svg>")


def card_svg(label: str | None, name: str, *, face_down: bool = False) -> str:
    """One card drawn large (a trump's イメージ when no picture is given): its key card in the corners and its name
    in the middle, or its back when the card is face down."""
    w, h = 70, 98
    body = [f'<rect x="1" y="1" width="{w - 2}" height="{h - 2}" rx="6" fill="{BACK if face_down else PAPER}" '
            f'stroke="{INK}" stroke-width="1"/>']
    if face_down:
        body.append(f'<path d="M10 10 L{w - 10} {h - 10} M{w - 10} 10 L10 {h - 10}" stroke="#8792a6" stroke-width="1"/>')
    elif label:
        colour = RED if label[:1] in "♡◇" else INK
        body.append(_text(6, 16, label, size=12, fill=colour))
        body.append(f'<g transform="rotate(180 {w / 2} {h / 2})">{_text(6, 16, label, size=12, fill=colour)}</g>')
    body.append(_text(w / 2, h / 2 + 4, name, size=10, anchor="middle", weight="bold"))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" role="img" class="bp-svg bp-card" '
            f'style="width:{w * 1.2:.0f}px" font-family="{FONT}"><title>{html.escape(name)}</title>{"".join(body)}</svg>')
