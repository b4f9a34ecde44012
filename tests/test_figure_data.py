"""Figures drawn from data show only what that data allows (issue 22, item 3): a frame's layout shows only cards of
the frame's fixed deck (図 5.1, エントリー 20), and 図 1.1 shows the opponent's own cards with the hand face down
(2.5: 「相手から見えないようにしましょう」)."""

from __future__ import annotations

import re

import pytest

from blackpoker import load_rules
from blackpoker.core.cards import parse_card
from blackpoker.core.model import Rules
from blackpoker.render.figure_svg import layout_svg, play_scene_svg

CARD = re.compile(r">((?:♠|♡|◇|♣)(?:10|[2-9AJQK]))<")


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


def test_a_frame_layout_shows_only_cards_of_its_deck(rules: Rules) -> None:
    fixed = [f for f in rules.frames if f.deck and f.deck.cards]
    assert fixed  # エントリー 20
    for frame in fixed:
        assert frame.deck is not None
        deck = {str(parse_card(c)) for c in frame.deck.cards}
        shown = CARD.findall(layout_svg(rules, frame.zones, "x", frame.deck.cards))
        assert len(shown) == 8 and set(shown) <= deck, (frame.id, set(shown) - deck)
        assert len(set(shown)) == len(shown)


def test_the_play_scene_hides_the_opponents_hand_and_gives_each_player_their_own_cards(rules: Rules) -> None:
    svg = play_scene_svg(rules, "図1.1")
    far = svg[svg.index('<g transform="rotate(180'):svg.index('<g transform="translate(0 254)">')]
    near = svg[svg.index('<g transform="translate(0 254)">'):]
    far_cards, near_cards = CARD.findall(far), CARD.findall(near)
    assert len(near_cards) == 8 and len(far_cards) == 4  # the far hand's four cards are backs
    assert not set(far_cards) & set(near_cards)
    assert far.count('fill="#6f7f9f"') == near.count('fill="#6f7f9f"') + 4
