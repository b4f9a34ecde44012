"""What the simulator cannot play in a ruleset (an edition with ``simulated: false`` may hold actions, conditions
and frames it has no code for), said once by kind: the simulator's commands print it, and never offer it."""

from __future__ import annotations

from blackpoker.core.model import Rules
from blackpoker.sim.effects import simulates
from blackpoker.sim.frames import SETUPS
from blackpoker.sim.gaps import coverage_gaps
from blackpoker.sim.requests import requestable

# The kinds of gap, as coverage_gaps words them, in the order the summary names them.
KINDS = (("has no effect in the simulator", "no effect"), ("has no trigger detection", "trigger"),
         ("activation condition", "activation condition"), ("target", "target"), ("summons no character", "summoning"),
         ("label condition", "label condition"), ("has no setup in the simulator", "frame setup"),
         ("has no disclosure view", "zone"))


def frame_playable(rules: Rules, frame_id: str) -> bool:
    """Whether the simulator can set up the frame (the others are not offered by ``sim play --frame all``)."""
    return frame_id in SETUPS and any(f.id == frame_id for f in rules.frames)


def action_playable(rules: Rules, action_id: str) -> bool:
    """Whether the simulator can play the action when it is requested (an effect, and a target it can read)."""
    action = next(a for a in rules.actions if a.id == action_id)
    return simulates(action_id) and requestable(rules, action)


def unplayable(rules: Rules) -> dict[str, list[str]]:
    """What the simulator does not play, by kind (``no effect``, ``trigger``, ``activation condition`` …), each
    gap named by its entry's id; empty for a ruleset it covers."""
    out: dict[str, list[str]] = {}
    for gap in coverage_gaps(rules):
        if not gap.text:  # simulator code with no definition: nothing of this edition is left out
            continue
        kind = next((name for words, name in KINDS if words in gap.message), "other")
        what = gap.message.split("'")[1] if "'" in gap.message else gap.message
        out.setdefault(kind, []).append(what)
    return out


def unplayable_summary(rules: Rules) -> list[str]:
    """One line per kind: what the simulator leaves out of this edition (never offered in a game)."""
    return [f"{rules.edition.version}: not simulated ({kind}, never offered): {', '.join(dict.fromkeys(ids))}"
            for kind, ids in unplayable(rules).items()]
