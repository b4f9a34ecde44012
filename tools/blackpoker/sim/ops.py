"""The elementary changes every effect is made of: damage, moving characters and cards, placing characters.

Each keeps every card in exactly one zone, and queues 世代交代 (generation-change) whenever a Joker/A/J/Q/K card
leaves a field for a graveyard (2.10.6 パターン2: once per card).
"""

from __future__ import annotations

from blackpoker.core.cards import Card
from blackpoker.sim.abilities import soldier_type
from blackpoker.sim.state import GENERATION_RANKS, AttackLine, Character, GameState, Request, player_name
from blackpoker.sim.text import card_list, char_text


def damage(state: GameState, player: int, amount: int) -> int:
    """2.7: move cards from the top of life to the graveyard; only what is left (2.10.4, E3)."""
    p = state.players[player]
    n = max(0, min(amount, len(p.life)))
    if n:
        moved, p.life = p.life[:n], p.life[n:]
        p.graveyard += moved
    if state.recording:
        state.log(f"　{player_name(player)} は {amount} 点のダメージ(ライフ {len(p.life) + n} → {len(p.life)})")
    return n


def queue_trigger(state: GameState, action_id: str, controller: int) -> None:
    """Put a triggered action into the buffer; the trigger check (6.4.1) moves it to the stage."""
    state.buffer += (Request(state.uid(), action_id, controller, triggered=True),)


def remove_character(state: GameState, uid: int) -> Character:
    """Take a character off the field and out of every attack line, so no later step refers to it."""
    ch = state.find(uid)
    assert ch is not None, uid
    p = state.players[ch.owner]
    p.field = tuple(c for c in p.field if c.uid != uid)
    state.attack = tuple(AttackLine(line.attacker, tuple(b for b in line.blockers if b != uid))
                         for line in state.attack if line.attacker != uid)
    return ch


def to_graveyard(state: GameState, uid: int) -> None:
    """A character leaves the field for its owner's graveyard, all its cards together (2.8.3)."""
    ch = remove_character(state, uid)
    state.players[ch.owner].graveyard += ch.cards
    if state.recording:
        state.log(f"　{char_text(ch)} を墓地へ")
    for card in ch.cards:
        if card.rank in GENERATION_RANKS:
            queue_trigger(state, "generation-change", ch.owner)


def to_hand(state: GameState, uid: int) -> None:
    """Return a character's cards to its owner's hand (they leave the field whole)."""
    ch = remove_character(state, uid)
    state.players[ch.owner].hand += ch.cards
    if state.recording:
        state.log(f"　{char_text(ch)} を手札へ")


def place(state: GameState, owner: int, cards: tuple[Card, ...], kind: str, *, driven: bool = False,
          type_id: str | None = None, entered_turn: int | None = None) -> Character:
    """Put a new character on ``owner``'s field: soldiers face up, bulwarks face down (2.11.3)."""
    if type_id is None:
        type_id = "bulwark" if kind == "bulwark" else soldier_type(cards[0].rank)
    uid = state.uid()
    ch = Character(uid, owner, tuple(cards), kind, type_id, driven=driven, face_up=(kind == "soldier"),
                   entered_turn=state.turn if entered_turn is None else entered_turn, timestamp=uid)
    state.players[owner].field += (ch,)
    if state.recording:
        state.log(f"　{char_text(ch)} を場に出す")
    return ch


def discard(state: GameState, player: int, cards: tuple[Card, ...]) -> None:
    """Move cards from the hand to the graveyard, logged, as paying a cost D or an effect does."""
    p = state.players[player]
    hand = list(p.hand)
    for c in cards:
        hand.remove(c)
    p.hand = tuple(hand)
    p.graveyard += tuple(cards)
    if cards and state.recording:
        state.log(f"　{player_name(player)} は {card_list(cards)} を捨てる")


def take_from_hand(state: GameState, player: int, card: Card) -> None:
    """A card leaves the hand for somewhere the caller puts it (スイッチ: onto the field)."""
    p = state.players[player]
    hand = list(p.hand)
    hand.remove(card)
    p.hand = tuple(hand)


def draw(state: GameState, player: int, n: int = 1) -> int:
    """Draw from the life; returns how many were drawn, as the life may run out."""
    p = state.players[player]
    got, p.life = p.life[:n], p.life[n:]
    p.hand += got
    if state.recording:
        state.log(f"　{player_name(player)} はライフから {len(got)} 枚引く")
    return len(got)
