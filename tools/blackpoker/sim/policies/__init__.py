"""Policies: players that decide from what they see (:class:`Observation`), never from the state.

``make_policy(name, rules, seed)`` builds one by name (``random``, ``greedy``, ``ismcts``); an ISMCTS budget can
be given in its name, ``ismcts:64`` (simulations per decision), ``ismcts:200ms``, or both, ``ismcts:16/500ms`` (at
most 16, none started after 500 ms: the play page's opponent, quick on a slow device and as strong as 16 elsewhere).
"""

from __future__ import annotations

from blackpoker.core.model import Rules
from blackpoker.sim.policies.base import Policy
from blackpoker.sim.policies.greedy import GreedyPolicy
from blackpoker.sim.policies.ismcts import ISMCTSPolicy
from blackpoker.sim.policies.observation import Observation, observe
from blackpoker.sim.policies.uniform import RandomPolicy

NAMES = ("random", "greedy", "ismcts")
JAPANESE = {"random": "ランダム", "greedy": "貪欲法", "ismcts": "情報集合モンテカルロ木探索"}


def policy_name(spec: str) -> str:
    """A policy as a reader reads it: ``ismcts:64`` → 情報集合モンテカルロ木探索(64回)。"""
    name, _, budget = spec.partition(":")
    text = JAPANESE.get(name, name)
    count, milliseconds = _budget(budget)
    if count is not None and milliseconds is not None:
        text += f"({count}回・{milliseconds}ミリ秒まで)"
    elif milliseconds is not None:
        text += f"({milliseconds}ミリ秒)"
    elif count is not None:
        text += f"({count}回)"
    return text


def _budget(budget: str) -> tuple[int | None, int | None]:
    """``N``, ``Mms`` or ``N/Mms`` → (simulations, milliseconds); raises ValueError on anything else."""
    count, _, time = budget.rpartition("/") if "/" in budget else (budget, "", "")
    if not time and count.endswith("ms"):
        count, time = "", count
    if (count and not count.isdigit()) or (time and not (time.endswith("ms") and time[:-2].isdigit())) or (
            "/" in budget and not (count and time)):
        raise ValueError(budget)
    return (int(count) if count else None), (int(time[:-2]) if time else None)


def parse_policy(spec: str) -> tuple[str, str]:
    """``name[:budget]`` → (name, budget text); raises ValueError naming what is expected."""
    name, _, budget = spec.partition(":")
    if name not in NAMES:
        raise ValueError(f"'{spec}' is not a policy; expected one of {', '.join(NAMES)} (ismcts may take a budget: "
                         "ismcts:64 simulations, ismcts:200ms or ismcts:16/500ms)")
    if budget:
        try:
            if name != "ismcts":
                raise ValueError(budget)
            _budget(budget)
        except ValueError:
            raise ValueError(f"'{spec}': a budget is ismcts:N (simulations), ismcts:Nms or ismcts:N/Mms (at most N "
                             "simulations, none after M ms); expected e.g. ismcts:64") from None
    return name, budget


def make_policy(spec: str, rules: Rules, seed: int) -> Policy:
    """A policy by the name the command line and the balance study take, with its own seeded randomness."""
    name, budget = parse_policy(spec)
    if name == "random":
        return RandomPolicy(seed)
    if name == "greedy":
        return GreedyPolicy(seed)
    count, milliseconds = _budget(budget) if budget else (32, None)
    return ISMCTSPolicy(rules, seed, simulations=count, milliseconds=None if milliseconds is None else float(milliseconds))


__all__ = ["JAPANESE", "NAMES", "GreedyPolicy", "ISMCTSPolicy", "Observation", "Policy", "RandomPolicy", "make_policy",
           "observe", "parse_policy", "policy_name"]
