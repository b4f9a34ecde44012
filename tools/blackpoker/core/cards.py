"""Playing cards: suits, ranks, and the notations the rules and scenarios use (♠A, ♡10, SA, H10, Joker, JK)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

SUITS = ("S", "H", "D", "C")
SUIT_SYMBOLS = {"S": "♠", "H": "♡", "D": "◇", "C": "♣"}
# The rules print hearts and diamonds both white and black; all of them are read.
SYMBOL_SUITS = {"♠": "S", "♤": "S", "♡": "H", "♥": "H", "◇": "D", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
SUIT_NAMES = {"S": "スペード", "H": "ハート", "D": "ダイヤ", "C": "クラブ"}
RED_SUITS = frozenset({"H", "D"})

RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}
TEXT_RANK = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
JOKER = 0


def rank_text(rank: int) -> str:
    """A rank as the rules print it: A, 2-10, J, Q, K, Joker."""
    if rank == JOKER:
        return "Joker"
    return RANK_TEXT.get(rank, str(rank))


@functools.total_ordering
@dataclass(frozen=True)
class Card:
    """One card. A Joker has suit None and rank 0; ``index`` tells the two Jokers apart.

    Cards are ordered Jokers first, then by suit letter (C, D, H, S) and rank: a total order, so any
    collection of cards, Jokers included, can be sorted the same way everywhere.
    """

    suit: str | None
    rank: int
    index: int = 0

    # Derived once, when the card is made (not compared, not shown, not exported: equality, repr and export see the
    # three fields above): the simulator hashes, compares and sorts cards millions of times, and the generated
    # methods would build a tuple on every call. Plain attributes, not cached properties: the compiled simulator's
    # native classes have no instance dictionary to cache in.
    sort_key: tuple[str, int, int] = field(init=False, repr=False, compare=False)
    bit: int = field(init=False, repr=False, compare=False)  # a distinct power of two per card: a set of cards as one int
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        key = (self.suit or "", self.rank, self.index)
        # Jokers by index, then C, D, H, S by rank
        bit = 1 << self.index if self.suit is None else 1 << (14 * (1 + "CDHS".index(self.suit)) + self.rank
                                                              + 70 * self.index)
        object.__setattr__(self, "sort_key", key)
        object.__setattr__(self, "bit", bit)
        object.__setattr__(self, "_hash", hash(key))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Card], tuple[str | None, int, int]]:
        # Pickle (process pools) and copy the three fields only: the kept hash depends on the process's hash seed.
        return Card, (self.suit, self.rank, self.index)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not Card:
            return NotImplemented
        return self is other or self.sort_key == other.sort_key

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.sort_key < other.sort_key

    @property
    def is_joker(self) -> bool:
        """Jokers have no suit and no printed number, so every rule about suits or ranks asks this first."""
        return self.rank == JOKER

    @property
    def number(self) -> int:
        """Table 2.1: A=1, 2-10 as printed, J=11, Q=12, K=13, Joker=0."""
        return self.rank

    @property
    def code(self) -> str:
        """ASCII code: SA, H10, DQ, CK, JK (JK2 for the second Joker)."""
        if self.is_joker:
            return "JK" if self.index <= 1 else f"JK{self.index}"
        return f"{self.suit}{rank_text(self.rank)}"

    def __str__(self) -> str:
        if self.is_joker:
            return "Joker" if self.index <= 1 else f"Joker{self.index}"
        return f"{SUIT_SYMBOLS[self.suit or 'S']}{rank_text(self.rank)}"


_CARD = re.compile(r"^(?:(?P<joker>Joker|JK|JOKER)(?P<jn>[12])?|(?P<suit>[SHDC♠♤♡♥◇♦♢♣♧])\s*(?P<rank>A|[2-9]|10|J|Q|K))$")


def parse_card(text: object) -> Card:
    """Read ♠A, ♡10, ♥10, ◇Q, ♦Q, ♣K, Joker, Joker2 or their ASCII forms SA, H10, DQ, CK, JK, JK2. Anything that
    is not one (a number or a mapping from a hand-written file too) is a ValueError, compiled or not."""
    m = _CARD.match(text.strip()) if isinstance(text, str) else None
    if not m:
        raise ValueError(f"'{text}' is not a card; expected e.g. ♠A, ♡10, ◇Q, ♣K, Joker (or SA, H10, DQ, CK, JK)")
    if m.group("joker"):
        return Card(None, JOKER, int(m.group("jn") or 1))
    suit = m.group("suit")
    return Card(SYMBOL_SUITS.get(suit, suit), TEXT_RANK[m.group("rank")])


def full_deck(jokers: int = 2) -> tuple[Card, ...]:
    """The 52 cards plus the given number of Jokers (2.3: at most 2)."""
    cards = [Card(s, r) for s in SUITS for r in range(1, 14)]
    cards += [Card(None, JOKER, i + 1) for i in range(jokers)]
    return tuple(cards)
