"""The wordings of an effect the simulator knows, for the actions whose wording differs between editions.

The simulator plays every edition from the one registry of effects (``effects.py``), keyed by action id. Where
editions word an action's effect differently, each wording it has been checked against is listed here by a
phrase of its text, with what the difference means for play; an edition that words the effect otherwise is a
gap that ``blackpoker check`` reports (an error for a simulated edition), and the action is not offered, rather
than being played with an effect its text no longer says. Between 第8.1版 and 第8.2版:

* 停戦: 第8.2版 only removes the request (「…ステージから取り除く」), where 第8.1版 also sends its key cards to the
  graveyard; its target, a ダメージ判定 request, never holds key cards, so both do the same.
* 死の槍 and 剣の雨: 第8.2版 compares the soldier's サイズ (2.8.2), where 第8.1版 says 「兵士の数字」 (死の槍) or
  nothing (剣の雨); 第8.1版's ruling soldier-number-size reads both as the size, as ruling
  damage-judgement-numbers does for ダメージ判定: one effect.
* カウンター and 対象変更: 第8.2版 says リクエスト where 第8.1版 says アクション: the same effect.
* R・S・F: 第8.2版 drops 「このアクションはカウンターアクションの対象にならない。」; the simulator reads that note
  itself (requests.COUNTER_IMMUNE), and カウンター and 罠カウンター target only requests of 1 or 2 key cards, so
  neither may target its 5 in either edition.
"""

from __future__ import annotations

from typing import Final

from blackpoker.core.model import Action, Rules, iter_text
from blackpoker.sim import lookup

# action id → the phrases of the effect text the simulator knows (第8.1版's, then 第8.2版's)
KNOWN: Final[dict[str, tuple[str, ...]]] = {
    "ceasefire": ("対象アクションのキーカードを墓地に移す", "対象のリクエストをステージから取り除く"),
    "death-spear": ("対象の兵士の数字が", "対象の兵士のサイズが"),
    "sword-rain": ("キーカードの合計値以下の全ての兵士を墓地に移す",),
    "counter": ("対象のアクションを無効にする", "対象のリクエストを無効にする"),
    "retarget": ("対象のアクションで指定されている対象", "対象のリクエストで指定されている対象"),
}
def wording_known(action: Action) -> bool:
    """Whether the action's effect text is worded as the simulator knows (always, for an action not listed)."""
    phrases = KNOWN.get(action.id)
    if phrases is None:
        return True
    text = "".join(iter_text(action.effect))
    return any(phrase in text for phrase in phrases)


def _unknown(rules: Rules) -> frozenset[str]:
    return frozenset(a.id for a in rules.actions if not wording_known(a))


def knows_wording(rules: Rules, action_id: str) -> bool:
    """:func:`wording_known` of the loaded edition's action (kept with the ruleset: asked at every decision)."""
    return action_id not in lookup.derived(rules, _unknown)


def unknown_wordings(rules: Rules) -> list[Action]:
    """The actions whose effect is worded in a way the simulator does not know."""
    return [a for a in rules.actions if not wording_known(a)]
