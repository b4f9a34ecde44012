"""Frames (5.3.1): the regulation check (Table 3.1), deck conditions, and each frame's ゲームの始め方.

The steps follow the v8.1 text in ``definitions/frames.yaml`` plus the rulings that settle its gaps
(pack-starting-hand, entry20-setup-order, preset-characters, pack-lite-clause). What a player chooses during a
setup (the rare card, the three starting cards, the two trumps, which trump to reveal) is a :class:`SetupChoice`;
a choice left out is drawn from the game's seed, so self-play needs none and a replay is exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from blackpoker.core.cards import Card, full_deck, parse_card
from blackpoker.core.frozen import Frozen
from blackpoker.core.model import Frame, Rules
from blackpoker.sim.draw import shuffle
from blackpoker.sim.game_errors import SimError
from blackpoker.sim.state import GameState, TrumpCard, player_name, sort_cards
from blackpoker.sim.text import card_list

PACK_SIZE = 14  # 「デッキの上から14枚を取り除いてパックとし」
HAND_SIZE = 7


class SetupError(SimError):
    """A regulation, deck or setup choice the rules do not allow; ``rule`` names the rule (in Japanese)."""

    def __init__(self, rule: str) -> None:
        self.rule = rule
        super().__init__(rule)


@dataclass(frozen=True)
class SetupChoice(Frozen):
    """A player's choices while setting up a frame; ``None``/empty means "choose at random from the seed"."""

    trumps: tuple[Card, ...] = ()  # エクストラ 1: 「デッキから2枚選び切札として」
    starting: tuple[Card, ...] = ()  # ストラテジー, エクストラ: 「最初の手札に入れる3枚を選ぶ」
    rare: Card | None = None  # レアパック, ストラテジー, エクストラ: 「レアカード1枚を選び」
    reveal: Card | None = None  # エクストラ 8: 「切札を1枚表向きにする」


# --- the regulation and the deck ------------------------------------------------------------------------
def check_regulation(rules: Rules, format_id: str, frame_id: str | None) -> Frame | None:
    """3.3: a frame is chosen from Table 3.1 for the format; a combination marked × is refused."""
    fmt = rules.format(format_id)
    if frame_id is None:
        return None
    try:
        frame = rules.frame(frame_id)
    except KeyError:
        names = "、".join(f"{f.name}({f.id})" for f in rules.frames)
        raise SetupError(f"5.3.1: フレーム '{frame_id}' はありません(フレーム: {names})") from None
    if format_id not in frame.formats:
        allowed = "、".join(f.name for f in rules.frames_for_format(format_id)) or "なし"
        raise SetupError(f"3.3 表 3.1: {fmt.name} + {frame.name} は選べない対戦レギュレーションです"
                         f"({fmt.name}で選べるフレーム: {allowed})")
    return frame


def check_deck(rules: Rules, frame: Frame | None, deck: Iterable[Card], owner: str = "") -> None:
    """2.3 (no repeated card, at most 2 Jokers) and the frame's デッキ条件 (5.3.1)."""
    cards = list(deck)
    who = f"{owner} の" if owner else ""
    if len(set(cards)) != len(cards):  # (counted only then: self-play checks a deck at every game)
        repeated = [c for c, n in Counter(cards).items() if n > 1]
        raise SetupError(f"2.3: {who}デッキに {card_list(sort_cards(repeated))} が2枚以上あります"
                         "(スートと数字の組合せは重複できません)")
    if sum(c.is_joker for c in cards) > 2:
        raise SetupError(f"2.3: {who}デッキの Joker は2枚までです")
    if frame is None or frame.deck is None:
        return
    label = f"5.3.1 {frame.name} のデッキ条件「{frame.deck.text}」"
    if frame.deck.cards:
        wanted = set(_parsed_deck(frame.deck.cards))
        extra, missing = set(cards) - wanted, wanted - set(cards)
        if extra or missing:
            parts = ([f"使えないカード {card_list(sort_cards(extra))}"] if extra else []) + \
                    ([f"足りないカード {card_list(sort_cards(missing))}"] if missing else [])
            raise SetupError(f"{label}: {who}デッキに" + "、".join(parts) + "があります")
    if frame.deck.min_cards is not None and len(cards) < frame.deck.min_cards:
        raise SetupError(f"{label}: {who}デッキは {len(cards)} 枚です")


