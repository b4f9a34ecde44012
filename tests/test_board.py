"""The board renderer draws a scenario's position as the simulator has it (issue 14, item 1): narrow enough for a
phone at 11 px text, hands as cards, counts, the changes since the start marked (issue 22, items 1 and 2)."""

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
    assert "ライフ 10 ・ 手札 2 ・ 墓地 0" in texts and {"♡7", "◇7"} <= set(texts)  # A's hand as cards
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


def _sizes(svg: str) -> list[float]:
    return [float(s) for s in re.findall(r'font-size="([0-9.]+)"', svg)]


def test_every_board_fits_a_phone_column_at_11_px() -> None:
    """Drawn at most 358 units wide (a 390 px phone's column) with no text under 11 units, so a phone shows it
    whole at scale 1 and never below 11 px."""
    rules = load_rules()
    for path in sorted((SCENARIOS / "examples").glob("*.yaml"))[:25]:
        scenario = load_scenario(path, rules)
        end = run_scenario(rules, scenario).state
        assert end is not None, path.name
        svg = board_svg(end, "結果", before=build_start(scenario, rules))
        box, least = re.search(r'viewBox="0 0 ([0-9.]+) ', svg), re.search(r"--bp-min-width:(\d+)px", svg)
        assert box is not None and least is not None, path.name
        width = float(box[1])
        assert width <= 358 and min(_sizes(svg)) >= 11, path.name
        assert least[1] == f"{width:.0f}"


def test_what_changed_is_marked_and_the_graveyard_is_counted() -> None:
    """e21a: the hand-limit discards go to the graveyard: counted, drawn and marked."""
    rules = load_rules()
    scenario = load_scenario(next((SCENARIOS / "examples").glob("e21a-*.yaml")), rules)
    start, end = build_start(scenario, rules), run_scenario(rules, scenario).state
    assert end is not None
    before, after = board_svg(start, "はじめ"), board_svg(end, "結果", before=start)
    assert 'stroke="#c2410c"' not in before and "はじめから変わったところ" not in " ".join(_texts(before))
    assert 'stroke="#c2410c"' in after and "太い枠・→: はじめから変わったところ" in _texts(after)
    grave = len(end.players[0].graveyard)
    assert grave >= 2 and any(f"墓地 0→{grave}" in t or f"墓地 {len(start.players[0].graveyard)}→{grave}" in t
                              for t in _texts(after))
    shown = [str(c) for c in end.players[0].graveyard[-4:]]
    assert set(shown) <= set(_texts(after))


def test_a_hidden_hand_is_drawn_as_backs() -> None:
    rules = load_rules()
    state = build_start(load_scenario(next((SCENARIOS / "examples").glob("e01-*.yaml")), rules), rules)
    open_, hidden = board_svg(state, "x"), board_svg(state, "x", hidden_hands={1})
    b_hand = {str(c) for c in state.players[1].hand}
    assert b_hand <= set(_texts(open_)) and not b_hand & set(_texts(hidden))
    assert hidden.count('fill="#6f7f9f"') == open_.count('fill="#6f7f9f"') + len(b_hand)


def test_an_ability_example_shows_its_abilities_on_the_board_and_in_the_play_by_play() -> None:
    """6.4.2's examples are about the abilities they start with (E5: 「サイズ 9」 from -1, +2 and +3)."""
    from blackpoker.sphinxext.examples import load, play
    rules = load_rules()
    path = next((SCENARIOS / "examples").glob("e05-*.yaml"))
    state = build_start(load_scenario(path, rules), rules)
    assert state is not None
    texts = _texts(board_svg(state, "はじめ"))
    assert "有効な能力(古い順)" in texts and "サイズ 9" in texts
    assert any("全ての兵士のサイズを -1" in t for t in texts) and any("(Aの♠5)" in t for t in texts)
    played = play(rules, load(path, rules))
    assert played.lines[0] == "はじめに有効な能力(古い順):" and any("+3" in line for line in played.lines[1:4])
