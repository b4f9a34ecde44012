"""Malformed and impossible scenarios are refused at their file:line:col with exit 2, never a traceback
(issue 13, item 7): the reproductions of the issue, each check of a written-out position, and the build."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from blackpoker import load_rules
from blackpoker.cli.main import cli
from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.model import Rules
from blackpoker.sim.scenario import Scenario, ScenarioResult, load_scenario, run_scenario

RULES = load_rules()

BASE = """title: t
section: 2.10.4
ruleset: v8.1
format: mast
start:
  turn: A
  players:
    A:
      hand: [H2, D9]
      field:
        - {cards: [S3]}
    B:
      hand: [S5, C9]
"""


@pytest.fixture(scope="module")
def rules() -> Rules:
    return RULES


def _refused(tmp_path: Path, text: str, where: str, message: str) -> str:
    """Run the text as a scenario with ``blackpoker sim run``: exit 2, the problem at ``where``, no traceback."""
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    outcome = CliRunner().invoke(cli, ["sim", "run", "-q", str(path)])
    output = outcome.output.replace(str(path), "bad.yaml")
    assert outcome.exit_code == 2, (outcome.exit_code, output, outcome.exception)
    assert "Traceback" not in output and "internal error" not in output
    assert f"bad.yaml:{where}" in output and message in output, output
    return output


# --- the reproductions ------------------------------------------------------------------------------
STAGE = BASE + """  stage:
    - {player: PLAYER, action: ACTION}
script:
  - {player: A, pass: true}
  - {player: B, pass: true}
