"""Running a scenario: play its script of decisions from the start, checking the expectations on the way."""

from __future__ import annotations

from typing import Any

from blackpoker.core.cards import parse_card
from blackpoker.core.model import Rules
from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
from blackpoker.sim.engine import apply, current_player
from blackpoker.sim.frames import SetupError
from blackpoker.sim.game_errors import IllegalDecision
from blackpoker.sim.requests import cost_letters
from blackpoker.sim.scenario.expect import ExpectationResult, ScenarioResult, _check
from blackpoker.sim.scenario.refs import (
    PLAYER_INDEX,
    Located,
    Scenario,
    action_at,
    cards_at,
    character_at,
    located,
    target_at,
    unplayable,
)
from blackpoker.sim.scenario.start import build_start
from blackpoker.sim.state import (
    GameState,
    Payment,
    player_name,
)
from blackpoker.sim.text import char_text


# --- running ---------------------------------------------------------------------------------------------
def decision_at(s: GameState, step: dict[str, Any], path: tuple[Any, ...]) -> Decision:
    """The decision a script step writes (pass, choose, or a request with its keys, cost and targets), located."""
    if step.get("pass"):
        return Pass()
    if "choose" in step:
        return Choose(_option(s, step["choose"], path + ("choose",)))
    action_id = action_at(s.rules, step["request"], path + ("request",))
    keys = cards_at(step.get("keys", []), path + ("keys",))
    cost = step.get("cost", {})
    player = PLAYER_INDEX[step["player"]]
    letters = cost_letters(s, player, s.rules.action(action_id))
    if "bulwarks" in cost:
        bulwarks = tuple(character_at(s, b, path + ("cost", "bulwarks", i)) for i, b in enumerate(cost["bulwarks"]))
    else:  # the first charged bulwarks, in field order
        free = [ch.uid for ch in s.players[player].field if ch.kind == "bulwark" and not ch.driven]
        bulwarks = tuple(free[:letters.count("B")])
    discards = cards_at(cost.get("discard", []), path + ("cost", "discard"))
    sacrifices = tuple(character_at(s, c, path + ("cost", "sacrifice", i)) for i, c in enumerate(cost.get("sacrifice", [])))
    payment = Payment(tuple(sorted(bulwarks)), letters.count("L"), discards, sacrifices)
    targets = tuple(target_at(s, t, path + ("targets", i)) for i, t in enumerate(step.get("targets", [])))
    key_soldier = character_at(s, step["key_soldier"], path + ("key_soldier",)) if "key_soldier" in step else None
    return RequestAction(action_id, keys, payment, targets, key_soldier)

def _option(s: GameState, value: Any, path: tuple[Any, ...]) -> object:
    options = s.pending.options if s.pending else ()
    if value in options:
        return value
    text = str(value)
    candidates: list[object] = []
    try:
        target = target_at(s, text, path)
        candidates += [target.ref, (target.kind, target.ref)]
    except Located:
        pass
    try:
        candidates.append(parse_card(text))
    except ValueError:
        pass
    for c in candidates:
        if c in options:
            return c
    return _choice_text(s, value, path)  # not an option: the engine names the rule, and what was chosen

def _choice_text(s: GameState, value: Any, path: tuple[Any, ...]) -> str:
    """A choice as readers read it: a character by its owner, type and cards, a card as ♠7 (never ``S7``)."""
    text = str(value)
    try:
        return char_text(s.character(character_at(s, text, path)))
    except Located:
        pass
    try:
        return str(parse_card(text))
    except ValueError:
        return text


def run_scenario(rules: Rules, scenario: Scenario) -> ScenarioResult:
    """Play the script from the starting position, checking expectations after the steps that have them."""
    result = ScenarioResult(scenario)
    data = scenario.src.data
    result.transcript.append(f"# {scenario.title}({scenario.section})")
    wanted = data.get("expect", {}).get("setup_error")
    try:
        state = build_start(scenario, rules, record=True)
    except SetupError as exc:
        result.transcript.append(f"ゲームの始め方を拒否: {exc.rule}")
        ok = wanted is not None and wanted in exc.rule
        result.expectations.append(ExpectationResult(0, "setup_error", ok, wanted, exc.rule))
        result.transcript.append("　" + result.expectations[-1].line())
        return result
    result.transcript.extend(state.events or [])
    state.events = [] if state.events is not None else None
    if wanted is not None:
        result.expectations.append(ExpectationResult(0, "setup_error", False, wanted, "拒否されなかった"))
    try:
        for i, step in enumerate(data.get("script", [])):
            path = ("script", i)
            if "expect" in step:
                _check(state, step["expect"], i, result, path + ("expect",))
                continue
            player = PLAYER_INDEX[step["player"]]
            expected_error = step.get("illegal")
            try:
                if current_player(state) != player:
                    raise IllegalDecision(f"6.1.5: {step['player']} はチャンスを持っていません",
                                          f"判断するプレイヤー: {player_name(current_player(state))}")
                decision = decision_at(state, step, path)
                before = len(state.events or [])
                chosen = _choice_text(state, step["choose"], path) if isinstance(decision, Choose) else ""
                state = apply(state, decision)
                if isinstance(decision, Choose):
                    result.transcript.append(f"{step['player']}: 選択「{chosen}」")
                result.transcript.extend((state.events or [])[before:])
                if expected_error is not None:
                    result.expectations.append(ExpectationResult(i, "illegal", False, expected_error, "許可された"))
            except IllegalDecision as exc:
                ok = expected_error is not None and expected_error in str(exc)
                result.transcript.append(f"{step['player']}: 不正な判断 — {exc.rule}")
                result.expectations.append(ExpectationResult(i, "illegal", ok, expected_error, exc.rule))
                if expected_error is None:
                    break
            except Located:
                raise
            except Exception as exc:  # a step the position cannot take, however it got past the checks
                raise Located(path, unplayable("this step", exc)) from exc
            if state.pending is not None:
                result.transcript.append(f"　→ {player_name(state.pending.player)} が選ぶ: {state.pending.prompt}")
        if "expect" in data:
            _check(state, data["expect"], len(data.get("script", [])), result, ("expect",))
        result.state = state
    except Located as exc:
        raise located(scenario, exc) from None
    return result
