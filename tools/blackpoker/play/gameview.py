"""What the play page shows of a game, as plain data (JSON): the board, the moves offered, the play-by-play.

Everything comes from what the person may see: the board is drawn by the rulebook's renderer
(``render/board.py``) with the person as its viewer (the opponent's hand face down, its life as 2.11.1 answers),
what changed since the person's last decision marked, and the play-by-play hides the cards of the opponent's
face-down bulwarks. The moves are the legal decisions,
grouped as a player looks for them: a card, the actions it can be the key card of, then each way to pay the cost
and choose the targets; passing; or the answers to an effect's question. A move is its index in
``legal_decisions(state)``.
"""

from __future__ import annotations

from typing import Any

from blackpoker.core.cards import Card
from blackpoker.core.model import Action, iter_text
from blackpoker.play.playbyplay import Line, action_href
from blackpoker.play.session import Game
from blackpoker.render.board import board_svg
from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
from blackpoker.sim.engine import request_detail, target_text
from blackpoker.sim.state import PLAYER_NAMES, GameState
from blackpoker.sim.text import char_text


def action_info(action: Action) -> dict[str, Any]:
    """An action's entry as the list shows it (@, $, ★, effect), for 「効果を見る」."""
    return {"id": action.id, "name": action.name, "shorthand": action.shorthand, "cost": action.cost_text,
            "key_card": action.key_card or action.implicit_key or "", "target": action.target or "",
            "effect": list(iter_text(action.effect)), "href": action_href(action)}


def option_text(state: GameState, option: object) -> str:
    if isinstance(option, int) and not isinstance(option, bool) and (ch := state.find(option)) is not None:
        return char_text(ch)
    if isinstance(option, tuple) and len(option) == 2:
        return target_text(state, str(option[0]), int(option[1]))
    if option is None or isinstance(option, bool):
        return "なし"
    return str(option)


def variant_text(state: GameState, d: RequestAction) -> str:
    return request_detail(state, d).strip() or "コスト・対象なし"


def moves(game: Game) -> dict[str, Any]:
    """The person's moves now, grouped (empty when the computer is to act or the game is over)."""
    if game.over or not game.human_to_act:
        return {"kind": "wait"}
    state = game.state
    legal = game.legal()
    if state.pending is not None:
        return {"kind": "question", "prompt": state.pending.prompt,
                "options": [{"move": i, "text": option_text(state, d.option)}
                            for i, d in enumerate(legal) if isinstance(d, Choose)]}
    rules = state.rules
    groups: dict[str, dict[str, Any]] = {}  # key (a card or a key soldier, or none) → its actions

    def group(key: str, label: str, card: str | None, order: tuple[object, ...]) -> dict[str, Any]:
        return groups.setdefault(key, {"key": key, "label": label, "card": card, "actions": {}, "order": order})

    pass_move = None
    for i, d in enumerate(legal):
        if isinstance(d, Pass):
            pass_move = i
            continue
        assert isinstance(d, RequestAction)
        owners: list[dict[str, Any]] = []
        for card in dict.fromkeys(d.keys):
            owners.append(group(f"card:{card.code}", str(card), str(card), (0, card.sort_key)))
        if d.key_character is not None and (ch := state.find(d.key_character)) is not None:
            owners.append(group(f"char:{d.key_character}", char_text(ch), None, (1, d.key_character)))
        if not owners:
            owners.append(group("none", "キーカードのいらないアクション", None, (2,)))
        for owner in owners:
            entry = owner["actions"].setdefault(d.action_id, {**action_info(rules.action(d.action_id)), "moves": []})
            entry["moves"].append({"move": i, "text": variant_text(state, d)})
    ordered = sorted(groups.values(), key=lambda g: g.pop("order"))
    return {"kind": "choose", "pass": pass_move,
            "groups": [{**g, "actions": list(g["actions"].values())} for g in ordered]}


def moved_cards(before: GameState | None, after: GameState, viewer: int) -> frozenset[Card]:
    """The visible cards whose place changed since ``before`` (both decks may hold a ♠7: a card is known by the
    player whose zone holds it and the card)."""
    if before is None:
        return frozenset()
    places_before = _places(before, viewer)
    return frozenset(card for (owner, card), place in _places(after, viewer).items()
                     if places_before.get((owner, card)) != place)


Place = tuple[str, int | None]  # the zone, and the character or request in it (turned: a driven character)


def _places(state: GameState, viewer: int) -> dict[tuple[int, Card], Place]:
    places: dict[tuple[int, Card], Place] = {}
    for index, p in enumerate(state.players):
        if index == viewer:
            places.update(((index, c), ("hand", None)) for c in p.hand)
        places.update(((index, c), ("graveyard", None)) for c in p.graveyard)
        for ch in p.field:
            if ch.face_up or index == viewer:
                places.update(((index, c), ("field", (ch.uid if ch.face_up else -ch.uid) * (2 if ch.driven else 1)))
                              for c in ch.cards)
        places.update(((index, c), ("fog", None)) for f in p.fog for c in f.cards)
    for r in state.stage:  # key cards on the stage lie face up
        places.update(((r.controller, c), ("stage", r.uid)) for c in r.keys)
    return places


def play_by_play(game: Game) -> list[Line]:
    """The game's play-by-play as the person may read it (each line linked once per game: ``game.log``)."""
    return game.log.lines(game.state)


def view(game: Game) -> dict[str, Any]:
    """Everything the page draws after a step."""
    state = game.state
    me, other = PLAYER_NAMES[game.human], PLAYER_NAMES[1 - game.human]
    to_act = game.to_act
    marked = moved_cards(game.seen, state, game.human)
    winner = None if state.winner is None else PLAYER_NAMES[state.winner]
    return {
        "board": board_svg(state, f"盤面(あなたは{me})", before=game.seen, hidden_hands=(1 - game.human,),
                           since="あなたの前の手", bottom=game.human),
        "you": me, "opponent": other, "turn": state.turn, "turn_player": PLAYER_NAMES[state.turn_player],
        "chance": None if state.chance is None else PLAYER_NAMES[state.chance],
        "to_act": None if to_act is None else PLAYER_NAMES[to_act],
        "stage": [state.rules.action(r.action_id).name for r in reversed(state.stage)],
        "moved": sorted(str(c) for c in marked),
        "moves": moves(game), "log": play_by_play(game), "winner": winner,
        "game_over": None if winner is None else f"{winner}の勝利",
        "can_undo": bool(game.undo_points), "decisions": len(game.decisions), "can_save": game.record is not None,
    }


def decision_text(game: Game, before: GameState, decision: Decision) -> str:
    """A decision as one line (the page's status while the computer plays)."""
    return decision_text_of(before, decision)


def decision_text_of(before: GameState, decision: Decision) -> str:
    """A decision as one line, read in the position it was made in."""
    if isinstance(decision, Pass):
        return "パス"
    if isinstance(decision, Choose):
        return f"選択「{option_text(before, decision.option)}」"
    return f"「{before.rules.action(decision.action_id).name}」{request_detail(before, decision)}"
