"""The BlackPoker simulator: the core flow of chapter 6 as an executable engine, scenarios and self-play."""

from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
from blackpoker.sim.engine import (
    apply,
    current_player,
    is_terminal,
    legal_decisions,
    legal_options,
    legal_requests,
    missing_effects,
)
from blackpoker.sim.errors import GameOver, IllegalDecision, SimError
from blackpoker.sim.frames import SetupChoice, SetupError
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import GameState

__all__ = ["Choose", "Decision", "GameOver", "GameState", "IllegalDecision", "Pass",
           "RequestAction", "SetupChoice", "SetupError", "SimError", "apply", "current_player", "is_terminal", "legal_decisions",
           "legal_options", "legal_requests", "missing_effects", "new_game"]
