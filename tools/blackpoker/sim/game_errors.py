"""Errors of the simulator: a decision the rules do not allow names the rule it breaks."""

from __future__ import annotations


class SimError(ValueError):
    """Base of the simulator's errors (a ValueError, like python-chess's IllegalMoveError)."""


class IllegalDecision(SimError):
    """A request, pass or choice the rules do not allow now.

    ``rule`` is the section and the rule text broken (e.g. 「2.10.3: 対象を指定できないアクションは起こせません」);
    ``where`` is a short description of the state it was tried in.
    """

    def __init__(self, rule: str, where: str = "") -> None:
        self.rule = rule
        self.where = where
        super().__init__(f"{rule}" + (f" [{where}]" if where else ""))


class GameOver(SimError):
    """A decision after the game has ended."""


class NeedChoice(Exception):
    """Raised inside an effect that needs a decision not yet made (control flow, never escapes the engine)."""

    def __init__(self, player: int, prompt: str, options: tuple[object, ...]) -> None:
        self.player = player
        self.prompt = prompt
        self.options = options
        super().__init__(prompt)
