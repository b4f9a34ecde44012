"""``blackpoker import``: the official files (fixtures in their layout under tests/data/official/, written for
these tests) become definitions that load and pass the checks; every field has a place, every quirk is read,
every problem is located in the official file."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from blackpoker.core import model as m
from blackpoker.core.kinds import official_anchors, official_id
from blackpoker.core.loader import FILES, load_rules
from blackpoker.core.paths import DEFINITIONS
from blackpoker.core.targets import TARGETS
from blackpoker.official.fields import (
    ACTION_FIELDS,
    CHARACTER_FIELDS,
    FOG_FIELDS,
    FRAME_FIELDS,
    HEADER_KEYS,
    TRUMP_FIELDS,
)
from blackpoker.official.importer import definitions_texts, import_official
from blackpoker.official.reader import read_official
from clirun import run_cli

OFFICIAL = Path(__file__).parent / "data" / "official"


def convert(folder: Path, out: Path) -> tuple[m.Rules, list[str]]:
    """Import ``folder`` into ``out`` as the command does (without its folder swap) and load the result."""
    official, problems = read_official(folder)
    assert problems == []
    result = import_official(official, DEFINITIONS)
    assert [str(e) for e in result.errors] == []
    out.mkdir(parents=True)
    for name, text in definitions_texts(result).items():
        (out / name).write_text(text, encoding="utf-8")
    for ours, source in result.pictures.items():
        (out / ours).parent.mkdir(parents=True, exist_ok=True)
        (out / ours).write_bytes(source.read_bytes())
    return load_rules(out), result.notes


def overlay(tmp_path: Path, quirk: str) -> Path:
    """The minimal fixture with a quirk fixture's files in place of its own."""
    folder = tmp_path / "official"
    shutil.copytree(OFFICIAL / "minimal", folder)
    for path in (OFFICIAL / "quirks" / quirk).iterdir():
        shutil.copy(path, folder / path.name)
    return folder


@pytest.fixture
def full(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[m.Rules, list[str]]:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(OFFICIAL / "full", tmp_path / "full")
    return convert(Path("full"), Path("defs"))


# --- every field ------------------------------------------------------------------------------------

def _keys(data: Any) -> set[str]:
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in _keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in _keys(v)}
    return set()


def test_the_full_fixture_uses_every_official_field() -> None:
    """So the tests below see every field: the fixture holds each field the importer knows, in each kind."""
    act = yaml.safe_load((OFFICIAL / "full" / "act.yaml").read_text(encoding="utf-8"))
    frame_file = yaml.safe_load((OFFICIAL / "full" / "act-frame.yaml").read_text(encoding="utf-8"))
    frames = yaml.safe_load((OFFICIAL / "full" / "frame.yaml").read_text(encoding="utf-8"))
    actions = [a for d in (act, frame_file) for g in d["actList"] for a in g["acts"]]
    characters = [c for d in (act, frame_file) for g in d["charList"] for c in g["chars"]]
    fogs = [f for d in (act, frame_file) for g in d["fogList"] for f in g["fogs"]]
    trumps = [t for g in frame_file["trumpList"] for t in g["trumps"]]
    assert _keys(actions) == set(ACTION_FIELDS)
    assert _keys(characters) == set(CHARACTER_FIELDS)
    assert _keys(fogs) == set(FOG_FIELDS)
    assert _keys(trumps) == set(TRUMP_FIELDS)
    assert set().union(*(set(f) for f in frames["frames"])) == set(FRAME_FIELDS)
    assert set(act["data"]) == set(frame_file["data"]) == set(HEADER_KEYS)
    assert set(frame_file["trumpData"]) == {"description", "devNote"}


