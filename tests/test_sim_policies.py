"""Policies decide from what a player sees: hidden cards and the seed cannot change an observation or a decision;
a determinisation looks the same to its viewer as the real game; policy games are functions of their seed."""

from __future__ import annotations

import gc
import random
from dataclasses import replace

import pytest

from blackpoker import load_rules
from blackpoker.core.model import Rules
from blackpoker.sim.engine import apply, current_player, legal_decisions
from blackpoker.sim.match import play_match
from blackpoker.sim.policies import make_policy, observe
from blackpoker.sim.policies.determinize import determinize
from blackpoker.sim.policies.ismcts import ISMCTSPolicy
from blackpoker.sim.policies.observation import Observation
from blackpoker.sim.selfplay import random_setup
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import GameState, Player

RULES = load_rules()
REGULATIONS = [("lite", None), ("mast", "extra")]


def _midgame(rules: Rules, fmt: str, frame: str | None, seed: int, steps: int) -> GameState:
    """A game some random steps in, stopped where a player has more than one option."""
    rng = random.Random(seed)
    decks, choices = random_setup(rules, fmt, frame, rng)
    state = new_game(rules, fmt, seed, frame=frame, decks=decks, choices=choices)
    for _ in range(steps):
        legal = legal_decisions(state)
        if state.winner is not None:
            break
        state = apply(state, rng.choice(legal))
    return state


def _has_hidden_cards_to_move(state: GameState) -> bool:
    """Whether :func:`_hidden_variant` can move hidden cards: the one deciding is known, and the other player holds a
    hand card and more than one life card."""
    viewer = current_player(state)
    return viewer is not None and bool(state.players[1 - viewer].hand) and len(state.players[1 - viewer].life) > 1


def _hidden_variant(state: GameState, viewer: int) -> GameState:
    """The same game with every hidden card moved: the viewer's life reordered, an opponent's hand card swapped
    with one of their life cards, and another seed (so other future shuffles)."""
    other = state.clone()
    other.seed = state.seed + 7919
    mine, theirs = other.players[viewer], other.players[1 - viewer]
    mine.life = tuple(reversed(mine.life))
    assert theirs.hand and len(theirs.life) > 1
    hand, life = list(theirs.hand), list(theirs.life)
    hand[0], life[-1] = life[-1], hand[0]
    theirs.hand, theirs.life = tuple(hand), tuple(life)
    assert (mine.life, theirs.hand) != (state.players[viewer].life, state.players[1 - viewer].hand)
    return other


@pytest.mark.parametrize(("fmt", "frame"), REGULATIONS)
@pytest.mark.parametrize("spec", ["random", "greedy", "ismcts:4"])
def test_hidden_cards_change_neither_observation_nor_decision(fmt: str, frame: str | None, spec: str) -> None:
    for seed in range(3):
        state = _midgame(RULES, fmt, frame, seed, 25)
        while not _has_hidden_cards_to_move(state):  # a random game need not have them at step 25: play on
            state = apply(state, random.Random(seed).choice(legal_decisions(state)))
            assert state.winner is None, "the game ended before the opponent held a hand card"
        viewer = current_player(state)
        assert viewer is not None
        other = _hidden_variant(state, viewer)
        seen, seen_other = observe(state, viewer), observe(other, viewer)
        assert seen == seen_other
        legal = legal_decisions(state)
        assert legal == legal_decisions(other)
        one = make_policy(spec, RULES, 11).decide(seen, legal)
        two = make_policy(spec, RULES, 11).decide(seen_other, legal)
        assert one == two and one in legal


def test_the_observation_shows_what_the_viewer_may_know() -> None:
    state = _midgame(RULES, "lite", None, 1, 25)
    seen = observe(state, 0)
    assert seen.me.hand == state.players[0].hand and seen.opponent.hand is None
    assert seen.opponent.hand_count == len(state.players[1].hand)
    assert seen.me.life == len(state.players[0].life) and seen.opponent.life is None
    hidden = [ch for ch in seen.opponent.field if not ch.face_up]
    assert all(ch.cards is None for ch in hidden)
    assert "seed" not in repr(seen) and str(state.seed * 1_000_003) not in repr(seen)


def _reachable(root: object) -> list[object]:
    seen, todo, out = set(), [root], []
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        out.append(obj)
        todo.extend(gc.get_referents(obj))
    return out


@pytest.mark.parametrize(("fmt", "frame"), REGULATIONS)
def test_the_observation_holds_no_state_and_no_generator(fmt: str, frame: str | None) -> None:
    state = _midgame(RULES, fmt, frame, 2, 30)
    seen = observe(state, 0)
    for obj in _reachable(seen):
        assert not isinstance(obj, (GameState, Player, random.Random, Rules)), type(obj)
    with pytest.raises(AttributeError):
        seen.turn = 99  # type: ignore[misc]  # frozen


