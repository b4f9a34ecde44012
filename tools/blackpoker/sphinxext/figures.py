"""``{bp-figure} NAME``: numbered figures drawn at build time as inline SVG.

Layouts (zones, card orientation, the stage) are drawn here from the model; the two flow charts are laid
out by Graphviz ``dot``. Inline SVG works the same in browsers and in WeasyPrint, needs no image files and
scales to the page width (CSS), so the figures stay readable on a phone.
"""

from __future__ import annotations

import html
import re
import subprocess
from functools import lru_cache

from docutils import nodes
from docutils.parsers.rst import directives

from blackpoker.core.model import Flow, Frame, Rules
from blackpoker.sphinxext import render as r
from blackpoker.sphinxext.base import RulesDirective

FONT = "'BIZ UDPGothic', 'BIZ UDGothic', 'Noto Sans CJK JP', sans-serif"
INK, PAPER, ACCENT, MUTED = "#222", "#fff", "#8b1a1a", "#eef1f5"
# On a screen a figure is never drawn smaller than its smallest text at 11 px: a phone scrolls it sideways.
SMALLEST_TEXT = 8  # user units (the inline figures) or points (Graphviz's edge labels are 10)
MIN_SCALE = 11 / SMALLEST_TEXT
DOT_MIN_SCALE = 11 / 10


# --- inline SVG primitives ---------------------------------------------------------------------------
def _svg(width: int, height: int, body: list[str], title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
            f'class="bp-svg" style="max-width:{width * 1.6:.0f}px; --bp-min-width:{width * MIN_SCALE:.0f}px" '
            f'font-family="{FONT}">'
            f"<title>{html.escape(title)}</title>{''.join(body)}</svg>")


def _text(x: float, y: float, text: str, size: int = 11, anchor: str = "middle", weight: str = "normal",
          fill: str = INK) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}">{html.escape(text)}</text>')


def _card(x: float, y: float, face_down: bool = False, sideways: bool = False, label: str = "") -> str:
    w, h = (34, 24) if sideways else (24, 34)
    fill = "url(#bp-back)" if face_down else PAPER
    out = f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="3" fill="{fill}" stroke="{INK}" stroke-width="1"/>'
    if label and not face_down:
        out += _text(x + w / 2, y + h / 2 + 4, label, size=10, fill=ACCENT if label[0] in "♡◇" else INK)
    return out


_PATTERN = ('<defs><pattern id="bp-back" width="6" height="6" patternUnits="userSpaceOnUse">'
            '<rect width="6" height="6" fill="#d9dee8"/><path d="M0 6 L6 0" stroke="#7a869a" stroke-width="1"/>'
            "</pattern></defs>")


def _zone(x: float, y: float, w: float, h: float, name: str, cards: list[str]) -> list[str]:
    return [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="{MUTED}" stroke="#9aa5b5"/>',
            _text(x + 6, y + 14, name, size=11, anchor="start", weight="bold"), *cards]


# --- layouts ----------------------------------------------------------------------------------------
def layout_svg(rules: Rules, zone_ids: tuple[str, ...], title: str) -> str:
    """One player's side of the table: 場 on top, the piles below, 手札 at the bottom (2.5, 5.3)."""
    name = {z.id: z.name for z in rules.zones}
    body = [_PATTERN]
    # row 2: left the zones frames add, then fog; right graveyard and life
    x = 10.0
    for z in [z for z in ("trump", "rare", "pack") if z in zone_ids] + ["fog"]:
        w = 74 if z == "trump" else 62
        cards = {"trump": [_card(x + 10, 114, face_down=True), _card(x + 38, 114, face_down=True)],
                 "rare": [_card(x + 10, 114, face_down=True)],
                 "pack": [_card(x + 12, 112, face_down=True), _card(x + 10, 114, face_down=True)],
                 "fog": [_card(x + 10, 114, label="♡3")]}[z]
        body += _zone(x, 90, w, 68, name[z], cards)
        x += w + 6
    gx = max(246.0, x + 20)
    body += _zone(gx, 90, 68, 68, name["graveyard"], [_card(gx + 22, 114, label="♣7")])
    body += _zone(gx + 74, 90, 70, 68, name["life"], [_card(gx + 98, 112, face_down=True), _card(gx + 96, 114, face_down=True)])
    width = int(gx + 74 + 70 + 10)
    # row 1: the field, with a face-down bulwark and two soldiers; row 3: the hand
    body += _zone(10, 10, width - 20, 70, name["field"],
                  [_card(30, 34, face_down=True), _card(70, 34, label="♠5"), _card(104, 34, label="♡K")])
    mid = width / 2 - 52
    body += _zone(10, 168, width - 20, 60, name["hand"],
                  [_card(mid + 26 * i, 188, label=lbl) for i, lbl in enumerate(("♠A", "♠9", "◇Q", "♣2"))])
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


