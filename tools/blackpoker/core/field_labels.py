"""What readers see as the name of each field of an entry, in the rulebook's entry lists and in the action lists
alike (the action lists' templates get them as ``label``).

The action lists are a cheat sheet: a few fields go by a shorter name there (``SHORT``). A frame's own rows
(``FRAME_LABELS``) show only in the rulebook's list of frames."""

from __future__ import annotations

from typing import Final

FIELD_LABELS: Final = {
    "trigger": "トリガー",
    "speed": "スピード",
    "timing": "タイミング",
    "key_card": "キーカード",
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
    "summoned_by": "場に出すアクション",
    "placed_by": "フォグに置くアクション",
    "grants_label": "与えるラベル",
    "enables": "起こせるアクション",
    "image": "イメージ",
    "frames": "フレーム",
    "formats": "フォーマット",
    "story": "ストーリー",
    "flavor": "フレーバー",
    "introduced": "導入バージョン",
    "updated": "更新バージョン",
    "design_note": "補足",
}

# the rows only a frame has (5.3.1), in the order the rulebook's list of frames shows them
FRAME_LABELS: Final = {
    "layout": "配置図",
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
