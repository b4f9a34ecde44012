"""Golden self-play games: the same seed gives the same game, decision for decision, in every regulation.

``tests/data/golden-games.json`` was recorded from the engine before its speed-ups (commit d08e867's behaviour);
every optimisation must leave each game's decisions, length and winner exactly as they were. Regenerate it only
for an intended change of the games, with ``.venv/bin/python tests/test_sim_golden.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from blackpoker import load_rules
from blackpoker.core.cards import Card
from blackpoker.core.model import Rules
from blackpoker.sim import Choose, Decision, Pass, RequestAction, apply, legal_decisions, new_game
from blackpoker.sim.selfplay import TURN_CAP, _pick, random_setup, self_play
from blackpoker.sim.state import Target

GOLDEN = Path(__file__).parent / "data" / "golden-games.json"
GAMES = 30  # per regulation
SEED = 7000


def regulations(rules: Rules) -> list[tuple[str, str | None]]:
    """Every regulation self-play covers: each format alone (the common setup), then each frame Table 3.1 allows."""
    pairs: list[tuple[str, str | None]] = [(f.id, None) for f in rules.formats]
    return pairs + [(f.id, fr.id) for f in rules.formats for fr in rules.frames_for_format(f.id)]


def regulation_name(fmt: str, frame: str | None) -> str:
    return fmt + (f"+{frame}" if frame else "")


def _text(value: object) -> str:
    """A stable text for a decision's parts: card codes, targets as kind:ref, tuples element by element."""
    if isinstance(value, Card):
        return value.code + (f"#{value.index}" if value.index else "")
    if isinstance(value, Target):
        return f"{value.kind}:{value.ref}"
    if isinstance(value, tuple | list):
        return "(" + ",".join(_text(v) for v in value) + ")"
    return repr(value)


def decision_text(d: Decision) -> str:
    if isinstance(d, Pass):
        return "pass"
    if isinstance(d, Choose):
        return "choose " + _text(d.option)
    assert isinstance(d, RequestAction)
    pay = d.payment
    return (f"request {d.action_id} keys={_text(d.keys)} B={_text(pay.bulwarks)} L={pay.life} D={_text(pay.discards)}"
            f" S={_text(pay.sacrifices)} targets={_text(d.targets)} K={d.key_character}")


def play_recorded(rules: Rules, fmt: str, frame: str | None, seed: int) -> dict[str, object]:
    """One self-play game driven as ``selfplay.play_game`` drives it, with its decisions recorded."""
    rng = random.Random(seed)
    decks, choices = random_setup(rules, fmt, frame, rng)
    state = new_game(rules, fmt, seed, frame=frame, decks=decks, choices=choices)
    digest = hashlib.sha256()
    count = 0
    while state.winner is None and state.turn <= TURN_CAP:
        decision = _pick(rng, state, legal_decisions(state))
        digest.update(decision_text(decision).encode() + b"\n")
        count += 1
        state = apply(state, decision)
    return {"seed": seed, "decisions": count, "turns": state.turn, "winner": state.winner,
            "digest": digest.hexdigest()}


def totals(rules: Rules, fmt: str, frame: str | None) -> dict[str, object]:
    """What ``self_play`` itself reports for the same games (its own loop, with the invariants checked)."""
    stats = self_play(rules, fmt, GAMES, SEED, frame)
    return {"games": stats.games, "decisions": stats.decisions, "requests": stats.requests, "turns": stats.turns,
            "winners": dict(sorted(stats.winners.items())), "failures": len(stats.failures),
            "resolved": dict(sorted(Counter(stats.resolved).items()))}


def record(rules: Rules) -> dict[str, object]:
    return {regulation_name(fmt, frame): {
        "games": [play_recorded(rules, fmt, frame, SEED + i) for i in range(GAMES)],
        "self_play": totals(rules, fmt, frame),
    } for fmt, frame in regulations(rules)}


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.fixture(scope="module")
def golden() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_golden_covers_every_regulation(rules: Rules, golden: dict[str, dict[str, object]]) -> None:
    assert sorted(golden) == sorted(regulation_name(*r) for r in regulations(rules))
    assert len(golden) == 14  # 4 formats alone + the 10 format-frame pairs of Table 3.1


@pytest.mark.parametrize("regulation", ["lite", "std", "pro", "mast", "lite+entry20", "std+pack", "std+rarepack",
                                        "pro+pack", "pro+rarepack", "pro+strategy", "mast+pack", "mast+rarepack",
                                        "mast+strategy", "mast+extra"])
def test_seeded_games_are_unchanged(rules: Rules, golden: dict[str, dict[str, object]], regulation: str) -> None:
    fmt, _, frame = regulation.partition("+")
    expected = golden[regulation]
    games = [play_recorded(rules, fmt, frame or None, SEED + i) for i in range(GAMES)]
    assert games == expected["games"]
    assert totals(rules, fmt, frame or None) == expected["self_play"]


def differing(rules: Rules, names: list[str]) -> list[str]:
    """The named regulations whose games differ from the golden ones."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    out = []
    for name in names:
        fmt, _, frame = name.partition("+")
        games = [play_recorded(rules, fmt, frame or None, SEED + i) for i in range(GAMES)]
        if games != golden[name]["games"] or totals(rules, fmt, frame or None) != golden[name]["self_play"]:
            out.append(name)
    return out


if __name__ == "__main__":
    if sys.argv[1:2] == ["--check"]:  # in another process (e.g. with BLACKPOKER_PURE=1): tests/test_native.py
        bad = differing(load_rules(), sys.argv[2:])
        sys.exit(f"games differ from the golden ones in {', '.join(bad)}" if bad else 0)
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_sim_golden.py --write   (records the golden games from the current engine)\n"
                 "       python tests/test_sim_golden.py --check REGULATION…   (exit 1 if one differs)")
    GOLDEN.write_text(json.dumps(record(load_rules()), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN}")
