"""What readers see as the name of each field of an entry, in the rulebook's entry lists, the action lists (their
templates get them as ``label``) and the pages of changes between editions alike.

The action lists are a cheat sheet: a few fields go by a shorter name there (``SHORT``)."""

from __future__ import annotations

from typing import Final

FIELD_LABELS: Final = {
    "name": "名前",
    "reading": "読み",
    "category": "タイプ",
    "group": "分類",
    "trigger": "トリガー",
    "speed": "スピード",
    "timing": "タイミング",
    "key_card": "キーカード",
    "implicit_key": "キーカード（暗黙）",
    "key_unit": "キーユニット条件",
    "cost": "コスト",
    "note": "特記事項",
    "activation_condition": "起動条件",
    "trigger_condition": "誘発条件",
    "target": "対象",
    "effect": "効果",
    "size": "サイズ",
    "labels": "ラベル",
    "ability": "能力",
    "abilities": "能力",
    "summoned_by": "場に出すアクション",
    "placed_by": "フォグに置くアクション",
    "grants_label": "与えるラベル",
    "enables": "起こせるアクション",
    "image": "イメージ",
    "frames": "フレーム",
    "formats": "フォーマット",
    "story": "ストーリー",
    "flavor": "フレーバー",
    "flavor_speaker": "フレーバーの話し手",
    "introduced": "導入バージョン",
    "updated": "更新バージョン",
    "design_note": "補足",
}

# a frame's own fields (its picture is its layout, 5.2 配置図)
FRAME_LABELS: Final = {
    **FIELD_LABELS,
    "image": "配置図",
    "inherits": "継承元",
    "deck": "デッキ条件",
    "setup": "ゲームの始め方",
    "actions": "アクションリスト",
    "fogs": "フォグリスト",
    "trumps": "切札リスト",
    "characters": "キャラクターリスト",
    "disclosure": "公開レベル",
}

# the action lists' shorter names
SHORT: Final = {
    "summoned_by": "召喚元",
    "placed_by": "配置元",
    "grants_label": "付与ラベル",
    "enables": "アクション",
}


def short_labels() -> dict[str, str]:
    """Every field's name as the action lists show it."""
    return {**FIELD_LABELS, **SHORT}