def test_every_official_field_lands_in_the_model(full: tuple[m.Rules, list[str]]) -> None:
    rules, _notes = full
    ed = rules.edition
    assert (ed.version, ed.edition, ed.release, ed.released) == ("v9.0", "第9.0版", "2026/04/13", "2026-04-13")
    headers = dict(ed.official)
    assert set(headers) == {"act", "act_frame"}  # frame.yaml's and version.json's say only the edition and date
    assert dict(headers["act_frame"])["ver"] == "第9.0版 フレーム編"
    assert dict(headers["act"])["qrMast"] == "qr_v9-mast.pdf" and dict(headers["act"])["pdfurl_lite"] == "/pdf/blackpoker-v9-lite"

    draw = rules.action("draw")
    assert (draw.reading, draw.category, draw.group, draw.trigger, draw.speed, draw.timing) == (
        "どろー", "基本", "基本", m.Trigger.TRIGGERED, m.Speed.NORMAL, m.Timing.MAIN)
    assert draw.trigger_condition == "ターンプレイヤーであり、かつ、エンドアクションが解決した時に誘発する。"
    assert (draw.story, draw.flavor, draw.flavor_speaker) == ("夜明けとともに、兵は次の札を引く。", "「さあ、もう一枚だ。」", "見習い兵士")
    assert (draw.introduced, draw.updated, draw.changed, rules.is_changed(draw)) == ("v4.0", ("v8.0", "v9.0"), None, True)
    assert draw.design_note == "v9.0: ライフが2以下の場合はカードを1枚引くように修正。"
    assert draw.effect == (
        "ライフの一番上からカードを引く。",
        m.TextList("numbered", (
            m.ListItem("ライフが3以上の場合、次を行う。", (m.TextList("lettered", (
                m.ListItem("カードを2枚引き、手札に加える。"), m.ListItem("手札を1枚捨てる。"))),)),
            m.ListItem("ライフが2以下の場合、カードを1枚引き、手札に加える。"))),
        "---",
        m.TextList("bulleted", (m.ListItem("この効果は1ターンに1回まで。"),)))

    up = rules.action("up")
    assert (up.category, up.group, up.formats, up.cost, up.key_card, up.target) == (
        "魔法", "中級魔法", ("std", "pro", "mast"), ("D",), "♡A~10", "兵士1体")
    assert up.note == "このアクションのキーカードはフォグに置かれる。"
    assert up.activation_condition == "自分の場に兵士がいる場合のみこのアクションを起こすことができる。"
    # updated in this edition without the official mark: not marked, as the official files say
    assert (up.updated, up.changed, rules.is_changed(up)) == (("v8.1", "v9.0"), False, False)
    counter = rules.action("counterattack")
    assert (counter.formats, counter.changed, rules.is_changed(counter)) == (("pro", "mast"), True, True)
    twins = rules.action("summon-twins")
    assert (twins.key_card, twins.cost, official_id(twins)) == ("◇2~10 を2枚", ("B", "L"), "summonTwins")

    slash = rules.action("slash")
    assert (slash.key_unit, slash.cost, slash.key_card, slash.frames) == ("<スラッシュ> を持つ兵士1体", ("C",), None, ("extra",))
    assert slash.introduced == "ex3.4.0" and slash.design_note == "v9.0: コストを軽減し使いやすく修正。"
    rare = rules.action("rare-summon")
    assert (rare.implicit_key, rare.cost, rare.frames, rare.reading) == ("rare", ("S",), ("rarepack", "extra"), "れあしょうかん")
    assert rare.note == "このアクションが起こされた時、キーカード(レアカード)はステージ上に置かれ完全公開となる。"
    assert rules.action("pack-open").frames == ("pack", "rarepack", "extra")
    assert rules.cost_type("C").payment == "キーユニットをドライブする"

    soldier = rules.character("soldier")
    assert (soldier.key_card, soldier.size, soldier.note, soldier.introduced) == ("2~10", "キーカードの数字", "表向きで場に出す。", "v1.0")
    assert soldier.labels == (m.Label("攻撃"), m.Label("防御"), m.Label("速攻", "キーカードに A が含まれる場合のみ"))
    assert soldier.abilities == (m.Ability("行軍", "このキャラクターはチャージ状態で場に出る。"),
                                 m.Ability("", "装備アクションの対象にできる。"))
    assert soldier.summoned_by == ("soldier-summon", "rare-summon")
    assert (soldier.story, soldier.flavor, soldier.flavor_speaker, soldier.design_note) == (
        "どこにでもいる、けれど誰よりも頼れる兵。", "「命令を。」", "一般兵", "v9.0: ラベルの名前を変更。")
    assert (soldier.changed, rules.is_changed(soldier), soldier.group) == (None, True, None)
    lord = rules.character("darklord")
    assert (lord.key_card, lord.size, lord.formats, lord.frames, lord.group) == ("♠K と ♣K", "26", (), ("extra",), "切札♠K 魔王")
    assert lord.design_note == "・2枚で1体の兵士として扱う。" and lord.summoned_by == ("summon-dark-lord",)
    assert {"攻撃", "防御", "速攻"} <= set(rules.labels)

    fog = rules.fog("up")
    assert (fog.placed_by, fog.key_card, fog.formats, fog.target) == (
        "up", "♡A~10", ("std", "pro", "mast"), "アップアクションで対象となった兵士")
    assert (fog.story, fog.flavor, fog.flavor_speaker, fog.design_note, fog.updated) == (
        "一時の力は、一時で消える。", "「今だけだぞ。」", "魔術士見習い", "v9.0: 対象の書き方を統一。", ("v9.0",))
    assert official_id(fog) == "upFog" and rules.fog("close").frames == ("extra",)

    s2 = rules.trump("s2")
    assert (s2.category, s2.group, s2.key_card, s2.grants_label, s2.enables) == ("表切札", "切札♠2 スラッシュ", "♠2", "スラッシュ", None)
    assert s2.ability == "自分の場にいる♠の兵士は <スラッシュ> を持つ。"
    assert (s2.story, s2.flavor, s2.flavor_speaker, s2.design_note) == (
        "剣の二は、迷いを断つ。", "「一閃。」", "剣士", "「立ち上がる兵」で追加された。")
    assert s2.image is not None and s2.image.path == "images/tarot/swords-02.png"
    assert s2.image.data == (OFFICIAL / "full" / "images" / "tarot" / "swords-02.png").read_bytes()
    king = rules.trump("s-k")
    assert (official_id(king), king.ability, king.frames) == ("sK", "なし", ("extra",))
    assert "trump-sK" in official_anchors(king)
    assert rules.trump("secret-trump").category == "裏切札"
    assert rules.trump_about == m.TrumpAbout(
        "切札は、ゲームにさらなる戦略性をもたらす拡張要素です。\n\nそれぞれの切札にはスートと数字に応じた能力があります。",
        "* ex3.4.0 第一弾(♠2：スラッシュ)\n* v8.2: 過去の切札を移植")

    entry = rules.frame("entry16")
    assert (entry.reading, entry.formats, entry.zones) == ("えんとりーじゅうろく", ("lite",), ("life", "graveyard", "field", "hand", "fog"))
    assert entry.deck == m.DeckCondition("次のカードのみで構成された16枚のデッキを使う", (
        "SA", "S2", "S3", "S4", "HA", "H8", "H9", "H10", "DA", "D3", "D7", "D10", "CA", "C5", "C6", "C10"))
    assert entry.setup == ("デッキをライフとし配置図の場所に伏せておく。", "ライフの一番上のカードを防壁として場に出す。（プリセット）")
    assert entry.setup_continues == "以降は、共通ルールの配置準備に沿ってゲームを開始します。"
    assert entry.image is not None and entry.image.path == "images/entry16.png"
    rare_pack = rules.frame("rarepack")
    assert (official_id(rare_pack), rare_pack.inherits, rare_pack.deck) == ("rarePack", "pack", m.DeckCondition("40枚以上", (), 40))
    assert rare_pack.disclosure == (m.Disclosure("pack", "開封済み・未開封", "開封後のパックの中身", "未開封のパックの中身"),
                                    m.Disclosure("rare", "レアカードの枚数", "レアカードの中身", "なし"))
    extra = rules.frame("extra")
    assert (extra.inherits, extra.characters, extra.trumps, extra.fogs) == (
        "rarepack", ("darklord",), ("s2", "s-k", "secret-trump"), ("close",))
    assert extra.zones[-3:] == ("pack", "rare", "trump")
    assert rules.action_groups == ("基本", "召喚", "中級魔法")
    assert rules.frame_action_groups == ("パック操作", "レアカード操作", "切札操作", "切札♠2 スラッシュ", "切札♠K 魔王")


