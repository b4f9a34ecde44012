"""The policy protocol: a player who decides from what they see and the decisions the rules allow."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from blackpoker.sim.decisions import Decision
from blackpoker.sim.policies.observation import Observation


class Policy(Protocol):
    """``decide`` gets the viewer's :class:`Observation` (never the state) and the legal decisions (what the
    rules let the player do now, which the player knows) and returns one of them."""

    name: str

    def decide(self, observation: Observation, legal: Sequence[Decision]) -> Decision:
        """One of ``legal``, from what the player sees only: a policy never reads the state, so it cannot cheat."""
        ...
