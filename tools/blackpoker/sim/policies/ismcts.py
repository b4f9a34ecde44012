"""``ismcts``: information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012).

Each simulation draws a determinisation of the hidden cards consistent with the observation
(:mod:`.determinize`), walks the tree from the root choosing by UCB among the decisions legal in that
determinisation (statistics are kept per information set, i.e. per observation of the player to act, so every
determinisation that looks the same to that player shares them, and each child counts how often it was
available), adds one node, plays a cheap rollout (the greedy heuristic with 10% random decisions) for up to
``rollout_depth`` decisions and scores the end by who won (or a material estimate when the rollout is cut off), then backs the
score up for the player of each node. Only the ``width`` decisions the greedy heuristic rates best are searched
at a node (heuristic pruning: a decision may have dozens of options and the budget is small). The decision is
the root child visited most. The budget is a number of simulations (deterministic for a seed) or milliseconds.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeGuard

from blackpoker.core.model import Rules
from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
from blackpoker.sim.draw import randbelow
from blackpoker.sim.engine import apply, current_player, legal_decisions
from blackpoker.sim.game_errors import SimError
from blackpoker.sim.policies.determinize import determinize
from blackpoker.sim.policies.greedy import GreedyPolicy
from blackpoker.sim.policies.observation import Observation, observe
from blackpoker.sim.state import GameState, Payment


@dataclass
class Edge:
    """Statistics of one decision at a search node: visits, availability and reward."""

    visits: int = 0
    available: int = 0
    total: float = 0.0  # sum of the rewards of the node's player


@dataclass
class Node:
    """A search node: the player to decide and the statistics of each decision tried."""

    player: int
    edges: dict[Decision, Edge] = field(default_factory=dict)


def material(state: GameState, player: int) -> float:
    """A score in [0, 1] of an unfinished game for ``player``: life first, then soldiers on the field."""
    def strength(p: int) -> float:
        side = state.players[p]
        return len(side.life) + 0.5 * sum(ch.base_size / 13 + 1 for ch in side.field if ch.kind == "soldier") \
            + 0.3 * sum(ch.kind == "bulwark" for ch in side.field) + 0.1 * len(side.hand)
    diff = strength(player) - strength(1 - player)
    return 1 / (1 + math.exp(-diff / 3))


def rollout_pick(rng: random.Random, state: GameState, options: list[Decision]) -> Decision:
    """The cheap rollout policy: random, but the turn player with an empty stage rarely passes."""
    if (len(options) > 1 and isinstance(options[0], Pass) and not state.stage and state.chance == state.turn_player
            and rng.random() < 0.9):
        return options[1 + randbelow(rng, len(options) - 1)]  # rng.choice(options[1:])
    return options[randbelow(rng, len(options))]  # rng.choice(options)


def is_free(d: Decision) -> TypeGuard[RequestAction]:
    """A request with no key card and no cost (レアドロー, パック開封, …): once a turn changes all it can."""
    return isinstance(d, RequestAction) and not d.keys and d.payment == Payment() and d.key_character is None


def prune(legal: Sequence[Decision], idle: bool, free: set[str]) -> list[Decision]:
    """The decisions worth searching: not a pass that only hands an empty stage back and forth on one's own turn
    (``idle``), nor a free request made already this turn; never nothing."""
    kept = [d for d in legal if not (idle and isinstance(d, Pass))
            and not (is_free(d) and d.action_id in free)]
    return kept or list(legal)


class ISMCTSPolicy:
    """An opponent that searches with information-set Monte Carlo tree search over the hidden cards."""

    name = "ismcts"

    def __init__(self, rules: Rules, seed: int = 0, simulations: int | None = 32, milliseconds: float | None = None,
                 rollout_depth: int = 120, tree_depth: int = 12, exploration: float = 0.7,
                 rollout: str = "greedy", width: int = 4) -> None:
        if simulations is None and milliseconds is None:
            raise ValueError("an ISMCTS budget needs simulations, milliseconds or both")
        self.rules = rules
        self.rng = random.Random(seed)
        # at most ``simulations`` per decision (None: no count), and none started after ``milliseconds``
        self.simulations, self.milliseconds = simulations, milliseconds
        self.rollout_depth, self.tree_depth, self.exploration = rollout_depth, tree_depth, exploration
        self.turn = 0
        self.free: set[str] = set()
        self.rollout = rollout  # "greedy" (with 10% random decisions) or "random"
        self.width = width
        self.rollout_policy = GreedyPolicy(seed)

    def decide(self, observation: Observation, legal: Sequence[Decision]) -> Decision:
        """Search from the information set the viewer is in: each simulation draws hidden cards consistent with what
        it saw, so the search never uses the opponent's hand."""
        if observation.turn != self.turn:
            self.turn, self.free = observation.turn, set()
        idle = not observation.stage and observation.chance == observation.turn_player == observation.viewer
        legal = self._widest(observation, prune(legal, idle, self.free))
        if len(legal) == 1:
            return self._note(legal[0])
        options = tuple(d.option for d in legal if isinstance(d, Choose))
        root = Node(observation.viewer)
        nodes: dict[object, Node] = {observation.key(): root}
        deadline = None if self.milliseconds is None else time.perf_counter() + self.milliseconds / 1000
        done = 0
        while ((self.simulations is None or done < self.simulations)
               and (deadline is None or time.perf_counter() < deadline)):
            done += 1
            state = determinize(observation, self.rules, self.rng, options)
            try:
                self._simulate(state, list(legal), root, nodes)
            except SimError:
                continue  # a determinisation the effect's re-run cannot take (an option it would not offer)
        best = max(legal, key=lambda d: (root.edges[d].visits, root.edges[d].total) if d in root.edges else (-1, 0))
        return self._note(best)

    def _note(self, d: Decision) -> Decision:
        if is_free(d):
            self.free.add(d.action_id)
        return d

    def _simulate(self, state: GameState, root_legal: list[Decision], root: Node, nodes: dict[object, Node]) -> None:
        path: list[tuple[Node, Decision]] = []
        node: Node | None = root
        legal = root_legal
        depth = 0
        while node is not None and state.winner is None and depth < self.tree_depth:
            decision = self._select(node, legal, None if node is root else state)
            path.append((node, decision))
            expanded = node.edges[decision].visits == 0
            state = apply(state, decision)
            depth += 1
            if expanded:
                break
            node = None
            while state.winner is None:
                legal = legal_decisions(state)
                if len(legal) > 1:
                    player = current_player(state)
                    assert player is not None
                    key = observe(state, player, text=False).key()
                    node = nodes.setdefault(key, Node(player))
                    break
                state = apply(state, legal[0])
        score = self._rollout(state)
        for n, d in path:
            edge = n.edges[d]
            edge.visits += 1
            edge.total += score if n.player == 0 else 1 - score

    def _widest(self, observation: Observation, legal: list[Decision]) -> list[Decision]:
        """Heuristic pruning: only the ``width`` decisions the greedy heuristic rates best are searched."""
        if len(legal) <= self.width:
            return legal
        scores = [self.rollout_policy.score(observation, d) for d in legal]
        order = sorted(range(len(legal)), key=lambda i: -scores[i])[:self.width]
        return [legal[i] for i in sorted(order)]

    def _select(self, node: Node, legal: list[Decision], state: GameState | None = None) -> Decision:
        if state is not None:
            legal = prune(legal, not state.stage and state.pending is None and state.chance == state.turn_player, set())
            if len(legal) > self.width:
                legal = self._widest(observe(state, node.player, text=False), legal)
        for d in legal:
            node.edges.setdefault(d, Edge()).available += 1
        untried = [d for d in legal if node.edges[d].visits == 0]
        if untried:
            return untried[randbelow(self.rng, len(untried))]  # self.rng.choice(untried)

        def ucb(d: Decision) -> float:
            e = node.edges[d]
            return e.total / e.visits + self.exploration * math.sqrt(math.log(e.available) / e.visits)
        return max(legal, key=ucb)

    def _rollout(self, state: GameState) -> float:
        """Player 0's score of a cheap continuation: 1 or 0 at a win, else the material estimate."""
        self.rollout_policy.turn = -1
        for _ in range(self.rollout_depth):
            if state.winner is not None:
                break
            legal = legal_decisions(state)
            if self.rollout == "greedy" and len(legal) > 1 and self.rng.random() > 0.1:
                player = current_player(state)
                assert player is not None
                decision = self.rollout_policy.decide(observe(state, player, text=False), legal)
            else:
                decision = rollout_pick(self.rng, state, legal)
            state = apply(state, decision)
        if state.winner is not None:
            return 1.0 if state.winner == 0 else 0.0
        return material(state, 0)
