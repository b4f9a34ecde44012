"""Key-card conditions: parsing, canonical rendering and matching real cards."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from blackpoker.core.cards import Card, full_deck, parse_card
from blackpoker.core.keycard import KeyCardSyntaxError, parse_key_card, render_key_card


def cards(*codes: str) -> list[Card]:
    return [parse_card(c) for c in codes]


@pytest.mark.parametrize("text, good, bad", [
    ("2~10", [("S2",), ("H10",)], [("SA",), ("SJ",), ("JK",), ("S2", "S3")]),
    ("J~K", [("DJ",), ("CK",)], [("S10",), ("JK",)]),
    ("Joker", [("JK",)], [("SA",)]),
    ("♡A~10", [("HA",), ("H10",)], [("SA",), ("HJ",)]),
    ("♡A~10 を2枚", [("H2", "H9")], [("H2",), ("H2", "S9")]),
    ("♠A~K と ◇A~K", [("SK", "DA"), ("DA", "SK")], [("SK", "SA"), ("SK",)]),
    ("A と J", [("SA", "HJ"), ("CJ", "DA")], [("SA", "HQ"), ("SA", "DA")]),
    ("同じスートの A,10~K を5枚", [("SA", "S10", "SJ", "SQ", "SK")], [("SA", "S10", "SJ", "SQ", "HK"), ("S9", "S10", "SJ", "SQ", "SK")]),
    ("同じ数字を2枚", [("S7", "H7")], [("S7", "H8"), ("S7",)]),
    ("同じスートを2枚", [("S2", "SK")], [("S2", "HK"), ("JK", "JK2")]),
    ("同じスートを2枚以上", [("C2", "C3"), ("C2", "C3", "C4")], [("C2",), ("C2", "D3", "C4")]),
])
def test_accepts(text: str, good: list[tuple[str, ...]], bad: list[tuple[str, ...]]) -> None:
    key = parse_key_card(text)
    assert render_key_card(key) == text
    for codes in good:
        assert key.accepts(cards(*codes)), codes
    for codes in bad:
        assert not key.accepts(cards(*codes)), codes


def test_field_keys_name_a_label() -> None:
    key = parse_key_card("<スラッシュ> を持つ兵士1体")
    assert (key.zone, key.label, key.parts, key.soldiers) == ("field", "スラッシュ", (), 1)


def test_a_field_key_keeps_its_count() -> None:
    key = parse_key_card("<スラッシュ> を持つ兵士2体")
    assert key.soldiers == 2
    assert render_key_card(key) == "<スラッシュ> を持つ兵士2体"


def test_several_suits_parse_and_render_in_suit_order() -> None:
    key = parse_key_card("♠♡A~10")
    assert key.parts[0].suits == frozenset({"S", "H"})
    assert render_key_card(key) == "♠♡A~10"
    assert key.accepts(cards("HA")) and key.accepts(cards("S10")) and not key.accepts(cards("DA"))
    assert render_key_card(parse_key_card("♡♠A~10")) == "♠♡A~10"  # not canonical: the loader asks for ♠♡


def test_choices_from_a_hand() -> None:
    key = parse_key_card("♠A~10 を2枚")
    hand = cards("S2", "S5", "SK", "H3")
    assert key.choices(hand) == [tuple(cards("S2", "S5"))]


@pytest.mark.parametrize("text", ["2-10", "♡A~", "K~A", "♡Joker", "A and J", "同じスートを枚", "♡♡A", "同じスートを0枚以上",
                                  "同じスートを" + "9" * 5000 + "枚", "♠A を0枚", "<スラッシュ> を持つ兵士0体"])
def test_malformed_texts_are_rejected(text: str) -> None:
    with pytest.raises(KeyCardSyntaxError):
        parse_key_card(text)


@given(st.sets(st.sampled_from(range(1, 14)), min_size=1),
       st.sets(st.sampled_from("♠♡◇♣"), max_size=4), st.integers(1, 5))
def test_render_then_parse_is_identity(ranks: set[int], suit: set[str], count: int) -> None:
    from blackpoker.core.cards import SYMBOL_SUITS
    from blackpoker.core.keycard import CardPattern, KeyCondition
    suits = frozenset(SYMBOL_SUITS[s] for s in suit) or None
    key = KeyCondition("", (CardPattern(frozenset(ranks), suits, count),))
    text = render_key_card(key)
    assert parse_key_card(text).parts == key.parts


@given(st.lists(st.sampled_from(full_deck()), max_size=20))
def test_cards_sort_jokers_included(hand: list[Card]) -> None:
    ordered = sorted(hand)
    assert [c.sort_key for c in ordered] == sorted(c.sort_key for c in hand)
    assert all(a <= b for a, b in zip(ordered, ordered[1:], strict=False))


def test_card_order_puts_jokers_first_then_suit_and_rank() -> None:
    assert sorted(cards("SA", "JK2", "C10", "JK", "C9")) == cards("JK", "JK2", "C9", "C10", "SA")


def test_full_deck() -> None:
    deck = full_deck()
    assert len(deck) == 54 and len({c.code for c in deck}) == 54
    assert str(parse_card("♥10")) == "♡10" and parse_card("DQ").code == "DQ"