"""


@pytest.mark.parametrize("player", ["A", "B"])
@pytest.mark.parametrize("action", [a.name for a in RULES.actions])
def test_stage_request_without_keys_or_targets(rules: Rules, tmp_path: Path, action: str, player: str) -> None:
    """Each of the 96 variants (48 actions, either player) plays or is refused at start.stage[0]; none raises
    anything else (from this position, 40 of them raised IndexError before the stage was checked)."""
    path = tmp_path / "stage.yaml"
    path.write_text(STAGE.replace("PLAYER", player).replace("ACTION", action), encoding="utf-8")
    try:
        run_scenario(rules, load_scenario(path, rules, "stage.yaml"))
    except DefinitionErrors as exc:
        assert all(str(e).startswith("stage.yaml:15:") and "start.stage[0]" in str(e) for e in exc.errors), exc


@pytest.mark.parametrize("action, where, message", [
    ("アップ", "15:7: start.stage[0].keys", "アップ has key cards 「♡A~10」 and none are given"),
    ("キル", "15:7: start.stage[0].keys", "キル has key cards 「♠A~10 を2枚」 and none are given"),
    ("カウンター", "15:7: start.stage[0].keys", "カウンター has key cards 「♣A~10」 and none"),
    ("防壁設置", "15:27: start.stage[0].action", "防壁設置 is instant"),
    ("スラッシュ", "15:27: start.stage[0].action", "is not an action of this regulation"),
])
def test_stage_request_refused_at_its_text(tmp_path: Path, action: str, where: str, message: str) -> None:
    _refused(tmp_path, STAGE.replace("PLAYER", "A").replace("ACTION", action), where, message)


def test_stage_request_exit_code_of_the_real_command(tmp_path: Path) -> None:
    """The installed entry point (not only click's runner): exit 2 and one located line, no traceback."""
    path = tmp_path / "bad.yaml"
    path.write_text(STAGE.replace("PLAYER", "A").replace("ACTION", "アップ"), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "blackpoker", "sim", "run", "-q", str(path)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 2, run.stderr
    assert f"{path}:15:" in run.stderr and "Traceback" not in run.stderr + run.stdout


def test_unknown_character_type(tmp_path: Path) -> None:
    _refused(tmp_path, BASE.replace("{cards: [S3]}", "{cards: [S3], type: ドラゴン}"),
             "11:31: start.players.A.field[0].type", "'ドラゴン' is not one of '一般兵'")


def test_preset_with_no_life(tmp_path: Path) -> None:
    text = BASE.replace("  turn: A\n", "  turn: A\n  preset: [A]\n").replace("hand: [H2, D9]", "life: 0")
    _refused(tmp_path, text, "7:12: start.preset[0]", "A's life (0 cards) cannot give プリセット a bulwark")


def test_preset_on_a_life_of_one_joker_in_lite(tmp_path: Path) -> None:
    text = BASE.replace("format: mast", "format: lite").replace("  turn: A\n", "  turn: A\n  preset: [A]\n")
    text = text.replace("hand: [H2, D9]", "life: [S4, JK]")
    _refused(tmp_path, text, "7:12: start.preset[0]", "(not a Joker, in ライト)")


# --- impossible positions -------------------------------------------------------------------------------
@pytest.mark.parametrize("old, new, where, message", [
    # one card in two zones: hand and field, hand and a request's key cards on the stage
    ("hand: [H2, D9]", "hand: [H2, D9, S3]", "11:20: start.players.A.field[0].cards[0]",
     "card ♠3 is listed twice (also at start.players.A.hand[2])"),
    ("      hand: [S5, C9]\n", "      hand: [S5, C9]\n  stage:\n    - {player: B, action: ダウン, keys: [S5], "
     "targets: ['A:S3']}\n", "15:39: start.stage[0].keys[0]", "card ♠5 is listed twice"),
    # 60 cards in hand: a card the deck has once, written twice
    ("hand: [H2, D9]", "hand: [" + ", ".join(["H2", "D9"] * 30) + "]", "9:22: start.players.A.hand[2]",
     "card ♡2 is listed twice"),
    # life below zero, a life larger than the deck, a life top longer than its count
    ("hand: [S5, C9]", "life: -1", "13:13: start.players.B.life", "-1 is less than the minimum of 0"),
    ("hand: [S5, C9]", "life: 60", "13:13: start.players.B.life", "life count 60 does not fit"),
    ("hand: [S5, C9]", "life: {top: [S5, C9], count: 1}", "13:36: start.players.B.life.count",
     "life count 1 is less than the 2 cards"),
    # a card outside the frame's fixed deck (エントリー20 has no ♡2)
    ("format: mast", "format: lite\nframe: entry20", "10:14: start.players.A.hand[0]",
     "♡2 is not in the エントリー 20 deck"),
    # characters whose type, kind and cards do not go together
    ("{cards: [S3]}", "{cards: [S3], type: 英雄}", "11:31: start.players.A.field[0].type", "♠3 alone is a 一般兵"),
    ("{cards: [S3]}", "{cards: [S3, S4], kind: bulwark}", "11:19: start.players.A.field[0].cards",
     "a bulwark is one card"),
    ("{cards: [S3]}", "{cards: [S3, H4]}", "11:19: start.players.A.field[0].cards", "cannot be one 装備兵"),
    ("{cards: [S3]}", "{cards: [S3], kind: soldier, type: 防壁}", "11:31: start.players.A.field[0].kind",
     "a 防壁 is a bulwark"),
    ("{cards: [S3]}", "{cards: [S3], face_up: false}", "11:34: start.players.A.field[0].face_up",
     "a soldier is always face up"),
    # fogs
    ("      hand: [S5, C9]\n", "      hand: [S5, C9]\n      fog:\n        - {fog: アップ, cards: [S4], target: 'A:S3'}\n",
     "15:29: start.players.B.fog[0].cards", "are not the key cards of アップ"),
    ("      hand: [S5, C9]\n", "      hand: [S5, C9]\n      fog:\n        - {fog: アップ, cards: [H4]}\n",
     "15:11: start.players.B.fog[0]", "アップ marks its target"),
    ("      hand: [S5, C9]\n", "      hand: [S5, C9]\n      fog:\n        - {fog: クローズ, cards: [HQ], target: 'A:S3'}\n",
     "15:17: start.players.B.fog[0].fog", "'クローズ' is not a fog of this regulation"),
    # requests on the stage
    ("      hand: [S5, C9]\n", "      hand: [S5, C9]\n  stage:\n    - {player: B, action: エンド}\n",
     "15:16: start.stage[0].player", "エンド has main timing"),
    ("      hand: [S5, C9]\n", "      hand: [S5, C9]\n  stage:\n    - {player: B, action: ダウン, keys: [S4], "
     "targets: [A]}\n", "15:54: start.stage[0].targets[0]", "'A' is not a target ダウン can take"),
    ("      hand: [S5, C9]\n", "      hand: [S5, C9]\n  stage:\n    - {player: B, action: ダウン, keys: [H4], "
     "targets: ['A:S3']}\n", "15:38: start.stage[0].keys", "the key cards ♡4 do not meet ダウン's 「♠A~10」"),
    ("      hand: [S5, C9]\n", "      hand: [S5, C9]\n  stage:\n    - {player: B, action: 再会, keys: [H4, H5], "
     "targets: ['A:S3']}\n", "15:56: start.stage[0].targets", "再会 has no target"),
    # attack lines
    ("      hand: [S5, C9]\n", "      field: [{cards: [S5]}, {cards: [D4], kind: bulwark}]\n  attack:\n"
     "    - {attacker: 'B:S5'}\n", "15:18: start.attack[0].attacker", "'B:S5' cannot attack"),
    ("      hand: [S5, C9]\n", "      field: [{cards: [S5]}, {cards: [D4], kind: bulwark}]\n  attack:\n"
     "    - {attacker: 'A:S3', blockers: ['A:S3']}\n", "15:37: start.attack[0].blockers[0]", "cannot block its own"),
    ("      hand: [S5, C9]\n", "      field: [{cards: [S5]}, {cards: [D4], kind: bulwark}]\n  attack:\n"
     "    - {attacker: 'A:S3', blockers: ['B:D4', 'B:S5']}\n", "15:36: start.attack[0].blockers",
     "a bulwark blocks alone"),
    # abilities, used, preset
    ("  turn: A\n", "  turn: A\n  abilities:\n    - {scope: this, size: 1}\n", "8:7: start.abilities[0]",
     "missing required field 'target'"),
    ("  turn: A\n", "  turn: A\n  abilities:\n    - {scope: all, size: 1, target: 'A:S3'}\n",
     "8:37: start.abilities[0].target", "an ability of scope 'all' has no target"),
    ("  turn: A\n", "  turn: A\n  preset: [A, A]\n", "7:11: start.preset", "has duplicate items"),
    # the setup deals the position: a position written beside it would be ignored
    ("  turn: A\n", "  setup: {}\n  turn: A\n", "7:3: start.turn", "'turn' is not read when 'setup' deals"),
    ("start:\n", "frame: pack\nstart:\n  setup: {choices: {A: {rare: S5}}}\n", "7:25: start.setup.choices.A.rare",
     "the pack setup has no 'rare' choice; expected no choices"),
])
def test_impossible_position_is_refused(tmp_path: Path, old: str, new: str, where: str, message: str) -> None:
    assert old in BASE
    text = BASE.replace(old, new, 1)
    if "setup:" in new:  # a setup scenario writes no position
        text = text.split("  players:")[0] if "choices" not in new else text.split("  turn:")[0]
        text = text.replace("format: mast", "format: std")
    _refused(tmp_path, text, where, message)


# --- while running --------------------------------------------------------------------------------------
def test_an_unplayable_step_is_located(rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the simulator raises on a step that passed the checks is reported at that step, not as an
    internal error (here the engine is made to fail the way the issue's stage requests did)."""
    import blackpoker.sim.scenario.run as run_module

    def broken(*_: object) -> None:
        raise IndexError("tuple index out of range")
    monkeypatch.setattr(run_module, "apply", broken)
    path = tmp_path / "bad.yaml"
    path.write_text(BASE + "script:\n  - {player: A, pass: true}\n", encoding="utf-8")
    with pytest.raises(DefinitionErrors) as info:
        run_scenario(rules, load_scenario(path, rules, "bad.yaml"))
    assert str(info.value).startswith("bad.yaml:15:5: script[0]: the simulator cannot play this step "
                                      "(IndexError: tuple index out of range)")


# --- inside the build -----------------------------------------------------------------------------------
def test_build_names_the_failing_scenario(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build's scenario step names each failing file: located problems as file:line:col, anything else with
    the file's name (it used to fail with a bare IndexError)."""
    import blackpoker.pipeline.build as build_module
    import blackpoker.sim.scenario as scenario_module
    from blackpoker.core.paths import DEFINITIONS

    folder = tmp_path / "scenarios" / "examples"  # a rules project's own scenarios, beside its definitions
    folder.mkdir(parents=True)
    (folder / "bad.yaml").write_text(STAGE.replace("PLAYER", "A").replace("ACTION", "アップ"), encoding="utf-8")
    (folder / "good.yaml").write_text(BASE + "expect:\n  life: {A: 10}\n", encoding="utf-8")
    definitions = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, definitions)
    with pytest.raises(RuntimeError) as info:
        build_module._scenarios(definitions, tmp_path / "staging")
    report = str(info.value)
    assert report.startswith("1 of 2 scenarios fail:\n")
    assert "scenarios/examples/bad.yaml:15:" in report and "start.stage[0].keys: アップ has key cards" in report, report

    real = scenario_module.run_scenario

    def crashing(rules: Rules, scenario: Scenario) -> ScenarioResult:
        if str(scenario.path).endswith("good.yaml"):
            raise StopIteration
        return real(rules, scenario)
    monkeypatch.setattr(scenario_module, "run_scenario", crashing)
    with pytest.raises(RuntimeError) as info:
        build_module._scenarios(definitions, tmp_path / "staging")
    assert "scenarios/examples/good.yaml: StopIteration" in str(info.value), str(info.value)
