"""An edition the simulator does not wholly cover (``simulated: false`` in ruleset.yaml): ``check`` lists the gaps
as located warnings and passes; a simulated edition (the default, and the repository's v8.1) keeps the strict
check; scenarios the edition cannot play are reported as not verified, never crash."""

from __future__ import annotations

import dataclasses
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from blackpoker.core.loader import check_rules, load_rules
from blackpoker.core.paths import DEFINITIONS, SCENARIOS, SOURCE
from blackpoker.core.targets import TARGETS
from blackpoker.render.sourcerefs import missing_entries
from blackpoker.sim.decisions import RequestAction
from blackpoker.sim.engine import apply, current_player, legal_decisions
from blackpoker.sim.game_errors import IllegalDecision
from blackpoker.sim.gaps import coverage_gaps, coverage_problems, coverage_warnings
from blackpoker.sim.requests import available_actions
from blackpoker.sim.scenario import unverified
from blackpoker.sim.setup import new_game
from clirun import run_cli
from editions import edition, meteor_line
from sphinxroots import but_the_report_s_links, page, root_copy, warnings_of

FORMAT_ACTIONS = 37  # actions.yaml of v8.1: メテオ is appended as actions[37]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=cwd)


def test_check_lists_what_the_simulator_does_not_cover_as_warnings(tmp_path: Path) -> None:
    defs = edition(tmp_path / "defs", simulated=False)
    result = run("check", "defs", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("v8.1 ok: 5 frames, 49 actions (38 format + 11 frame)")
    assert result.stderr.splitlines() == [
        f"defs/actions.yaml:{meteor_line(defs)}:5: warning: actions[{FORMAT_ACTIONS}]: simulator: action 'meteor' has "
        "no effect in the simulator",
        "1 warning: the edition declares 'simulated: false', so what the simulator does not cover is published but "
        "not verified.",
    ]


@pytest.mark.parametrize("simulated", [True, None])  # declared, or the default
def test_a_simulated_edition_keeps_the_strict_check(tmp_path: Path, simulated: bool | None) -> None:
    defs = edition(tmp_path / "defs", simulated=simulated)
    result = run("check", "defs", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"defs/actions.yaml:{meteor_line(defs)}:5: actions[{FORMAT_ACTIONS}]: simulator: action 'meteor' has no "
        "effect in the simulator",
        "1 problem found in the definitions.",
    ]


def test_the_repository_edition_is_simulated_and_fully_covered() -> None:
    checked = check_rules(DEFINITIONS, extra_checks=(coverage_problems,), warning_checks=(coverage_warnings,))
    assert checked.rules.edition.simulated is True
    assert checked.warnings == ()
    assert coverage_gaps(checked.rules) == []


def test_gaps_are_warnings_only_when_the_edition_is_not_simulated(tmp_path: Path) -> None:
    rules = load_rules(edition(tmp_path / "defs", simulated=False))
    assert coverage_problems(rules) == []
    assert [m for _, m in coverage_warnings(rules)] == ["simulator: action 'meteor' has no effect in the simulator"]
    assert [g.text for g in coverage_gaps(rules)] == ["アクション「メテオ」: 効果をシミュレーターが扱いません"]
    strict = dataclasses.replace(rules, edition=dataclasses.replace(rules.edition, simulated=True))
    assert coverage_warnings(strict) == [] and len(coverage_problems(strict)) == 1


def test_the_simulator_never_offers_an_action_it_has_no_effect_for(tmp_path: Path) -> None:
    rules = load_rules(edition(tmp_path / "defs", simulated=False))
    state = new_game(rules, "mast", seed=0)
    player = current_player(state)
    assert player is not None
    heart = next(c for c in state.players[player].hand if c.suit == "H" and c.rank <= 10)  # メテオ's key card
    assert "meteor" in {a.id for a in available_actions(state)}  # the regulation has it
    offered = {d.action_id for d in legal_decisions(state) if isinstance(d, RequestAction)}
    assert "meteor" not in offered and "bulwark-set" in offered
    with pytest.raises(IllegalDecision, match="「メテオ」はシミュレーターが扱わないアクションです"):
        apply(state, RequestAction("meteor", keys=(heart,)))


def _scenario(path: Path, *, ruleset: str, request: str) -> Path:
    path.write_text(
        "title: メテオを使う\nsection: 4.3.1\n"
        f"ruleset: {ruleset}\nformat: mast\n"
        "start:\n  turn: A\n  players:\n    A:\n      hand: [H3]\n"
        f"script:\n  - {{player: A, request: {request}, keys: [H3]}}\n", encoding="utf-8")
    return path


def test_a_scenario_the_edition_cannot_play_says_why(tmp_path: Path) -> None:
    rules = load_rules(edition(tmp_path / "defs", simulated=False))
    meteor = unverified(rules, _scenario(tmp_path / "meteor.yaml", ruleset="v8.1", request="メテオ"))
    assert meteor is not None
    assert (meteor.title, meteor.section, meteor.reason) == ("メテオを使う", "4.3.1",
                                                             "アクション「メテオ」をシミュレーターが扱いません")
    missing = unverified(rules, _scenario(tmp_path / "missing.yaml", ruleset="v8.1", request="ハリケーン"))
    assert missing is not None and missing.reason == "アクション「ハリケーン」が定義にありません"
    other = unverified(rules, _scenario(tmp_path / "other.yaml", ruleset="v7.0", request="アップ"))
    assert other is not None and other.reason == "このシナリオは v7.0 のルール用で、この定義は v8.1 です"
    no_format = _scenario(tmp_path / "format.yaml", ruleset="v8.1", request="アップ")
    no_format.write_text(no_format.read_text(encoding="utf-8").replace("format: mast", "format: pauper"), encoding="utf-8")
    found = unverified(rules, no_format)
    assert found is not None and found.reason == "このシナリオのフォーマットが定義にありません"
    # what it can play, it plays: every repository scenario still runs against this edition
    assert [p for p in sorted(SCENARIOS.rglob("*.yaml")) if unverified(rules, p) is not None] == []


def test_a_simulated_edition_verifies_every_scenario(tmp_path: Path) -> None:
    rules = load_rules(edition(tmp_path / "defs", simulated=None, meteor=False))
    assert unverified(rules, _scenario(tmp_path / "s.yaml", ruleset="v8.1", request="メテオ")) is None


def test_another_version_cannot_verify_the_repository_scenarios(tmp_path: Path) -> None:
    rules = load_rules(edition(tmp_path / "defs", simulated=False, version="v9.0"))
    reasons = {unverified(rules, p) is not None for p in SCENARIOS.rglob("*.yaml")}
    assert reasons == {True}
    found = unverified(rules, next(SCENARIOS.rglob("*.yaml")))
    assert found is not None and found.reason == "このシナリオは v8.1、v8.2 のルール用で、この定義は v9.0 です"


def test_the_rulebook_names_entries_the_definitions_must_have() -> None:
    rules = load_rules(DEFINITIONS)
    assert missing_entries(rules, SOURCE) == []
    lacking = dataclasses.replace(rules, actions=tuple(a for a in rules.actions if a.id != "counter"),
                                  frames=tuple(f for f in rules.frames if f.id != "extra"))
    common = (SOURCE / "common.md").read_text(encoding="utf-8").splitlines()
    line = next(i for i, text in enumerate(common, 1) if "<act-counter>" in text)
    column = common[line - 1].index("act-counter") + 1
    terms = (SOURCE / "index-terms.yaml").read_text(encoding="utf-8").splitlines()
    term_line = next(i for i, text in enumerate(terms, 1) if "label: frame-extra" in text)
    assert [str(p).split(":", 1)[1] for p in missing_entries(lacking, SOURCE)] == [
        f"{line}:{column}: the rulebook's page common refers to action 'counter' (act-counter), which the "
        "definitions do not have; expected that action in the definitions, or common.md changed not to refer to it",
        f"{term_line}:{terms[term_line - 1].index('frame-extra') + 1}: the rulebook's index terms refers to frame "
        "'extra' (frame-extra), which the definitions do not have; expected that frame in the definitions, or "
        "index-terms.yaml changed not to refer to it",
    ]


def test_the_rulebook_of_another_version_marks_its_examples_not_verified(
        tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    """On the examples' root (tests/roots/test-examples: the examples of 2.10.4 and the report of every scenario)."""
    defs = edition(tmp_path / "defs", simulated=False, version="v9.0")
    app = make_app("html", srcdir=root_copy("examples", tmp_path / "root"), freshenv=True,
                   confoverrides={"blackpoker_definitions": str(defs)})
    app.build()
    assert but_the_report_s_links(warnings_of(app)) == []
    reason = "このシナリオは v8.1、v8.2 のルール用で、この定義は v9.0 です"
    common = page(app, "common")
    assert "シミュレーターで未検証" in common and "✓ シミュレーターで検証済み" not in common
    assert f"この定義ではシミュレーターで再生できないため、検証していません。理由: {reason}" in common
    report = page(app, "verification")
    assert "アクション「メテオ」: 効果をシミュレーターが扱いません" in report
    assert "この定義では再生できないシナリオが 102 件あります" in report
    assert report.count(f"理由: {reason}") == 102


def _replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_what_the_simulator_cannot_read_is_a_warning_and_never_a_crash(tmp_path: Path) -> None:
    """An edition check accepts plays to the end in every regulation: a label condition it does not know (and one
    written without spaces, as the official files do), a target phrase outside core/targets.py and a character no
    action's wording summons are warnings, and what they concern is not offered (the crash of issue 21.4:
    KeyError 'キーカードにAが含まれる場合のみ')."""
    from blackpoker.sim.playable import unplayable
    from blackpoker.sim.selfplay import self_play
    defs = edition(tmp_path / "defs", simulated=False, meteor=False)
    _replace_once(defs / "characters.yaml", "condition: キーカードに A が含まれる場合のみ",
                  "condition: キーカードにAが含まれる場合のみ")
    _replace_once(defs / "characters.yaml", "      - {name: 速攻, condition: キーカードにAが含まれる場合のみ}\n",
                  "      - {name: 速攻, condition: キーカードにAが含まれる場合のみ}\n"
                  "      - {name: 飛行, condition: 晴れている場合のみ}\n")
    _replace_once(defs / "ruleset.yaml", "labels: [アタッカー, ", "labels: [飛行, アタッカー, ")
    _replace_once(defs / "actions.yaml", "    target: 防壁1体\n", "    target: 表の防壁1体\n")
    _replace_once(defs / "characters.yaml", "    summoned_by: [equip]\n", "    summoned_by: []\n")
    checked = check_rules(defs, warning_checks=(coverage_warnings,))
    messages = [w.message for w in checked.warnings]
    aimed_id = next(a.id for a in checked.rules.actions if a.target == "表の防壁1体")
    # named once: by the simulator's coverage (a check's error only in an edition that declares itself simulated)
    assert [m for m in messages if "表の防壁1体" in m] == [f"simulator: action '{aimed_id}': target '表の防壁1体' is not simulated"]
    assert any(m.startswith("simulator: no action summons '装備兵'") for m in messages)
    assert any("label condition '晴れている場合のみ' is not simulated" in m for m in messages)
    assert not any("キーカードにAが含まれる場合のみ" in m for m in messages)  # read whatever its spacing
    rules = checked.rules
    aimed = next(a for a in rules.actions if a.target == "表の防壁1体")
    assert aimed.id in unplayable(rules)["target"]
    for fmt in ("lite", "mast"):
        stats = self_play(rules, fmt, 20, 0)
        assert stats.failures == [] and stats.games == 20
        assert stats.resolved[aimed.name] == 0


def test_an_unknown_target_is_an_error_in_a_simulated_edition(tmp_path: Path) -> None:
    from blackpoker.core.errors import DefinitionErrors
    defs = edition(tmp_path / "defs", simulated=True, meteor=False)
    _replace_once(defs / "actions.yaml", "    target: 防壁1体\n", "    target: 表の防壁1体\n")
    with pytest.raises(DefinitionErrors) as raised:
        load_rules(defs)
    assert [e.message for e in raised.value.errors if "表の防壁1体" in e.message] == [
        "'表の防壁1体' is not a known target phrase; expected one of " + ", ".join(f"'{t}'" for t in TARGETS)]
