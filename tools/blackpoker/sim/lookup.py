"""The model's actions and characters by id, for the simulator's hot paths.

``Rules.action`` and ``Rules.character`` are methods of the rules model, which stays Python (see
``blackpoker.native``); the engine looks an action up at most steps, and a dictionary read from compiled code costs
a fraction of that call. Same answers: the first entry of an id, and the model's own ``KeyError`` for an unknown one.
"""

from __future__ import annotations

from typing import Final

from blackpoker.core.model import Action, Character, Rules

_KEPT: Final = 16  # rulesets remembered (a test run loads many; self-play one)
_TABLES: Final[dict[int, tuple[Rules, dict[str, Action], dict[str, Character]]]] = {}


def _tables(rules: Rules) -> tuple[Rules, dict[str, Action], dict[str, Character]]:
    hit = _TABLES.get(id(rules))
    if hit is None or hit[0] is not rules:
        actions: dict[str, Action] = {}
        characters: dict[str, Character] = {}
        for a in rules.actions:
            actions.setdefault(a.id, a)
        for c in rules.characters:
            characters.setdefault(c.id, c)
        if len(_TABLES) >= _KEPT:
            _TABLES.clear()
        hit = _TABLES[id(rules)] = (rules, actions, characters)
    return hit


def action(rules: Rules, action_id: str) -> Action:
    """``rules.action(action_id)``."""
    found = _tables(rules)[1].get(action_id)
    return found if found is not None else rules.action(action_id)


def character(rules: Rules, character_id: str) -> Character:
    """``rules.character(character_id)``."""
    found = _tables(rules)[2].get(character_id)
    return found if found is not None else rules.character(character_id)
