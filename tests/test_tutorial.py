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

from blackpoker.core.cards import Card
from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.loader import load_rules
from blackpoker.core.model import Rules
from blackpoker.core.paths import SOURCE, TUTORIAL
from blackpoker.pipeline.tutorialpage import build_tutorial, lesson_data, render_page, section_links
from blackpoker.play.browser import final_state
from blackpoker.play.tutorial import Tutorial, run, section_of
from blackpoker.sim.decisions import Pass
from blackpoker.sim.engine import apply, legal_decisions
from blackpoker.sim.scenario import load_lesson
from blackpoker.sim.scenario.lesson import Mistake, load_lessons

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


def picks_of(keys: tuple[Card, ...], key_character: int | None) -> list[str]:
    """Key cards as the page names what the learner picked: a hand card by its code, a character by its place."""
    return [c.code for c in keys] + ([] if key_character is None else [f"field:{key_character}"])


def try_mistake(tutorial: Tutorial, mistake: Mistake) -> dict[str, Any]:
    """A listed mistake tried as a learner tries it on the page: its key cards and action, then, for one written
    with its payment and targets, those chosen one by one (the page's ``lesson-request``)."""
    picks = picks_of(mistake.keys, mistake.key_character)
    if mistake.request is None:
        return tutorial.attempt(mistake.action_id, picks)
    pay, made = mistake.request.payment, mistake.request
    chosen = {"bulwarks": [f"character:{u}" for u in pay.bulwarks], "discards": [f"card:{c.code}" for c in pay.discards],
              "sacrifices": [f"character:{u}" for u in pay.sacrifices],
              "targets": [f"{t.kind}:{t.ref}" for t in made.targets]}
    offered = tutorial.attempt(mistake.action_id, picks)
    if offered["kind"] == "variants":  # every choice the page offers in the slots the rules ask for
        options = {slot["slot"]: {o["choice"] for o in slot["options"]} for slot in offered["slots"]}
        for slot, choices in chosen.items():
            assert set(choices) <= options.get(slot, set()), (slot, choices, options)
    return tutorial.request(mistake.action_id, picks, chosen)


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
            result = try_mistake(tutorial, mistake)
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
    ("{request: 兵士召喚, keys: [S5], refusal: コスト B}", "{request: 防壁設置, keys: [D3], cost: {}, refusal: コスト}",
     "steps[0].mistakes[0]", "the rules allow this move here"),
    ("{request: 兵士召喚, keys: [S5], refusal: コスト B}", "{request: 兵士召喚, key_soldier: \"A:S5\", refusal: コスト B}",
     "steps[0].mistakes[0].key_soldier", "no character with ♠5 on A's field"),
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


# --- any of the learner's cards, any payment, any target -----------------------------------------------------------
def test_a_card_on_the_field_can_be_tried_as_a_key_card(rules: Rules, lessons: dict[str, dict[str, Any]]) -> None:
    """The learner's soldiers (not the opponent's) are offered as key cards beside the hand; one tried with a hand
    action is refused with the engine's own text, its section and the action's entry in the list."""
    links = section_links(SOURCE)
    tutorial = Tutorial(rules, lessons["05-attack-block"])
    cards = tutorial.view()["cards"]
    assert [(c["zone"], c["text"]) for c in cards] == [("場", "Aの一般兵[♠4](チャージ)"), ("場", "Aの一般兵[♠9](チャージ)")]
    before = final_state(tutorial.state)
    result = tutorial.attempt("soldier-summon", [cards[0]["pick"]])
    assert result == {"kind": "refused", "rule": "2.10.1: 「兵士召喚」のキーカードは手札から選びます(場のキャラクターではありません)",
                      "section": "2.10.1", "action": "兵士召喚", "entry": "../actionlist/html/all.html#act-soldier-summon"}
    assert result["section"] in links and final_state(tutorial.state) == before
    # every card of the learner's with every action of the regulation gets the rules' answer
    for card in cards + [{"pick": c["code"]} for c in tutorial.view()["hand"]]:
        for action in tutorial.view()["actions"]:
            fresh = Tutorial(rules, lessons["05-attack-block"])
            answer = fresh.attempt(action["id"], [card["pick"]])
            assert answer["kind"] in {"refused", "variants", "other"}, answer
            if answer["kind"] == "refused":
                assert answer["rule"] and answer["section"] in links and answer["action"] == action["name"], answer