def test_every_file_written_starts_with_its_schema_line(full: tuple[m.Rules, list[str]]) -> None:
    for f in FILES:
        first = Path("defs", f.name).read_text(encoding="utf-8").splitlines()[0]
        assert first == f"# yaml-language-server: $schema=../schemas/{f.schema}"


def test_what_is_normalised_is_noted_at_its_place(full: tuple[m.Rules, list[str]]) -> None:
    _rules, notes = full
    assert "full/act.yaml:54:14: actList[0].acts[1].since: version with its v: '4.0' → 'v4.0'" in notes
    assert "full/act.yaml:55:15: actList[0].acts[1].update: version with its v: '8.0' → 'v8.0'" in notes
    assert "full/act.yaml:109:15: actList[2].acts[1].format: format list: ',,pro,mast' → 'pro,mast'" in notes
    assert "full/act.yaml:84:15: actList[1].acts[1].actKey: key card respaced: '♢2〜10 を 2枚' → '◇2~10 を2枚'" in notes
    assert "full/act.yaml:36:13: actList[0].acts[1].ruby: reading in hiragana: 'ドロー' → 'どろー'" in notes


# --- one fixture per quirk ------------------------------------------------------------------------------

def test_positional_formats(tmp_path: Path) -> None:
    rules, notes = convert(overlay(tmp_path, "positional-formats"), tmp_path / "defs")
    assert rules.action("soldier-summon").formats == ("std", "pro", "mast")
    assert rules.character("soldier").formats == ("pro", "mast")
    assert sum("format list: ',std,pro,mast' → 'std,pro,mast'" in n for n in notes) == 1


def test_bare_versions_and_uneven_update_lists(tmp_path: Path) -> None:
    rules, notes = convert(overlay(tmp_path, "bare-versions"), tmp_path / "defs")
    end = rules.action("end")
    assert (end.introduced, end.updated) == ("v0.2", ("v3.0", "v8.0", "v8.1"))
    assert rules.action("soldier-summon").introduced == "ex4.14.0"
    soldier = rules.character("soldier")
    assert (soldier.introduced, soldier.updated, rules.is_changed(soldier)) == ("v1.0", ("v9.0",), False)
    assert sorted(n.split(": ", 2)[2] for n in notes if "version with its v" in n) == [
        "version with its v: '0.2' → 'v0.2'", "version with its v: '1.0' → 'v1.0'",
        "version with its v: '8.0' → 'v8.0'", "version with its v: '9.0' → 'v9.0'"]


def test_readings_in_katakana_or_from_the_name(tmp_path: Path) -> None:
    rules, notes = convert(overlay(tmp_path, "katakana-ruby"), tmp_path / "defs")
    assert rules.action("end").reading == "えんど"
    assert rules.action("quick-summons-soldier").reading == "くいっくへいししょうかん"
    assert rules.character("soldier").reading == "いっぱんへい"
    assert any(n.endswith("actList[0].acts[0].actName: reading from the base: 'エンド' → 'えんど'") for n in notes)


