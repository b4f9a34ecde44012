"""A balance study's figures from its games: win rates with Wilson 95% intervals, lengths, actions, trumps.

Association, not cause: "win rate when used" compares the games a player requested an action in with those
they did not (for a trump: held it in the 切札 zone or not); a strong player or a winning position also
requests more, so the report calls it 関連 (association).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from blackpoker.core.model import Rules
from blackpoker.sim.match import GameSummary

Z95 = 1.959963984540054


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (0, 0 for no trials)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: int, n: int) -> dict[str, Any]:
    """A win rate with its Wilson 95% interval: a handful of games says little, and the report must show how little."""
    low, high = wilson(wins, n)
    return {"wins": wins, "games": n, "rate": wins / n if n else 0.0, "low": low, "high": high}


def regulation_key(g: GameSummary) -> str:
    """The regulation as the command line and the study files name it (``mast+extra``)."""
    return g.format + (f"+{g.frame}" if g.frame else "")


def regulation_name(rules: Rules, key: str) -> str:
    """The regulation as a reader of the report reads it (マスター + エクストラ)."""
    fmt, _, frame = key.partition("+")
    return rules.format(fmt).name + (f" + {rules.frame(frame).name}" if frame else "")


def _actions_of(rules: Rules, fmt: str, frame: str | None) -> list[str]:
    frame_actions = rules.frame(frame).actions if frame else ()
    return [a.id for a in rules.actions if fmt in a.formats or a.id in frame_actions]


def summarize(rules: Rules, games: list[GameSummary]) -> dict[str, Any]:
    """Every figure of the report, as plain JSON data."""
    out: dict[str, Any] = {"games": len(games), "regulations": []}
    by_reg: dict[str, list[GameSummary]] = {}
    for g in games:
        by_reg.setdefault(regulation_key(g), []).append(g)
    for key, group in by_reg.items():
        out["regulations"].append(_regulation(rules, key, group))
    return out


def _regulation(rules: Rules, key: str, games: list[GameSummary]) -> dict[str, Any]:
    fmt, frame = games[0].format, games[0].frame
    decided = [g for g in games if g.winner is not None]
    first_wins = sum(g.winner == g.first for g in decided)
    policies = sorted({p for g in games for p in g.policies})
    by_policy = {}
    for pol in policies:
        seats = [(g, seat) for g in decided for seat in (0, 1) if g.policies[seat] == pol
                 and g.policies[1 - seat] != pol]
        by_policy[pol] = rate(sum(g.winner == seat for g, seat in seats), len(seats))
    ends = Counter(g.end for g in games)
    frame_actions = set(rules.frame(frame).actions) if frame else set()
    actions = []
    for action_id in _actions_of(rules, fmt, frame):
        a = rules.action(action_id)
        requested = sum(g.requested[p].get(action_id, 0) for g in games for p in (0, 1))
        resolved = sum(g.resolved[p].get(action_id, 0) for g in games for p in (0, 1))
        negated = sum(g.negated[p].get(action_id, 0) for g in games for p in (0, 1))
        used = [(g, p) for g in decided for p in (0, 1) if g.requested[p].get(action_id, 0)
                or g.resolved[p].get(action_id, 0)]
        unused = [(g, p) for g in decided for p in (0, 1) if not (g.requested[p].get(action_id, 0)
                                                                  or g.resolved[p].get(action_id, 0))]
        with_ = rate(sum(g.winner == p for g, p in used), len(used))
        without = rate(sum(g.winner == p for g, p in unused), len(unused))
        actions.append({"id": action_id, "name": a.name, "frame_action": action_id in frame_actions,
                        "trigger": a.trigger.value, "requested": requested, "resolved": resolved, "negated": negated,
                        "player_games": len(used), "used_share": len(used) / (2 * len(decided)) if decided else 0.0,
                        "win_when_used": with_, "win_when_not_used": without,
                        "association": with_["rate"] - without["rate"] if used and unused else None})
    trumps = []
    for trump in (rules.trump(t) for t in (rules.frame(frame).trumps if frame else ())):
        held = [(g, p) for g in decided for p in (0, 1) if trump.id in g.trumps[p]]
        not_held = [(g, p) for g in decided for p in (0, 1) if trump.id not in g.trumps[p]]
        h, n = rate(sum(g.winner == p for g, p in held), len(held)), rate(sum(g.winner == p for g, p in not_held),
                                                                         len(not_held))
        trumps.append({"id": trump.id, "name": trump.name, "held": len(held), "win_when_held": h,
                       "win_when_not_held": n, "association": h["rate"] - n["rate"] if held and not_held else None})
    turns = Counter(g.turns for g in games)
    return {
        "key": key, "name": regulation_name(rules, key), "format": fmt, "frame": frame, "games": len(games),
        "decided": len(decided), "ends": dict(sorted(ends.items())),
        "first_player": rate(first_wins, len(decided)), "second_player": rate(len(decided) - first_wins, len(decided)),
        "policies": by_policy,
        "turns": {"mean": sum(g.turns for g in games) / len(games), "min": min(turns), "max": max(turns),
                  "histogram": {str(k): v for k, v in sorted(turns.items())}},
        "decisions_mean": sum(g.decisions for g in games) / len(games),
        "actions": actions,
        "never_used": [a["name"] for a in actions if a["player_games"] == 0],
        "always_used": [a["name"] for a in actions if decided and a["player_games"] == 2 * len(decided)],
        "trumps": trumps,
    }
