"""Determinisation: a whole game state consistent with what one player sees, its hidden cards drawn at random.

ISMCTS searches such states instead of the real one. Every card the viewer cannot see is drawn from the cards
that could be there: the viewer's own unseen cards (their life, an unopened pack) from their own deck, the
opponent's (hand, life, face-down bulwarks, rare cards, face-down trumps, pack) from the regulation's deck less
what the opponent has shown. The seed of the copy is new, so its shuffles are not the real game's either.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from blackpoker.core.cards import Card
from blackpoker.core.model import Rules
from blackpoker.sim.abilities import trump_of
from blackpoker.sim.draw import shuffle
from blackpoker.sim.frames import check_regulation, default_deck
from blackpoker.sim.policies.observation import Observation, SideView
from blackpoker.sim.state import Character, GameState, Pending, Player, TrumpCard, sort_cards


def _shown(obs: Observation, index: int, side: SideView) -> list[Card]:
    """The cards of player ``index`` the viewer can see, wherever they are."""
    cards = list(side.hand or ()) + list(side.graveyard) + list(side.pack or ()) + list(side.rare or ())
    cards += [c for ch in side.field if ch.cards for c in ch.cards]
    cards += [c for f in side.fog for c in f.cards]
    cards += [t.card for t in side.trumps if t.card is not None]
    cards += [c for r in obs.stage + obs.buffer if r.controller == index for c in r.keys]
    if obs.pending is not None and obs.pending.request.controller == index and \
            all(r.uid != obs.pending.request.uid for r in obs.stage):
        cards += obs.pending.request.keys
    return cards


def _life_count(side: SideView, unseen: int, other_hidden: int) -> int:
    if side.life is not None:
        return side.life
    answer = side.life_answer.rstrip("枚")
    if answer.isdigit():
        return int(answer)
    return max(10, unseen - other_hidden)  # 「10枚以上です」: every card left over, at least 10


def determinize(obs: Observation, rules: Rules, rng: random.Random, options: tuple[object, ...] = ()) -> GameState:
    """A state the viewer cannot tell from the real one (see the module docstring); ``options`` are the answers
    the viewer was offered when an effect asks them (a question's options are part of what they see)."""
    frame = check_regulation(rules, obs.format, obs.frame)
    pool_deck = default_deck(rules, frame)
    players = []
    for index, side in enumerate(obs.players):
        shown = _shown(obs, index, side)
        seen = set(shown)  # a deck's cards are distinct: removing each shown card once is leaving them all out
        pool = sort_cards(c for c in (side.deck if side.deck is not None else pool_deck) if c not in seen)
        shuffle(rng, pool)
        hidden_trumps = [t for t in side.trumps if t.card is None]
        trump_cards = [c for c in pool if trump_of(rules, c) is not None][:len(hidden_trumps)]
        for c in trump_cards:
            pool.remove(c)
        unseen = len(pool)
        take = iter(pool)

        def draw(n: int, take: Iterator[Card] = take) -> tuple[Card, ...]:
            return tuple(c for _, c in zip(range(n), take, strict=False))
        hand = side.hand if side.hand is not None else draw(side.hand_count)
        field = []
        for ch in side.field:
            cards = ch.cards if ch.cards is not None else draw(1)
            field.append(Character(ch.uid, ch.owner, cards, ch.kind, ch.type_id, ch.driven, ch.face_up,
                                   ch.entered_turn, ch.timestamp))
        rare = side.rare if side.rare is not None else draw(side.rare_count)
        pack = side.pack if side.pack is not None else draw(side.pack_count)
        consumed = (0 if side.hand is not None else side.hand_count) + sum(ch.cards is None for ch in side.field) \
            + (0 if side.rare is not None else side.rare_count) + (0 if side.pack is not None else side.pack_count)
        life = draw(_life_count(side, unseen, consumed))
        trump_iter = iter(trump_cards)
        trumps = tuple(TrumpCard(t.uid, t.card if t.card is not None else next(trump_iter, None) or draw(1)[0],
                                 t.face_up) for t in side.trumps)
        p = Player(life=life, hand=hand, graveyard=side.graveyard, field=tuple(field), fog=side.fog, pack=pack,
                   pack_opened=side.pack_opened, rare=rare, trumps=trumps)
        players.append(p)
    state = GameState(rules, obs.format, rng.randrange(1 << 30), players, frame=obs.frame,
                      turn_player=obs.turn_player, chance=obs.chance, turn=obs.turn, stage=obs.stage,
                      passes=obs.passes, buffer=obs.buffer, used=obs.used, attack=obs.attack,
                      modifiers=obs.modifiers, split=obs.split, after=obs.after, next_uid=obs.next_uid,
                      resolved=obs.resolved)
    for index in (0, 1):
        state.players[index].deck = frozenset(state.all_cards(index))
    if obs.pending is not None:
        snapshot = state.clone()
        pv = obs.pending
        state.pending = Pending(snapshot, pv.request, pv.where, pv.choices, obs.viewer, pv.prompt, options)
    return state