def test_key_cards_are_respaced_to_the_canonical_form(tmp_path: Path) -> None:
    rules, notes = convert(overlay(tmp_path, "key-card-spacing"), tmp_path / "defs")
    assert rules.action("soldier-summon").key_card == "♠A~10 を2枚"
    assert rules.action("summons-king").key_card == "♠K と ♣K"
    assert rules.character("soldier").key_card == "◇2~10"
    assert rules.character("king").key_card == "♡K"
    key = rules.action("soldier-summon").key
    assert key is not None and key.card_count == 2


def test_effect_markup_becomes_blocks(tmp_path: Path) -> None:
    rules, _notes = convert(overlay(tmp_path, "effect-markup"), tmp_path / "defs")
    assert rules.action("end").effect == (
        "次を順に行う。",
        m.TextList("numbered", (
            m.ListItem("手札が7枚を越えた場合、7枚になるよう手札を捨てる。"),
            m.ListItem("自分のターンを終了し、対戦相手にターンを渡す。", (m.TextList("bulleted", (
                m.ListItem("ターンを渡す前に、次を確認する。", (m.TextList("lettered", (
                    m.ListItem("フォグが空であること"), m.ListItem("ステージが空であること"))),)),
                m.ListItem("確認できない場合は、先にそれを解決する。"))),)),
            m.ListItem("相手のターンが始まる。"))),
        "---",
        "※ 手札の上限はフレームで変わることがある。")


def test_frames_from_bullets_with_inheritance(tmp_path: Path) -> None:
    rules, _notes = convert(overlay(tmp_path, "frames-and-inheritance"), tmp_path / "defs")
    assert [f.id for f in rules.frames] == ["entry16", "pack", "rare-pack"]
    rare = rules.frame("rare-pack")
    assert (rare.official_id, official_id(rare), rare.inherits, rare.actions) == (
        "rare_pack", "rare_pack", "pack", ("pack-open", "rare-draw"))
    assert rules.action("pack-open").frames == ("pack", "rare-pack")
    assert rules.frame("entry16").deck == m.DeckCondition("次のカードのみで構成された4枚のデッキを使う", ("SA", "S2", "D3", "D10"))


def test_the_changed_mark_is_kept_only_where_it_is_not_derived(tmp_path: Path) -> None:
    folder = overlay(tmp_path, "changed-mark")
    rules, _notes = convert(folder, tmp_path / "defs")
    end, summon, soldier = rules.action("end"), rules.action("soldier-summon"), rules.character("soldier")
    assert (end.changed, rules.is_changed(end)) == (None, True)  # update has v9.0: derived
    assert (summon.changed, rules.is_changed(summon)) == (True, True)  # new in v9.0: kept
    assert (soldier.changed, rules.is_changed(soldier)) == (False, False)  # updated in v9.0, not marked: kept
    written = (tmp_path / "defs" / "actions.yaml").read_text(encoding="utf-8")
    assert written.count("changed:") == 1


def test_key_units_and_the_rare_card_key(tmp_path: Path) -> None:
    rules, _notes = convert(overlay(tmp_path, "key-unit-and-rare-key"), tmp_path / "defs")
    unit = rules.action("charge2")
    assert (unit.key_unit, unit.cost, unit.key_card, unit.category) == ("<突撃> を持つ兵士1体", ("C",), None, "兵士起因")
    rare = rules.action("rare-summon")
    assert (rare.implicit_key, rare.key_card) == ("rare", None)


# --- broken files: every error class, located exactly ------------------------------------------------------

@dataclass(frozen=True)
class Case:
    name: str
    file: str
    old: str
    new: str
    # (file, marker on the line: its column, message[, which occurrence of the marker])
    expected: tuple[tuple[str, str, str] | tuple[str, str, str, int], ...]
    occurrence: int = 1


TARGET_LIST = ", ".join(f"'{t}'" for t in TARGETS)
ACTION_LIST = ", ".join(ACTION_FIELDS)
BROKEN_PACK = "actList[0].acts[0].frame: the frame 'パック' has a problem in frame.yaml (reported there); expected a frame " \
    "that converts"
# the second 一般兵: the first is in the summoning effect
NO_SUMMON = ("act.yaml", "一般兵", "warning: charList[0].chars[0].charName: no action's effect makes a card 一般兵 "
             "('一般兵として'): kept without a summoning action; the simulator cannot summon it", 2)
