"""The BlackPoker simulator: the core flow of chapter 6 as an executable engine, scenarios and self-play.

The names below are loaded when first used, so importing a part of the simulator (``sim.gaps``, which
``blackpoker check`` and the build read) does not load the engine.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
    from blackpoker.sim.engine import apply, current_player, is_terminal, legal_decisions, legal_options
    from blackpoker.sim.frames import SetupChoice, SetupError
    from blackpoker.sim.game_errors import GameOver, IllegalDecision, SimError
    from blackpoker.sim.gaps import missing_effects
    from blackpoker.sim.setup import new_game
    from blackpoker.sim.state import GameState

_HOMES = {
    "decisions": ("Choose", "Decision", "Pass", "RequestAction"),
    "engine": ("apply", "current_player", "is_terminal", "legal_decisions", "legal_options"),
    "game_errors": ("GameOver", "IllegalDecision", "SimError"),
    "frames": ("SetupChoice", "SetupError"),
    "gaps": ("missing_effects",),
    "setup": ("new_game",),
    "state": ("GameState",),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = ["Choose", "Decision", "GameOver", "GameState", "IllegalDecision", "Pass",
           "RequestAction", "SetupChoice", "SetupError", "SimError", "apply", "current_player", "is_terminal", "legal_decisions",
           "legal_options", "missing_effects", "new_game"]


def __getattr__(name: str) -> object:
    """``blackpoker.sim.apply`` and the rest: the name from the module it lives in, imported on first use."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'blackpoker.sim' has no attribute '{name}'")
    return getattr(importlib.import_module(f"blackpoker.sim.{module}"), name)