EXTRA = """\
title: スラッシュ
section: "5.3.2"
ruleset: [v8.1, v8.2]
format: mast
frame: extra
goal: 兵士起因のアクション
start:
  turn: A
  players:
    A:
      hand: [H8]
      trumps:
        - {card: S2, face_up: true}
      field:
        - {cards: [S5]}
        - {cards: [S3]}
        - {cards: [H6]}
    B:
      field:
        - {cards: [D4]}
        - {cards: [D7]}
steps:
  - say: ♠5 で「スラッシュ」
    hint: ♠5 で「スラッシュ」、対象は ◇4
    move: {player: A, request: スラッシュ, key_soldier: "A:S5", targets: ["B:D4"]}
done: できました
"""


def test_soldiers_trumps_and_hand_cards_as_key_cards_of_a_soldier_action(rules: Rules, tmp_path: Path) -> None:
    """エクストラ: a 兵士起因 action takes one soldier of the learner's field; two soldiers, a soldier without its
    label, a trump or a hand card are refused with the rules' text; the key soldier then needs its target."""
    (tmp_path / "extra.yaml").write_text(EXTRA, encoding="utf-8")
    [(stem, lesson)] = load_lessons(rules, tmp_path)
    data = json.loads(json.dumps(lesson_data(stem, lesson), ensure_ascii=False))
    tutorial = Tutorial(rules, data)
    picks = {c["text"]: c["pick"] for c in tutorial.view()["cards"]}
    assert set(picks) == {"Aの一般兵[♠5](チャージ)", "Aの一般兵[♠3](チャージ)", "Aの一般兵[♡6](チャージ)", "♠2(表)"}
    s5, s3, h6, trump = (picks[t] for t in ("Aの一般兵[♠5](チャージ)", "Aの一般兵[♠3](チャージ)", "Aの一般兵[♡6](チャージ)", "♠2(表)"))
    refusals = {
        (s5, s3): "2.10.1: 「スラッシュ」のキーカードは「<スラッシュ> を持つ兵士1体」です(場の兵士は1体だけ選びます)",
        (h6,): "2.10.1: キーカードは「<スラッシュ> を持つ兵士1体」(チャージ状態、コスト K でドライブ)を満たす自分の兵士です",
        (trump,): "2.10.1: 「スラッシュ」のキーカードは場の兵士です(手札や切札のカードではありません)",
        ("H8",): "2.10.1: 「スラッシュ」のキーカードは場の兵士です(手札や切札のカードではありません)",
    }
    for chosen, rule in refusals.items():
        result = tutorial.attempt("slash", list(chosen))
        assert result["kind"] == "refused" and result["rule"] == rule and result["section"] == "2.10.1", result
    result = tutorial.attempt("soldier-summon", [trump])
    assert result["kind"] == "refused" and result["rule"] == "2.10.3: キーカード ♠2 は手札にありません"
    offered = tutorial.attempt("slash", [s5])
    assert offered["kind"] == "variants" and [s["slot"] for s in offered["slots"]] == ["targets"]
    texts = {o["text"]: o["choice"] for o in offered["slots"][0]["options"]}
    assert {"Bの一般兵[◇4](チャージ)", "Bの一般兵[◇7](チャージ)", "プレイヤー B", "Aの切札[♠2]"} <= set(texts)
    wrong = tutorial.request("slash", [s5], {"targets": [texts["プレイヤー B"]]})
    assert wrong["kind"] == "refused" and wrong["rule"].startswith("2.10.3: 対象は「"), wrong
    assert tutorial.request("slash", [s5], {"targets": [texts["Bの一般兵[◇4](チャージ)"]]})["kind"] == "ok"
    assert tutorial.done


