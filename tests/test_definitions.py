"""The shipped v8.1 definitions: counts, tables and structure match the rules (inventory §19)."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
import yaml

from blackpoker import load_rules
from blackpoker.core.export import export_rules
from blackpoker.core.keycard import render_key_card
from blackpoker.core.model import Entry, Rules, Speed, Timing, Trigger, iter_text
from blackpoker.core.paths import SCHEMAS
from blackpoker.core.schema import validator_for


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


def test_counts_per_kind(rules: Rules) -> None:
    assert [f.id for f in rules.formats] == ["lite", "std", "pro", "mast"]
    assert [f.name for f in rules.formats] == ["ライト", "スタンダード", "プロ", "マスター"]
    assert [f.id for f in rules.frames] == ["entry20", "pack", "rarepack", "strategy", "extra"]
    assert (len(rules.format_actions), len(rules.frame_actions)) == (37, 11)
    assert len(rules.characters) == 6
    assert (len(rules.format_fogs), len(rules.frame_fogs)) == (3, 1)
    assert len(rules.trumps) == 5
    assert [c.letter for c in rules.costs] == ["B", "L", "D", "S", "K"]


def test_counts_per_format(rules: Rules) -> None:
    per_format = {f.id: (len(rules.actions_in_format(f.id)), len(rules.characters_in_format(f.id)))
                  for f in rules.formats}
    assert per_format == {"lite": (19, 5), "std": (25, 6), "pro": (31, 6), "mast": (37, 6)}
    assert "magician" not in {c.id for c in rules.characters_in_format("lite")}


def test_action_groups_in_v81_order(rules: Rules) -> None:
    groups = [a.group for a in rules.format_actions]
    assert [(g, groups.count(g)) for g in dict.fromkeys(groups)] == [
        ("基本", 7), ("召喚", 7), ("速攻魔法", 13), ("通常魔法", 10)]
    assert [a.name for a in rules.frame_actions] == [
        "パック開封", "レアドロー", "レア召喚", "罠カウンター", "オープン", "クローズ", "切札破壊",
        "スラッシュ", "激励", "交渉", "スイッチ"]


def test_table_3_1_frame_formats(rules: Rules) -> None:
    table = {f.id: f.formats for f in rules.frames}
    assert table == {"entry20": ("lite",), "pack": ("std", "pro", "mast"), "rarepack": ("std", "pro", "mast"),
                     "strategy": ("pro", "mast"), "extra": ("mast",)}


def test_frame_actions_per_frame(rules: Rules) -> None:
    assert rules.frame("entry20").actions == ()
    assert rules.frame("pack").actions == ("pack-open",)
    assert set(rules.frame("rarepack").actions) == {"pack-open", "rare-draw", "rare-summon", "trap-counter"}
    assert len(rules.frame("extra").actions) == 11
    deck = rules.frame("entry20").deck
    assert deck is not None and len(deck.cards) == 20


@pytest.mark.parametrize("action_id, trigger, speed, timing, cost, key", [
    ("end", Trigger.DIRECT, Speed.NORMAL, Timing.MAIN, "", None),
    ("charge", Trigger.TRIGGERED, Speed.INSTANT, Timing.MAIN, "", None),
    ("generation-change", Trigger.TRIGGERED, Speed.INSTANT, Timing.QUICK, "", None),
    ("bulwark-set", Trigger.DIRECT, Speed.INSTANT, Timing.MAIN, "L", None),
    ("hero-summon", Trigger.DIRECT, Speed.NORMAL, Timing.MAIN, "BBL", "J~K"),
    ("quick-summon", Trigger.DIRECT, Speed.NORMAL, Timing.QUICK, "D", "A"),
    ("search", Trigger.DIRECT, Speed.INSTANT, Timing.QUICK, "", "Joker"),
    ("blackjack", Trigger.DIRECT, Speed.NORMAL, Timing.QUICK, "", "A と J"),
    ("royal-straight-flush", Trigger.DIRECT, Speed.NORMAL, Timing.QUICK, "BB", "同じスートの A,10~K を5枚"),
    ("return", Trigger.DIRECT, Speed.NORMAL, Timing.QUICK, "B", "同じスートを2枚"),
    ("death-spear", Trigger.DIRECT, Speed.NORMAL, Timing.MAIN, "", "♠A~K と ◇A~K"),
    ("slash", Trigger.DIRECT, Speed.INSTANT, Timing.MAIN, "K", "<スラッシュ> を持つ兵士1体"),
])
def test_action_fields(rules: Rules, action_id: str, trigger: Trigger, speed: Speed, timing: Timing, cost: str,
                       key: str) -> None:
    a = rules.action(action_id)
    assert (a.trigger, a.speed, a.timing, a.cost_text, a.key_card) == (trigger, speed, timing, cost, key)


def test_v81_changes_are_in_the_data(rules: Rules) -> None:
    bj = rules.action("blackjack")
    assert bj.cost == () and bj.note is None and "合計点" in "".join(iter_text(bj.effect))
    assert rules.action("return").category == "速攻魔法"
    assert rules.action("rare-summon").cost == ("S",)
    assert "<ブロッカー>" in "".join(iter_text(rules.action("block").effect))
    assert [label.name for label in rules.character("bulwark").labels] == ["ブロッカー"]
    assert "D" in rules.character("magician").abilities[0].text
    changed = {a.id for a in rules.actions if rules.is_changed(a)}
    assert {"attack", "block", "blackjack", "equip", "slash"} <= changed
    assert "search" not in changed


def test_every_key_card_is_canonical(rules: Rules) -> None:
    entries: list[Entry] = [*rules.actions, *rules.characters, *rules.fogs, *rules.trumps]
    keyed = [e for e in entries if e.key_card]
    assert len(keyed) >= 50
    for e in keyed:
        assert e.key is not None and render_key_card(e.key) == e.key_card


def test_no_pdf_spacing_artefacts(rules: Rules) -> None:
    """PDF extraction put spaces between digits and kana ('1 枚'); the data must not carry them."""
    pattern = re.compile(r"\d [枚点体人]")
    texts = [t for a in rules.actions for t in iter_text(a.effect)]
    texts += [c.text for ch in rules.characters for c in ch.abilities]
    assert [t for t in texts if pattern.search(t)] == []


def test_export_matches_its_schema(rules: Rules) -> None:
    document = json.loads(json.dumps(export_rules(rules)))
    errors = list(validator_for("export.schema.json").iter_errors(document))
    assert errors == []
    assert document["ruleset"] == {**document["ruleset"], "version": "v8.1", "release_date": "2025-06"}
    action = next(a for a in document["actions"] if a["id"] == "soldier-summon")
    assert (action["name"], action["cost"], action["formats"], action["frames"]) == (
        "兵士召喚", ["B", "L"], ["lite", "std", "pro", "mast"], [])


def test_schema_enums_match_the_definitions(rules: Rules) -> None:
    """The schemas' closed sets are written out for editors; they must list exactly the defined ids."""
    common = json.loads((SCHEMAS / "common.schema.json").read_text(encoding="utf-8"))["definitions"]
    assert common["format_id"]["enum"] == [f.id for f in rules.formats]
    assert common["zone_id"]["enum"] == [z.id for z in rules.zones]
    # an imported edition brings its own frames (entry16, draft …) and the key unit's cost C (UnitDrive, v8.2+):
    # frame ids are checked against frames.yaml, and the cost letters are those of v8.1 and C
    assert "enum" not in common["frame_id"]
    assert common["cost_letter"]["enum"] == [c.letter for c in rules.costs] + ["C"]


