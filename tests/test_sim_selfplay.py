"""Self-play in every format: games end, and no invariant is broken at any step."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from blackpoker import load_rules
from blackpoker.cli.main import cli
from blackpoker.sim.selfplay import check_invariants, self_play
from blackpoker.sim.setup import new_game


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
