"""A game between a person and a policy: the moves offered, the opponent's turns, undo, and the game record.

The person is one seat (A or B); the computer plays the other with a policy of ``sim/policies`` that sees only
its observation. Every decision, the person's and the computer's, is one of ``legal_decisions(state)``, so the
game is exactly what the engine allows, and it is kept as the game record of ``blackpoker sim replay``
(``sim/record.py``): the same regulation, seed, decks, choices and decisions replay to the same end.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from blackpoker.core.model import Rules
from blackpoker.play.playbyplay import PlayByPlay
from blackpoker.sim.decisions import Decision
from blackpoker.sim.engine import apply, current_player, legal_decisions
from blackpoker.sim.policies import make_policy, observe, parse_policy
from blackpoker.sim.policies.base import Policy
from blackpoker.sim.record import GameEnd, GameRecord, from_json, to_json
from blackpoker.sim.selfplay import random_setup
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import GameState

HUMAN = "human"  # the person's seat in the record's policies


class PlayError(ValueError):
    """A request the page should never make (a move that is not offered, a bad setting): its message says which."""


@dataclass
class Game:
    """One game in progress: the state, who the person is, the computer's policy and every decision so far."""

    rules: Rules
    state: GameState
    human: int
    opponent: str
    policy: Policy
    record: GameRecord | None  # None: a game from a worked example's position, which no record can start from
    decisions: list[tuple[int, Decision]] = field(default_factory=list)
    undo_points: list[tuple[GameState, int]] = field(default_factory=list)  # before each of the person's decisions
    seen: GameState | None = None  # the state at the person's last decision (what moved since is marked)
    log: PlayByPlay = field(init=False, repr=False, compare=False)  # the play-by-play as the person reads it

    def __post_init__(self) -> None:
        self.log = PlayByPlay(self.rules, self.human)

    @property
    def over(self) -> bool:
        return self.state.winner is not None

    @property
    def to_act(self) -> int | None:
        return current_player(self.state)

    @property
    def human_to_act(self) -> bool:
        return self.to_act == self.human

    def legal(self) -> list[Decision]:
        return legal_decisions(self.state)

    def play(self, index: int) -> None:
        """The person's decision: the ``index``-th of the legal decisions (the page offers exactly those)."""
        if not self.human_to_act:
            raise PlayError("it is not the person's decision now")
        legal = self.legal()
        if not 0 <= index < len(legal):
            raise PlayError(f"move {index} is not offered; expected 0 to {len(legal) - 1}")
        self.undo_points.append((self.state, len(self.decisions)))
        self.seen = self.state
        self._apply(self.human, legal[index])

    def opponent_step(self) -> Decision:
        """One decision of the computer (the page calls this while the computer is to act, showing each)."""
        player = self.to_act
        if player is None or player == self.human:
            raise PlayError("it is not the computer's decision now")
        legal = self.legal()
        decision = legal[0] if len(legal) == 1 else self.policy.decide(observe(self.state, player), legal)
        self._apply(player, decision)
        return decision

    def undo(self) -> bool:
        """Back to before the person's last decision (the computer's answers to it are taken back too)."""
        if not self.undo_points:
            return False
        self.state, count = self.undo_points.pop()
        del self.decisions[count:]
        self.seen = self.undo_points[-1][0] if self.undo_points else None
        return True

    def _apply(self, player: int, decision: Decision) -> None:
        self.state = apply(self.state, decision)
        self.decisions.append((player, decision))

    def to_record(self) -> GameRecord:
        """The game so far as a record of ``sim replay`` (with its result once the game is over)."""
        r = self.record
        if r is None:
            raise PlayError("a game from a worked example's position cannot be saved as a game record "
                            "(a record starts from the setup)")
        policies = (HUMAN, self.opponent) if self.human == 0 else (self.opponent, HUMAN)
        result = GameEnd("win", self.state.winner, self.state.turn) if self.over else None
        return GameRecord(r.format, r.frame, r.seed, r.decks, r.choices, tuple(self.decisions), r.ruleset, policies, result)

    def record_data(self) -> dict[str, Any]:
        return to_json(self.to_record())


def check_opponent(spec: str) -> None:
    try:
        parse_policy(spec)
    except ValueError as exc:
        raise PlayError(str(exc)) from None


def start(rules: Rules, format_id: str, frame: str | None, opponent: str, seed: int, *, starts: str = "human") -> Game:
    """A new game with decks and setup choices drawn from ``seed`` as ``sim play`` draws them.

    ``starts``: ``human`` (the person is the first player), ``computer``, or ``cards`` (the setup's card flip
    decides, the person is A). The rules decide the first player from the seed; the person takes that seat or
    the other, so the setup stays the rules' own."""
    check_opponent(opponent)
    if starts not in ("human", "computer", "cards"):
        raise PlayError(f"'{starts}' is not who starts; expected human, computer or cards")
    rng = random.Random(seed)
    decks, choices = random_setup(rules, format_id, frame, rng)
    state = new_game(rules, format_id, seed, frame=frame, decks=decks, choices=choices, record=True)
    first = state.turn_player
    human = {"human": first, "computer": 1 - first, "cards": 0}[starts]
    record = GameRecord(format_id, frame, seed, decks, choices, (), rules.edition.version)
    return Game(rules, state, human, opponent, make_policy(opponent, rules, seed * 2 + 1 - human), record)


def from_position(rules: Rules, state: GameState, opponent: str, seed: int) -> Game:
    """A game from a position (a worked example's start): the person is the player who decides first there."""
    check_opponent(opponent)
    human = current_player(state)
    if human is None:
        raise PlayError("the game is already over in this position")
    return Game(rules, state, human, opponent, make_policy(opponent, rules, seed), None)


def resume(rules: Rules, data: dict[str, Any], *, opponent: str | None = None) -> Game:
    """A game from a saved record (``record_data``): its setup again, then its decisions one by one, each checked
    to be legal. The person keeps their seat; the computer the recorded policy unless ``opponent`` is given."""
    record = from_json(data)
    policies = record.policies or (HUMAN, "greedy")
    if HUMAN not in policies:
        raise PlayError("the record has no person's seat (policies A or B: human); expected a game saved by the play page")
    human = policies.index(HUMAN)
    spec = opponent or policies[1 - human]
    check_opponent(spec)
    state = new_game(rules, record.format, record.seed, frame=record.frame, decks=record.decks, choices=record.choices,
                     record=True)
    base = GameRecord(record.format, record.frame, record.seed, record.decks, record.choices, (),
                      record.ruleset or rules.edition.version)
    game = Game(rules, state, human, spec, make_policy(spec, rules, record.seed * 2 + 1 - human), base)
    for i, (player, decision) in enumerate(record.players):
        if game.to_act != player or decision not in game.legal():
            raise PlayError(f"decision {i + 1} of the record is not a legal decision of that game")
        if player == human:
            game.undo_points.append((game.state, len(game.decisions)))
            game.seen = game.state
        game._apply(player, decision)
    return game
