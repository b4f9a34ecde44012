"""What the simulator derives from a ruleset once: the model's actions and characters by id, and the helper that
keeps every such table with its ruleset.

``Rules.action`` and ``Rules.character`` are methods of the rules model, which stays Python (see
``blackpoker.native``); the engine looks an action up at most steps, and a dictionary read from compiled code costs
a fraction of that call. Same answers: the first entry of an id, and the model's own ``KeyError`` for an unknown one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from blackpoker.core.model import Action, Character, Rules

T = TypeVar("T")


def derived(rules: Rules, make: Callable[[Rules], T]) -> T:
    """``make(rules)``, made once per ruleset and kept in it (``Rules.derived``): tables read at every decision
    (request plans, trump and trigger tables) go when the ruleset goes, and a process that loads many rulesets
    keeps none of the others'. ``make`` must read nothing but the rules."""
    hit: T | None = rules.derived.get(make)
    if hit is None:
        hit = make(rules)
        rules.derived[make] = hit
    return hit


def _by_id(rules: Rules) -> tuple[dict[str, Action], dict[str, Character]]:
    actions: dict[str, Action] = {}
    characters: dict[str, Character] = {}
    for a in rules.actions:
        actions.setdefault(a.id, a)
    for c in rules.characters:
        characters.setdefault(c.id, c)
    return actions, characters


def action(rules: Rules, action_id: str) -> Action:
    """``rules.action(action_id)``."""
    found = derived(rules, _by_id)[0].get(action_id)
    return found if found is not None else rules.action(action_id)


def character(rules: Rules, character_id: str) -> Character:
    """``rules.character(character_id)``."""
    found = derived(rules, _by_id)[1].get(character_id)
    return found if found is not None else rules.character(character_id)
