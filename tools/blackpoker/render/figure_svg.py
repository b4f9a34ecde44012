"""The book's figures as inline SVG, drawn from the model (layouts, cards, the stage, the core rule's concepts)
or laid out by Graphviz ``dot`` (the flows). Inline SVG works the same in browsers and in WeasyPrint, needs no
image files and scales with CSS; the rulebook (sphinxext/figures.py) and the action lists' help both use it.
"""

from __future__ import annotations

import html
import math
import re
import subprocess
from functools import lru_cache

from blackpoker.core.cards import parse_card
from blackpoker.core.model import Flow, Rules
from blackpoker.render.cardart import back

FONT = "'BIZ UDPGothic', 'BIZ UDGothic', 'Noto Sans CJK JP', sans-serif"
INK, PAPER, ACCENT, MUTED = "#222", "#fff", "#8b1a1a", "#eef1f5"
# On a screen a figure is never drawn smaller than its own smallest text at 11 px: a phone scrolls it sideways.
DOT_MIN_SCALE = 1.0  # every text of a chart is 11 pt


# --- inline SVG primitives ---------------------------------------------------------------------------
def _svg(width: int, height: int, body: list[str], title: str) -> str:
    smallest = min((float(s) for s in re.findall(r'font-size="([0-9.]+)"', "".join(body))), default=11.0)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
            f'class="bp-svg" style="max-width:{width * 1.6:.0f}px; --bp-min-width:{math.ceil(width * 11 / smallest)}px" '
            f'font-family="{FONT}">'
            f"<title>{html.escape(title)}</title>{''.join(body)}</svg>")


def _text(x: float, y: float, text: str, size: int = 11, anchor: str = "middle", weight: str = "normal",
          fill: str = INK) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}">{html.escape(text)}</text>')


def _card(x: float, y: float, face_down: bool = False, sideways: bool = False, label: str = "") -> str:
    w, h = (34, 24) if sideways else (24, 34)
    if face_down:
        return back(x, y, w, h)
    out = f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="3" fill="{PAPER}" stroke="{INK}" stroke-width="1"/>'
    if label and not face_down:
        out += _text(x + w / 2, y + h / 2 + 4, label, size=10, fill=ACCENT if label[0] in "♡◇" else INK)
    return out


def _zone(x: float, y: float, w: float, h: float, name: str, cards: list[str]) -> list[str]:
    return [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="{MUTED}" stroke="#9aa5b5"/>',
            _text(x + 6, y + 14, name, size=11, anchor="start", weight="bold"), *cards]


# --- layouts ----------------------------------------------------------------------------------------
# the face-up cards a layout shows: two soldiers on the field, the fog's card, the graveyard's top, four in the hand
SHOWN = ("S5", "HK", "H3", "C7", "SA", "S9", "DQ", "C2")
FAR_SHOWN = ("D8", "C4", "S2", "H6", "", "", "", "")  # the opponent in Fig 1.1: its hand is not seen


def shown_cards(deck: tuple[str, ...] = (), base: tuple[str, ...] = SHOWN) -> tuple[str, ...]:
    """The cards a layout shows, all from ``deck`` when the layout illustrates one (エントリー 20): each of ``base``
    kept if the deck has it, else the deck's first unused card of the same suit, else its first unused card."""
    if not deck:
        return base
    left = [c for c in deck if c not in base]
    out = []
    for code in base:
        if not code or code in deck:
            out.append(code)
            continue
        pick = next((c for c in left if c[:1] == code[:1]), left[0])
        left.remove(pick)
        out.append(pick)
    return tuple(out)


