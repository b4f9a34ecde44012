"""The guided tutorial in CPython: every lesson is completed by a scripted learner through the page's engine
(``play/tutorial.py``, the same commands the page sends), every listed mistake is refused with the rules' own
text and a section the rulebook has, a legal move that is not the lesson's is answered with the hint, and a lesson
that does not fit the rules is a located error that stops the build's tutorial step."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.loader import load_rules
from blackpoker.core.model import Rules
from blackpoker.core.paths import SOURCE, TUTORIAL
from blackpoker.pipeline.tutorialpage import build_tutorial, lesson_data, load_lessons, render_page, section_links
from blackpoker.play.browser import final_state
from blackpoker.play.tutorial import Tutorial, run, section_of
from blackpoker.sim.decisions import Pass
from blackpoker.sim.engine import apply, legal_decisions
from blackpoker.sim.scenario import load_lesson

LESSONS = sorted(TUTORIAL.glob("*.yaml"))


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.fixture(scope="module")
def lessons(rules: Rules) -> dict[str, dict[str, Any]]:
    """Each lesson as the page receives it (through JSON, as the build writes it)."""
    return {stem: json.loads(json.dumps(lesson_data(stem, lesson), ensure_ascii=False))
            for stem, lesson in load_lessons(rules)}


def learn(tutorial: Tutorial) -> dict[str, Any]:
    """One move as a learner makes it on the page: the hand cards and the action, then a way to pay and target;
    passing; or an answer to the question."""
    answer = tutorial.answer()
    if answer["pass"]:
        return tutorial.pass_move()
    if answer["choose"]:
        return tutorial.pick(answer["move"])
    result = tutorial.attempt(answer["action"], answer["keys"])
    if result["kind"] == "variants":
        assert answer["move"] in [m["move"] for m in result["moves"]]
        result = tutorial.pick(answer["move"])
    return result


def test_the_lessons_cover_the_official_tutorials_topics_lite_first(lessons: dict[str, dict[str, Any]]) -> None:
    levels = [lesson["level"] for lesson in lessons.values()]
    assert levels[0] == "ライト" and levels[-1] == "ライト + エントリー 20"
    assert levels == sorted(levels, key=lambda level: level != "ライト"), "every ライト lesson before エントリー20's"
    said = " ".join(lesson["title"] + lesson["goal"] + " ".join(s["say"] for s in lesson["steps"])
                    for lesson in lessons.values())
    for topic in ("ゲームの準備", "チャージ", "ドライブ", "召喚", "防壁", "アタック", "ブロック", "ダメージ", "速攻魔法", "ステージ",
                  "勝ち"):
        assert topic in said, topic
    requested = {s["decision"].get("request") for lesson in lessons.values() for s in lesson["steps"]}
    assert {"bulwark-set", "soldier-summon", "attack", "counter", "end"} <= requested


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_a_scripted_learner_completes_the_lesson(rules: Rules, lessons: dict[str, dict[str, Any]], path: Path) -> None:
    lesson = lessons[path.stem]
    tutorial = Tutorial(rules, lesson)
    first = tutorial.view()
    assert first["step"] == 1 and first["steps"] == sum(s["player"] == lesson["learner"] for s in lesson["steps"])
    moves = 0
    while not tutorial.done:
        view = tutorial.view()
        assert view["instruction"] and not view["done"]
        result = learn(tutorial)
        assert result["kind"] == "ok", result
        moves += 1
    assert moves == first["steps"]
    end = tutorial.view()
    assert end["done"] and end["instruction"] == lesson["done"] and end["step"] == end["steps"]
    # the page's game ends where the lesson, played by the build, ends
    played = load_lesson(path, rules, f"tutorial/{path.name}")
    state = played.start
    for step in played.steps:
        state = apply(state, step.decision)
    assert final_state(tutorial.state) == final_state(state)


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_a_wrong_move_is_refused_with_the_rule_and_its_section(rules: Rules, lessons: dict[str, dict[str, Any]],
                                                               path: Path) -> None:
    lesson = lessons[path.stem]
    played = load_lesson(path, rules, f"tutorial/{path.name}")
    links = section_links(SOURCE)
    tutorial = Tutorial(rules, lesson)
    refused = 0
    for step in played.steps:
        if step.player != played.learner:
            continue
        for mistake in step.mistakes:
            before = final_state(tutorial.state)
            result = tutorial.attempt(mistake.action_id, [c.code for c in mistake.keys])
            assert result["kind"] == "refused" and mistake.refusal in result["rule"], result
            assert result["section"] is not None and result["section"] in links, result
            assert final_state(tutorial.state) == before, "a refused move changes nothing"
            refused += 1
        assert learn(tutorial)["kind"] == "ok"
    assert refused, "every lesson shows at least one mistake the rules refuse"


def test_a_legal_move_that_is_not_the_lessons_gets_the_hint(rules: Rules, lessons: dict[str, dict[str, Any]]) -> None:
    answered = 0
    for lesson in lessons.values():
        tutorial = Tutorial(rules, lesson)
        while not tutorial.done:
            expected = tutorial.answer()["move"]
            others = [i for i in range(len(legal_decisions(tutorial.state))) if i != expected]
            if others:
                before = final_state(tutorial.state)
                result = tutorial.pick(others[0])
                assert result["kind"] == "other" and result["hint"] == tutorial.steps[tutorial.index].hint
                assert final_state(tutorial.state) == before
                answered += 1
            learn(tutorial)
    assert answered > 10


def test_any_card_with_any_action_gets_an_answer(rules: Rules, lessons: dict[str, dict[str, Any]]) -> None:
    """Every card of the hand with every action of the regulation: a refusal naming its rule, or legal moves."""
    tutorial = Tutorial(rules, lessons["03-summon"])
    view = tutorial.view()
    kinds = set()
    for card in view["hand"]:
        for action in view["actions"]:
            fresh = Tutorial(rules, lessons["03-summon"])
            result = fresh.attempt(action["id"], [card["code"]])
            kinds.add(result["kind"])
            if result["kind"] == "refused":
                assert result["rule"] and result["action"] == action["name"]
    assert "refused" in kinds and kinds & {"variants", "ok", "other"}, kinds


def test_passing_is_checked_like_any_move(rules: Rules, lessons: dict[str, dict[str, Any]]) -> None:
    tutorial = Tutorial(rules, lessons["02-bulwark"])
    result = tutorial.pass_move()
    assert result["kind"] == "other" and "防壁設置" in result["hint"] and result["tried"] == "パス"
    assert Pass() in legal_decisions(tutorial.state)


def test_the_page_commands(rules: Rules, lessons: dict[str, dict[str, Any]]) -> None:
    lesson, answer = run(None, rules, {"command": "lesson", "lesson": lessons["02-bulwark"]})
    assert lesson is not None and answer["view"]["hand"]
    _, answer = run(lesson, rules, {"command": "lesson-attempt", "action": "soldier-summon", "keys": ["D3"]})
    assert answer["result"]["kind"] == "refused" and answer["result"]["rule"].startswith("2.10.2:")
    _, answer = run(lesson, rules, {"command": "lesson-answer"})
    assert answer["result"]["how"] == "手札の ◇3 を選んでから「防壁設置」を選ぶ"
    _, answer = run(lesson, rules, {"command": "lesson-attempt", "action": "bulwark-set", "keys": ["D3"]})
    assert answer["result"]["kind"] == "ok" and answer["view"]["step"] == 2


def test_a_refusal_names_its_section() -> None:
    assert section_of("2.10.3: 対象を指定できないアクションは起こせません") == "2.10.3"
    assert section_of("選択を求めている効果はありません") is None
    links = section_links(SOURCE)
    assert links["2.10.3"] == {"href": "../common.html#sec-2-10-3", "title": "アクションの起こし方(リクエスト)"}
    assert links["6.1.5"]["href"] == "../core.html#sec-6-1-5" and links["6.1.5"]["title"] == "チャンス"
    assert len(links) > 80 and all(link["title"] for link in links.values())


# --- a lesson that does not fit the rules ------------------------------------------------------------------------
GOOD = """\
title: 防壁
section: "2.11.3"
ruleset: [v8.1, v8.2]
format: lite
goal: 防壁を置く
start:
  turn: A
  players:
    A: {life: 10, hand: [D3, S5]}
    B: {life: 10}
