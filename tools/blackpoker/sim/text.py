"""Japanese play-by-play text: cards, characters, requests and decisions as a reader of the rules writes them."""

from __future__ import annotations

from collections.abc import Iterable

from blackpoker.core.cards import Card
from blackpoker.sim.state import PLAYER_NAMES, Character

KIND_NAMES = {"soldier": "兵士", "bulwark": "防壁"}
TYPE_NAMES = {"soldier": "一般兵", "hero": "英雄", "ace": "エース", "magician": "魔術士",
              "equipped-soldier": "装備兵", "bulwark": "防壁"}


def card_list(cards: Iterable[Card]) -> str:
    """Cards as the play-by-play writes them (なし for none)."""
    return "".join(str(c) for c in cards) or "なし"


def char_ref(ch: Character) -> str:
    """The reference scenarios use for a character: owner and one of its cards, e.g. ``A:♠7``."""
    return f"{PLAYER_NAMES[ch.owner]}:{ch.cards[0]}"


def char_text(ch: Character) -> str:
    """A character as the play-by-play names it: owner, kind, cards and state."""
    state = "ドライブ" if ch.driven else "チャージ"
    face = "" if ch.face_up else "・裏"
    return f"{PLAYER_NAMES[ch.owner]}の{TYPE_NAMES[ch.type_id]}[{card_list(ch.cards)}]({state}{face})"


def life_answer(count: int) -> str:
    """2.11.1: the public answer to 「ライフは何枚?」: the count under 10, otherwise 「10枚以上です」 (E14)."""
    return f"{count}枚" if count < 10 else "10枚以上です"
