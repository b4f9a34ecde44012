"""Self-play in every format: games end, and no invariant is broken at any step."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from click.testing import CliRunner

from blackpoker import load_rules
from blackpoker.cli.main import cli
from blackpoker.sim.selfplay import check_invariants, self_play
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import Character, FogCard, Player, TrumpCard


@pytest.mark.parametrize("format_id", ["lite", "std", "pro", "mast"])
def test_self_play_keeps_invariants(format_id: str) -> None:
    stats = self_play(load_rules(), format_id, 100, seed=1000)
    assert stats.failures == []
    assert stats.games == 100 and sum(stats.winners.values()) == 100
    assert stats.requests > 0


def test_invariant_check_catches_a_lost_card() -> None:
    rules = load_rules()
    before = new_game(rules, "lite", 0)
    after = before.clone()
    after.players[0].hand = after.players[0].hand[1:]
    assert any("exactly one zone" in p for p in check_invariants(before, after, None))
    after = before.clone()
    after.players[1].life += after.players[1].hand[:1]
    after.players[1].hand = after.players[1].hand[1:]
    assert any("life rose" in p for p in check_invariants(before, after, None))


def test_invariant_check_follows_cards_between_changed_zones() -> None:
    """The one-zone check compares only the zones a step replaced: a card moved is fine, a card copied into a
    pile that only grew, or swapped for another card, is caught."""
    rules = load_rules()
    before = new_game(rules, "mast", 3)
    moved = before.clone()
    moved.players[0].graveyard += moved.players[0].hand[:1]
    moved.players[0].hand = moved.players[0].hand[1:]
    assert check_invariants(before, moved, None) == []
    copied = before.clone()
    copied.players[0].graveyard += copied.players[0].hand[:1]
    assert any("exactly one zone" in p for p in check_invariants(before, copied, None))
    swapped = before.clone()
    swapped.players[0].hand = swapped.players[1].hand[:1] + swapped.players[0].hand[1:]
    assert any("exactly one zone" in p for p in check_invariants(before, swapped, None))


def test_cli_play_reports_counts() -> None:
    outcome = CliRunner().invoke(cli, ["sim", "play", "--games", "3", "--seed", "5", "--format", "std"])
    assert outcome.exit_code == 0, outcome.output
    assert "games: 3" in outcome.output and "games/s" in outcome.output


def test_a_card_copied_into_any_zone_of_a_player_is_caught() -> None:
    """Every zone of a player that holds cards is followed by the one-zone check (it names them one by one): a
    copy of a hand card added to it is caught; a new zone without a case here fails the test."""
    rules = load_rules()
    before = new_game(rules, "mast", 3, frame="extra")
    card = before.players[0].hand[0]
    uid = before.next_uid + 100
    holding: dict[str, Callable[[Player], None]] = {
        "life": lambda p: setattr(p, "life", p.life + (card,)),
        "hand": lambda p: setattr(p, "hand", p.hand + (card,)),
        "graveyard": lambda p: setattr(p, "graveyard", p.graveyard + (card,)),
        "pack": lambda p: setattr(p, "pack", p.pack + (card,)),
        "rare": lambda p: setattr(p, "rare", p.rare + (card,)),
        "field": lambda p: setattr(p, "field", p.field + (Character(uid, 0, (card,), "soldier", "soldier"),)),
        "fog": lambda p: setattr(p, "fog", p.fog + (FogCard("fog", 0, (card,), 1, 1, 1),)),
        "trumps": lambda p: setattr(p, "trumps", p.trumps + (TrumpCard(uid, card),)),
    }
    not_cards = {"pack_opened", "deck"}
    assert set(holding) == {f.name for f in dataclasses.fields(Player)} - not_cards
    for zone, add_copy in holding.items():
        after = before.clone()
        add_copy(after.players[0])
        assert any("exactly one zone" in p for p in check_invariants(before, after, None)), zone
