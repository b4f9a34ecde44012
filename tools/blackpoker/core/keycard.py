"""Key-card conditions (キーカード ★): parsed from the rules' text, rendered back, and matched against cards.

The text in the definitions is the single source; the structure is derived from it here. Rendering the
parsed structure must give back the text exactly, so the two cannot disagree and the spelling stays canonical.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from blackpoker.core.cards import JOKER, SUIT_SYMBOLS, SUITS, SYMBOL_SUITS, TEXT_RANK, Card, rank_text
from blackpoker.core.frozen import Frozen

ALL_RANKS = frozenset(range(1, 14))


@dataclass(frozen=True)
class CardPattern(Frozen):
    """One part of a key-card condition: ``count`` cards from ``ranks`` (0 = Joker) of ``suits``."""

    ranks: frozenset[int]
    suits: frozenset[str] | None = None  # None: any suit (and Jokers, if rank 0 is allowed)
    count: int = 1
    at_least: bool = False
    same_suit: bool = False
    same_rank: bool = False

    def allows(self, card: Card) -> bool:
        """Whether one card may stand in this part of the key, before counts and same-suit/same-rank are checked
        over the whole set."""
        if card.rank not in self.ranks:
            return False
        if self.suits is not None and card.suit not in self.suits:
            return False
        return not (self.same_suit and card.is_joker)

    @property
    def plain_single(self) -> bool:
        """One card, with nothing asked of it beyond the pattern: every card it allows is a key set alone."""
        return self.count == 1 and not self.at_least and not self.same_suit and not self.same_rank

    def accepts(self, cards: Sequence[Card]) -> bool:
        """Whether exactly these cards satisfy this part."""
        n = len(cards)
        if n < self.count or (n > self.count and not self.at_least):
            return False
        if not all(self.allows(c) for c in cards):
            return False
        if self.same_suit and len({c.suit for c in cards}) != 1:
            return False
        return not (self.same_rank and len({c.rank for c in cards}) != 1)


@dataclass(frozen=True)
class KeyCondition(Frozen):
    """A parsed キーカード condition.

    ``zone`` is where the key cards come from: the hand (the default, 2.10.1), the field for a soldier that
    carries ``label`` (cost K actions), or ``any`` for the bulwark's "全て (裏向き)".
    """

    text: str
    parts: tuple[CardPattern, ...]
    zone: str = "hand"
    label: str | None = None
    face_down: bool = False
    soldiers: int = 1  # for zone "field": how many soldiers with the label

    @property
    def card_count(self) -> int:
        """How many key cards a request puts down (the smallest number, for 'N枚以上')."""
        return sum(p.count for p in self.parts)

    def accepts(self, cards: Sequence[Card]) -> bool:
        """Whether these cards, all of them, are a valid set of key cards for this condition."""
        if self.zone == "field":
            return False  # field keys are characters, checked by the simulator against labels
        return _assign(list(cards), list(self.parts))

    def choices(self, pool: Iterable[Card]) -> list[tuple[Card, ...]]:
        """Every set of cards from ``pool`` that satisfies the condition (smallest sets for 'N枚以上'), in card
        order: the one key-card search (the simulator lists requests with it)."""
        cards = sorted(set(pool))
        if self.zone == "field" or not self.parts:
            return []
        if len(self.parts) == 1 and self.parts[0].plain_single:  # every allowed card alone is a set
            part = self.parts[0]
            return [(c,) for c in cards if part.allows(c)]
        return [combo for combo in combinations(cards, self.card_count) if self.accepts(combo)]


def _assign(cards: list[Card], parts: list[CardPattern]) -> bool:
    """Split ``cards`` among ``parts`` so each part accepts its share (parts are few: brute force)."""
    if not parts:
        return not cards
    first, rest = parts[0], parts[1:]
    fixed_sizes = [first.count] if not first.at_least else range(first.count, len(cards) + 1)
    for size in fixed_sizes:
        for chosen in combinations(cards, size):
            remaining = list(cards)
            for c in chosen:
                remaining.remove(c)
            if first.accepts(chosen) and _assign(remaining, rest):
                return True
    return False


class KeyCardSyntaxError(ValueError):
    """A key-card text that is not one of the forms the rules use."""


_SUIT = "[♠♡◇♣]"
_COUNT = "[1-9][0-9]?"  # a count of cards or soldiers: 1 to 99 (a deck has 54 cards)
_RANK = r"(?:A|10|[2-9]|J|Q|K)"
_RANGE = rf"{_RANK}(?:~{_RANK})?"
_TERM = re.compile(rf"^(?P<suit>{_SUIT}+)?(?P<ranks>{_RANGE}(?:,{_RANGE})*|Joker)(?: を(?P<count>{_COUNT})枚)?$")
_SAME_SUIT_OF = re.compile(rf"^同じスートの (?P<ranks>{_RANGE}(?:,{_RANGE})*) を(?P<count>{_COUNT})枚$")
_SAME = re.compile(rf"^同じ(?P<what>スート|数字)を(?P<count>{_COUNT})枚(?P<least>以上)?$")
_FIELD = re.compile(rf"^<(?P<label>[^<>]+)> を持つ兵士(?P<count>{_COUNT})体$")
FACE_DOWN_ANY = "全て (裏向き)"


def _ranks(text: str) -> frozenset[int]:
    ranks: set[int] = set()
    for piece in text.split(","):
        if "~" in piece:
            low, high = (TEXT_RANK[p] for p in piece.split("~"))
            if low >= high:
                raise KeyCardSyntaxError(f"the range '{piece}' runs backwards")
            ranks.update(range(low, high + 1))
        else:
            ranks.add(TEXT_RANK[piece])
    return frozenset(ranks)


def parse_key_card(text: str) -> KeyCondition:
    """Parse a key-card text, e.g. '♡A~10 を2枚', 'A と J', '同じスートの A,10~K を5枚'."""
    if text == FACE_DOWN_ANY:
        return KeyCondition(text, (CardPattern(ALL_RANKS | {JOKER}),), zone="any", face_down=True)
    if m := _FIELD.match(text):
        return KeyCondition(text, (), zone="field", label=m["label"], soldiers=int(m["count"]))
    if m := _SAME_SUIT_OF.match(text):
        return KeyCondition(text, (CardPattern(_ranks(m["ranks"]), count=int(m["count"]), same_suit=True),))
    if m := _SAME.match(text):
        same_suit = m["what"] == "スート"
        ranks = ALL_RANKS if same_suit else ALL_RANKS | {JOKER}
        pattern = CardPattern(ranks, count=int(m["count"]), at_least=bool(m["least"]),
                              same_suit=same_suit, same_rank=not same_suit)
        return KeyCondition(text, (pattern,))
    parts = []
    for term in text.split(" と "):
        m = _TERM.match(term)
        if not m:
            raise KeyCardSyntaxError(
                f"'{term}' is not a key-card term; expected e.g. '2~10', '♡A~10', '♠A~10 を2枚', 'Joker', "
                "'A と J', '同じスートを2枚', '同じ数字を2枚', '同じスートの A,10~K を5枚' or '<ラベル> を持つ兵士1体'")
        ranks = frozenset({JOKER}) if m["ranks"] == "Joker" else _ranks(m["ranks"])
        symbols = m["suit"] or ""
        if len(set(symbols)) != len(symbols):
            raise KeyCardSyntaxError(f"'{term}' names a suit twice")
        suits = frozenset(SYMBOL_SUITS[s] for s in symbols) or None
        if suits and JOKER in ranks:
            raise KeyCardSyntaxError("a Joker has no suit")
        parts.append(CardPattern(ranks, suits, count=int(m["count"] or 1)))
    return KeyCondition(text, tuple(parts))


def _render_ranks(ranks: frozenset[int]) -> str:
    """{1..10} → 'A~10', {1,10,11,12,13} → 'A,10~K'; runs of three or more become ranges."""
    ordered = sorted(ranks)
    runs: list[list[int]] = []
    for r in ordered:
        if runs and r == runs[-1][-1] + 1:
            runs[-1].append(r)
        else:
            runs.append([r])
    pieces = []
    for run in runs:
        if len(run) >= 3:
            pieces.append(f"{rank_text(run[0])}~{rank_text(run[-1])}")
        else:
            pieces.extend(rank_text(r) for r in run)
    return ",".join(pieces)


def render_key_card(key: KeyCondition) -> str:
    """The canonical text of a parsed condition: the inverse of :func:`parse_key_card`."""
    if key.face_down:
        return FACE_DOWN_ANY
    if key.zone == "field":
        return f"<{key.label}> を持つ兵士{key.soldiers}体"
    if len(key.parts) == 1 and (key.parts[0].same_suit or key.parts[0].same_rank):
        p = key.parts[0]
        if p.same_suit and p.ranks != ALL_RANKS:
            return f"同じスートの {_render_ranks(p.ranks)} を{p.count}枚"
        what = "スート" if p.same_suit else "数字"
        return f"同じ{what}を{p.count}枚" + ("以上" if p.at_least else "")
    terms = []
    for p in key.parts:
        suit = "".join(SUIT_SYMBOLS[s] for s in SUITS if s in p.suits) if p.suits else ""
        ranks = "Joker" if p.ranks == {JOKER} else _render_ranks(p.ranks)
        terms.append(suit + ranks + (f" を{p.count}枚" if p.count > 1 else ""))
    return " と ".join(terms)