def default_deck(rules: Rules, frame: Frame | None) -> tuple[Card, ...]:
    """The deck a player brings when none is given: the frame's fixed cards, else one whole pack of 54."""
    if frame is not None and frame.deck is not None and frame.deck.cards:
        return _parsed_deck(frame.deck.cards)
    return _FULL_DECK


# Cards are immutable values, so every game may share the same objects (self-play sets up a game every few
# hundred decisions; parsing a frame's card list each time was a tenth of a short エントリー20 game).
_FULL_DECK = full_deck(2)


@lru_cache(maxsize=16)
def _parsed_deck(texts: tuple[str, ...]) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


# --- the steps ----------------------------------------------------------------------------------------
class _Setup:
    """One player's setup in progress: the cards not yet placed (``deck``, top first) and the choices."""

    def __init__(self, state: GameState, index: int, deck: tuple[Card, ...], choice: SetupChoice | None,
                 frame: Frame) -> None:
        self.state, self.index, self.frame = state, index, frame
        self.player = state.players[index]
        self.deck = list(deck)
        self.choice = choice or SetupChoice()
        self.name = player_name(index)

    def shuffle(self) -> None:
        shuffle(self.state.rng(), self.deck)

    def pick(self, given: tuple[Card, ...], count: int, step: str) -> tuple[Card, ...]:
        """Chosen cards taken out of the deck: the given ones (checked), else random ones."""
        if not given:
            given = tuple(self.state.rng().sample(sort_cards(self.deck), count)) if len(self.deck) >= count else ()
        if len(given) != count or len(set(given)) != count:
            raise SetupError(f"5.3.1 {self.frame.name} ゲームの始め方「{step}」: {self.name} は {count} 枚を選びます"
                             f"(選んだカード: {card_list(given)})")
        for card in given:
            if card not in self.deck:
                raise SetupError(f"5.3.1 {self.frame.name} ゲームの始め方「{step}」: {card} は "
                                 f"{self.name} のデッキ(残り)にありません")
            self.deck.remove(card)
        return given

    def take_top(self, count: int) -> tuple[Card, ...]:
        if len(self.deck) < count:
            raise SetupError(f"5.3.1 {self.frame.name}: {self.name} のデッキが足りずゲームの始め方を終えられません")
        top, self.deck = tuple(self.deck[:count]), self.deck[count:]
        return top

    def choose_trumps(self) -> None:
        cards = self.pick(self.choice.trumps, 2, "デッキから2枚選び切札として")
        self.player.trumps = tuple(TrumpCard(self.state.uid(), c) for c in cards)
        if self.state.recording:
            self.state.log(f"{self.name}: 切札2枚を伏せて置く")

    def choose_starting(self) -> None:
        self.player.hand += self.pick(self.choice.starting, 3, "デッキから最初の手札に入れる3枚を選ぶ")
        if self.state.recording:
            self.state.log(f"{self.name}: 最初の手札に入れる3枚を選ぶ")

    def choose_rare(self) -> None:
        given = (self.choice.rare,) if self.choice.rare is not None else ()
        self.player.rare = self.pick(given, 1, "デッキからレアカード1枚を選び")
        if self.state.recording:
            self.state.log(f"{self.name}: レアカード1枚を伏せて置く")

    def make_pack(self) -> None:
        self.player.pack = self.take_top(PACK_SIZE)
        if self.state.recording:
            self.state.log(f"{self.name}: デッキの上から{PACK_SIZE}枚を取り除いてパックとする")

    def make_life(self) -> None:
        self.player.life, self.deck = tuple(self.deck), []
        if self.state.recording:
            self.state.log(f"{self.name}: 残りのデッキ({len(self.player.life)}枚)をライフとする")

    def preset(self) -> None:
        if len(self.player.life) < 2:
            raise SetupError(f"5.3.1 {self.frame.name}: {self.name} のライフが足りずプリセットできません")
        preset(self.state, self.index)

    def draw_to(self, size: int) -> None:
        need = size - len(self.player.hand)
        if len(self.player.life) < need + 1:  # one more card is flipped to decide the first player (2.9.2)
            raise SetupError(f"5.3.1 {self.frame.name}: {self.name} のライフが足りず手札を{size}枚にできません")
        self.player.hand += self.player.life[:need]
        self.player.life = self.player.life[need:]
        if self.state.recording:
            self.state.log(f"{self.name}: ライフから{need}枚引いて手札を{size}枚とする")


