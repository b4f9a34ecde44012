"""2.9 ゲームの始め方 (or a frame's, 5.3.1): hands and lives, the first player by flipping life tops, first draw."""

from __future__ import annotations

from collections.abc import Sequence

from blackpoker.core.cards import Card
from blackpoker.core.model import Rules
from blackpoker.sim.draw import shuffle
from blackpoker.sim.frames import SetupChoice, SetupError, check_deck, check_regulation, default_deck, setup_frame
from blackpoker.sim.state import GameState, Player, player_name
from blackpoker.sim.text import card_list


def new_game(rules: Rules, format_id: str, seed: int, *, frame: str | None = None,
             decks: Sequence[Sequence[Card]] | None = None,
             choices: Sequence[SetupChoice | None] | None = None, record: bool = False) -> GameState:
    """A game after the setup, every random step drawn from ``seed`` (so a seed replays the same game).

    Without a frame, the common 2.9.1-2.9.3; with one, the frame's ゲームの始め方 (5.3.1) and then 2.9.2-2.9.3.
    Raises :class:`SetupError` for a regulation Table 3.1 does not allow, a deck that breaks 2.3 or the frame's
    デッキ条件, or a setup choice that does not fit."""
    frame_def = check_regulation(rules, format_id, frame)
    given = tuple(tuple(d) for d in decks) if decks is not None else None
    deck_pair = given or (default_deck(rules, frame_def),) * 2
    for index, deck in enumerate(deck_pair):
        check_deck(rules, frame_def, deck, player_name(index))
    state = GameState(rules, format_id, seed, [Player(), Player()], frame=frame,
                      events=[] if record else None)
    for p, deck in zip(state.players, deck_pair, strict=True):
        p.deck = frozenset(deck)
    if frame_def is None:
        for index, p in enumerate(state.players):  # 2.9.1
            cards = list(deck_pair[index])
            shuffle(state.rng(), cards)
            if len(cards) < 8:
                raise SetupError(f"2.9.1: {player_name(index)} のデッキが足りずゲームの始め方を終えられません")
            p.hand, p.life = tuple(cards[:7]), tuple(cards[7:])
            if state.recording:
                state.log(f"{player_name(index)}: デッキを切り、7枚引いて手札とし、残りをライフとする")
    else:
        pair = (choices[0], choices[1]) if choices is not None else (None, None)
        setup_frame(state, frame_def, (deck_pair[0], deck_pair[1]), pair)  # two: zip(strict=True) above
    begin(state)
    return state


def begin(state: GameState) -> None:
    """2.9.2 and 2.9.3: decide the first player; they draw one card and start with the turn and the chance."""
    first = decide_first(state)
    state.players[first].hand += state.players[first].life[:1]
    state.players[first].life = state.players[first].life[1:]
    state.turn_player = state.chance = first
    if state.recording:
        state.log(f"先攻 {player_name(first)} がライフから1枚引いてゲーム開始")


def decide_first(state: GameState) -> int:
    """2.9.2: both flip their top life card; the higher number goes first, a tie flips again; flipped cards go to
    the graveyard. A player with no life left to flip loses the comparison (never happens with real decks)."""
    a, b = state.players
    while True:
        if not a.life or not b.life:
            return 0 if a.life else 1
        ca, cb = a.life[0], b.life[0]
        a.life, b.life = a.life[1:], b.life[1:]
        a.graveyard += (ca,)
        b.graveyard += (cb,)
        if state.recording:
            state.log(f"先攻決定: A {card_list([ca])} 対 B {card_list([cb])}")
        if ca.number != cb.number:
            return 0 if ca.number > cb.number else 1