CASES = [
    Case("unknown field", "act.yaml", "      actEffect: |-\n        1. 自分", "      actEfect: |-\n        1. 自分",
         (("act.yaml", "actEfect", f"actList[0].acts[0].actEfect: unknown field 'actEfect'; expected one of {ACTION_LIST}"),
          ("act.yaml", "format: lite", "actList[0].acts[0]: missing field 'actEffect'"))),
    Case("missing field", "act.yaml", "      actTrigger: 直接\n      actSpeed: 通常\n      actTime: メイン\n      actEffect: |-",
         "      actSpeed: 通常\n      actTime: メイン\n      actEffect: |-",
         (("act.yaml", "format: lite", "actList[0].acts[0]: missing field 'actTrigger'"),)),
    Case("enum", "act.yaml", "actTrigger: 直接", "actTrigger: 自動",
         (("act.yaml", "自動", "actList[0].acts[0].actTrigger: '自動' is not one of '直接', '誘発'"),)),
    Case("category", "act.yaml", "actType: 基本", "actType: 奥義",
         (("act.yaml", "奥義", "actList[0].acts[0].actType: '奥義' is not one of " + ", ".join(
             f"'{c}'" for c in ("基本", "召喚", "速攻魔法", "通常魔法", "基礎魔法", "中級魔法", "上級魔法", "魔法", "誘発魔法",
                                "パック", "パック操作", "レアカード操作", "切札", "切札操作", "兵士起因"))),)),
    Case("format list", "act.yaml", "format: lite,std,pro,mast", "format: lite,standard",
         (("act.yaml", "lite,standard", "actList[0].acts[0].format: 'lite,standard' is not a format list; expected a "
           "comma list of lite, std, pro, mast"),)),
    Case("format and frame", "act.yaml", "    - format: lite,std,pro,mast\n      actName: エンド", "    - actName: エンド",
         (("act.yaml", "actName: エンド", "actList[0].acts[0]: expected either format (lite,std,pro,mast) or frame "
           "(・パック …), not both"),)),
    Case("frame name", "act-frame.yaml", "        ・パック\n", "        ・パックス\n",
         (("act-frame.yaml", "|-", "warning: actList[0].acts[0].frame: frame 'パックス' is neither in frame.yaml nor in "
           "the base definitions: kept as a named frame without a layout (no setup, zones or disclosure of its own)"),
          ("frame.yaml", "|-", "warning: frames[0].actionList: lists パック開封, but the actions whose frame names パック "
           "are none: the frame's actions are those", 2))),
    Case("version", "act.yaml", "since: v0.2", "since: version2",
         (("act.yaml", "version2", "actList[0].acts[0].since: 'version2' is not a version; expected v<major>.<minor> "
           "(8.0 is read as v8.0) or ex<major>.<minor>.<patch>"),)),
    Case("update without since", "act.yaml", "      since: v0.2\n", "",
         (("act.yaml", "v8.0", "actList[0].acts[0].update: update without since; expected since (導入バージョン) too"),)),
    Case("key card does not parse", "act.yaml", "charKey: 2〜10", "charKey: 10〜2",
         (("act.yaml", "10〜2", "charList[0].chars[0].charKey: key card '10〜2' does not parse: the range '10~2' runs "
           "backwards"),)),
    Case("key card read differently", "act.yaml", "charKey: 2〜10", "charKey: 2,3,4,5,6,7,8,9,10",
         (("act.yaml", "2,3,4", "charList[0].chars[0].charKey: key card '2,3,4,5,6,7,8,9,10' is written differently "
           "from the canonical '2~10'; write it as '2〜10'"),)),
    Case("cost", "act.yaml", "actCost: B", "actCost: BX",
         (("act.yaml", "BX", "actList[1].acts[0].actCost: 'BX' is not a cost; expected letters B, L, D, S, C (or K), one "
           "per payment, e.g. 'BBL'"), NO_SUMMON)),
    Case("target", "act.yaml", "      actEffect: |-\n        1. 自分", "      actTarget: 誰か\n      actEffect: |-\n        1. 自分",
         (("act.yaml", "誰か", "warning: actList[0].acts[0].actTarget: the target '誰か' is not one the simulator knows "
           "(core/targets.py): kept as text; the simulator does not offer the action"),)),
    Case("effect markup", "act.yaml", "        1. 自分のフォグ", "        --1. 自分のフォグ",
         (("act.yaml", "|-", "actList[0].acts[0].actEffect: line 1 '--1. 自分のフォグにあるカードを全て墓地に移す。' is 2 "
           "levels deep ('-' each) but has no list item above it at level 1; expected at most 0 '-'"),)),
    Case("changed mark", "act.yaml", "      update: v8.0\n", "      update: v8.0\n      changed: 変更\n",
         (("act.yaml", "変更", "actList[0].acts[0].changed: '変更' is not the mark; expected 'changed'"),)),
    Case("reading", "act.yaml", "ruby: えんど", "ruby: end1",
         (("act.yaml", "end1", "actList[0].acts[0].ruby: 'end1' is not a reading; expected hiragana or katakana (and ー)"),)),
    Case("no reading", "act.yaml", "      actName: 兵士召喚\n      ruby: へいししょうかん\n", "      actName: 兵召喚\n",
         (("act.yaml", "兵召喚", "warning: actList[1].acts[0].actName: no ruby, and neither the base nor the name '兵召喚' "
           "gives a reading: kept without one (the index sorts it by its name); add 'ruby' in hiragana"),)),
    Case("id", "act.yaml", "actId: end", "actId: 1end",
         (("act.yaml", "1end", "actList[0].acts[0].actId: '1end' is not an official id; expected letters and digits, "
           "starting with a letter"),)),
    Case("duplicate id", "act-frame.yaml", "actId: packopen", "actId: end",
         (("act-frame.yaml", "end", "actList[0].acts[0].actId: duplicate actId 'end' (first at official/act.yaml:13:14); "
           "expected each entry's id once"),
          ("frame.yaml", "|-", "warning: frames[0].actionList: lists パック開封, but the actions whose frame names パック "
           "are none: the frame's actions are those", 2))),
    Case("no summoning action", "act.yaml", "キーカードを一般兵として", "キーカードを兵として", (NO_SUMMON[:3] + (1,),)),
    Case("fog without its action", "act.yaml", "      charLabel: 攻撃, 防御\n      since: v1.0\n",
         "      charLabel: 攻撃, 防御\n      since: v1.0\n\nfogList:\n  - type: 滞留魔法\n    fogs:\n"
         "    - format: lite,std,pro,mast\n      fogName: ダウン\n      fogId: downFog\n      fogType: 滞留魔法\n"
         "      fogKey: 2〜10\n      fogAbility: サイズが下がる。\n      since: v8.0\n",
         (("act.yaml", "ダウン", "fogList[0].fogs[0].fogName: no single action named 'ダウン' that puts its key card in "
           "the fog; expected the action that places this fog to have the fog's name"),)),
    Case("picture", "frame.yaml", "    frameId: pack\n", "    frameId: pack\n    image: layout/pack\n",
         (("frame.yaml", "layout/pack", "warning: frames[0].image: no picture 'layout/pack' (.png, .jpg, .jpeg or .svg) "
           "under official/images: kept without its picture"),)),
    Case("zone", "frame.yaml", "      パック\n       | 完全公開", "      パックス\n       | 完全公開",
         (("frame.yaml", "|-", "frames[0].accessLevel: 'パックス' is not a zone; expected one of ライフ, 墓地, 場, 手札, フォグ, "
           "パック, レアカード, 切札", 3),
          ("act-frame.yaml", "|-", BROKEN_PACK))),
    Case("setup", "frame.yaml", "\n      以降は、共通ルールの先攻決定に沿ってゲームを開始します。\n", "\n",
         (("frame.yaml", "|-", "frames[0].start: expected the steps as '* …' lines, then the sentence that continues "
           "the setup (以降は、…)"),
          ("act-frame.yaml", "|-", BROKEN_PACK))),
    Case("action list", "frame.yaml", "      * パック開封\n", "      * パック開封\n      * レアドロー\n",
         (("frame.yaml", "|-", "warning: frames[0].actionList: lists パック開封, レアドロー, but the actions whose frame "
           "names パック are パック開封: the frame's actions are those", 2),)),
    Case("date", "act.yaml", "lastupdate: 2026/04/13", "lastupdate: そのうち",
         (("act.yaml", "そのうち", "data.lastupdate: 'そのうち' is not a date; expected YYYY/M/D, e.g. 2026/04/13"),)),
    Case("edition", "act.yaml", "ver: 第9.0版", "ver: 最新版",
         (("act.yaml", "最新版", "data.ver: '最新版' names no edition number; expected e.g. 第9.0版"),)),
    Case("header field", "act.yaml", "  lastupdate: 2026/04/13\n", "  lastupdate: 2026/04/13\n  pdfurl_all: /pdf/all\n",
         (("act.yaml", "pdfurl_all", "data.pdfurl_all: unknown field 'pdfurl_all'; expected one of "
           + ", ".join(HEADER_KEYS)),)),
    Case("top-level key", "act.yaml", "charList:", "charLists:",
         (("act.yaml", "charLists", "charLists: unknown field 'charLists'; expected one of data, actList, charList, fogList"),)),
    Case("group", "act.yaml", "  - type: 基本\n", "  - kind: 基本\n",
         (("act.yaml", "kind: 基本", "actList[0]: expected a group with a type (its list section) and acts"),)),
    Case("trump format", "act-frame.yaml", "      since: v8.0\n",
         "      since: v8.0\n\ntrumpList:\n  - type: 切札♠A 革命\n    trumps:\n    - format: [mast]\n      trumpName: 革命\n"
         "      ruby: かくめい\n      trumpId: sA\n      trumpType: 表切札\n      trumpKey: ♠A\n      trumpAbility: なし\n",
         (("act-frame.yaml", "format: [mast]", "trumpList[0].trumps[0].format: unknown field 'format' (a trump belongs to "
           "frames: use frame); expected one of " + ", ".join(TRUMP_FIELDS)),
          ("act-frame.yaml", "format: [mast]", "trumpList[0].trumps[0]: expected frames (frame: ・…)"))),
]


