"""Every error class of the loader and every semantic check, each with a failing fixture and its exact message.

Each case copies the shipped definitions, makes one edit, and expects exactly the listed problems. The
expected line and column are those of a marker in the edited file, found independently of the loader.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from blackpoker import DefinitionErrors, load_rules
from blackpoker.core.paths import DEFINITIONS


@dataclass(frozen=True)
class Expected:
    file: str
    marker: str          # text on the offending line; the column is where it starts
    message: str         # "path: message" (or just "message" for file-level errors)
    occurrence: int = 1  # which occurrence of the marker in the file
    offset: int = 0      # columns from the marker's start to the node


@dataclass(frozen=True)
class Case:
    name: str
    file: str
    old: str
    new: str
    expected: tuple[Expected, ...]
    count: int = 1  # how many occurrences of ``old`` to replace


CASES = [
    Case("enum", "actions.yaml", "    timing: main\n", "    timing: ずっと\n",
         (Expected("actions.yaml", "ずっと", "actions[0].timing: 'ずっと' is not one of 'main', 'quick'"),)),
    Case("required field", "actions.yaml", "    reading: えんど\n    category: 基本\n", "    reading: えんど\n",
         (Expected("actions.yaml", "id: end", "actions[0]: missing required field 'category'"),)),
    Case("unknown field (a typo)", "actions.yaml", "  - id: end\n    name: エンド\n", "  - id: end\n    nmae: エンド\n",
         (Expected("actions.yaml", "id: end", "actions[0]: missing required field 'name'"),
          Expected("actions.yaml", "nmae", "actions[0].nmae: unknown field 'nmae'; expected one of activation_condition, "
                   "category, changed, cost, design_note, effect, flavor, flavor_speaker, formats, group, id, implicit_key, "
                   "introduced, key_card, key_unit, name, note, official_id, reading, speed, story, target, timing, trigger, "
                   "trigger_condition, updated"))),
    Case("type", "ruleset.yaml", "  players: 2\n", "  players: two\n",
         (Expected("ruleset.yaml", "two", "ruleset.players: 'two' is str; expected a whole number"),)),
    Case("pattern", "actions.yaml", "    introduced: v0.2\n", "    introduced: v0.2x\n",
         (Expected("actions.yaml", "v0.2x", "actions[0].introduced: 'v0.2x' is not valid; expected a ruleset version: "
                   "v<major>.<minor>, or ex<major>.<minor>.<patch> for the former extra list."),)),
    Case("format action without formats", "actions.yaml", "    formats: [lite, std, pro, mast]\n\n  - id: draw",
         "\n  - id: draw",
         (Expected("actions.yaml", "id: charge", "actions[1].id: a format action lists 'formats'; frame actions belong in "
                   "frame-actions.yaml", offset=4),)),
    Case("frame action no frame lists", "frames.yaml", ", trap-counter", "",
         (Expected("frame-actions.yaml", "id: trap-counter", "actions[3].id: frame action 'trap-counter' is not listed in "
                   "any frame's actions in frames.yaml", offset=4),
          Expected("frame-actions.yaml", "group: パック", "actions[3].group: 'パック' is not one of '基本', '召喚', '速攻魔法', "
                   "'通常魔法'", occurrence=4, offset=7)), count=3),
    Case("duplicate key", "actions.yaml", "    reading: えんど\n", "    reading: えんど\n    reading: えんど\n",
         (Expected("actions.yaml", "reading", "actions[0].reading: duplicate key 'reading' (first at line 7)", 2),)),
    Case("flow arrow to a missing step", "ruleset.yaml", "      - {from: s16, to: s3}\n", "      - {from: s16, to: s99}\n",
         (Expected("ruleset.yaml", "s99", "flows[0].edges[24].to: no step 's99' in flow 'core-flow'"),)),
    Case("flow step without an arrow", "ruleset.yaml", '      - {id: s16, text: "[16] チャンス移動"}\n',
         '      - {id: s16, text: "[16] チャンス移動"}\n      - {id: s17, text: "[17] 余分"}\n',
         (Expected("ruleset.yaml", "{id: s17,", "flows[0].steps[19]: step 's17' has no arrow in flow 'core-flow'"),)),
    Case("duplicate id", "actions.yaml", "  - id: charge\n", "  - id: end\n",
         (Expected("actions.yaml", "end", "actions[1].id: duplicate action id 'end' (first defined in "
                   "{defs}/actions.yaml at actions[0])", 2),)),
    Case("frame lists an unknown action", "frames.yaml", "    actions: [pack-open]\n", "    actions: [pack-opn]\n",
         (Expected("frames.yaml", "pack-opn", "frames[1].actions[0]: no frame-action with id 'pack-opn'"),)),
    Case("fog placed by no action", "fogs.yaml", "    placed_by: up\n", "    placed_by: upp\n",
         (Expected("fogs.yaml", "upp", "fogs[0].placed_by: no action with id 'upp'"),
          Expected("actions.yaml", "- 対象とした兵士のサイズは、このターンが終わるまでキーカードの数字分加算される",
                   "actions[14].effect: the effect puts its key card in the fog, but no fog in fogs.yaml has placed_by: up"))),
    Case("fog placed by an action without a fog", "fogs.yaml", "    placed_by: up\n", "    placed_by: kill\n",
         (Expected("fogs.yaml", "kill", "fogs[0].placed_by: action 'kill' does not put its key card in the fog"),
          Expected("actions.yaml", "- 対象とした兵士のサイズは、このターンが終わるまでキーカードの数字分加算される",
                   "actions[14].effect: the effect puts its key card in the fog, but no fog "
                   "in fogs.yaml has placed_by: up"))),
    Case("trump enables the wrong action", "trumps.yaml", "    enables: slash\n", "    enables: encourage\n",
         (Expected("trumps.yaml", "encourage", "trumps[0].enables: action 'encourage' must take as key card a soldier "
                   "with <スラッシュ> (the label this trump grants)"),
          Expected("trumps.yaml", "encourage", "trumps[0].enables: action 'encourage' is enabled by more than one trump"),
          Expected("trumps.yaml", "encourage", "trumps[1].enables: action 'encourage' is enabled by more than one trump", 2),
          Expected("frame-actions.yaml", "<スラッシュ>", "actions[7].key_card: no trump in trumps.yaml grants <スラッシュ> "
                   "(enables: slash)"))),
    Case("summon without a character", "characters.yaml", "    summoned_by: [soldier-summon]\n", "    summoned_by: [ace-summon]\n",
         (Expected("characters.yaml", "ace-summon", "characters[0].summoned_by[0]: the effect of 'ace-summon' does not "
                   "make a card 一般兵 ('一般兵として' or '一般兵とする')"),
          Expected("actions.yaml", "category: 召喚", "actions[8].category: a summoning action must be listed in some "
                   "character's summoned_by", 2, offset=10))),
    Case("formats not nested", "actions.yaml", "    formats: [pro, mast]\n", "    formats: [lite, mast]\n",
         (Expected("actions.yaml", "[lite, mast]", "actions[11].formats: formats must be nested (lite ⊂ std ⊂ pro ⊂ mast): "
                   "an entry in ライト is in every later format, expected [lite, std, pro, mast], or declare it in "
                   "formats.yaml nesting_exceptions"),)),
    Case("frame setup speaks of an unsupported format", "rulings.yaml", "    applies_to: [frame:pack]\n",
         "    applies_to: [frame:rarepack]\n",
         (Expected("frames.yaml", "フォーマットがライト", "frames[1].setup[3]: the setup speaks of format ライト, which frame "
                   "'pack' does not support; fix it or add a ruling for 'frame:pack' about ライト in rulings.yaml"),)),
    Case("key card that does not parse", "actions.yaml", "    key_card: 2~10\n", "    key_card: 2-10\n",
         (Expected("actions.yaml", "2-10", "actions[8].key_card: key card does not parse: '2-10' is not a key-card term; "
                   "expected e.g. '2~10', '♡A~10', '♠A~10 を2枚', 'Joker', 'A と J', '同じスートを2枚', '同じ数字を2枚', "
                   "'同じスートの A,10~K を5枚' or '<ラベル> を持つ兵士1体'"),)),
    Case("key card not canonical", "actions.yaml", "    key_card: ♡A~10\n", "    key_card: ♡A~10 を1枚\n",
         (Expected("actions.yaml", "♡A~10 を1枚", "actions[14].key_card: key card '♡A~10 を1枚' is not written canonically; "
                   "expected '♡A~10'"),)),
    Case("unknown target phrase", "actions.yaml", "    target: 兵士1体\n", "    target: 兵隊1体\n",
         (Expected("actions.yaml", "兵隊1体", "actions[14].target: '兵隊1体' is not a known target phrase; expected one of "
                   "'兵士1体', 'キャラクター1体', '防壁1体', '自分のキャラクター1体', 'キーカードとスートが等しい自分の兵士1体', "
                   "'対戦相手1人', 'プレイヤー1人', 'キーカードが1枚または2枚のリクエスト', 'ダメージ判定アクションのリクエスト', "
                   "'対象が指定されているリクエスト', '切札1枚'"),)),
    Case("versions out of order", "actions.yaml", "    introduced: v3.0\n    updated: [v8.0]\n",
         "    introduced: v3.0\n    updated: [v2.0]\n",
         (Expected("actions.yaml", "v2.0]", "actions[8].updated[0]: version v2.0 does not come after v3.0"),)),
    Case("version newer than the ruleset", "actions.yaml", "    introduced: v0.2\n    updated: [v8.0]\n",
         "    introduced: v0.2\n    updated: [v9.0]\n",
         (Expected("actions.yaml", "v9.0]", "actions[0].updated[0]: version v9.0 is newer than the ruleset (v8.1)"),)),
    Case("no action passes the turn", "actions.yaml", "対戦相手にターンを渡す。", "対戦相手にターンを任せる。",
         tuple(Expected("formats.yaml", f"{{id: {f}", f"formats[{i}]: format {n} has no action that passes the turn "
                        "(ターンを渡す); the core rules need one")
               for i, (f, n) in enumerate([("lite", "ライト"), ("std", "スタンダード"), ("pro", "プロ"), ("mast", "マスター")]))),
    Case("triggered action without a condition", "actions.yaml",
         "    trigger_condition: ターンプレイヤーかつ、エンドアクションが解決した時に誘発する。\n", "",
         (Expected("actions.yaml", "triggered", "actions[1].trigger: a triggered action needs a 誘発条件 "
                   "(trigger_condition), or a ruling in rulings.yaml that applies to 'action:charge'"),)),
    Case("deck text and cards disagree", "frames.yaml", "20枚のデッキ", "21枚のデッキ",
         (Expected("frames.yaml", "[SA", "frames[0].deck.cards: the text says 21 枚 but the structure says 20"),)),
    Case("ruling applies to nothing", "rulings.yaml", "    applies_to: [action:equip]\n", "    applies_to: [action:equipp]\n",
         (Expected("rulings.yaml", "action:equipp", "rulings[15].applies_to[0]: no action with id 'equipp'"),)),
]


def _position(path: Path, marker: str, occurrence: int) -> tuple[int, int]:
    seen = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(keepends=True), start=1):
        column = line.find(marker.rstrip("\n")) if "\n" not in marker.rstrip("\n") else -1
        if column >= 0 and (not marker.endswith("\n") or line.endswith(marker)):
            seen += 1
            if seen == occurrence:
                return number, column + 1
    raise AssertionError(f"marker {marker!r} (#{occurrence}) not found in {path}")


@pytest.fixture
def defs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    target = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, target)
    monkeypatch.chdir(tmp_path)
    return target


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_problem_is_reported_exactly(case: Case, defs: Path) -> None:
    path = defs / case.file
    text = path.read_text(encoding="utf-8")
    assert case.old in text, f"fixture out of date: {case.old!r} not in {case.file}"
    path.write_text(text.replace(case.old, case.new, case.count), encoding="utf-8")

    with pytest.raises(DefinitionErrors) as raised:
        load_rules(defs)

    expected = []
    for e in case.expected:
        line, column = _position(defs / e.file, e.marker, e.occurrence)
        expected.append(f"defs/{e.file}:{line}:{column + e.offset}: " + e.message.format(defs="defs"))
    assert sorted(str(err) for err in raised.value.errors) == sorted(expected)


def test_yaml_syntax_error_is_located(defs: Path) -> None:
    path = defs / "actions.yaml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[10] = "    trigger: [direct\n"  # an unclosed flow sequence on line 11
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(DefinitionErrors) as raised:
        load_rules(defs)
    (error,) = raised.value.errors
    assert (error.file, error.line) == ("defs/actions.yaml", 12)
    assert error.message.startswith("YAML syntax error: while parsing a flow sequence: did not find expected ',' or ']'")


def test_missing_file_and_missing_folder(defs: Path, tmp_path: Path) -> None:
    (defs / "trumps.yaml").unlink()
    with pytest.raises(DefinitionErrors) as raised:
        load_rules(defs)
    assert [str(e) for e in raised.value.errors] == [
        "defs/trumps.yaml:1:1: missing file; expected trumps.yaml in defs"]
    with pytest.raises(DefinitionErrors) as raised:
        load_rules(tmp_path / "nowhere")
    assert "no such definitions folder" in str(raised.value)


def test_every_problem_is_reported_not_only_the_first(defs: Path) -> None:
    for name, old, new in (("actions.yaml", "    timing: main\n", "    timing: ずっと\n"),
                           ("fogs.yaml", "    category: 滞留魔法\n", "    category: 魔法\n"),
                           ("frames.yaml", "    formats: [lite]\n", "    formats: [lite, extra]\n")):
        path = defs / name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DefinitionErrors) as raised:
        load_rules(defs)
    assert {e.file for e in raised.value.errors} == {"defs/actions.yaml", "defs/fogs.yaml", "defs/frames.yaml"}
    assert len(raised.value.errors) == 3



def test_a_file_linked_from_outside_the_folder_is_refused_unread(defs: Path, tmp_path: Path) -> None:
    """A definitions file that is a link out of the folder is never read or echoed (issue 13, item 10)."""
    secret = tmp_path / "secret.txt"
    secret.write_text("root:SECRET-HASH:19000:0:99999:7:::\n", encoding="utf-8")
    (defs / "fogs.yaml").unlink()
    (defs / "fogs.yaml").symlink_to(secret)
    result = subprocess.run([sys.executable, "-m", "blackpoker", "check", "defs"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "defs/fogs.yaml:1:1: is a link to a file outside its folder" in result.stderr
    assert "SECRET" not in result.stderr + result.stdout


def test_a_huge_bad_value_is_quoted_as_a_short_excerpt(defs: Path) -> None:
    path = defs / "actions.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("    timing: main\n", "    timing: " + "ず" * 100_000 + "\n", 1), encoding="utf-8")
    with pytest.raises(DefinitionErrors) as raised:
        load_rules(defs)
    message = str(raised.value.errors[0])
    assert "is not one of 'main', 'quick'" in message and len(message) < 300
