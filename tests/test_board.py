"""The board renderer draws a scenario's position as the simulator has it (issue 14, item 1)."""

from __future__ import annotations

import re

from blackpoker import load_rules
from blackpoker.core.paths import SCENARIOS
from blackpoker.render.board import board_svg
from blackpoker.sim.scenario import build_start, load_scenario, run_scenario


def _texts(svg: str) -> list[str]:
    return re.findall(r"<text [^>]*>([^<]*)</text>", svg)


def test_an_equipped_soldier_is_fanned_with_its_size_and_after_reverse_three_driven_bulwarks() -> None:
    rules = load_rules()
    scenario = load_scenario(next((SCENARIOS / "examples").glob("e13a-*.yaml")), rules)
    before = board_svg(build_start(scenario, rules), "はじめ")
    texts = _texts(before)
    assert "サイズ 9" in texts and {"♠2", "♠3", "♠4"} <= set(texts)  # 装備兵 ♠2♠3♠4, every card's corner shown
    assert "ライフ 10 枚 ・ 手札 2 枚: ♡7◇7" in texts  # A's hand, as the example names it
    assert "rotate(" not in before
    end = run_scenario(rules, scenario).state
    assert end is not None
    after = board_svg(end, "結果")
    assert _texts(after).count("防壁") == 3 and after.count("rotate(90") == 3  # three bulwarks, driven: sideways
    assert not re.search(r"(?<![A-Za-z])[SHDC](10|[2-9AJQK])(?![A-Za-z0-9])", " ".join(_texts(before + after)))


def test_the_stage_is_drawn_top_first_with_the_chance() -> None:
    rules = load_rules()
    scenario = load_scenario(next((SCENARIOS / "examples").glob("e01-*.yaml")), rules)
    result = run_scenario(rules, scenario)
    assert result.passed
    state = build_start(scenario, rules)
    texts = _texts(board_svg(state, "はじめ"))
    assert "ステージ (0)" in texts and "空" in texts and "チャンス: A" in texts


def test_text_in_a_board_is_escaped() -> None:
    svg = board_svg(build_start(load_scenario(next((SCENARIOS / "examples").glob("e01-*.yaml")), load_rules()),
                                load_rules()), '<img src=x onerror="1">')
    assert "<img" not in svg and "&lt;img" in svg