@pytest.mark.parametrize(("fmt", "frame"), REGULATIONS)
def test_a_determinisation_looks_like_the_real_game_to_its_viewer(fmt: str, frame: str | None) -> None:
    rng = random.Random(3)
    for seed in range(4):
        state = _midgame(RULES, fmt, frame, seed, 20 + 7 * seed)
        if state.winner is not None or state.pending is not None:
            continue
        viewer = current_player(state)
        assert viewer is not None
        seen = observe(state, viewer)
        det = determinize(seen, RULES, rng)
        assert observe(det, viewer).key() == seen.key()
        assert legal_decisions(det) == legal_decisions(state)
        assert det.seed != state.seed
        for p in (0, 1):  # every card in one zone, as many as the viewer knows there are
            assert len(det.all_cards(p)) == len(set(det.all_cards(p)))


def test_policy_games_are_functions_of_their_seed() -> None:
    one = play_match(RULES, "lite", None, 5, ("ismcts:2", "greedy"))
    two = play_match(RULES, "lite", None, 5, ("ismcts:2", "greedy"))
    assert one[0] == two[0] and one[1] == two[1]
    assert one[1].end == "win" and one[1].winner is not None
    other = play_match(RULES, "lite", None, 6, ("ismcts:2", "greedy"))
    assert other[0].players != one[0].players


def test_a_policy_is_named_with_its_budget() -> None:
    from blackpoker.sim.policies import parse_policy, policy_name
    assert parse_policy("ismcts:64") == ("ismcts", "64")
    assert policy_name("ismcts:200ms") == "情報集合モンテカルロ木探索(200ミリ秒)"
    assert parse_policy("ismcts:16/500ms") == ("ismcts", "16/500ms")
    assert policy_name("ismcts:16/500ms") == "情報集合モンテカルロ木探索(16回・500ミリ秒まで)"
    for bad in ("alpha", "greedy:3", "ismcts:fast", "ismcts:16/", "ismcts:/500ms", "ismcts:16/500", "ismcts:5ms/16",
                "greedy:16/500ms"):
        with pytest.raises(ValueError, match="expected"):
            parse_policy(bad)


def test_observation_type_is_what_policies_get() -> None:
    state = _midgame(RULES, "mast", "extra", 4, 10)
    viewer = current_player(state)
    assert viewer is not None
    seen = observe(state, viewer)
    assert isinstance(seen, Observation) and replace(seen, turn=seen.turn) == seen


def test_ismcts_answers_an_effects_question_and_keeps_a_time_budget() -> None:
    """At an effect's question (attackers, blockers, …) the search starts from determinised snapshots."""
    asked = 0
    for seed in range(12):
        rng = random.Random(seed)
        decks, choices = random_setup(RULES, "lite", None, rng)
        state = new_game(RULES, "lite", seed, decks=decks, choices=choices)
        while state.winner is not None or state.pending is None or len(legal_decisions(state)) < 2:
            if state.winner is not None:
                break
            state = apply(state, rng.choice(legal_decisions(state)))
        if state.winner is not None:
            continue
        viewer = current_player(state)
        assert viewer is not None
        seen, legal = observe(state, viewer), legal_decisions(state)
        assert seen.pending is not None and state.pending is not None and seen.pending.prompt == state.pending.prompt
        assert make_policy("ismcts:6", RULES, 1).decide(seen, legal) in legal
        assert make_policy("ismcts:20ms", RULES, 1).decide(seen, legal) in legal
        asked += 1
        if asked == 3:
            break
    assert asked == 3


def test_ismcts_with_both_budgets_stops_at_the_count_or_the_time() -> None:
    """``ismcts:N/Mms``: with time to spare it decides as ``ismcts:N`` (the count stops it, the same decision for a
    seed); with no time at all it starts no simulation and takes the first decision it searches."""
    state = _midgame(RULES, "mast", "extra", 4, 10)
    viewer = current_player(state)
    assert viewer is not None
    seen, legal = observe(state, viewer), legal_decisions(state)
    assert len(legal) > 1
    counted = make_policy("ismcts:5", RULES, 3).decide(seen, legal)
    assert make_policy("ismcts:5/3600000ms", RULES, 3).decide(seen, legal) == counted
    hurried = make_policy("ismcts:100000/0ms", RULES, 3)
    assert isinstance(hurried, ISMCTSPolicy)
    before = hurried.rng.getstate()
    assert hurried.decide(seen, legal) in legal
    assert hurried.rng.getstate() == before, "no simulation was started"
    with pytest.raises(ValueError, match="needs simulations, milliseconds or both"):
        ISMCTSPolicy(RULES, 1, simulations=None)
