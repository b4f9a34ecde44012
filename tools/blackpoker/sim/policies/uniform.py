"""``random``: a uniformly random legal decision (the turn player with an empty stage rarely passes, so turns
move on, as in self-play)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from blackpoker.sim.decisions import Decision, Pass
from blackpoker.sim.policies.observation import Observation


class RandomPolicy:
    """An opponent that picks among the legal decisions at random (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def decide(self, observation: Observation, legal: Sequence[Decision]) -> Decision:
        """A random legal decision; when the turn player holds the chance on an empty stage it acts 9 times in 10:
        with a pass as likely as any request, most turns would end at once."""
        if (len(legal) > 1 and isinstance(legal[0], Pass) and not observation.stage
                and observation.chance == observation.turn_player and self.rng.random() < 0.9):
            return self.rng.choice(legal[1:])
        return self.rng.choice(list(legal))
