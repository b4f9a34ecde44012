"""Property: whatever is done to a valid scenario, loading and running it either plays or refuses it with located
errors (file:line:col), never another exception (issue 13, item 7)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackpoker import DefinitionErrors, load_rules
from blackpoker.core.cards import parse_card
from blackpoker.core.model import Rules
from blackpoker.sim.scenario import load_scenario, run_scenario
from mutations import data_paths

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "scenarios").rglob("*.yaml"))
ORIGINAL = {p.relative_to(ROOT).as_posix(): yaml.safe_load(p.read_text(encoding="utf-8")) for p in FILES}
RULES = load_rules()
ACTION_NAMES = [a.name for a in RULES.actions]
CARDS = ["SA", "S2", "H2", "D9", "C9", "S3", "S5", "HK", "DQ", "JK", "JK2", "S10"]

names = st.sampled_from(["ドラゴン", "ヒールアップ", "X9", "A:S99", "B:", "C:S3", "request:キル", "trump:B:SK", "",
                         "soldier", "bulwark", "防壁", "英雄", "装備兵", "魔術士", "アップ", "クローズ", "extra", "A", "B",
                         *CARDS, *ACTION_NAMES])
numbers = st.sampled_from([-5, -1, 0, 1, 2, 7, 13, 40, 53, 54, 55, 60, 10**6])
values = st.one_of(st.none(), st.booleans(), numbers, names, st.lists(names, max_size=3),
                   st.lists(st.sampled_from(CARDS), max_size=8), st.dictionaries(names, names, max_size=2),
                   st.fixed_dictionaries({"cards": st.lists(st.sampled_from(CARDS), max_size=3)},
                                         optional={"type": names, "kind": names, "face_up": st.booleans()}))
characters = st.fixed_dictionaries(
    {"cards": st.lists(st.sampled_from(CARDS), min_size=1, max_size=3)},
    optional={"type": st.sampled_from(["ドラゴン", "一般兵", "英雄", "エース", "魔術士", "装備兵", "防壁", "hero", ""]),
              "kind": st.sampled_from(["soldier", "bulwark"]), "face_up": st.booleans(), "driven": st.booleans(),
              "new": st.booleans()})
stage_requests = st.fixed_dictionaries(
    {"player": st.sampled_from(["A", "B"]), "action": st.sampled_from(ACTION_NAMES)},
    optional={"keys": st.lists(st.sampled_from(CARDS), max_size=3), "targets": st.lists(names, max_size=2)})


class _NoAliases(yaml.SafeDumper):
    """Write a value shared by two places twice (the scenario loader refuses YAML aliases)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def _is_card(value: Any) -> bool:
    try:
        parse_card(value)
    except (ValueError, AttributeError):
        return False
    return isinstance(value, str)


def _card_lists(data: Any) -> list[tuple[Any, ...]]:
    """Paths of every list of cards (hand, graveyard, keys, cards of a character or a fog, life tops…)."""
    return [p for p in data_paths(data) if isinstance(_at(data, p), list) and _at(data, p)
            and all(_is_card(x) for x in _at(data, p))]


def _leaves(data: Any, kind: type) -> list[tuple[Any, ...]]:
    """Paths of the values of this type (booleans are not numbers here)."""
    return [p for p in data_paths(data) if len(p) > 1 and isinstance(_at(data, p), kind)
            and not isinstance(_at(data, p), bool)]


def _position(data: dict[str, Any]) -> dict[str, Any] | None:
    """The written-out position (start without setup), or None."""
    start = data.get("start")
    return start if isinstance(start, dict) and "setup" not in start else None


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    _at(data, path[:-1])[path[-1]] = value


@st.composite
def broken_scenarios(draw: st.DrawFn) -> dict[str, Any]:
    data: dict[str, Any] = copy.deepcopy(ORIGINAL[draw(st.sampled_from(sorted(ORIGINAL)))])
    for _ in range(draw(st.integers(1, 2))):
        action = draw(st.sampled_from(["stage", "preset", "character", "name", "number", "duplicate", "drop",
                                       "wrong type"]))
        start = _position(data)
        if action == "drop":  # a key or an item left out, inside start, script or expect
            paths = [p for p in data_paths(data) if len(p) > 1]
            if paths:
                path = draw(st.sampled_from(paths))
                del _at(data, path[:-1])[path[-1]]
        elif action == "wrong type":
            paths = [p for p in data_paths(data) if len(p) > 1]
            if paths:
                _set(data, draw(st.sampled_from(paths)), draw(values))
        elif action == "name":  # an unknown or misplaced name: type, action, fog, card, reference, player
            paths = _leaves(data, str)
            if paths:
                _set(data, draw(st.sampled_from(paths)), draw(names))
        elif action == "number":  # a life, count, size, turn or seed out of range
            paths = _leaves(data, int)
            if paths:
                _set(data, draw(st.sampled_from(paths)), draw(numbers))
        elif action == "duplicate":  # a card written twice: in the same list, or copied into another one
            lists = _card_lists(data)
            if lists:
                source = _at(data, draw(st.sampled_from(lists)))
                _at(data, draw(st.sampled_from(lists))).append(draw(st.sampled_from(source)))
        elif start is None:
            continue
        elif action == "stage":  # a request put on the stage, however incomplete, then resolved by two passes
            stage = old if isinstance(old := start.get("stage"), list) else []
            start["stage"] = stage + [draw(stage_requests)]
            first = start.get("chance", start.get("turn", "A"))
            other = "B" if first == "A" else "A"
            script = old if isinstance(old := data.get("script"), list) else []
            data["script"] = [{"player": first, "pass": True}, {"player": other, "pass": True}, *script]
        elif action == "preset":  # プリセット, perhaps on a life too short for it
            name = draw(st.sampled_from(["A", "B"]))
            start["preset"] = draw(st.sampled_from([[name], [name, name], ["A", "B"]]))
            players = start.get("players")
            if isinstance(players, dict) and draw(st.booleans()):
                players.setdefault(name, {})["life"] = draw(st.sampled_from([0, 1, 2, -1, ["JK"], ["JK", "JK2"]]))
        else:  # a character whose type, kind and cards may not go together
            players = start.get("players")
            if isinstance(players, dict):
                zones = players.setdefault(draw(st.sampled_from(["A", "B"])), {})
                if isinstance(zones, dict):
                    field = old if isinstance(old := zones.get("field"), list) else []
                    zones["field"] = field + [draw(characters)]
    return data


@pytest.fixture(scope="module")
def rules() -> Rules:
    return RULES


@settings(max_examples=200, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(broken_scenarios())
def test_broken_scenarios_give_only_located_errors(rules: Rules, tmp_path_factory: pytest.TempPathFactory,
                                                  data: dict[str, Any]) -> None:
    path = tmp_path_factory.mktemp("scenario") / "broken.yaml"
    path.write_text(yaml.dump(data, Dumper=_NoAliases, allow_unicode=True, sort_keys=False), encoding="utf-8")
    try:
        run_scenario(rules, load_scenario(path, rules, "broken.yaml"))
    except DefinitionErrors as exc:
        assert exc.errors
        for error in exc.errors:
            assert error.file == "broken.yaml"
            assert error.line >= 1 and error.column >= 1 and error.message
            # refused by a check that says what is wrong, not by the last resort around the simulator
            assert "the simulator cannot play" not in error.message, str(error)
