"""Self-play: random legal games to the end, with the core flow's invariants checked after every step."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from blackpoker.core.cards import Card
from blackpoker.core.model import Rules
from blackpoker.sim.abilities import trump_of
from blackpoker.sim.decisions import Decision, Pass, RequestAction
from blackpoker.sim.draw import randbelow, shuffle
from blackpoker.sim.engine import apply, current_player, legal_options
from blackpoker.sim.frame_effects import trump_closed
from blackpoker.sim.frames import SetupChoice, check_regulation, default_deck
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import GameState, Player, sort_cards

# Effects that may put life cards back (or raise life): only these may make a life count grow.
LIFE_RAISERS: Final = frozenset({"death-spear", "conscription"})
TURN_CAP = 300


@dataclass
class PlayStats:
    """Counts gathered over many self-play games: winners, decisions, actions resolved, failures."""

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
    stage and pass record follow 6.4.

    The one-zone check is by induction: ``before`` holds it (:func:`card_problems` checks a game's first state),
    so only the zones a step replaced are compared (zones are immutable tuples, so an unchanged zone is the very
    same object); checking all 54 cards of both players at every step took a tenth of self-play's time."""
    problems = []
    requests_kept = before.stage is after.stage and before.buffer is after.buffer and before.pending is after.pending
    # a closed trump is checked against both players' fog cards (クローズ's mark) and the turn
    closing_kept = (before.turn == after.turn and before.players[0].fog is after.players[0].fog
                    and before.players[1].fog is after.players[1].fog)
    for p in (0, 1):
        # A clone shares every zone until the step replaces it: a player whose zones are all the same objects
        # (most players at most steps) moved no card and broke no rule that held before.
        kept = before.players[p].same_zones(after.players[p])
        if not (kept and requests_kept) and not _same_cards_moved(before, after, p, requests_kept):
            problems += card_problems(after, p)
        if not (kept and closing_kept):
            problems += _frame_invariants(before, after, p)
        if not kept and len(after.players[p].life) > len(before.players[p].life):
            resolved = after.resolved[len(before.resolved):]
            raisers = [after.rules.action(a).name for a in LIFE_RAISERS]
            if not any(r.startswith(name) for r in resolved for name in raisers):
                problems.append(f"player {p}: life rose without an effect that says so")
    if after.winner is None and after.pending is None:
        if after.chance is None:
            problems.append("the rule system kept the chance")
        if len(after.passes) >= 2:  # (two passes of distinct players end the round: a record holds at most one)
            problems.append(f"pass record {after.passes} is not a partial record of distinct players")
        if isinstance(decision, RequestAction) and after.passes:
            problems.append("a request did not reset the pass record")
    if isinstance(decision, Pass) and len(after.stage) > len(before.stage):
        problems.append("a pass added to the stage")
    return problems


def card_problems(state: GameState, p: int) -> list[str]:
    """The one-zone invariant in full: every card the player brought is in exactly one zone."""
    cards = state.all_cards(p)
    deck = state.players[p].deck
    # The engine never creates a card after setup, only moves the same objects: as many places as the deck
    # has cards, holding as many distinct objects, means every card is in exactly one zone (identity is much
    # cheaper than value hashing).
    if len(cards) != len(deck) or len(set(map(id, cards))) != len(deck):
        seen = Counter(cards)
        return [f"player {p}: cards not in exactly one zone: missing "
                f"{sorted(map(str, deck - set(cards)))}, twice {[str(c) for c, n in seen.items() if n > 1]}"]
    return []


_PILES = ("life", "hand", "graveyard", "pack", "rare")  # Player fields that are plain tuples of cards
_HOLDERS = ("field", "fog", "trumps")  # Player fields whose records hold cards


def _held(player: Player, zone: str) -> list[Card]:
    """The cards held by the records of a zone of ``_HOLDERS``."""
    cards: list[Card] = []
    if zone == "field":
        for ch in player.field:
            cards.extend(ch.cards)
    elif zone == "fog":
        for fog in player.fog:
            cards.extend(fog.cards)
    else:
        for trump in player.trumps:
            cards.append(trump.card)
    return cards


