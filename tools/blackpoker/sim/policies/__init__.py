"""Policies: players that decide from what they see (:class:`Observation`), never from the state.

``make_policy(name, rules, seed)`` builds one by name (``random``, ``greedy``, ``ismcts``); an ISMCTS budget can
be given in its name, ``ismcts:64`` (simulations per decision) or ``ismcts:200ms``.
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
    if budget:
        text += f"({budget[:-2]}ミリ秒)" if budget.endswith("ms") else f"({budget}回)"
    return text


def parse_policy(spec: str) -> tuple[str, str]:
    """``name[:budget]`` → (name, budget text); raises ValueError naming what is expected."""
    name, _, budget = spec.partition(":")
    if name not in NAMES:
        raise ValueError(f"'{spec}' is not a policy; expected one of {', '.join(NAMES)} (ismcts may take a budget: "
                         "ismcts:64 simulations or ismcts:200ms)")
    if budget and (name != "ismcts" or not (budget.isdigit() or (budget.endswith("ms") and budget[:-2].isdigit()))):
        raise ValueError(f"'{spec}': a budget is ismcts:N (simulations) or ismcts:Nms; expected e.g. ismcts:64")
    return name, budget


def make_policy(spec: str, rules: Rules, seed: int) -> Policy:
    """A policy by the name the command line and the balance study take, with its own seeded randomness."""
    name, budget = parse_policy(spec)
    if name == "random":
        return RandomPolicy(seed)
    if name == "greedy":
        return GreedyPolicy(seed)
    if budget.endswith("ms"):
        return ISMCTSPolicy(rules, seed, milliseconds=float(budget[:-2]))
    return ISMCTSPolicy(rules, seed, simulations=int(budget) if budget else 32)


__all__ = ["JAPANESE", "NAMES", "GreedyPolicy", "ISMCTSPolicy", "Observation", "Policy", "RandomPolicy", "make_policy",
           "observe", "parse_policy", "policy_name"]
