"""Self-play: random legal games to the end, with the core flow's invariants checked after every step."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from blackpoker.cards import full_deck
from blackpoker.model import Rules
from blackpoker.sim.decisions import Pass, RequestAction
from blackpoker.sim.engine import apply, legal_decisions
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import GameState

# Effects that may put life cards back (or raise life): only these may make a life count grow.
LIFE_RAISERS = frozenset({"death-spear", "conscription"})
TURN_CAP = 300
DECK = frozenset(full_deck(2))


@dataclass
class PlayStats:
    games: int = 0
    requests: int = 0
    decisions: int = 0
    turns: int = 0
    winners: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


def check_invariants(before: GameState, after: GameState, decision: object) -> list[str]:
    """What must hold after every step: one zone per card, life only grows by an effect that says so, the
    stage and pass record follow 6.4."""
    problems = []
    for p in (0, 1):
        cards = after.all_cards(p)
        # The engine never creates a card after setup, only moves the same objects: 54 places holding 54 distinct
        # objects means every card is in exactly one zone (identity is much cheaper than value hashing).
        if len(cards) != len(DECK) or len(set(map(id, cards))) != len(DECK):
            seen = Counter(cards)
            problems.append(f"player {p}: cards not in exactly one zone: missing "
                            f"{sorted(map(str, DECK - set(cards)))}, twice {[str(c) for c, n in seen.items() if n > 1]}")
        if len(after.players[p].life) > len(before.players[p].life):
            resolved = after.resolved[len(before.resolved):]
            raisers = [after.rules.action(a).name for a in LIFE_RAISERS]
            if not any(r.startswith(name) for r in resolved for name in raisers):
                problems.append(f"player {p}: life rose without an effect that says so")
    if after.winner is None and after.pending is None:
        if after.chance is None:
            problems.append("the rule system kept the chance")
        if len(set(after.passes)) != len(after.passes) or len(after.passes) >= 2:
            problems.append(f"pass record {after.passes} is not a partial record of distinct players")
        if isinstance(decision, RequestAction) and after.passes:
            problems.append("a request did not reset the pass record")
    if isinstance(decision, Pass) and len(after.stage) > len(before.stage):
        problems.append("a pass added to the stage")
    return problems


def play_game(rules: Rules, format_id: str, seed: int, stats: PlayStats) -> GameState:
    """One random game; invariant failures and the turn cap are recorded in ``stats``."""
    state = new_game(rules, format_id, seed)
    rng = random.Random(seed)
    while state.winner is None:
        if state.turn > TURN_CAP:
            stats.failures.append(f"seed {seed}: no winner after {TURN_CAP} turns")
            break
        options = legal_decisions(state)
        decision = _pick(rng, state, options)
        after = apply(state, decision)
        stats.decisions += 1
        if isinstance(decision, RequestAction):
            stats.requests += 1
        problems = check_invariants(state, after, decision)
        if problems:
            stats.failures.extend(f"seed {seed}, turn {after.turn}: {p}" for p in problems)
            break
        state = after
    stats.games += 1
    stats.turns += state.turn
    if state.winner is not None:
        stats.winners["AB"[state.winner]] += 1
    return state


def _pick(rng: random.Random, state: GameState, options: list) -> object:
    """A random legal decision; the turn player with an empty stage passes rarely, so turns move on."""
    if len(options) > 1 and isinstance(options[0], Pass) and not state.stage and state.chance == state.turn_player:
        if rng.random() < 0.9:
            return rng.choice(options[1:])
    return rng.choice(options)


def self_play(rules: Rules, format_id: str, games: int, seed: int) -> PlayStats:
    stats = PlayStats()
    start = time.perf_counter()
    for i in range(games):
        play_game(rules, format_id, seed + i, stats)
    stats.seconds = time.perf_counter() - start
    return stats
