"""A game between two policies, checked like self-play, kept as a record and summed up for balance studies.

Each policy sees only its own observation (:func:`blackpoker.sim.policies.observe`). Every random draw comes
from the game's seed (the decks and setup choices as self-play draws them, the engine's shuffles) and each
policy's own generator is seeded from it too, so a game is a pure function of (regulation, seed, policies).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from blackpoker.core.model import Rules
from blackpoker.sim.abilities import trump_of
from blackpoker.sim.decisions import Decision, RequestAction
from blackpoker.sim.engine import apply, current_player, legal_decisions
from blackpoker.sim.game_errors import SimError
from blackpoker.sim.policies import make_policy, observe
from blackpoker.sim.record import GameEnd, GameRecord
from blackpoker.sim.selfplay import TURN_CAP, check_invariants, random_setup
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import GameState

DECISION_CAP = 20_000  # a game that takes more decisions without a winner has stalled (players who never end)


@dataclass(frozen=True)
class GameSummary:
    """What a balance study reads of one game (only plain values, so it travels between processes)."""

    format: str
    frame: str | None
    seed: int
    policies: tuple[str, str]
    first: int
    winner: int | None
    end: str
    turns: int
    decisions: int
    requested: tuple[dict[str, int], dict[str, int]]  # per player: action id → requests
    resolved: tuple[dict[str, int], dict[str, int]]  # per player: action id → requests resolved with effect
    negated: tuple[dict[str, int], dict[str, int]]  # per player: action id → requests negated (無効)
    trumps: tuple[tuple[str, ...], tuple[str, ...]]  # per player: the trump ids in the 切札 zone at the start
    problems: tuple[str, ...] = ()


@dataclass
class _Tally:
    requested: list[Counter[str]] = field(default_factory=lambda: [Counter(), Counter()])


def _resolution_counts(rules: Rules, state: GameState) -> tuple[list[Counter[str]], list[Counter[str]]]:
    """Per player, the actions resolved with their effect and those negated, read from the resolution log
    (``name(A)``; `` 無効``: negated; any other suffix: resolved without effect or discarded)."""
    resolved: list[Counter[str]] = [Counter(), Counter()]
    negated: list[Counter[str]] = [Counter(), Counter()]
    names = {a.name: a.id for a in rules.actions}
    for entry in state.resolved:
        head, _, rest = entry.partition(")")
        name, _, who = head.rpartition("(")
        if name not in names or who not in ("A", "B"):
            continue
        player = "AB".index(who)
        suffix = rest.strip()
        if not suffix:
            resolved[player][names[name]] += 1
        elif suffix.startswith("無効"):
            negated[player][names[name]] += 1
    return resolved, negated


def play_match(rules: Rules, format_id: str, frame: str | None, seed: int, policies: tuple[str, str],
               *, turn_cap: int = TURN_CAP) -> tuple[GameRecord, GameSummary, GameState]:
    """One game of ``policies[0]`` (A) against ``policies[1]`` (B)."""
    rng = random.Random(seed)
    decks, choices = random_setup(rules, format_id, frame, rng)
    state = new_game(rules, format_id, seed, frame=frame, decks=decks, choices=choices)
    players = [make_policy(spec, rules, seed * 2 + i) for i, spec in enumerate(policies)]
    ids = [tuple(t.id for c in p.trumps if (t := trump_of(rules, c.card)) is not None) for p in state.players]
    trumps = (ids[0], ids[1])
    first = state.turn_player
    made: list[tuple[int, Decision]] = []
    tally = _Tally()
    end, problems = "win", []
    while state.winner is None:
        if state.turn > turn_cap:
            end = "turn-cap"
            break
        if len(made) >= DECISION_CAP:
            end = "stalled"
            break
        legal = legal_decisions(state)
        player = current_player(state)
        assert player is not None
        decision = legal[0] if len(legal) == 1 else players[player].decide(observe(state, player), legal)
        try:
            after = apply(state, decision)
        except SimError as exc:  # a policy returned a decision the engine refuses: a bug, kept in the record
            end, problems = "error", [f"{type(exc).__name__}: {exc}"]
            break
        made.append((player, decision))
        if isinstance(decision, RequestAction):
            tally.requested[player][decision.action_id] += 1
        problems = check_invariants(state, after, decision)
        state = after
        if problems:
            end = "invariant"
            break
    resolved, negated = _resolution_counts(rules, state)
    result = GameEnd(end, state.winner, state.turn, tuple(problems))
    record = GameRecord(format_id, frame, seed, decks, choices, tuple(made), rules.edition.version, policies, result)
    summary = GameSummary(format_id, frame, seed, policies, first, state.winner, end, state.turn, len(made),
                          (dict(tally.requested[0]), dict(tally.requested[1])), (dict(resolved[0]), dict(resolved[1])),
                          (dict(negated[0]), dict(negated[1])), trumps, tuple(problems))
    return record, summary, state
