"""Every scenario passes; a changed expectation fails; malformed scenarios give located errors; coverage."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from blackpoker import load_rules
from blackpoker.cli.main import cli
from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.model import Rules
from blackpoker.sim import missing_effects
from blackpoker.sim.scenario import load_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))
EXAMPLES = sorted((ROOT / "scenarios" / "examples").glob("*.yaml"))
ACTIONS = sorted((ROOT / "scenarios" / "actions").glob("*.yaml"))
FRAMES = sorted((ROOT / "scenarios" / "frames").glob("*.yaml"))


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_scenario_passes(rules: Rules, path: Path) -> None:
    result = run_scenario(rules, load_scenario(path, rules))
    failed = [e.line() for e in result.expectations if not e.passed]
    assert result.passed, "\n".join(result.transcript + failed)


def test_every_scenario_starts_with_schema_line() -> None:
    for path in SCENARIOS:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../../schemas/scenario.schema.json", path


def test_every_worked_example_has_a_scenario(rules: Rules) -> None:
    names = {p.name for p in EXAMPLES}
    for n in range(1, 22):
        assert any(re.match(rf"e{n:02d}[a-z]?-", name) for name in names), f"E{n} has no scenario"
    for path in EXAMPLES:
        s = load_scenario(path, rules)
        assert s.src.data.get("example", "").startswith("E"), path
        assert re.match(r"^[0-9]+(\.[0-9]+)*$", s.section)


def test_every_action_has_an_effect(rules: Rules) -> None:
    assert missing_effects(rules) == []


def test_every_action_is_resolved_in_an_action_scenario(rules: Rules) -> None:
    resolved: set[str] = set()
    for path in ACTIONS + FRAMES:
        result = run_scenario(rules, load_scenario(path, rules))
        if result.state is None:  # a refused setup (expect: setup_error) plays no action
            assert [e.name for e in result.expectations] == ["setup_error"], path
            continue
        state = result.state
        resolved |= {entry.split("(")[0] for entry in state.resolved}
    missing = [a.name for a in rules.actions if a.name not in resolved]
    assert missing == []


def test_changed_expectation_fails(rules: Rules, tmp_path: Path) -> None:
    source = ROOT / "scenarios" / "examples" / "e03-damage-beyond-life.yaml"
    copy = tmp_path / "mutated.yaml"
    copy.write_text(source.read_text(encoding="utf-8").replace("life: {B: 0}", "life: {B: 1}"), encoding="utf-8")
    shutil.copy(source, tmp_path / "same.yaml")
    result = run_scenario(rules, load_scenario(copy, rules))
    assert not result.passed
    assert [e.name for e in result.expectations if not e.passed] == ["life.B"]
    assert run_scenario(rules, load_scenario(tmp_path / "same.yaml", rules)).passed
    outcome = CliRunner().invoke(cli, ["sim", "run", "-q", str(copy)])
    assert outcome.exit_code == 1 and "FAIL" in outcome.output


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    return path


BASE = """title: t
section: 2.10.4
ruleset: v8.1
format: lite
start:
  turn: A
  players:
    A:
      hand: [H2]
"""


@pytest.mark.parametrize("text, where, message", [
    (BASE + "    C: {}\n", "bad.yaml:10:5", "unknown field 'C'"),
    (BASE.replace("hand: [H2]", "hand: [X9]"), "bad.yaml:9:14", "X9"),
    (BASE.replace("format: lite", "format: huge"), "bad.yaml:4:9", "'huge' is not one of"),
    (BASE + "script:\n  - {player: A, request: ヒールアップ}\n", "bad.yaml:11:26", "no action"),
    (BASE.replace("hand: [H2]", "hand: [H2, H2]"), "bad.yaml:9:18", "listed twice"),
    (BASE + "  oops: [\n", "bad.yaml:", "YAML syntax error"),
    (BASE.replace("format: lite", "format: lite\nframe: pak"), "bad.yaml:5:8", "'pak' is not a frame"),
    (BASE.replace("hand: [H2]", "rare: [H2]"), "bad.yaml:9:7", "need a frame"),
])
def test_malformed_scenario_is_located(rules: Rules, tmp_path: Path, text: str, where: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(DefinitionErrors) as info:
        load_scenario(path, rules, "bad.yaml")
    report = str(info.value)
    assert where in report and message in report, report
    outcome = CliRunner().invoke(cli, ["sim", "run", str(path)])
    assert outcome.exit_code == 2
    assert "Traceback" not in outcome.output


def test_a_reference_that_does_not_resolve_at_its_step_is_located(tmp_path: Path) -> None:
    text = BASE.replace("format: lite", "format: mast\nframe: extra") + (
        "script:\n  - {player: A, request: 切札破壊, keys: [S2], targets: ['trump:B:S2']}\n")
    outcome = CliRunner().invoke(cli, ["sim", "run", str(_write(tmp_path, text))])
    assert outcome.exit_code == 2 and "Traceback" not in outcome.output
    assert "bad.yaml:12:" in outcome.output and "no trump ♠2 in B's trump zone" in outcome.output


def test_cli_runs_examples_with_transcript() -> None:
    outcome = CliRunner().invoke(cli, ["sim", "run", str(ROOT / "scenarios" / "examples" / "e01-up-fizzles-after-down.yaml")])
    assert outcome.exit_code == 0, outcome.output
    assert "解決: 「ダウン」(B)" in outcome.output and "PASS" in outcome.output