def _position(path: Path, marker: str, occurrence: int) -> tuple[int, int]:
    seen = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        column = line.find(marker.rstrip("\n"))
        if column >= 0:
            seen += 1
            if seen == occurrence:
                return number, column + 1
    raise AssertionError(f"marker {marker!r} (#{occurrence}) not found in {path}")


@pytest.fixture
def minimal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(OFFICIAL / "minimal", tmp_path / "official")
    return Path("official")


def _errors(folder: Path) -> list[str]:
    official, problems = read_official(folder)
    if problems:
        return [str(p) for p in problems]
    result = import_official(official, DEFINITIONS)
    return sorted(str(e) for e in result.errors + result.warnings)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_problem_is_located_in_the_official_file(case: Case, minimal: Path) -> None:
    path = minimal / case.file
    text = path.read_text(encoding="utf-8")
    assert case.old in text, f"fixture out of date: {case.old!r} not in {case.file}"
    path.write_text(text.replace(case.old, case.new, 1), encoding="utf-8")
    expected = []
    for item in case.expected:
        file, marker, message = item[:3]
        line, column = _position(minimal / file, marker, item[3] if len(item) == 4 else 1)
        expected.append(f"official/{file}:{line}:{column}: {message}")
    assert _errors(minimal) == sorted(expected)


