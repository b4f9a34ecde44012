"""``{bp-figure} NAME``: the book's numbered figures, drawn at build time as inline SVG (render/figure_svg.py)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

from docutils import nodes
from docutils.parsers.rst import directives

from blackpoker.core.field_labels import FRAME_LABELS
from blackpoker.core.model import Frame, Rules
from blackpoker.render.figure_svg import (
    FigureError,
    ability_image_svg,
    bulwark_placement_svg,
    character_examples_svg,
    charge_drive_svg,
    controller_svg,
    core_image_svg,
    dot_to_svg,
    flow_dot,
    fog_placement_svg,
    layout_svg,
    play_scene_svg,
    request_instance_svg,
    request_stack_svg,
    stage_placement_svg,
    turn_game_svg,
)
from blackpoker.sphinxext import render as r
from blackpoker.sphinxext.ruleset import RulesDirective


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


def _deck(frame: Frame) -> tuple[str, ...]:
    """The cards of a frame's fixed deck (エントリー 20), which its layout draws from; () when it has none."""
    return frame.deck.cards if frame.deck else ()


SCROLL_CUE = "→ 図は横にスクロールすると全体が見られます"


def figure_node(svg: str, caption: str, label: str, document: nodes.document, classes: tuple[str, ...] = ()) -> nodes.figure:
    fig = nodes.figure(classes=["bp-figure", *classes])
    # in a box of its own, which a phone scrolls sideways when the figure is wider than the screen
    fig += nodes.raw("", f'<p class="bp-scroll-cue">{SCROLL_CUE}</p><div class="bp-figure-scroll" tabindex="0" '
                         f'role="group" aria-label="{html.escape(caption)}">{_own_ids(svg, label)}</div>', format="html")
    fig += nodes.caption(caption, "", *r.suited(caption))
    r.target_title(fig, label, document)
    return fig


def frame_layout_figure(rules: Rules, frame: Frame, document: nodes.document) -> nodes.figure:
    caption = f"{FRAME_LABELS['image']}-{frame.name}"
    return figure_node(layout_svg(rules, frame.zones, caption, _deck(frame)), caption, f"fig-frame-layout-{frame.id}", document,
                       ("bp-figure-frame-layout",))


# the book's figures drawn here (each flow of ruleset.yaml is one too)
FIGURES = ("play-scene", "card-layout", "character-examples", "charge-drive", "request-stack-1", "request-stack-2",
           "request-stack-3", "bulwark-placement", "fog-placement", "stage-placement", "core-image", "turn-game",
           "request-instance", "controller", "ability-image", "frame-layout")


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
            caption = self.options.get("caption") or f"{FRAME_LABELS['image']}-{frame.name}"
            svg = layout_svg(rules, frame.zones, caption, _deck(frame))
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
        if name.startswith("request-stack-"):
            return request_stack_svg(rules, int(name[-1]), caption)
        drawings: dict[str, Callable[[], str]] = {
            "play-scene": lambda: play_scene_svg(rules, caption),
            "character-examples": lambda: character_examples_svg(rules, caption),
            "bulwark-placement": lambda: bulwark_placement_svg(rules, caption),
            "fog-placement": lambda: fog_placement_svg(rules, caption),
            "stage-placement": lambda: stage_placement_svg(rules, caption),
            "core-image": lambda: core_image_svg(caption), "turn-game": lambda: turn_game_svg(caption),
            "request-instance": lambda: request_instance_svg(caption), "controller": lambda: controller_svg(caption),
            "ability-image": lambda: ability_image_svg(caption),
        }
        if name in drawings:
            return drawings[name]()
        return dot_to_svg(flow_dot(rules.flow(name)), caption)