def request_stack_svg(rules: Rules, title: str) -> str:
    """Fig 2.4–2.6: requests pile up on the stage and resolve last-in first-out."""
    names = [rules.action(a).name for a in ("up", "down", "counter")]
    body = [_ARROW, f'<rect x="110" y="14" width="150" height="150" rx="6" fill="{MUTED}" stroke="#9aa5b5"/>',
            _text(185, 30, "ステージ", size=12, weight="bold")]
    for i, n in enumerate(names):
        y = 130 - 36 * i
        body.append(f'<rect x="130" y="{y}" width="110" height="28" rx="4" fill="{PAPER}" stroke="{INK}"/>')
        body.append(_text(185, y + 18, f"{i + 1}. {n}", size=11))
        body.append(f'<path d="M70 {y + 14} L126 {y + 14}" stroke="{INK}" stroke-width="1" marker-end="url(#bp-arrow)"/>')
        body.append(_text(64, y + 18, f"リクエスト{i + 1}", size=10, anchor="end"))
    body.append(f'<path d="M290 58 L290 144" stroke="{ACCENT}" stroke-width="2" marker-end="url(#bp-arrow)"/>')
    body.append(_text(298, 78, "解決は", size=10, anchor="start", fill=ACCENT))
    body.append(_text(298, 92, "上から順", size=10, anchor="start", fill=ACCENT))
    body.append(_text(298, 106, "3 → 2 → 1", size=10, anchor="start", fill=ACCENT))
    return _svg(370, 176, body, title)


# --- flow charts (Graphviz) ---------------------------------------------------------------------------
def flow_dot(flow: Flow) -> str:
    """Graphviz source for a flow chart; ids and labels are quoted, so rule text is never read as dot syntax.
    A step no arrow enters or none leaves (start, end) is drawn as an oval, a question as a diamond."""
    font = "BIZ UDPGothic"
    lines = ["digraph flow {", f'graph [fontname="{font}", nodesep=0.3, ranksep=0.3, bgcolor="transparent"];',
             f'node [fontname="{font}", fontsize=11, shape=box, style="rounded,filled", fillcolor="{MUTED}", '
             f'color="#6b7788", margin="0.12,0.05"];',
             f'edge [fontname="{font}", fontsize=10, color="#444", fontcolor="{ACCENT}", arrowsize=0.7];']
    entered, left = {e.target for e in flow.edges}, {e.source for e in flow.edges}
    for s in flow.steps:
        shape = ', shape=diamond, style="filled", fillcolor="#fff7e6"' if s.decision else ""
        if s.id not in entered or s.id not in left:
            shape = ', shape=oval, style="filled", fillcolor="#e3ecf7"'
        lines.append(f'"{_dot_escape(s.id)}" [label="{_dot_escape(s.text)}"{shape}];')
    for e in flow.edges:
        label = f' [xlabel="{_dot_escape(e.label)}"]' if e.label else ""
        lines.append(f'"{_dot_escape(e.source)}" -> "{_dot_escape(e.target)}"{label};')
    lines.append("}")
    return "\n".join(lines)


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


# --- figure nodes ------------------------------------------------------------------------------------
def _own_ids(svg: str, label: str) -> str:
    """Prefix every id inside one figure's SVG (arrow heads, patterns, Graphviz's node and edge ids) and the
    references to them with the figure's label: several figures on one page must not repeat an id."""
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    if not ids:
        return svg
    names = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    svg = re.sub(rf'\bid="({names})"', rf'id="{label}-\1"', svg)
    return re.sub(rf'(url\(#|href="#)({names})([)"])', rf"\1{label}-\2\3", svg)


def figure_node(svg: str, caption: str, label: str, document: nodes.document, classes: tuple[str, ...] = ()) -> nodes.figure:
    fig = nodes.figure(classes=["bp-figure", *classes])
    # in a box of its own, which a phone scrolls sideways when the figure is wider than the screen
    fig += nodes.raw("", f'<div class="bp-figure-scroll">{_own_ids(svg, label)}</div>', format="html")
    fig += nodes.caption(caption, "", *r.suited(caption))
    r.target_title(fig, label, document)
    return fig


def frame_layout_figure(rules: Rules, frame: Frame, document: nodes.document) -> nodes.figure:
    caption = f"配置図-{frame.name}"
    return figure_node(layout_svg(rules, frame.zones, caption), caption, f"fig-frame-layout-{frame.id}", document)


FIGURES = ("card-layout", "charge-drive", "request-stack", "frame-layout")  # and each flow of ruleset.yaml


class FigureDirective(RulesDirective):
    """``{bp-figure} NAME [frame-id]`` with ``:caption:``; labelled ``fig-NAME`` (``fig-frame-layout-<id>``)."""

    required_arguments = 1
    optional_arguments = 1
    option_spec = {"caption": directives.unchanged_required}

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        known = (*FIGURES, *(f.id for f in self.rules.flows))
        if name not in known:
            raise self.error(f"unknown bp-figure '{name}'; expected one of {', '.join(known)}")
        self.note_definitions(prose=False)
        rules = self.rules
        if name == "frame-layout":
            if len(self.arguments) < 2:
                raise self.error("bp-figure frame-layout needs a frame id, e.g. 'frame-layout pack'")
            try:
                frame = rules.frame(self.arguments[1])
            except KeyError as exc:
                raise self.error(str(exc.args[0])) from None
            caption = self.options.get("caption") or f"配置図-{frame.name}"
            svg = layout_svg(rules, frame.zones, caption)
            label = f"fig-frame-layout-{frame.id}"
        else:
            caption = self.options.get("caption", "")
            if not caption:
                raise self.error(f"bp-figure {name} needs a :caption:")
            label = f"fig-{name}"
            try:
                svg = self.draw(name, caption)
            except FigureError as exc:
                raise self.error(str(exc)) from None
        return [figure_node(svg, caption, label, self.state.document, (f"bp-figure-{name}",))]

    def draw(self, name: str, caption: str) -> str:
        rules = self.rules
        if name == "card-layout":
            return layout_svg(rules, tuple(z.id for z in rules.zones if z.common), caption)
        if name == "charge-drive":
            return charge_drive_svg(caption)
        if name == "request-stack":
            return request_stack_svg(rules, caption)
        return dot_to_svg(flow_dot(rules.flow(name)), caption)