def test_a_list_where_text_belongs(minimal: Path) -> None:
    path = minimal / "act.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("charSize: キーカードの数字", "charSize: [1, 2]"), encoding="utf-8")
    line, column = _position(path, "[1, 2]", 1)
    assert _errors(minimal) == [f"official/act.yaml:{line}:{column}: charList[0].chars[0].charSize: list is not text; "
                                "expected a string"]


def test_syntax_errors_and_missing_files_are_located(minimal: Path) -> None:
    (minimal / "frame.yaml").unlink()
    path = minimal / "act.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("actTrigger: 直接", "actTrigger: [直接", 1), encoding="utf-8")
    errors = _errors(minimal)
    assert errors[0].startswith("official/act.yaml:")
    assert "YAML syntax error" in errors[0]
    assert errors[1] == "official/frame.yaml:1:1: missing file; expected the official frame.yaml in official"


# --- the command ----------------------------------------------------------------------------------------------

def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=cwd)


def test_import_writes_a_folder_that_checks_and_says_what_it_converted(tmp_path: Path) -> None:
    shutil.copytree(OFFICIAL / "full", tmp_path / "full")
    result = run("import", "full", "-o", "defs", "--base", str(DEFINITIONS), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    summary = result.stderr.splitlines()[-1]
    # the base's rulings (definitions/, which grows): kept are those whose every entry the import has, the
    # others are left out; counted here from the base and the imported definitions
    imported = load_rules(tmp_path / "defs")
    entries = {f"{kind}:{e.id}" for kind, group in (("action", imported.actions), ("character", imported.characters),
                                                   ("fog", imported.fogs), ("trump", imported.trumps),
                                                   ("frame", imported.frames)) for e in group}
    base = load_rules(DEFINITIONS).rulings
    kept = [r.id for r in base if all(ref in entries for ref in r.applies_to
                                     if ref.split(":", 1)[0] in ("action", "character", "fog", "trump", "frame"))]
    assert [r.id for r in imported.rulings] == kept and 0 < len(kept) < len(base)
    assert summary == ("full → defs: 4 frames, 6 format actions, 5 frame actions, 3 characters, 2 fogs, 3 trumps, "
                       f"{len(kept)} rulings kept from the base, {len(base) - len(kept)} rulings left out; "
                       "33 values normalised (notes above)")
    assert sum(line.startswith("note: full/") for line in result.stderr.splitlines()) == 33
    assert ("note: rulings.yaml: ruling 'pack-lite-clause' kept from the base for frame:pack: check that it still "
            "applies to the imported text") in result.stderr.splitlines()
    assert (tmp_path / "defs" / ".blackpoker-import").is_file()
    assert (tmp_path / "defs" / "images" / "tarot" / "emperor.png").is_file()
    # a second import replaces the first (its marker says the command made it)
    again = run("import", "full", "-o", "defs", "--base", str(DEFINITIONS), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["defs", "full"]  # no staging folder left


def test_import_with_a_problem_writes_nothing_and_exits_2(tmp_path: Path) -> None:
    shutil.copytree(OFFICIAL / "full", tmp_path / "full")
    act = tmp_path / "full" / "act.yaml"
    act.write_text(act.read_text(encoding="utf-8").replace("actTrigger: 直接", "actTrigger: 自動", 1), encoding="utf-8")
    result = run("import", "full", "-o", "defs", "--base", str(DEFINITIONS), cwd=tmp_path)
    assert result.returncode == 2
    line, column = _position(act, "自動", 1)
    assert f"full/act.yaml:{line}:{column}: actList[0].acts[0].actTrigger: '自動' is not one of '直接', '誘発'" in \
        result.stderr.splitlines()
    assert result.stderr.splitlines()[-1] == "1 problem in the official files; nothing written (--keep-going converts the rest)."
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full"]
    assert "Traceback" not in result.stderr


def test_keep_going_writes_the_rest_and_lists_every_problem(tmp_path: Path) -> None:
    shutil.copytree(OFFICIAL / "full", tmp_path / "full")
    act = tmp_path / "full" / "act.yaml"
    act.write_text(act.read_text(encoding="utf-8").replace("actTrigger: 誘発", "actTrigger: 自動", 1)
                   .replace("since: v1.0", "since: v9.5", 1), encoding="utf-8")
    result = run("import", "full", "-o", "defs", "--base", str(DEFINITIONS), "--keep-going", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[-1] == ("2 problems in the official files (1 the import cannot map: those entries are left out; 1 "
                         "found by the checks of the converted definitions)")
    written = tmp_path / "defs" / "actions.yaml"
    line, column = _position(act, "v9.5", 1)
    assert (f"full/act.yaml:{line}:{column}: actList[1].acts[0].since: version v9.5 is newer than the ruleset (v9.0) "
            "(in the converted actions.yaml at actions[1].introduced)") in lines
    line, column = _position(act, "自動", 1)
    assert f"full/act.yaml:{line}:{column}: actList[0].acts[1].actTrigger: '自動' is not one of '直接', '誘発'" in lines
    assert "id: draw" not in written.read_text(encoding="utf-8")  # the entry with the problem is left out
    assert "id: end" in written.read_text(encoding="utf-8")


def test_a_failing_check_writes_nothing_without_keep_going(tmp_path: Path) -> None:
    shutil.copytree(OFFICIAL / "full", tmp_path / "full")
    act = tmp_path / "full" / "act.yaml"
    act.write_text(act.read_text(encoding="utf-8").replace("since: v1.0", "since: v9.5", 1), encoding="utf-8")
    (tmp_path / "defs").mkdir()
    (tmp_path / "defs" / ".blackpoker-import").write_text("", encoding="utf-8")
    (tmp_path / "defs" / "actions.yaml").write_text("previous\n", encoding="utf-8")
    result = run("import", "full", "-o", "defs", "--base", str(DEFINITIONS), cwd=tmp_path)
    assert result.returncode == 2
    assert "; nothing written" in result.stderr
    assert (tmp_path / "defs" / "actions.yaml").read_text(encoding="utf-8") == "previous\n"  # the previous import stays
    assert sorted(p.name for p in tmp_path.iterdir()) == ["defs", "full"]


def test_import_refuses_a_folder_it_did_not_make(tmp_path: Path) -> None:
    shutil.copytree(OFFICIAL / "minimal", tmp_path / "official")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me", encoding="utf-8")
    result = run("import", "official", "-o", "mine", "--base", str(DEFINITIONS), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("mine: not empty and not made by this command (no .blackpoker-import in it); it is "
                             "replaced whole: choose a new or empty folder\n")
    assert (tmp_path / "mine" / "notes.txt").read_text(encoding="utf-8") == "keep me"
    inside = run("import", "official", "-o", ".", "--base", str(DEFINITIONS), cwd=tmp_path / "official")
    assert inside.returncode == 2 and "is or contains the official files" in inside.stderr


def test_pictures_keep_their_folder(tmp_path: Path) -> None:
    """Pictures keep their folder under images/ (tarot/…), so export can name them as the official files do."""
    convert(OFFICIAL / "full", tmp_path / "defs")
    assert sorted(str(p.relative_to(tmp_path / "defs")) for p in (tmp_path / "defs" / "images").rglob("*.png")) == [
        "images/entry16.png", "images/tarot/emperor.png", "images/tarot/swords-02.png"]


def test_a_missing_base_is_the_same_error_as_missing_definitions(tmp_path: Path) -> None:
    shutil.copytree(OFFICIAL / "minimal", tmp_path / "official")
    result = run("import", "official", "-o", "defs", "--base", "nowhere", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (2, "nowhere: no such definitions folder; expected a folder of "
                                                  "definitions (ruleset.yaml, actions.yaml …): give it with --base DIR\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["official"]


def test_an_entry_the_base_knows_by_its_official_id_keeps_the_base_s_id(tmp_path: Path) -> None:
    """The base says soldier-summon is the official summonsSoldier: the import keeps soldier-summon (the id the
    scenarios and the simulator use) and writes the official id beside it."""
    base = tmp_path / "base"
    shutil.copytree(DEFINITIONS, base)
    actions = base / "actions.yaml"
    text = actions.read_text(encoding="utf-8")
    assert "  - id: soldier-summon\n" in text
    actions.write_text(text.replace("  - id: soldier-summon\n", "  - id: soldier-summon\n    official_id: summonsSoldier\n"),
                       encoding="utf-8")
    official, problems = read_official(OFFICIAL / "minimal")
    assert problems == []
    result = import_official(official, base)
    assert result.errors == []
    (summon,) = [a for a in result.files["actions.yaml"]["actions"] if a["name"] == "兵士召喚"]
    assert (summon["id"], summon["official_id"]) == ("soldier-summon", "summonsSoldier")
    assert result.files["characters.yaml"]["characters"][0]["summoned_by"] == ["soldier-summon"]


def test_a_frame_named_nowhere_is_kept_without_a_layout_and_round_trips(tmp_path: Path) -> None:
    """A frame neither frame.yaml nor the base knows: a named frame without setup or zones of its own, a warning;
    the files still come back byte for byte."""
    shutil.copytree(OFFICIAL / "minimal", tmp_path / "official")
    act_frame = tmp_path / "official" / "act-frame.yaml"
    text = act_frame.read_text(encoding="utf-8")
    assert text.count("        ・パック\n") == 1
    act_frame.write_text(text.replace("        ・パック\n", "        ・パック\n        ・ギャラクシー\n"), encoding="utf-8")
    result = run("import", "official", "-o", "defs", "--base", str(DEFINITIONS), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "warning: actList[0].acts[0].frame: frame 'ギャラクシー' is neither in frame.yaml nor in the base " \
           "definitions: kept as a named frame without a layout" in result.stderr
    rules = load_rules(tmp_path / "defs")
    galaxy = next(f for f in rules.frames if f.name == "ギャラクシー")
    assert (galaxy.setup, galaxy.reading, galaxy.actions) == ((), "ぎゃらくしー", ("pack-open",))
    back = run("export", "defs", "--format", "official", "-o", "back", cwd=tmp_path)
    assert back.returncode == 0, back.stderr
    for name in ("act.yaml", "act-frame.yaml", "frame.yaml"):
        assert (tmp_path / "back" / name).read_bytes() == (tmp_path / "official" / name).read_bytes(), name
