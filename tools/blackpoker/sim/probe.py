"""What the rules say to a move a learner names: an action with the cards chosen as its key cards, then a
way to pay its cost and choose its targets.

The play page offers only legal moves; the tutorial lets a learner try any action with any of their cards (in
the hand, a character on the field, a trump, a rare card), so that the engine can explain a wrong one with the
rule it breaks. :func:`try_request` answers either the legal requests of that action with exactly those key cards
(each way to pay the cost and choose the targets), or the rules' own refusal (:class:`IllegalDecision`, its text
naming the section). The refusal is the engine's check of a request made the way a player would most likely make
it: the first charged bulwarks for B, the first other hand cards for D, the first own characters for S, the first
possible targets. :func:`try_made` checks a request whose payment and targets the learner chose, legal or not.
"""

from __future__ import annotations

from blackpoker.core.cards import Card
from blackpoker.sim import lookup
from blackpoker.sim.decisions import RequestAction
from blackpoker.sim.engine import legal_decisions
from blackpoker.sim.game_errors import IllegalDecision
from blackpoker.sim.requests import check_request, cost_letters, key_zone, target_candidates
from blackpoker.sim.state import GameState, Payment, player_name

# legal as checked, yet no request the engine lists is (a payment or target the listing rules out): said plainly
NOT_LISTED = "2.10: このキーカードではこのアクションを起こせません"


def matching(state: GameState, action_id: str, keys: tuple[Card, ...], key_character: int | None = None) -> list[int]:
    """The indexes in ``legal_decisions(state)`` of the requests of ``action_id`` with exactly ``keys`` (any order)
    and ``key_character``."""
    wanted = sorted(keys, key=lambda c: c.sort_key)
    return [i for i, d in enumerate(legal_decisions(state))
            if isinstance(d, RequestAction) and d.action_id == action_id and d.key_character == key_character
            and sorted(d.keys, key=lambda c: c.sort_key) == wanted]


def likely_request(state: GameState, player: int, action_id: str, keys: tuple[Card, ...],
                   key_character: int | None = None) -> RequestAction:
    """The request as a player would most likely make it with these key cards (see the module's docstring)."""
    try:
        action = lookup.action(state.rules, action_id)
    except KeyError:
        raise IllegalDecision(f"4.3.1: アクション '{action_id}' はありません") from None
    letters = cost_letters(state, player, action) if state.chance == player else list(action.cost)
    p = state.players[player]
    charged = [ch.uid for ch in p.field if ch.kind == "bulwark" and not ch.driven]
    spare = [c for c in p.hand if c not in keys] if key_zone(action) == "hand" else list(p.hand)
    own = [ch.uid for ch in p.field]
    payment = Payment(tuple(sorted(charged[:letters.count("B")])), letters.count("L"),
                      tuple(spare[:letters.count("D")]), tuple(own[:letters.count("S")]))
    spec = action.target_spec
    targets = tuple(target_candidates(state, player, action, keys)[:spec.count]) if spec is not None else ()
    return RequestAction(action.id, keys, payment, targets, key_character)


def _check_chance(state: GameState, player: int) -> None:
    if state.winner is not None or state.pending is not None or state.chance != player:
        holder = "ルールシステム" if state.chance is None else player_name(state.chance)
        raise IllegalDecision(f"6.1.5: {player_name(player)} はチャンスを持っていません", f"チャンス: {holder}")


def try_request(state: GameState, player: int, action_id: str, keys: tuple[Card, ...],
                key_character: int | None = None) -> list[int]:
    """The legal requests of ``action_id`` with ``keys`` and ``key_character`` (indexes in ``legal_decisions``);
    raises :class:`IllegalDecision` with the rule broken when there is none."""
    _check_chance(state, player)
    found = matching(state, action_id, keys, key_character)
    if found:
        return found
    check_request(state, player, likely_request(state, player, action_id, keys, key_character))
    raise IllegalDecision(NOT_LISTED)


def _canonical(d: RequestAction) -> tuple[object, ...]:
    """A request with its key cards, bulwarks, discards and sacrifices in one order (a learner chooses them in any)."""
    pay = d.payment
    return (d.action_id, sorted(d.keys, key=lambda c: c.sort_key), d.key_character, sorted(pay.bulwarks), pay.life,
            sorted(pay.discards, key=lambda c: c.sort_key), sorted(pay.sacrifices), d.targets)


def try_made(state: GameState, player: int, req: RequestAction) -> int:
    """A request whose payment and targets the learner chose: its index in ``legal_decisions``, or the rules'
    refusal (:class:`IllegalDecision`) of the first thing it gets wrong."""
    _check_chance(state, player)
    check_request(state, player, req)
    wanted = _canonical(req)
    for i, d in enumerate(legal_decisions(state)):
        if isinstance(d, RequestAction) and _canonical(d) == wanted:
            return i
    raise IllegalDecision(NOT_LISTED)
