"""The engine: legal decisions, illegal ones named by rule, replay determinism, rule details."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackpoker import load_rules
from blackpoker.core.cards import parse_card
from blackpoker.core.model import Rules
from blackpoker.sim import Choose, GameOver, IllegalDecision, Pass, RequestAction, apply, legal_decisions, new_game
from blackpoker.sim.decisions import Decision
from blackpoker.sim.effects import bj_points
from blackpoker.sim.requests import check_request
from blackpoker.sim.state import GameState
from blackpoker.sim.text import life_answer


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


def _play(rules: Rules, seed: int, steps: int) -> tuple[GameState, list[Decision]]:
    state = new_game(rules, "mast", seed)
    rng = random.Random(seed)
    decisions: list[Decision] = []
    for _ in range(steps):
        if state.winner is not None:
            break
        d = rng.choice(legal_decisions(state))
        decisions.append(d)
        state = apply(state, d)
    return state, decisions


def _fingerprint(s: GameState) -> tuple[object, ...]:
    return (s.turn, s.turn_player, s.chance, s.winner, s.stage, s.passes, s.resolved,
            tuple((p.life, p.hand, p.graveyard, p.field, p.fog) for p in s.players))


def test_replay_is_deterministic(rules: Rules) -> None:
    first, decisions = _play(rules, 11, 400)
    replay = new_game(rules, "mast", 11)
    for d in decisions:
        replay = apply(replay, d)
    assert _fingerprint(replay) == _fingerprint(first)
    other, _ = _play(rules, 12, 400)
    assert _fingerprint(other) != _fingerprint(first)


def test_apply_does_not_change_its_input(rules: Rules) -> None:
    state = new_game(rules, "lite", 3)
    before = _fingerprint(state)
    apply(state, legal_decisions(state)[1])
    assert _fingerprint(state) == before


def _check_every_step(rules: Rules, fmt: str, seed: int, steps: int, frame: str | None = None) -> int:
    """Play random legal decisions; at every step every listed request passes the rule check, each listed
    decision applies without error and leaves its input unchanged. Returns how many requests were checked.
    (Self-play applies listed requests without the check, ``apply(…, validate=False)``: this is what makes that
    safe.)"""
    state = new_game(rules, fmt, seed, frame=frame)
    rng = random.Random(seed)
    checked = 0
    for _ in range(steps):
        if state.winner is not None:
            break
        options = legal_decisions(state)
        assert options, "a game without a winner always has a legal decision"
        before = _fingerprint(state)
        for d in options:
            if isinstance(d, RequestAction):
                assert state.chance is not None  # the game goes on
                check_request(state, state.chance, d)  # raises if the enumeration and the check disagree
                checked += 1
        for d in rng.sample(options, min(3, len(options))):
            apply(state, d)
        assert _fingerprint(state) == before
        state = apply(state, rng.choice(options))
    return checked


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["lite", "std", "pro", "mast"]), st.integers(0, 10_000))
def test_every_listed_decision_is_legal_in_random_games(rules: Rules, fmt: str, seed: int) -> None:
    _check_every_step(rules, fmt, seed, 120)


@pytest.mark.parametrize("regulation", ["lite+entry20", "std+pack", "std+rarepack", "pro+strategy", "mast+extra"])
def test_every_listed_decision_is_legal_in_random_games_of_every_frame(rules: Rules, regulation: str) -> None:
    fmt, _, frame = regulation.partition("+")
    assert sum(_check_every_step(rules, fmt, seed, 150, frame) for seed in range(4)) > 20


def test_the_random_games_check_real_requests(rules: Rules) -> None:
    """The property above is not vacuous: its games list and check many requests, not only passes."""
    assert sum(_check_every_step(rules, fmt, 1, 120) for fmt in ("lite", "mast")) > 50


def test_setup_follows_2_9(rules: Rules) -> None:
    state = new_game(rules, "lite", 21)
    first = state.turn_player
    assert state.chance == first
    assert len(state.players[first].hand) == 8 and len(state.players[1 - first].hand) == 7
    flipped = state.players[0].graveyard
    assert len(flipped) == len(state.players[1].graveyard) >= 1
    assert flipped[-1].number != state.players[1].graveyard[-1].number
    for p in (0, 1):
        assert len(state.all_cards(p)) == 54


def test_illegal_main_timing_names_rule(rules: Rules) -> None:
    state = new_game(rules, "lite", 1)
    state = apply(state, Pass())  # the other player now holds the chance without the turn
    with pytest.raises(IllegalDecision) as info:
        apply(state, RequestAction("end"))
    assert "2.10.1" in info.value.rule and "自分のターン" in info.value.rule
    assert "ターン:" in info.value.where


def test_illegal_triggered_and_unknown(rules: Rules) -> None:
    state = new_game(rules, "lite", 1)
    with pytest.raises(IllegalDecision, match="誘発"):
        apply(state, RequestAction("draw"))
    with pytest.raises(IllegalDecision, match="3.2: 「R・S・F」はこの対戦レギュレーション"):
        apply(state, RequestAction("royal-straight-flush"))  # not in ライト
    with pytest.raises(IllegalDecision):
        apply(state, Choose("ヒット"))
    assert issubclass(IllegalDecision, ValueError)


def test_game_over_refuses_decisions(rules: Rules) -> None:
    state = new_game(rules, "lite", 2)
    state.winner = 0
    with pytest.raises(GameOver):
        apply(state, Pass())
    assert legal_decisions(state) == []


def test_blackjack_points_follow_ruling() -> None:
    ace, king, five = parse_card("SA"), parse_card("SK"), parse_card("S5")
    assert bj_points(ace, 0) == 11 and bj_points(ace, 11) == 1 and bj_points(king, 11) == 10
    total = 0
    for c in (ace, five, king):
        total += bj_points(c, total)
    assert total == 26  # ruling blackjack-ace: the ace is not re-counted


def test_life_answer() -> None:
    assert life_answer(7) == "7枚" and life_answer(9) == "9枚" and life_answer(10) == "10枚以上です"


@pytest.mark.parametrize(("fmt", "frame"), [("lite", "entry20"), ("mast", None), ("mast", "extra")])
def test_legal_options_read_like_legal_decisions(rules: Rules, fmt: str, frame: str | None) -> None:
    """Self-play's lazy options have the length, order and items of legal_decisions, by index, slice and loop."""
    from blackpoker.sim.engine import legal_options
    state = new_game(rules, fmt, 5, frame=frame)
    rng = random.Random(5)
    seen_many = False
    for _ in range(300):
        if state.winner is not None:
            break
        listed, lazy = legal_decisions(state), legal_options(state)
        assert len(lazy) == len(listed) and list(lazy) == listed
        assert [lazy[i] for i in range(len(listed))] == listed and lazy[-1] == listed[-1]
        assert list(lazy[1:]) == listed[1:]
        with pytest.raises(IndexError):
            lazy[len(listed)]
        seen_many |= len(listed) > 3
        state = apply(state, rng.choice(listed))
    assert seen_many


@pytest.mark.parametrize("fmt", ["lite", "mast"])
def test_the_turn_player_holds_the_chance_after_a_stage_resolution(rules: Rules, fmt: str) -> None:
    """図 6.6: [15] → [9] → [6] → [2] (ruling chance-after-resolution), whoever passed last."""
    seen = 0
    for seed in range(12):
        state = new_game(rules, fmt, seed)
        rng = random.Random(seed)
        for _ in range(600):
            if state.winner is not None:
                break
            d = rng.choice(legal_decisions(state))
            after = apply(state, d)
            if (isinstance(d, Pass) and len(state.passes) + 1 == len(state.players) and state.stage
                    and after.pending is None and after.winner is None and not after.stage):
                seen += 1
                assert after.chance == after.turn_player, (seed, after.resolved[-3:])
            state = after
    assert seen > 20