def test_frame_membership_and_fog_fields_are_derived_from_one_place(rules: Rules) -> None:
    """frames.yaml alone lists what a frame holds; a fog takes key card, formats and frames from its action."""
    assert rules.action("trap-counter").frames == ("rarepack", "strategy", "extra")
    assert rules.action("pack-open").frames == ("pack", "rarepack", "strategy", "extra")
    assert all(t.frames == ("extra",) for t in rules.trumps)
    for fog in rules.fogs:
        action = rules.action(fog.placed_by)
        assert (fog.key_card, fog.key, fog.formats, fog.frames) == (action.key_card, action.key, action.formats,
                                                                    action.frames)
    assert rules.frame("extra").fogs == ("close",) and rules.fog("close").frames == ("extra",)
    assert all(not frame.fogs for frame in rules.frames if frame.id != "extra")


def test_every_yaml_field_of_an_entry_is_a_field_of_the_model() -> None:
    """The loader fills entries field by field from the YAML: no YAML field can be dropped on the way."""
    from blackpoker.core import model as m
    from blackpoker.core.paths import DEFINITIONS
    for file, key, cls in (("actions.yaml", "actions", m.Action), ("frame-actions.yaml", "actions", m.Action),
                           ("characters.yaml", "characters", m.Character), ("fogs.yaml", "fogs", m.Fog),
                           ("trumps.yaml", "trumps", m.Trump)):
        names = {f.name for f in dataclasses.fields(cls)}
        for raw in yaml.safe_load((DEFINITIONS / file).read_text(encoding="utf-8"))[key]:
            assert set(raw) <= names, (file, set(raw) - names)


def test_the_export_carries_every_field_of_every_entry(rules: Rules) -> None:
    """The export is driven by the model's fields: a field added to an entry is exported without another edit."""
    data = export_rules(rules)
    groups: tuple[tuple[str, tuple[Entry, ...], set[str]], ...] = (
        ("actions", rules.actions, {"shorthand", "changed"}),
        ("characters", rules.characters, {"changed"}), ("fogs", rules.fogs, {"changed"}),
        ("trumps", rules.trumps, {"changed"}))
    for key, entries, extra in groups:
        for exported, entry in zip(data[key], entries, strict=True):
            fields = {f.name for f in dataclasses.fields(entry)} - {"origin"}
            assert set(exported) == fields | extra, key
            assert exported["id"] == entry.id