def test_a_payment_and_a_target_the_rules_forbid_are_refused_one_by_one(rules: Rules,
                                                                         lessons: dict[str, dict[str, Any]]) -> None:
    """カウンター (cost D, a request as its target): the page offers every hand card to discard and everything to
    target; each wrong choice gets the refusal that names its rule, and the lesson's choice goes on."""
    links = section_links(SOURCE)
    tutorial = Tutorial(rules, lessons["07-quick-magic"])
    offered = tutorial.attempt("counter", ["C9"])
    assert offered["kind"] == "variants" and len(offered["moves"]) == 2, offered  # ◇2 or ♠5 to discard
    slots = {s["slot"]: {o["text"]: o["choice"] for o in s["options"]} for s in offered["slots"]}
    assert set(slots) == {"discards", "targets"}
    assert set(slots["discards"]) == {"♣9", "◇2", "♠5"}, "the key card too: the rules say why not"
    assert {"ステージの「兵士召喚」", "プレイヤー A", "プレイヤー B", "Aの防壁[♡6](チャージ・裏)"} <= set(slots["targets"])
    assert "Bの防壁[伏せ](ドライブ・裏)" in slots["targets"], "the opponent's face-down bulwark stays hidden"
    stage = slots["targets"]["ステージの「兵士召喚」"]
    cases = [
        ({"discards": [slots["discards"]["♣9"]], "targets": [stage]}, "2.10.3: ♣9 は手札にありません(キーカードとコストは別のカードです)"),
        ({"targets": [stage]}, "2.10.2: コスト D として手札を 1 枚捨てる必要があります"),
        ({"discards": [slots["discards"]["◇2"], slots["discards"]["♠5"]], "targets": [stage]}, "2.10.2: コスト D として手札を 1 枚"),
        ({"discards": [slots["discards"]["◇2"]], "targets": [slots["targets"]["プレイヤー B"]]}, "2.10.3: 対象は「"),
        ({"discards": [slots["discards"]["◇2"]]}, "2.10.3: 対象は「"),
    ]
    before = final_state(tutorial.state)
    for chosen, rule in cases:
        result = tutorial.request("counter", ["C9"], chosen)
        assert result["kind"] == "refused" and result["rule"].startswith(rule), (chosen, result)
        assert result["section"] in links and result["entry"] == "../actionlist/html/all.html#act-counter"
        assert final_state(tutorial.state) == before, "a refused move changes nothing"
    other = tutorial.request("counter", ["C9"], {"discards": [slots["discards"]["♠5"]], "targets": [stage]})
    assert other["kind"] == "other" and "◇2" in other["hint"], "legal, but not the lesson's: the hint"
    assert tutorial.request("counter", ["C9"], {"discards": [slots["discards"]["◇2"]], "targets": [stage]})["kind"] == "ok"


def test_a_cost_with_one_legal_payment_can_still_be_paid_wrongly(rules: Rules, lessons: dict[str, dict[str, Any]]) -> None:
    """兵士召喚 with two bulwarks to drive from: paying with both is refused (2.10.2), not silently corrected."""
    tutorial = Tutorial(rules, lessons["03-summon"])
    offered = tutorial.attempt("soldier-summon", ["S5"])
    [slot] = offered["slots"]
    assert slot["slot"] == "bulwarks" and slot["count"] == 1 and slot["label"] == "コスト B: ドライブする防壁を1体"
    both = [o["choice"] for o in slot["options"]]
    result = tutorial.request("soldier-summon", ["S5"], {"bulwarks": both})
    assert result["kind"] == "refused" and result["rule"].startswith("2.10.2: コスト B を 1 回支払う必要があります")


# --- blackpoker check plays the lessons --------------------------------------------------------------------------
def test_check_plays_every_lesson() -> None:
    from clirun import run_cli
    result = run_cli("check", cwd=Path(__file__).resolve().parents[1])
    assert result.returncode == 0, result.stderr
    assert result.stdout.rstrip().endswith(f"| tutorial: {len(LESSONS)} lessons played"), result.stdout


def test_check_stops_at_a_broken_lesson_with_its_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A lesson the rules refuse is a located error of ``check`` (exit 2, no traceback), as it is of the build."""
    from click.testing import CliRunner

    from blackpoker.cli.main import cli
    from blackpoker.core import paths
    (tmp_path / "good.yaml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "bad.yaml").write_text(GOOD.replace("refusal: コスト B}", "refusal: 対象}"), encoding="utf-8")
    monkeypatch.setattr(paths, "TUTORIAL", tmp_path)
    outcome = CliRunner().invoke(cli, ["check"])
    assert outcome.exit_code == 2, outcome.output
    assert outcome.stdout == ""
    line, column = next((i, text.index("refusal: ") + len("refusal: ") + 1)
                        for i, text in enumerate(GOOD.splitlines(), 1) if "refusal: コスト B}" in text)
    assert outcome.stderr.splitlines() == [
        f"tutorial/bad.yaml:{line}:{column}: steps[0].mistakes[0].refusal: the engine refuses it with '2.10.2: コスト B を 1 回"
        "支払う必要があります(自分のチャージ状態の防壁をドライブ)'; expected a refusal containing '対象'",
        "1 problem found in the definitions.",
    ], outcome.stderr
    assert "Traceback" not in outcome.stderr
    (tmp_path / "bad.yaml").unlink()
    assert CliRunner().invoke(cli, ["check"]).stdout.rstrip().endswith("| tutorial: 1 lessons played")


RARE = """\
title: レア召喚
section: "5.3.2"
ruleset: [v8.1, v8.2]
format: pro
frame: rarepack
goal: レアカードを召喚する
start:
  turn: B
  chance: A
  players:
    A:
      hand: [C4]
      rare: [H9]
      field:
        - {cards: [S3]}
        - {cards: [D6], kind: bulwark}
