"""Self-play: random legal games to the end, with the core flow's invariants checked after every step."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from blackpoker.core.cards import Card
from blackpoker.core.model import Rules
from blackpoker.sim.abilities import trump_of
from blackpoker.sim.decisions import Decision, Pass, RequestAction
from blackpoker.sim.engine import apply, current_player, legal_decisions
from blackpoker.sim.frame_effects import trump_closed
from blackpoker.sim.frames import SetupChoice, check_regulation, default_deck
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import GameState, sort_cards

# Effects that may put life cards back (or raise life): only these may make a life count grow.
LIFE_RAISERS = frozenset({"death-spear", "conscription"})
TURN_CAP = 300


@dataclass
class PlayStats:
    games: int = 0
    requests: int = 0
    decisions: int = 0
    turns: int = 0
    winners: Counter[str] = field(default_factory=Counter)
    resolved: Counter[str] = field(default_factory=Counter)  # action name → requests resolved (or negated)
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0


def check_invariants(before: GameState, after: GameState, decision: object) -> list[str]:
    """What must hold after every step: one zone per card, life only grows by an effect that says so, the
    stage and pass record follow 6.4."""
    problems = []
    for p in (0, 1):
        cards = after.all_cards(p)
        deck = after.players[p].deck
        # The engine never creates a card after setup, only moves the same objects: as many places as the deck
        # has cards, holding as many distinct objects, means every card is in exactly one zone (identity is much
        # cheaper than value hashing).
        if len(cards) != len(deck) or len(set(map(id, cards))) != len(deck):
            seen = Counter(cards)
            problems.append(f"player {p}: cards not in exactly one zone: missing "
                            f"{sorted(map(str, deck - set(cards)))}, twice {[str(c) for c, n in seen.items() if n > 1]}")
        problems += _frame_invariants(before, after, p)
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


def _frame_invariants(before: GameState, after: GameState, p: int) -> list[str]:
    """The frame zones only move one way: a pack only shrinks and stays opened, a rare card never comes back,
    trumps never return, and a trump closed this turn stays face down (クローズ)."""
    was, now = before.players[p], after.players[p]
    problems = []
    if len(now.pack) > len(was.pack) or (was.pack_opened and not now.pack_opened):
        problems.append(f"player {p}: the pack grew or was closed again")
    if len(now.pack) < len(was.pack) and not now.pack_opened:
        problems.append(f"player {p}: a card left the pack without パック開封")
    if len(now.rare) > len(was.rare) or len(now.trumps) > len(was.trumps):
        problems.append(f"player {p}: a rare card or a trump came back")
    if any(t.face_up and trump_closed(after, t.uid) for t in now.trumps):
        problems.append(f"player {p}: a closed trump is face up in the turn it was closed")
    return problems


def random_setup(rules: Rules, format_id: str, frame: str | None, rng: random.Random
                 ) -> tuple[tuple[tuple[Card, ...], ...] | None, tuple[SetupChoice | None, ...] | None]:
    """Decks and setup choices for a random game: decks of any size the frame allows (so deck conditions are
    exercised), and in エクストラ mostly trumps that have abilities (so the 兵士起因 actions get played)."""
    frame_def = check_regulation(rules, format_id, frame)
    if frame_def is None:
        return None, None
    decks, choices = [], []
    for _ in (0, 1):
        deck = list(default_deck(rules, frame_def))
        low = frame_def.deck.min_cards if frame_def.deck and frame_def.deck.min_cards else len(deck)
        rng.shuffle(deck)
        deck = deck[:rng.randint(low, len(deck))]
        choice = None
        if frame_def.trumps:
            named = [c for c in sort_cards(deck) if trump_of(rules, c) is not None]
            if len(named) >= 2 and rng.random() < 0.8:
                trumps = tuple(rng.sample(named, 2))
                choice = SetupChoice(trumps=trumps, reveal=rng.choice(trumps))
        decks.append(tuple(deck))
        choices.append(choice)
    return tuple(decks), tuple(choices)


def play_game(rules: Rules, format_id: str, seed: int, stats: PlayStats, frame: str | None = None,
              decisions: list[tuple[int, Decision]] | None = None) -> GameState:
    """One random game; invariant failures and the turn cap are recorded in ``stats``; ``decisions``, when given,
    receives (player, decision) for each step (for a game record)."""
    rng = random.Random(seed)
    decks, choices = random_setup(rules, format_id, frame, rng)
    state = new_game(rules, format_id, seed, frame=frame, decks=decks, choices=choices)
    while state.winner is None:
        if state.turn > TURN_CAP:
            stats.failures.append(f"seed {seed}: no winner after {TURN_CAP} turns")
            break
        options = legal_decisions(state)
        decision = _pick(rng, state, options)
        if decisions is not None:
            decisions.append((current_player(state), decision))  # type: ignore[arg-type]
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
    stats.resolved.update(entry.split("(")[0] for entry in state.resolved)
    if state.winner is not None:
        stats.winners["AB"[state.winner]] += 1
    return state


def _pick(rng: random.Random, state: GameState, options: list[Decision]) -> Decision:
    """A random legal decision; the turn player with an empty stage passes rarely, so turns move on."""
    if (len(options) > 1 and isinstance(options[0], Pass) and not state.stage and state.chance == state.turn_player
            and rng.random() < 0.9):
        return rng.choice(options[1:])
    return rng.choice(options)


def self_play(rules: Rules, format_id: str, games: int, seed: int, frame: str | None = None) -> PlayStats:
    stats = PlayStats()
    start = time.perf_counter()
    for i in range(games):
        play_game(rules, format_id, seed + i, stats, frame)
    stats.seconds = time.perf_counter() - start
    return stats