def layout_svg(rules: Rules, zone_ids: tuple[str, ...], title: str, deck: tuple[str, ...] = (),
               shown: tuple[str, ...] = SHOWN) -> str:
    """One player's side of the table: 場 on top, the piles below, 手札 at the bottom (2.5, 5.3). The face-up cards
    are ``shown`` (card codes; an empty code in the hand is a card seen from its back), taken from ``deck`` when
    the layout is a frame's with a fixed deck."""
    name = {z.id: z.name for z in rules.zones}
    labels = [str(parse_card(c)) if c else "" for c in shown_cards(deck, shown)]
    body: list[str] = []
    # row 2: left the zones frames add, then fog; right graveyard and life
    x = 10.0
    for z in [z for z in ("trump", "rare", "pack") if z in zone_ids] + ["fog"]:
        w = 74 if z == "trump" else 62
        cards = {"trump": [_card(x + 10, 114, face_down=True), _card(x + 38, 114, face_down=True)],
                 "rare": [_card(x + 10, 114, face_down=True)],
                 "pack": [_card(x + 12, 112, face_down=True), _card(x + 10, 114, face_down=True)],
                 "fog": [_card(x + 10, 114, label=labels[2])]}[z]
        body += _zone(x, 90, w, 68, name[z], cards)
        x += w + 6
    gx = max(246.0, x + 20)
    body += _zone(gx, 90, 68, 68, name["graveyard"], [_card(gx + 22, 114, label=labels[3])])
    body += _zone(gx + 74, 90, 70, 68, name["life"], [_card(gx + 98, 112, face_down=True), _card(gx + 96, 114, face_down=True)])
    width = int(gx + 74 + 70 + 10)
    # row 1: the field, with a face-down bulwark and two soldiers; row 3: the hand
    body += _zone(10, 10, width - 20, 70, name["field"],
                  [_card(30, 34, face_down=True), _card(70, 34, label=labels[0]), _card(104, 34, label=labels[1])])
    mid = width / 2 - 52
    body += _zone(10, 168, width - 20, 60, name["hand"],
                  [_card(mid + 26 * i, 188, label=lbl, face_down=not lbl) for i, lbl in enumerate(labels[4:])])
    return _svg(width, 238, body, title)


def charge_drive_svg(title: str) -> str:
    """Fig 2.3: an upright card is charged (チャージ), a sideways one is driven (ドライブ)."""
    body = [_card(40, 20, label="♠7"), _text(52, 74, "チャージ状態", size=11), _text(52, 88, "(縦向き)", size=9),
            _card(135, 25, sideways=True, label="♠7"), _text(152, 74, "ドライブ状態", size=11),
            _text(152, 88, "(横向き)", size=9),
            f'<path d="M80 36 Q100 20 122 34" fill="none" stroke="{ACCENT}" stroke-width="1.5" marker-end="url(#bp-arrow)"/>']
    return _svg(210, 96, [_ARROW, *body], title)


_ARROW = (f'<defs><marker id="bp-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
          f'orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="{ACCENT}"/></marker></defs>')


