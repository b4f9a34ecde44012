"""``blackpoker diff``: entries added, removed and changed between two rule sources, field by field, changed
characters marked, typography-only changes counted apart; the v8.1 → v8.2 changes of the official files."""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from blackpoker.cli.main import cli
from blackpoker.core.editiondiff import RulesDiff, compare_fields, diff_rules, effect_text, marked, runs
from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.loader import load_rules
from blackpoker.core.model import Rules
from blackpoker.core.paths import DEFINITIONS, ROOT
from blackpoker.core.typography import typography_key
from blackpoker.official.source import load_source
from blackpoker.render.diffpage import diff_html

V82 = ROOT / "editions" / "v8.2"
SHARED = ROOT.parent / "shared" / "official"

# The changes of wording between v8.1 and the official 第8.2版 act.yaml: (kind, id, field) — 14 in 12 actions
# (停戦 no longer sends the key cards to the graveyard, 死の槍 and 剣の雨 read サイズ, カウンター and 対象変更 say
# リクエスト, 世代交代 is 誘発魔法, R・S・F's note is gone, five 補足 arrive, and a typo in 兵士召喚's story)
ACTION_WORDING = {
    ("action", "charge", "design_note"), ("action", "generation-change", "category"),
    ("action", "generation-change", "trigger_condition"), ("action", "soldier-summon", "story"),
    ("action", "soldier-summon", "design_note"), ("action", "twist", "design_note"),
    ("action", "counter", "effect"), ("action", "ceasefire", "effect"), ("action", "retarget", "effect"),
    ("action", "blackjack", "design_note"), ("action", "royal-straight-flush", "note"),
    ("action", "bulwark-break", "design_note"), ("action", "death-spear", "effect"), ("action", "sword-rain", "effect"),
}
# and of the characters and fogs: 兵士, 英雄 and 装備兵 are sized by ユニットカード, the fogs name their target
OTHER_WORDING = {
    ("character", "soldier", "size"), ("character", "soldier", "design_note"), ("character", "hero", "size"),
    ("character", "equipped-soldier", "size"), ("fog", "up", "target"), ("fog", "down", "target"),
}
# some of the typography-only changes: full-width ！？（）０４, spaces around suits, ◇ → ♢, a line break
TYPOGRAPHY = {
    ("action", "block", "effect"), ("action", "damage-judgement", "effect"), ("action", "down", "effect"),
    ("action", "throw", "story"), ("action", "death-spear", "story"), ("action", "conscription", "flavor"),
    ("action", "magician-summon", "story"), ("character", "equipped-soldier", "labels"),
}


def changes(result: RulesDiff, *, typography: bool) -> set[tuple[str, str, str]]:
    return {(c.old.kind, c.old.id, f.key) for c in result.changed for f in c.fields if f.typography == typography}


@pytest.fixture(scope="module")
def v81() -> Rules:
    return load_rules(DEFINITIONS)


@pytest.fixture(scope="module")
def v82() -> Rules:
    return load_rules(V82)


def test_typography_key_sets_aside_width_glyphs_and_spaces() -> None:
    assert typography_key("「あれ？\n何 ！」") == typography_key("「あれ?何!」")
    assert typography_key("金 ◇ と〜") == typography_key("金♢と~") == typography_key("金◇と～")
    assert typography_key("サイズが０以下") == typography_key("サイズが 0 以下")
    assert typography_key("兵士の数字") != typography_key("兵士のサイズ")


def test_runs_mark_exactly_the_changed_characters() -> None:
    old, new = runs("対象のアクションを無効にする。", "対象のリクエストを無効し、")
    assert marked(old) == "対象の[ア]ク[ション]を無効[にする。]"
    assert marked(new, "{", "}") == "対象の{リ}ク{エスト}を無効{し、}"
    assert "".join(r.text for r in old) == "対象のアクションを無効にする。"


def test_a_field_is_typography_only_when_only_typesetting_differs() -> None:
    fields = compare_fields([("flavor", "フレーバー", "「え!」"), ("effect", "効果", "数字"), ("note", "特記事項", "※")],
                            [("flavor", "フレーバー", "「え！」"), ("effect", "効果", "サイズ"), ("note", "特記事項", None)])
    assert [(f.key, f.typography) for f in fields] == [("flavor", True), ("effect", False), ("note", False)]
    assert fields[2].new == "" and fields[2].new_runs == ()


def test_the_same_rules_have_no_differences(v81: Rules) -> None:
    result = diff_rules(v81, v81)
    assert (result.added, result.removed, result.changed) == ((), (), ())


