"""The games of a balance study, and playing a chunk of them where a worker runs (a process or a Dask worker).

A study is a list of :class:`GameSpec` fixed by its arguments: game ``i`` of a regulation has seed
``seed + i`` and seats the policies in turn (even games: the first policy is A; odd: B), so both sit in both
seats and go first about equally often (who goes first is the setup's card flip, 2.9.2). Every game is a pure
function of its spec, so a study gives the same results on one worker, many, or a cluster.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from blackpoker.core.model import Rules
from blackpoker.sim.match import GameSummary, play_match


@dataclass(frozen=True)
class GameSpec:
    """One game of a balance study: its format, frame, seed and the two opponents."""

    index: int
    format: str
    frame: str | None
    seed: int
    policies: tuple[str, str]


def regulation_ids(text: str) -> tuple[str, str | None]:
    """``mast+extra`` → ("mast", "extra"); ``lite`` → ("lite", None)."""
    fmt, _, frame = text.partition("+")
    return fmt, (frame or None)


def study_games(regulations: list[tuple[str, str | None]], policies: tuple[str, str], games: int,
                seed: int) -> list[GameSpec]:
    """Game i of each regulation gets seed ``seed + i`` and the policies take turns in seat A, so the result is
    the same however the games are spread over workers, and neither policy always has seat A."""
    specs: list[GameSpec] = []
    for fmt, frame in regulations:
        for i in range(games):
            seats = policies if i % 2 == 0 else (policies[1], policies[0])
            specs.append(GameSpec(len(specs), fmt, frame, seed + i, seats))
    return specs


@functools.lru_cache(maxsize=4)
def _rules(definitions: str) -> Rules:
    from blackpoker.core.loader import load_rules
    return load_rules(Path(definitions))


def play_chunk(definitions: str, specs: tuple[GameSpec, ...]) -> list[GameSummary]:
    """Play ``specs`` (in a worker: the definitions are loaded once per process)."""
    return play_games(_rules(definitions), specs)


def play_games(rules: Rules, specs: tuple[GameSpec, ...]) -> list[GameSummary]:
    """Play ``specs`` with ``rules`` already loaded (a cluster's workers get the rules, not a folder they may lack)."""
    return [play_match(rules, s.format, s.frame, s.seed, s.policies)[1] for s in specs]


def same_rules(rules: Rules) -> Rules:
    """``rules`` unchanged, as the result of a cluster task: the chunks depend on it, so the rules travel once to
    each worker that needs them and, unlike Dask's ``scatter``, the run waits for workers that have not joined."""
    return rules


def chunks(specs: list[GameSpec], size: int) -> list[tuple[GameSpec, ...]]:
    """Games go to the workers a few at a time: fewer tasks to send and collect than one per game."""
    return [tuple(specs[i:i + size]) for i in range(0, len(specs), size)]