def _box(x: float, y: float, w: float, h: float, lines: tuple[str, ...], fill: str = PAPER, size: int = 10,
         weight: str = "normal") -> list[str]:
    """A rounded box with centred lines of text."""
    out = [f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="5" fill="{fill}" stroke="{INK}"/>']
    top = y + h / 2 - (len(lines) - 1) * (size + 3) / 2 + size / 2 - 1
    out += [_text(x + w / 2, top + i * (size + 3), line, size=size, weight=weight) for i, line in enumerate(lines)]
    return out


def _arrow(x1: float, y1: float, x2: float, y2: float, colour: str = INK, dashed: bool = False) -> str:
    dash = ' stroke-dasharray="4 3"' if dashed else ""
    return (f'<path d="M{x1:.1f} {y1:.1f} L{x2:.1f} {y2:.1f}" stroke="{colour}" stroke-width="1.2"{dash} '
            f'marker-end="url(#bp-arrow)"/>')


def request_stack_svg(rules: Rules, step: int, title: str) -> str:
    """Fig 2.4–2.6 (one per step): A requests アップ, B requests ダウン on top of it, then the stage resolves from
    the top (the last request first)."""
    up, down = rules.action("up").name, rules.action("down").name
    body = [_ARROW, f'<rect x="120" y="14" width="130" height="110" rx="6" fill="{MUTED}" stroke="#9aa5b5"/>',
            _text(185, 30, "ステージ", size=12, weight="bold")]
    stack = [(f"{up} (A)", "A")] + ([(f"{down} (B)", "B")] if step >= 2 else [])
    for i, (label, _player) in enumerate(stack):
        y = 90 - 34 * i
        resolving = step == 3 and i == len(stack) - 1
        body += _box(135, y, 100, 26, (label,), fill="#fff7e6" if resolving else PAPER)
    if step < 3:
        player, y = ("A", 103) if step == 1 else ("B", 69)
        body += _box(14, y - 13, 70, 26, (f"プレイヤー {player}",))
        body.append(_arrow(86, y, 131, y))
        body.append(_text(108, y - 6, "積む", size=9))
    else:
        body.append(_arrow(240, 69, 296, 69, ACCENT))
        body.append(_text(300, 64, "上から解決", size=10, anchor="start", fill=ACCENT))
        body.append(_text(300, 78, f"({down} → {up})", size=9, anchor="start", fill=ACCENT))
    holder = {1: "B", 2: "A", 3: "ルール"}[step]
    body.append(_text(185, 140, f"チャンス: {holder}", size=10))
    return _svg(380, 150, body, title)


def play_scene_svg(rules: Rules, title: str) -> str:
    """Fig 1.1: two players across the table, each side laid out as in Fig 2.1 (the far side upside down)."""
    common = tuple(z.id for z in rules.zones if z.common)
    near = layout_svg(rules, common, title)
    box = re.search(r'viewBox="0 0 (\d+) ', near)
    assert box is not None  # layout_svg always writes a viewBox
    width = int(box.group(1))
    inner = near[near.index("</title>") + len("</title>"):near.rindex("</svg>")]
    opponent = layout_svg(rules, common, title, shown=FAR_SHOWN)  # other cards, the hand seen from its back
    far = opponent[opponent.index("</title>") + len("</title>"):opponent.rindex("</svg>")]
    body = [f'<g transform="rotate(180 {width / 2} 119)">{far}</g>',
            f'<path d="M10 246 L{width - 10} 246" stroke="#9aa5b5" stroke-dasharray="6 4"/>',
            _text(width - 12, 242, "相手", size=10, anchor="end"), _text(width - 12, 260, "自分", size=10, anchor="end"),
            f'<g transform="translate(0 254)">{inner}</g>']
    return _svg(width, 494, body, title)


def character_examples_svg(rules: Rules, title: str) -> str:
    """Fig 2.2: a character is one card or several: a soldier, a hero, an equipped soldier, a bulwark."""
    name = {c.id: c.name for c in rules.characters}
    body: list[str] = []
    items = ((20, [_card(20, 16, label="♠7")], name["soldier"], "1枚"),
             (90, [_card(90, 16, label="♡K")], name["hero"], "1枚"),
             (160, [_card(160, 16, label="♣3"), _card(172, 20, label="♣5"), _card(184, 24, label="♣9")],
              name["equipped-soldier"], "複数枚で1体"),
             (250, [_card(250, 16, face_down=True)], name["bulwark"], "裏向き1枚"))
    for x, cards, label, count in items:
        body += cards
        body.append(_text(x + 12, 76, label, size=11))
        body.append(_text(x + 12, 90, f"({count})", size=9))
    return _svg(300, 98, body, title)


def bulwark_placement_svg(rules: Rules, title: str) -> str:
    """Fig 2.7: bulwarks go next to the life, in the order they came, never swapped."""
    zone = {z.id: z.name for z in rules.zones}
    body = [_ARROW, *_zone(10, 10, 250, 70, zone["field"], [_card(30, 34, label="♠5"),
                                                                     _card(150, 34, face_down=True),
                                                                     _card(180, 34, face_down=True),
                                                                     _card(210, 34, face_down=True)]),
            *_zone(270, 10, 70, 70, zone["life"], [_card(294, 36, face_down=True), _card(292, 38, face_down=True)]),
            _arrow(150, 96, 240, 96, ACCENT), _text(195, 110, "ライフ側に寄せて置く", size=10, fill=ACCENT),
            _text(195, 124, "左右の入れ替えはしない", size=10)]
    return _svg(350, 132, body, title)


def _tilted(x: float, y: float, degrees: float, label: str) -> str:
    """A face-up card turned about its centre (a fog card leaning towards its target, a key card on the stage)."""
    return f'<g transform="rotate({degrees} {x + 12} {y + 17})">{_card(x, y, label=label)}</g>'


def fog_placement_svg(rules: Rules, title: str) -> str:
    """Fig 2.8: a fog card leans towards its target (on either side); one with no target stands upright, and
    fog cards keep clear of the field."""
    zone = {z.id: z.name for z in rules.zones}
    up, down, force = rules.action("up").name, rules.action("down").name, rules.action("force").name
    body = [*_zone(10, 10, 320, 64, f"{zone['field']} (相手)", [_card(70, 32, label="◇9")]),
            *_zone(10, 160, 320, 64, f"{zone['field']} (自分)", [_card(70, 182, label="♠5")]),
            *_zone(10, 84, 320, 66, zone["fog"], [_tilted(60, 102, -25, "♡3"), _tilted(140, 102, 25, "♠4"),
                                                 _card(240, 102, label="♣2")]),
            _text(72, 96, f"{up}: 自分の兵士へ傾ける", size=9, anchor="start"),
            _text(150, 148, f"{down}: 相手の兵士へ", size=9, anchor="start"),
            _text(236, 96, f"{force}: 対象なし", size=9, anchor="start")]
    return _svg(340, 232, body, title)


def stage_placement_svg(rules: Rules, title: str) -> str:
    """Fig 2.9: the key cards of requests on the stage lie tilted, apart from the fog, towards their target."""
    zone = {z.id: z.name for z in rules.zones}
    body = [*_zone(10, 10, 150, 90, "ステージ", [_tilted(50, 40, -35, "♡2"), _tilted(100, 40, 35, "♠5")]),
            *_zone(170, 10, 150, 90, zone["fog"], [_card(230, 40, label="♡3")]),
            _text(85, 116, "傾けて置く (対象の方向へ)", size=10),
            _text(245, 116, "フォグと区別する", size=10)]
    return _svg(330, 124, body, title)


def core_image_svg(title: str) -> str:
    """Fig 6.1: players request actions; the core flow (the rule system) orders and resolves them, from the
    start of the game until it is decided."""
    body = [_ARROW, *_box(20, 20, 90, 30, ("プレイヤー A",)), *_box(20, 90, 90, 30, ("プレイヤー B",)),
            *_box(170, 40, 150, 60, ("コアフロー", "(ルールシステム)"), fill=MUTED, weight="bold"),
            _arrow(112, 35, 168, 58), _arrow(112, 105, 168, 82), _text(138, 40, "リクエスト", size=9),
            _text(138, 112, "リクエスト", size=9),
            *_box(200, 130, 90, 26, ("ステージ",)), _arrow(245, 102, 245, 127),
            _text(245, 174, "ゲーム開始 → … → 勝敗決定", size=10)]
    return _svg(340, 182, body, title)


def turn_game_svg(title: str) -> str:
    """Fig 6.2: the basic concepts of an interruptible turn-based game."""
    body = [_ARROW, *_box(14, 14, 96, 30, ("ターン",)), *_box(14, 64, 96, 30, ("チャンス",)),
            *_box(150, 64, 96, 30, ("リクエスト",)), *_box(286, 64, 70, 30, ("ステージ",)),
            *_box(286, 124, 70, 30, ("解決",)), *_box(150, 14, 96, 30, ("アクション",)),
            _arrow(62, 46, 62, 61), _text(70, 56, "持つ人が先に行動", size=8, anchor="start"),
            _arrow(112, 79, 147, 79), _arrow(248, 79, 283, 79), _arrow(321, 96, 321, 121),
            _arrow(198, 46, 198, 61), _text(206, 56, "実行を要求", size=8, anchor="start"),
            _text(321, 172, "後入れ先出し", size=9)]
    return _svg(370, 180, body, title)


def request_instance_svg(title: str) -> str:
    """Fig 6.3: an action is requested as a request; a component is placed as component instances."""
    body = [_ARROW, *_box(14, 14, 120, 30, ("アクション",), fill=MUTED), *_box(214, 14, 130, 30, ("リクエスト",)),
            _arrow(136, 29, 211, 29), _text(174, 24, "要求する", size=9),
            *_box(14, 70, 120, 30, ("コンポーネント",), fill=MUTED), *_box(214, 60, 130, 24, ("インスタンス 1",)),
            *_box(214, 90, 130, 24, ("インスタンス 2",)), _arrow(136, 80, 211, 72), _arrow(136, 90, 211, 102),
            _text(174, 118, "盤面に配置", size=9), _text(74, 124, "定義 (設計図)", size=9),
            _text(279, 130, "盤面上の実体", size=9)]
    return _svg(358, 138, body, title)


def controller_svg(title: str) -> str:
    """Fig 6.4: the attributes of a component instance (owner, controller) and of a request (controller)."""
    body = [*_box(14, 14, 150, 24, ("コンポーネントインスタンス",), fill=MUTED, weight="bold"),
            *_box(14, 40, 150, 22, ("オーナー: 持ち主",)), *_box(14, 64, 150, 22, ("コントローラー: 制御する人",)),
            *_box(190, 14, 150, 24, ("リクエスト",), fill=MUTED, weight="bold"),
            *_box(190, 40, 150, 22, ("コントローラー: 要求した人",))]
    return _svg(354, 96, body, title)


def ability_image_svg(title: str) -> str:
    """Fig 6.5: players and components both can have abilities, which stay in force while they exist."""
    body = [*_box(14, 14, 110, 30, ("プレイヤー",)), *_box(150, 14, 170, 30, ("コンポーネント (駒・カード)",)),
            *_box(14, 70, 306, 30, ("能力: 存在する間ずっと有効 (常在型)",), fill="#fff7e6"),
            f'<path d="M69 46 L69 67 M235 46 L235 67" stroke="{INK}" stroke-width="1.2"/>',
            _text(167, 120, "サイズの加算や「攻撃できない」など", size=9)]
    return _svg(334, 128, body, title)


# --- flow charts (Graphviz) ---------------------------------------------------------------------------
def flow_dot(flow: Flow) -> str:
    """Graphviz source for a flow chart; ids and labels are quoted, so rule text is never read as dot syntax.
    A step no arrow enters or none leaves (start, end) is drawn as an oval, a question as a diamond."""
    font = "BIZ UDPGothic"
    lines = ["digraph flow {", f'graph [fontname="{font}", nodesep=0.3, ranksep=0.3, bgcolor="transparent"];',
             f'node [fontname="{font}", fontsize=11, shape=box, style="rounded,filled", fillcolor="{MUTED}", '
             f'color="#6b7788", margin="0.12,0.05"];',
             f'edge [fontname="{font}", fontsize=11, color="#444", fontcolor="{ACCENT}", arrowsize=0.7];']
    entered, left = {e.target for e in flow.edges}, {e.source for e in flow.edges}
    for s in flow.steps:
        shape = ', shape=diamond, style="filled", fillcolor="#fff7e6"' if s.decision else ""
        if s.id not in entered or s.id not in left:
            shape = ', shape=oval, style="filled", fillcolor="#e3ecf7"'
        lines.append(f'"{_dot_escape(s.id)}" [label="{_dot_escape(_two_lines(s.text))}"{shape}];')
    for e in flow.edges:
        label = f' [xlabel="{_dot_escape(e.label)}"]' if e.label else ""
        lines.append(f'"{_dot_escape(e.source)}" -> "{_dot_escape(e.target)}"{label};')
    lines.append("}")
    return "\n".join(lines)


def _two_lines(text: str) -> str:
    """A long step's number on a line of its own (「[6-10-3]」, then the text), so a chart fits the column."""
    number, sep, rest = text.partition("] ")
    return f"{number}]\n{rest}" if sep and len(rest) > 10 else text


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


class FigureError(Exception):
    """Graphviz is missing or rejected the graph."""


@lru_cache(maxsize=8)
def dot_to_svg(source: str, title: str) -> str:
    """Run ``dot -Tsvg`` and make the result inline-safe: no prolog, comments, ids or titles that would
    collide when several figures share one page (singlehtml)."""
    try:
        done = subprocess.run(["dot", "-Tsvg"], input=source.encode(), capture_output=True, check=False, timeout=60)
    except FileNotFoundError:
        raise FigureError("Graphviz 'dot' is not installed (Debian package: graphviz)") from None
    if done.returncode != 0:
        raise FigureError(f"dot failed: {done.stderr.decode(errors='replace').strip()}")
    svg = done.stdout.decode()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = re.sub(r"<title>.*?</title>", "", svg, flags=re.S)
    svg = re.sub(r'\s(id|class)="[^"]*"', "", svg)
    m = re.search(r'<svg width="(\d+)pt" height="(\d+)pt"', svg)
    size = f"max-width:{int(m.group(1)) * 1.34:.0f}px; --bp-min-width:{int(m.group(1)) * DOT_MIN_SCALE:.0f}px" if m else ""
    svg = re.sub(r'<svg width="\d+pt" height="\d+pt"',
                 f'<svg class="bp-svg bp-flow" role="img" aria-label="{html.escape(title)}" style="{size}"',
                 svg, count=1)
    return re.sub(r">\s+<", "><", svg).strip()