def _request_keys(state: GameState, p: int) -> list[Card]:
    """The player's key cards on the stage, in the buffer and held by a waiting request (as all_cards counts)."""
    cards: list[Card] = []
    for r in state.stage + state.buffer:
        if r.controller == p:
            cards.extend(r.keys)
    waiting = state.pending.request if state.pending else None
    if waiting and waiting.controller == p and state.request_on_stage(waiting.uid) is None:
        cards.extend(waiting.keys)
    return cards


def _same_cards_moved(before: GameState, after: GameState, p: int, requests_kept: bool) -> bool:
    """Whether the cards that left the zones the step replaced are the cards that arrived in them, each once
    (then, as ``before`` kept every card in one zone, so does ``after``). Cards are compared as ``Card.bit`` sums.
    Zones are named one by one (``tests/test_sim_selfplay.py`` checks that every zone of a player is)."""
    was, now = before.players[p], after.players[p]
    gone: list[Card] = []
    came: list[Card] = []
    _pile_moves(was.life, now.life, gone, came)
    _pile_moves(was.hand, now.hand, gone, came)
    _pile_moves(was.graveyard, now.graveyard, gone, came)
    _pile_moves(was.pack, now.pack, gone, came)
    _pile_moves(was.rare, now.rare, gone, came)
    for zone, replaced in (("field", now.field is not was.field), ("fog", now.fog is not was.fog),
                           ("trumps", now.trumps is not was.trumps)):
        if replaced:
            gone.extend(_held(was, zone))
            came.extend(_held(now, zone))
    if not requests_kept:
        gone.extend(_request_keys(before, p))
        came.extend(_request_keys(after, p))
    left_mask = arrived_mask = 0
    for card in gone:
        left_mask |= card.bit
    for card in came:
        arrived_mask |= card.bit
    return len(gone) == len(came) == arrived_mask.bit_count() and left_mask == arrived_mask


def _pile_moves(was: tuple[Card, ...], now: tuple[Card, ...], gone: list[Card], came: list[Card]) -> None:
    """Add the cards that left a pile to ``gone`` and those that arrived to ``came``. A pile that only grew at its
    end or lost cards from its top is compared by those cards alone (C-level tuple comparisons find that out),
    since graveyard and life hold most of the cards and change at most steps."""
    if now is was:
        return
    n, m = len(was), len(now)
    if m >= n and now[:n] == was:
        came.extend(now[n:])
    elif m <= n and was[n - m:] == now:
        gone.extend(was[:n - m])
    else:
        gone.extend(was)
        came.extend(now)


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
    fogs = after.players[0].fog or after.players[1].fog  # クローズ leaves a fog card; without one nothing is closed
    if fogs and any(t.face_up and trump_closed(after, t.uid) for t in now.trumps):
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
        shuffle(rng, deck)
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
    stats.failures.extend(f"seed {seed}, setup: {p}" for p in card_problems(state, 0) + card_problems(state, 1))
    while state.winner is None:
        if state.turn > TURN_CAP:
            stats.failures.append(f"seed {seed}: no winner after {TURN_CAP} turns")
            break
        options = legal_options(state)
        decision = _pick(rng, state, options)
        if decisions is not None:
            player = current_player(state)
            assert player is not None  # the game is not over
            decisions.append((player, decision))
        after = apply(state, decision, validate=False)  # taken from legal_options(state): checked already
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


def _pick(rng: random.Random, state: GameState, options: Sequence[Decision]) -> Decision:
    """A random legal decision; the turn player with an empty stage passes rarely, so turns move on."""
    if (len(options) > 1 and isinstance(options[0], Pass) and not state.stage and state.chance == state.turn_player
            and rng.random() < 0.9):
        # rng.choice(options[1:]) without copying the options: choice(seq) and randrange(len(seq)) draw alike
        return options[1 + randbelow(rng, len(options) - 1)]
    return options[randbelow(rng, len(options))]  # rng.choice(options)


def self_play(rules: Rules, format_id: str, games: int, seed: int, frame: str | None = None) -> PlayStats:
    """Seeded random games with the invariants checked after every step: the cheapest search for engine bugs."""
    stats = PlayStats()
    start = time.perf_counter()
    for i in range(games):
        play_game(rules, format_id, seed + i, stats, frame)
    stats.seconds = time.perf_counter() - start
    return stats
