"""The engine's request listing against the plain reading of the rules.

``requests.request_groups`` lists a player's legal requests from plans compiled once per regulation, with the
cheap tests first and the payments made only when read. The oracle below is the listing it replaced, kept only
here: every action of the regulation checked with the rule functions one by one (timing, activation condition,
key cards, every way to pay the cost in full, targets). Both must list the same requests in the same order, in
every regulation, along seeded random games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations, product
from pathlib import Path

import pytest

from blackpoker import load_rules
from blackpoker.core.cards import Card
from blackpoker.core.model import Action, Rules, Trigger
from blackpoker.sim.decisions import RequestAction
from blackpoker.sim.effects import simulates
from blackpoker.sim.engine import apply, legal_options
from blackpoker.sim.requests import (
    activation_ok,
    available_actions,
    cost_letters,
    key_choices,
    key_soldiers,
    key_zone,
    target_candidates,
    timing_ok,
)
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import GameState, Payment, sort_cards

# every format alone, and every format + frame pair of Table 3.1
FRAMES = {"lite": ("entry20",), "std": ("pack", "rarepack"), "pro": ("pack", "rarepack", "strategy"),
          "mast": ("pack", "rarepack", "strategy", "extra")}
REGULATIONS = [(fmt, None) for fmt in FRAMES] + [(fmt, frame) for fmt, frames in FRAMES.items() for frame in frames]


def payments(state: GameState, player: int, action: Action, keys: tuple[Card, ...]) -> list[Payment]:
    """Every way to pay the cost in full (2.10.2); none when it cannot be paid."""
    letters = cost_letters(state, player, action)
    p = state.players[player]
    nb, nl, nd, ns = (letters.count(x) for x in "BLDS")
    if nl > len(p.life):
        return []
    bulwarks = sorted(ch.uid for ch in p.field if ch.kind == "bulwark" and not ch.driven)
    rest = list(p.hand)
    for k in keys:
        if k in rest:  # a rare card key is not in the hand
            rest.remove(k)
    chars = sorted(ch.uid for ch in p.field)
    return [Payment(b, nl, d, s) for b, d, s in product(combinations(bulwarks, nb), combinations(sort_cards(rest), nd),
                                                      combinations(chars, ns))]


def oracle_requests(state: GameState, player: int) -> Iterator[RequestAction]:
    """Every legal request of ``player``, checking every action of the regulation in list order."""
    if state.chance != player:
        return
    for action in available_actions(state):
        if action.trigger is Trigger.TRIGGERED or not simulates(action.id):
            continue
        if timing_ok(state, player, action) is not None or activation_ok(state, player, action) is not None:
            continue
        key_chars: list[int | None] = [*key_soldiers(state, player, action)] if key_zone(action) == "field" else [None]
        key_sets = [()] if key_zone(action) == "field" else key_choices(state, player, action)
        for key_character in key_chars:
            for keys in key_sets:
                pays = payments(state, player, action, keys)
                targets: list[tuple[object, ...]] = [()]
                if action.target_spec is not None:
                    targets = [(t,) for t in target_candidates(state, player, action, keys)]
                for pay in pays:
                    for target in targets:
                        yield RequestAction(action.id, keys, pay, target, key_character)  # type: ignore[arg-type]  # the targets are Target


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.mark.parametrize(("fmt", "frame"), REGULATIONS, ids=[f"{f}+{r}" if r else f for f, r in REGULATIONS])
def test_the_engine_lists_the_requests_the_rules_allow(rules: Rules, fmt: str, frame: str | None) -> None:
    rng = random.Random(f"{fmt}-{frame}")
    checked = 0
    for game in range(3):
        state = new_game(rules, fmt, game, frame=frame)
        for _ in range(120):
            if state.winner is not None:
                break
            options = legal_options(state)
            if state.pending is None:
                assert state.chance is not None
                listed = [d for d in options if isinstance(d, RequestAction)]
                assert listed == list(oracle_requests(state, state.chance))
                checked += len(listed)
            state = apply(state, options[rng.randrange(len(options))])
    assert checked > 0  # the games reached requests, so the comparison compared something


def test_the_readme_plays_a_game_the_one_way_it_documents() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Playing from Python", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    assert "legal_options(state)" in code
    scope: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), scope)
    state = scope["state"]
    assert isinstance(state, GameState) and state.winner is not None
