"""The one registry of entry kinds: every named entry has its kind, anchor and label from core/kinds.py."""

from __future__ import annotations

import pytest

from blackpoker import load_rules
from blackpoker.core.kinds import FRAME_ACTION_NAME, KIND, KINDS, anchor, kind_of, label, official_anchors, official_id
from blackpoker.core.model import Rules


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


def test_every_entry_has_exactly_one_kind_and_its_lookup_finds_it(rules: Rules) -> None:
    for entries in (rules.actions, rules.characters, rules.fogs, rules.trumps, rules.frames):
        for entry in entries:
            kind = kind_of(entry)
            assert [k for k in KINDS if isinstance(entry, k.type)] == [kind]
            assert kind.lookup(rules, entry.id) is entry
            assert anchor(entry) == f"{kind.anchor}-{entry.id}"


def test_anchors_and_ruling_refs_keep_the_published_conventions(rules: Rules) -> None:
    assert anchor(rules.action("equip")) == "act-equip"
    assert anchor(rules.character("soldier")) == "char-soldier"
    assert KIND["fog"].anchor_of("up") == "fog-up" and KIND["trump"].anchor_of("s2") == "trump-s2"
    assert KIND["action"].ruling_ref("equip") == "action:equip"
    assert len({k.anchor for k in KINDS}) == len(KINDS)


def test_labels_set_frame_actions_apart(rules: Rules) -> None:
    assert label(rules.action("pack-open")) == FRAME_ACTION_NAME
    assert label(rules.action("equip")) == "アクション"
    assert label(rules.frame("extra")) == "フレーム"


def test_official_ids_default_to_camel_case_and_a_given_one_wins(rules: Rules) -> None:
    import dataclasses
    change = rules.action("generation-change")
    assert official_id(change) == "nextGeneration"  # definitions/actions.yaml: the official files' actId
    assert official_anchors(change) == ("act-nextGeneration", "act-nextgeneration")
    assert official_anchors(rules.action("equip")) == ("act-mountSoldier", "act-mountsoldier")
    assert official_anchors(rules.action("attack")) == ()  # the same as ours: nothing more to answer to
    unnamed = dataclasses.replace(change, official_id=None)
    assert official_id(unnamed) == "generationChange"
    assert official_anchors(unnamed) == ("act-generationChange", "act-generationchange")