def _entry20(s: _Setup) -> None:
    s.shuffle()  # ruling entry20-setup-order: a deck is always shuffled first (2.9.1 1.)
    s.make_life()
    s.preset()
    life = list(s.player.life)  # ruling entry20-setup-order: shuffle the rest of the life, draw 7, no rebuild
    shuffle(s.state.rng(), life)
    s.player.life = tuple(life)
    if s.state.recording:
        s.state.log(f"{s.name}: 残りのライフをよく切る")
    s.draw_to(HAND_SIZE)


def _pack(s: _Setup) -> None:
    s.shuffle()  # ruling pack-starting-hand: the deck is shuffled first (2.9.1 1.)
    s.make_pack()
    s.make_life()
    s.preset()  # its ライト clause (ruling pack-lite-clause) lives in preset()
    s.draw_to(HAND_SIZE)  # ruling pack-starting-hand


def _rarepack(s: _Setup) -> None:
    s.choose_rare()
    s.shuffle()
    s.make_pack()
    s.make_life()
    s.preset()
    s.draw_to(HAND_SIZE)  # ruling pack-starting-hand


def _strategy(s: _Setup) -> None:
    s.choose_starting()
    s.choose_rare()
    s.shuffle()
    s.make_pack()
    s.make_life()
    s.preset()
    s.draw_to(HAND_SIZE)  # 「4枚引いて手札を7枚とする」


def _extra(s: _Setup) -> None:
    s.choose_trumps()
    _strategy(s)  # steps 2-7 are the strategy frame's; step 8 (the reveal) waits for both players


# One setup per frame id; ``missing_effects`` reports a frame without one.
SETUPS: dict[str, Callable[[_Setup], None]] = {
    "entry20": _entry20, "pack": _pack, "rarepack": _rarepack, "strategy": _strategy, "extra": _extra,
}
# The :class:`SetupChoice` fields each setup reads ("" is the common 2.9, which has no choices).
SETUP_CHOICES: dict[str, frozenset[str]] = {
    "": frozenset(), "entry20": frozenset(), "pack": frozenset(), "rarepack": frozenset({"rare"}),
    "strategy": frozenset({"starting", "rare"}), "extra": frozenset({"trumps", "starting", "rare", "reveal"}),
}


def setup_frame(state: GameState, frame: Frame, decks: tuple[tuple[Card, ...], tuple[Card, ...]],
                choices: tuple[SetupChoice | None, SetupChoice | None]) -> None:
    """Both players' ゲームの始め方 up to 2.9.2; the caller decides the first player."""
    setups = [_Setup(state, i, decks[i], choices[i], frame) for i in (0, 1)]
    for s in setups:
        SETUPS[frame.id](s)
    if frame.trumps:  # エクストラ 8: when both are ready, each turns one trump face up
        for s in setups:
            reveal = s.choice.reveal
            cards = [t.card for t in s.player.trumps]
            if reveal is None:
                reveal = state.rng().choice(sort_cards(cards))
            if reveal not in cards:
                raise SetupError(f"5.3.1 {frame.name} ゲームの始め方「切札を1枚表向きにする」: {reveal} は "
                                 f"{s.name} の切札ではありません(切札: {card_list(cards)})")
            s.player.trumps = tuple(TrumpCard(t.uid, t.card, True) if t.card == reveal else t
                                    for t in s.player.trumps)
            if state.recording:
                state.log(f"{s.name}: 切札 {reveal} を表向きにする")


def preset(state: GameState, player: int) -> None:
    """プリセット (パック, レアパック, ストラテジー, エクストラ, エントリー20): the top life card becomes a bulwark, the
    next a soldier (ruling preset-characters: bulwark face down and charged, soldier face up and charged, its type
    from the card). In ライト a Joker soldier goes to the graveyard and the next card is used (no 魔術士 in ライト)."""
    from blackpoker.sim.ops import place
    p = state.players[player]
    card, p.life = p.life[0], p.life[1:]
    place(state, player, (card,), "bulwark", entered_turn=0)
    while p.life:
        card, p.life = p.life[0], p.life[1:]
        if card.is_joker and state.format == "lite":
            p.graveyard += (card,)
            if state.recording:
                state.log(f"{player_name(player)}: ライトのため Joker を墓地へ")
            continue
        place(state, player, (card,), "soldier", entered_turn=0)
        return
