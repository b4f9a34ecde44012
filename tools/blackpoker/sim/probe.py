"""What the rules say to a move a learner names: an action with the cards chosen as its key cards.

The play page offers only legal moves; the tutorial lets a learner try any action with any cards, so that the
engine can explain a wrong one with the rule it breaks. :func:`try_request` answers either the legal requests
of that action with exactly those key cards (each way to pay the cost and choose the targets), or the rules'
own refusal (:class:`IllegalDecision`, its text naming the section). The refusal is the engine's check of a
request made the way a player would most likely make it: the first charged bulwarks for B, the first other hand
cards for D, the first own characters for S, the first possible targets.
"""

from __future__ import annotations

from blackpoker.core.cards import Card
from blackpoker.sim import lookup
from blackpoker.sim.decisions import RequestAction
from blackpoker.sim.engine import legal_decisions
from blackpoker.sim.game_errors import IllegalDecision
from blackpoker.sim.requests import check_request, cost_letters, key_zone, target_candidates
from blackpoker.sim.state import GameState, Payment, player_name


def matching(state: GameState, action_id: str, keys: tuple[Card, ...]) -> list[int]:
    """The indexes in ``legal_decisions(state)`` of the requests of ``action_id`` with exactly ``keys`` (any order)."""
    wanted = sorted(keys, key=lambda c: c.sort_key)
    return [i for i, d in enumerate(legal_decisions(state))
            if isinstance(d, RequestAction) and d.action_id == action_id and d.key_character is None
            and sorted(d.keys, key=lambda c: c.sort_key) == wanted]


def likely_request(state: GameState, player: int, action_id: str, keys: tuple[Card, ...]) -> RequestAction:
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
    return RequestAction(action.id, keys, payment, targets)


def try_request(state: GameState, player: int, action_id: str, keys: tuple[Card, ...]) -> list[int]:
    """The legal requests of ``action_id`` with ``keys`` (indexes in ``legal_decisions``); raises
    :class:`IllegalDecision` with the rule broken when there is none."""
    if state.winner is not None or state.pending is not None or state.chance != player:
        holder = "ルールシステム" if state.chance is None else player_name(state.chance)
        raise IllegalDecision(f"6.1.5: {player_name(player)} はチャンスを持っていません", f"チャンス: {holder}")
    found = matching(state, action_id, keys)
    if found:
        return found
    check_request(state, player, likely_request(state, player, action_id, keys))
    # legal as made here, yet no listed request is (a payment or target the listing rules out): say so plainly
    raise IllegalDecision("2.10: このキーカードではこのアクションを起こせません")