def test_entries_are_matched_by_official_id_added_and_removed(v81: Rules) -> None:
    """An entry whose id changed but whose official id did not is the same entry; one that is only on one side
    is added or removed."""
    counter = v81.action("counter")
    renamed = dataclasses.replace(counter, id="counter-action", official_id="counter", name="カウンター改")
    kept = tuple(renamed if a.id == "counter" else a for a in v81.actions if a.id != "kill")
    result = diff_rules(v81, dataclasses.replace(v81, actions=kept))
    assert [(r.kind, r.id) for r in result.removed] == [("action", "kill")] and result.added == ()
    [change] = result.changed
    assert (change.old.id, change.new.id) == ("counter", "counter-action")
    assert [(f.key, f.old, f.new) for f in change.fields] == [("name", "カウンター", "カウンター改")]
    result = diff_rules(dataclasses.replace(v81, actions=kept), v81)
    assert [(r.kind, r.id) for r in result.added] == [("action", "kill")]


def test_effect_text_shows_list_marks_and_nesting(v81: Rules) -> None:
    text = effect_text(v81.action("blackjack").effect)
    assert text.startswith("1. 合計点を0とし") and "\n2. " in text and "\n  ・A は11点" in text


def test_v81_to_v82_finds_the_changes_of_wording_and_typography(v81: Rules, v82: Rules) -> None:
    result = diff_rules(v81, v82)
    wording = changes(result, typography=False)
    assert wording >= ACTION_WORDING and wording >= OTHER_WORDING
    assert {c for c in wording if c[0] == "action"} == ACTION_WORDING  # 14 changes of wording in 12 actions
    assert len({c[1] for c in ACTION_WORDING}) == 12
    assert changes(result, typography=True) >= TYPOGRAPHY
    assert not TYPOGRAPHY & wording and result.added == result.removed == ()
    assert (result.old.version, result.new.version) == ("v8.1", "v8.2")
    ceasefire = next(c for c in result.changed if c.new.id == "ceasefire")
    [effect] = ceasefire.wording
    assert "キーカードを墓地に移す" in "".join(r.text for r in effect.old_runs if r.changed)


def test_the_hand_kept_versions_are_checked(v81: Rules, v82: Rules) -> None:
    """An entry reworded with no new 更新バージョン is a warning (v8.2's file adds none); one that gains a version
    is not."""
    result = diff_rules(v81, v82)
    assert "ceasefire" in {c.new.id for c in result.unversioned()}
    bumped = tuple(dataclasses.replace(a, updated=(*a.updated, "v8.2")) if a.id == "ceasefire" else a
                   for a in v82.actions)
    result = diff_rules(v81, dataclasses.replace(v82, actions=bumped))
    assert "ceasefire" not in {c.new.id for c in result.unversioned()}


def test_cli_prints_the_summary_and_writes_escaped_html(tmp_path: Path) -> None:
    page = tmp_path / "diff.html"
    outcome = CliRunner().invoke(cli, ["diff", str(DEFINITIONS), str(V82), "--html", str(page)])
    assert outcome.exit_code == 0, outcome.output
    out = outcome.stdout
    assert re.search(r"→ .*\(第8\.2版, v8\.2\)", out.splitlines()[0])
    assert "changes of wording" in out and "of typography only" in out
    assert "{+リ+}ク{+エスト+}" in out and "Typography only" in out
    assert "warning: アクション 停戦 (ceasefire)" in outcome.stderr
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and '<html lang="ja">' in text
    assert "prefers-color-scheme: dark" in text and "<script" not in text and "http" not in text.split("<body>")[1]
    assert "<del>ア</del>" in text and "<ins>リ</ins>" in text
    assert html.escape("<アタッカー>") in text and "<アタッカー>" not in text  # every text escaped


def test_html_escapes_what_the_definitions_hold(v81: Rules) -> None:
    counter = v81.action("counter")
    bad = dataclasses.replace(counter, name="<script>alert(1)</script>")
    page = diff_html(diff_rules(v81, dataclasses.replace(v81, actions=tuple(
        bad if a.id == "counter" else a for a in v81.actions))))
    assert "<script>" not in page and "&lt;script&gt;" in page


def test_a_folder_that_is_neither_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(DefinitionErrors):
        load_source(tmp_path / "nowhere", DEFINITIONS)
    outcome = CliRunner().invoke(cli, ["diff", str(DEFINITIONS), str(tmp_path / "nowhere")])
    assert outcome.exit_code == 2 and "no such folder" in outcome.stderr


@pytest.mark.skipif(not (SHARED / "act.yaml").is_file(), reason="the official files are not at ../shared/official")
def test_v81_against_the_official_files_finds_v82s_changes(v81: Rules) -> None:
    """The shared official folder (act.yaml 第8.2版, act-frame.yaml 第9.0版 …) compared with definitions/ as it
    is published: the format entries' changes are those of editions/v8.2."""
    try:
        official = load_source(SHARED, DEFINITIONS)
    except DefinitionErrors as exc:  # the importer must read the real files first (issue 21, items 1-4)
        pytest.skip(f"the shared official files do not import yet: {exc.errors[0]}")
    result = diff_rules(v81, official)
    format_ids = {a.id for a in v81.format_actions}
    wording = {c for c in changes(result, typography=False) if c[0] == "action" and c[1] in format_ids}
    assert wording == ACTION_WORDING