steps:
  - say: ◇3 を防壁に
    hint: ◇3 と「防壁設置」
    mistakes:
      - {request: 兵士召喚, keys: [S5], refusal: コスト B}
    move: {player: A, request: 防壁設置, keys: [D3]}
done: できました
"""


@pytest.mark.parametrize(("old", "new", "where", "message"), [
    ("move: {player: A, request: 防壁設置, keys: [D3]}", "move: {player: A, request: 兵士召喚, keys: [S5]}",
     "steps[0].move", "the rules refuse this move here: 2.10.2"),
    ("refusal: コスト B", "refusal: 対象", "steps[0].mistakes[0].refusal", "the engine refuses it with '2.10.2"),
    ("{request: 兵士召喚, keys: [S5], refusal: コスト B}", "{request: 防壁設置, keys: [S5], refusal: コスト}",
     "steps[0].mistakes[0]", "the rules allow this move here"),
    ("    hint: ◇3 と「防壁設置」\n", "", "steps[0]", "needs 'say'"),
    ("move: {player: A,", "move: {player: B,", "steps[0].hint", "only the learner's moves have a hint"),
    ("  turn: A\n", "  turn: A\n  chance: B\n", "steps[0].move.player", "A does not decide here; expected B"),
    ("done: できました", "done: できました\nextra: 1", "", "extra"),
])
def test_a_lesson_that_does_not_fit_the_rules_is_a_located_error(rules: Rules, tmp_path: Path, old: str, new: str,
                                                                  where: str, message: str) -> None:
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    assert [stem for stem, _ in load_lessons(rules, tmp_path)] == ["good"]
    assert old in GOOD
    (tmp_path / "good.yaml").write_text(GOOD.replace(old, new), encoding="utf-8")
    with pytest.raises(DefinitionErrors) as caught:
        load_lessons(rules, tmp_path)
    text = str(caught.value)
    assert re.match(r"tutorial/good\.yaml:\d+:\d+: ", text), text
    assert where in text and message in text, text


def test_a_lesson_for_other_editions_is_left_out(rules: Rules, tmp_path: Path) -> None:
    """As the build leaves out a scenario written for other editions: other definitions still build."""
    (tmp_path / "a.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "b.yaml").write_text(GOOD.replace("ruleset: [v8.1, v8.2]", "ruleset: v9.9"), encoding="utf-8")
    assert [stem for stem, _ in load_lessons(rules, tmp_path)] == ["a"]


def test_the_build_step_writes_the_page_and_every_lesson(rules: Rules, tmp_path: Path) -> None:
    from blackpoker.pipeline.build import STEPS
    step = next(s for s in STEPS if s.name == "tutorial")
    assert step.run is not None and "tutorial" in step.inputs
    files, detail = step.run(Path("definitions"), tmp_path)
    assert detail == f"{len(LESSONS)} lessons verified"
    names = {f.relative_to(tmp_path).as_posix() for f in files}
    assert {"play/tutorial.html", "play/tutorial.js", "play/tutorial.css", "play/tutorial/lessons.json"} <= names
    written = json.loads((tmp_path / "play/tutorial/lessons.json").read_text(encoding="utf-8"))
    assert [lesson["id"] for lesson in written] == [p.stem for p in LESSONS]
    page = (tmp_path / "play/tutorial.html").read_text(encoding="utf-8")
    for lesson in written:
        assert f'data-lesson="{lesson["id"]}"' in page and lesson["title"] in page
    assert page.index("<h3>ライト</h3>") < page.index("<h3>ライト + エントリー 20</h3>")


def test_the_page_escapes_what_the_lessons_say(rules: Rules) -> None:
    lesson = {"id": "x", "title": "<script>alert(1)</script>", "level": "ライト"}
    page = render_page(rules, [lesson], {"2.1": {"href": "../common.html#sec-2-1", "title": "<b>"}})
    assert "<script>alert(1)" not in page and "&lt;script&gt;" in page and "<b>" not in page


def test_build_tutorial_refuses_a_broken_lesson_and_writes_nothing(rules: Rules, tmp_path: Path) -> None:
    folder = tmp_path / "lessons"
    folder.mkdir()
    (folder / "bad.yaml").write_text(GOOD.replace("keys: [D3]}", "keys: [S9]}"), encoding="utf-8")
    with pytest.raises(DefinitionErrors, match=r"tutorial/bad\.yaml:\d+:\d+: steps\[0\]\.move: the rules refuse"):
        build_tutorial(rules, tmp_path / "out", SOURCE, folder)
    assert not (tmp_path / "out").exists()


def test_the_readmes_lesson_is_one_the_build_accepts(rules: Rules, tmp_path: Path) -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    found = re.search(r"```yaml\n(# yaml-language-server: \$schema=\.\./schemas/lesson\.schema\.json\n.*?)```", readme, re.S)
    assert found, "the README shows how to add a lesson"
    (tmp_path / "readme.yaml").write_text(found[1], encoding="utf-8")
    [(stem, lesson)] = load_lessons(rules, tmp_path)
    assert stem == "readme" and lesson.steps[0].mistakes


def test_every_lesson_names_its_schema_for_editors() -> None:
    for path in LESSONS:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first == "# yaml-language-server: $schema=../schemas/lesson.schema.json", path
    settings = json.loads((Path(__file__).resolve().parents[1] / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert settings["yaml.schemas"]["./schemas/lesson.schema.json"] == "tutorial/*.yaml"


def test_the_hub_leads_to_the_tutorial_and_the_play_page(rules: Rules, tmp_path: Path) -> None:
    from blackpoker.render.actionlist.html import build_html
    build_html(rules, tmp_path)
    hub = (tmp_path / "actionlist" / "index.html").read_text(encoding="utf-8")
    assert 'href="../play/tutorial.html">はじめての BlackPoker (チュートリアル)</a>' in hub
    assert 'href="../play/index.html">コンピューターと対戦</a>' in hub


def test_the_play_page_leads_to_the_tutorial(rules: Rules) -> None:
    from blackpoker.pipeline.playpage import render_page as play_page
    page = play_page(rules)
    assert '<a href="tutorial.html">チュートリアル</a></nav>' in page and "はじめての方は" in page