steps:
  - say: ♡9 を「レア召喚」
    hint: レアカードの ♡9 で「レア召喚」、♠3 を墓地に
    move: {player: A, request: レア召喚, keys: [H9], cost: {sacrifice: ["A:S3"]}}
done: できました
"""


def test_the_rare_card_as_a_key_card_and_a_sacrifice_chosen_wrongly(rules: Rules, tmp_path: Path) -> None:
    """レアパック: the rare card is offered beside the field; a hand card as the key of レア召喚 is refused with the
    ruling named in Japanese (its title, not its id); two characters for one S are refused (2.10.2)."""
    (tmp_path / "rare.yaml").write_text(RARE, encoding="utf-8")
    [(stem, lesson)] = load_lessons(rules, tmp_path)
    tutorial = Tutorial(rules, json.loads(json.dumps(lesson_data(stem, lesson), ensure_ascii=False)))
    cards = {c["text"]: c for c in tutorial.view()["cards"]}
    assert cards["♡9"]["zone"] == "レアカード" and set(cards) == {"♡9", "Aの一般兵[♠3](チャージ)", "Aの防壁[◇6](チャージ・裏)"}
    refused = tutorial.attempt("rare-summon", ["C4"])
    assert refused["rule"] == ("2.10.1: 「レア召喚」のキーカードは自分のレアカード1枚です"
                               "(裁定「レア召喚と罠カウンターのキーカード」)"), refused
    refused = tutorial.attempt("rare-summon", [cards["Aの防壁[◇6](チャージ・裏)"]["pick"]])
    assert refused["rule"] == "2.10.1: 「レア召喚」のキーカードは自分のレアカードから選びます(場のキャラクターではありません)"
    rare = cards["♡9"]["pick"]
    offered = tutorial.attempt("rare-summon", [rare])
    [slot] = offered["slots"]
    assert slot["slot"] == "sacrifices" and slot["label"] == "コスト S: 墓地に移すキャラクターを1体"
    choice = {o["text"]: o["choice"] for o in slot["options"]}
    both = tutorial.request("rare-summon", [rare], {"sacrifices": list(choice.values())})
    assert both["kind"] == "refused" and both["rule"].startswith("2.10.2: コスト S として自分のキャラクターを 1 体"), both
    done = tutorial.request("rare-summon", [rare], {"sacrifices": [choice["Aの一般兵[♠3](チャージ)"]]})
    assert done["kind"] == "ok" and tutorial.done


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_try_the_page_offers_is_answered_with_a_section_the_rulebook_has(
        rules: Rules, lessons: dict[str, dict[str, Any]], path: Path) -> None:
    """At each lesson's first move: no card, each hand card and each other card of the learner's, with each action;
    then, where a payment or target is asked, each choice alone (and none): every refusal names a rulebook section."""
    links = section_links(SOURCE)
    lesson = lessons[path.stem]
    view = Tutorial(rules, lesson).view()
    if view["question"]:
        pytest.skip("the lesson opens with a question: its answers are the only moves")
    picks = [[], *([c["code"]] for c in view["hand"]), *([c["pick"]] for c in view["cards"])]
    refused = 0
    for pick in picks:
        for action in view["actions"]:
            result = Tutorial(rules, lesson).attempt(action["id"], pick)
            answers = [result]
            if result["kind"] == "variants":
                answers += [Tutorial(rules, lesson).request(action["id"], pick, {slot["slot"]: [o["choice"]] if o else []})
                            for slot in result["slots"] for o in [*slot["options"], None]]
            for answer in answers:
                assert answer["kind"] in {"refused", "variants", "other", "ok"}, answer
                if answer["kind"] == "refused":
                    assert answer["section"] in links and answer["rule"].startswith(answer["section"] + ": "), answer
                    refused += 1
    assert refused
