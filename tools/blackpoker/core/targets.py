"""Targets (対象): the phrases the rules use, each mapped to a structure a program can check.

Unlike key cards, targets are a small closed vocabulary, so they are a table rather than a grammar. A target
text that is not in the table is reported by ``blackpoker check`` with the list of known phrases.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from blackpoker.core.frozen import Frozen

TargetKind = Literal["soldier", "character", "bulwark", "player", "request", "trump"]
Owner = Literal["any", "own", "opponent"]


@dataclass(frozen=True)
class TargetSpec(Frozen):
    """What an action may target.

    ``request_key_counts``: for request targets, the allowed numbers of key cards (empty = any).
    ``request_action``: for request targets, the only action id allowed.
    ``request_has_target``: for request targets, whether the request must itself have a target.
    ``same_suit_as_key``: the target must share the suit of the key card (装備).
    """

    kind: TargetKind
    owner: Owner = "any"
    count: int = 1
    same_suit_as_key: bool = False
    request_key_counts: frozenset[int] = frozenset()
    request_action: str | None = None
    request_has_target: bool = False


TARGETS: dict[str, TargetSpec] = {
    "兵士1体": TargetSpec("soldier"),
    "キャラクター1体": TargetSpec("character"),
    "防壁1体": TargetSpec("bulwark"),
    "自分のキャラクター1体": TargetSpec("character", owner="own"),
    "キーカードとスートが等しい自分の兵士1体": TargetSpec("soldier", owner="own", same_suit_as_key=True),
    "対戦相手1人": TargetSpec("player", owner="opponent"),
    "プレイヤー1人": TargetSpec("player"),
    "キーカードが1枚または2枚のリクエスト": TargetSpec("request", request_key_counts=frozenset({1, 2})),
    "ダメージ判定アクションのリクエスト": TargetSpec("request", request_action="damage-judgement"),
    "対象が指定されているリクエスト": TargetSpec("request", request_has_target=True),
    "切札1枚": TargetSpec("trump"),
}


class TargetSyntaxError(ValueError):
    """A target text that is not one of the phrases the rules use."""


def parse_target(text: str) -> TargetSpec:
    """The structure of a target phrase; PDF spacing ('切札 1 枚') is tolerated by the caller's check."""
    try:
        return TARGETS[text]
    except KeyError:
        known = ", ".join(f"'{t}'" for t in TARGETS)
        raise TargetSyntaxError(f"'{text}' is not a known target phrase; expected one of {known}") from None
