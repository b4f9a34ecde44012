"""Game records: a record replays to the same end, converts to a scenario that `sim run` passes, bad records get
located errors (exit 2), and `sim play --save` keeps the games that ended unusually."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from blackpoker import load_rules
from blackpoker.cli.main import cli
from blackpoker.sim import selfplay
from blackpoker.sim.decisions import Decision
from blackpoker.sim.match import play_match
from blackpoker.sim.record import dumps, from_json, to_json
from blackpoker.sim.replay import replay
from blackpoker.sim.state import GameState

RULES = load_rules()
GAMES = [("lite", None, 3, ("greedy", "random")), ("mast", "extra", 4, ("random", "greedy")),
         ("mast", "extra", 1, ("ismcts:2", "greedy")), ("std", "rarepack", 2, ("random", "random"))]


def _end(s: GameState) -> tuple[object, ...]:
    return (s.winner, s.turn, s.turn_player, s.resolved,
            [(p.life, p.hand, p.graveyard, p.field, p.trumps) for p in s.players])


@pytest.mark.parametrize(("fmt", "frame", "seed", "policies"), GAMES)
def test_a_record_replays_to_the_same_end(fmt: str, frame: str | None, seed: int, policies: tuple[str, str]) -> None:
    record, summary, state = play_match(RULES, fmt, frame, seed, policies)
    again = from_json(json.loads(dumps(record)))
    assert again == record
    played = replay(RULES, again)
    assert _end(played.state) == _end(state)
    assert played.transcript and all(isinstance(line, str) for line in played.transcript)


def _save(tmp_path: Path, fmt: str, frame: str | None, seed: int, policies: tuple[str, str]) -> Path:
    record, _, _ = play_match(RULES, fmt, frame, seed, policies)
    path = tmp_path / "game.json"
    path.write_text(dumps(record), encoding="utf-8")
    return path


@pytest.mark.parametrize(("fmt", "frame", "seed", "policies"), GAMES[:3])
def test_a_record_becomes_a_scenario_that_passes(tmp_path: Path, fmt: str, frame: str | None, seed: int,
                                                 policies: tuple[str, str]) -> None:
    path = _save(tmp_path, fmt, frame, seed, policies)
    scenario = tmp_path / "game.yaml"
    out = CliRunner().invoke(cli, ["sim", "replay", str(path), "--to-scenario", str(scenario)])
    assert out.exit_code == 0, out.output
    assert "解決:" in out.output and "decisions replayed" in out.output
    text = scenario.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../schemas/scenario.schema.json")
    run = CliRunner().invoke(cli, ["sim", "run", "-q", str(scenario)])
    assert run.exit_code == 0, run.output
    assert "1 passed" in run.output


def _broken(tmp_path: Path, change: object) -> tuple[int, str]:
    path = _save(tmp_path, "lite", None, 3, ("greedy", "random"))
    data = json.loads(path.read_text(encoding="utf-8"))
    if callable(change):
        change(data)
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    else:
        path.write_text(str(change), encoding="utf-8")
    out = CliRunner().invoke(cli, ["sim", "replay", "-q", str(path)])
    return out.exit_code, out.output


def test_bad_records_get_located_errors(tmp_path: Path) -> None:
    code, text = _broken(tmp_path, '{"record": 1,\n "seed": [}')
    assert code == 2 and "game.json:2:" in text and "Traceback" not in text

    def unknown_key(d: dict[str, Any]) -> None:
        d["decisions"][3]["extra"] = 1
    code, text = _broken(tmp_path, unknown_key)
    assert code == 2 and "decisions" in text and "game.json:" in text

    def not_an_action(d: dict[str, Any]) -> None:
        first = next(i for i, x in enumerate(d["decisions"]) if "request" in x)
        d["decisions"][first]["request"] = "fly"
    code, text = _broken(tmp_path, not_an_action)
    assert code == 2 and "'fly' is not an action" in text

    def illegal(d: dict[str, Any]) -> None:
        first = next(i for i, x in enumerate(d["decisions"]) if x.get("keys"))
        d["decisions"][first]["keys"] = ["JK"] if d["decisions"][first]["keys"] != ["JK"] else ["S2"]
        d["illegal_at"] = first
    path = _save(tmp_path, "lite", None, 3, ("greedy", "random"))
    data = json.loads(path.read_text(encoding="utf-8"))
    illegal(data)
    at = data.pop("illegal_at")
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    out = CliRunner().invoke(cli, ["sim", "replay", "-q", str(path)])
    assert out.exit_code == 2 and "game.json:" in out.output and f"decisions.{at}" in out.output.replace("[", ".")


def test_a_changed_result_is_a_failure(tmp_path: Path) -> None:
    def flip(d: dict[str, Any]) -> None:
        d["result"]["winner"] = "B" if d["result"]["winner"] == "A" else "A"
    code, text = _broken(tmp_path, flip)
    assert code == 1 and "the record says" in text


def test_play_save_keeps_unusual_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay, "TURN_CAP", 3)  # every game hits the cap: all are unusual
    out = CliRunner().invoke(cli, ["sim", "play", "--games", "2", "--seed", "7", "--format", "mast",
                                   "--save", str(tmp_path)])
    assert out.exit_code == 1  # the turn cap is a failure of self-play
    saved = sorted(tmp_path.glob("*.json"))
    assert [p.name for p in saved] == ["mast-seed7.json", "mast-seed8.json"]
    data = json.loads(saved[0].read_text(encoding="utf-8"))
    assert data["result"]["end"] == "turn-cap" and data["result"]["winner"] is None
    monkeypatch.undo()
    again = CliRunner().invoke(cli, ["sim", "replay", "-q", str(saved[0])])
    assert again.exit_code == 0, again.output


def test_play_save_keeps_nothing_from_usual_games(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["sim", "play", "--games", "3", "--seed", "5", "--format", "std",
                                   "--save", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert "games: 3" in out.output
    record_files = list(tmp_path.glob("*.json"))
    for path in record_files:  # only a game decided within two turns may be kept
        assert json.loads(path.read_text(encoding="utf-8"))["result"]["turns"] <= 2


def test_self_play_with_a_record_plays_the_same_games() -> None:
    plain, recorded = selfplay.PlayStats(), selfplay.PlayStats()
    made: list[tuple[int, Decision]] = []
    a = selfplay.play_game(RULES, "mast", 11, plain, "extra")
    b = selfplay.play_game(RULES, "mast", 11, recorded, "extra", decisions=made)
    assert _end(a) == _end(b) and len(made) == recorded.decisions
    assert to_json(from_json(json.loads(json.dumps({  # the record of a self-play game replays to its end
        "record": 1, "ruleset": RULES.edition.version, "format": "mast", "frame": "extra", "seed": 11,
        "decks": {"A": None, "B": None}, "choices": {"A": None, "B": None}, "decisions": []}))))["seed"] == 11
