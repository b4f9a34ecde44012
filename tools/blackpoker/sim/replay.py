"""Replaying a game record: the Japanese play-by-play, the end state, and the record as a scenario file.

The play-by-play is the engine's own event log, as ``blackpoker sim run`` prints it for a scenario. A scenario
written from a record starts from the same decks, setup choices and seed (``start: setup``), scripts every
decision with the references scenarios use (``A:♠7``, ``trump:B:♠2``, ``request:カウンター``) and expects the
recorded end: winner, turn, lives and the whole resolution log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from blackpoker.core.cards import Card
from blackpoker.core.model import Rules
from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
from blackpoker.sim.engine import apply, current_player
from blackpoker.sim.frames import SetupChoice, check_regulation, default_deck
from blackpoker.sim.game_errors import SimError
from blackpoker.sim.record import GameRecord
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import PLAYER_NAMES, GameState, Target, player_name
from blackpoker.sim.text import char_text


class ReplayError(Exception):
    """A record that does not replay: ``index`` is the decision (None: the setup), ``message`` says why."""

    def __init__(self, index: int | None, message: str) -> None:
        super().__init__(message)
        self.index, self.message = index, message


@dataclass
class Replay:
    """A game played again from its record: the final state, the play-by-play and every state before a decision."""

    state: GameState
    transcript: list[str] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)  # the state before each decision


def _option_text(s: GameState, option: object) -> str:
    if isinstance(option, int) and (ch := s.find(option)) is not None:
        return char_text(ch)
    if isinstance(option, tuple) and len(option) == 2:
        from blackpoker.sim.engine import target_text
        return target_text(s, str(option[0]), int(option[1]))
    return str(option)


def replay(rules: Rules, record: GameRecord) -> Replay:
    """Play the record's decisions from its setup; raises :class:`ReplayError` at a decision the game refuses."""
    try:
        state = new_game(rules, record.format, record.seed, frame=record.frame, decks=record.decks,
                         choices=record.choices, record=True)
    except SimError as exc:
        raise ReplayError(None, f"the setup is refused: {exc}") from None
    out = Replay(state, list(state.events or []))
    for i, (player, decision) in enumerate(record.players):
        if state.winner is not None:
            raise ReplayError(i, f"the game is already over ({player_name(state.winner)} won); expected no more "
                                 "decisions")
        if current_player(state) != player:
            raise ReplayError(i, f"{PLAYER_NAMES[player]} does not decide now; expected "
                                 f"{player_name(current_player(state))}")
        before = len(state.events or [])
        out.states.append(state)
        try:
            after = apply(state, decision)
        except SimError as exc:
            raise ReplayError(i, f"the game refuses this decision: {exc}") from None
        if isinstance(decision, Choose):
            out.transcript.append(f"{PLAYER_NAMES[player]}: 選択「{_option_text(state, decision.option)}」")
        out.transcript.extend((after.events or [])[before:])
        state = after
    out.state = state
    return out


# --- to a scenario -------------------------------------------------------------------------------------------
def _char_ref(s: GameState, uid: int) -> str:
    ch = s.find(uid)
    if ch is None:
        raise ReplayError(None, f"character {uid} is not on a field")
    return f"{PLAYER_NAMES[ch.owner]}:{ch.cards[0].code}"


def _target_ref(s: GameState, t: Target) -> str:
    if t.kind == "player":
        return PLAYER_NAMES[t.ref]
    if t.kind == "trump":
        trump = s.find_trump(t.ref)
        if trump is None:
            raise ReplayError(None, f"trump {t.ref} is not in a trump zone")
        return f"trump:{PLAYER_NAMES[s.trump_owner(t.ref)]}:{trump.card.code}"
    if t.kind == "request":
        req = s.request_on_stage(t.ref)
        if req is None:
            raise ReplayError(None, f"request {t.ref} is not on the stage")
        same = [r.uid for r in reversed(s.stage) if r.action_id == req.action_id]  # topmost first
        nth = same.index(req.uid) + 1
        return f"request:{req.action_id}" + (f"#{nth}" if nth > 1 else "")
    return _char_ref(s, t.ref)


def _option_ref(s: GameState, option: object) -> object:
    if isinstance(option, Card):
        return option.code
    if isinstance(option, bool) or option is None:
        raise ReplayError(None, "an empty answer cannot be scripted")
    if isinstance(option, int):
        return _char_ref(s, option)
    if isinstance(option, tuple) and len(option) == 2:
        return _target_ref(s, Target(str(option[0]), int(option[1])))
    return str(option)


def _step(s: GameState, player: int, d: Decision) -> dict[str, Any]:
    step: dict[str, Any] = {"player": PLAYER_NAMES[player]}
    if isinstance(d, Pass):
        step["pass"] = True
        return step
    if isinstance(d, Choose):
        step["choose"] = _option_ref(s, d.option)
        return step
    assert isinstance(d, RequestAction)
    step["request"] = d.action_id
    if d.keys:
        step["keys"] = [c.code for c in d.keys]
    cost: dict[str, Any] = {}
    if d.payment.bulwarks:
        cost["bulwarks"] = [_char_ref(s, u) for u in d.payment.bulwarks]
    if d.payment.discards:
        cost["discard"] = [c.code for c in d.payment.discards]
    if d.payment.sacrifices:
        cost["sacrifice"] = [_char_ref(s, u) for u in d.payment.sacrifices]
    if cost:
        step["cost"] = cost
    if d.targets:
        step["targets"] = [_target_ref(s, t) for t in d.targets]
    if d.key_character is not None:
        step["key_soldier"] = _char_ref(s, d.key_character)
    return step


def _choices(c: SetupChoice | None) -> dict[str, Any]:
    if c is None:
        return {}
    out: dict[str, Any] = {}
    if c.trumps:
        out["trumps"] = [x.code for x in c.trumps]
    if c.starting:
        out["starting"] = [x.code for x in c.starting]
    if c.rare is not None:
        out["rare"] = c.rare.code
    if c.reveal is not None:
        out["reveal"] = c.reveal.code
    return out


def to_scenario(rules: Rules, record: GameRecord, played: Replay, title: str) -> str:
    """The record as scenario YAML (see the module docstring); raises :class:`ReplayError` for a decision a
    scenario cannot name."""
    setup: dict[str, Any] = {}
    # the decks card by card, in the order brought (a scenario's default deck is sorted, the engine's is not)
    decks = record.decks or (default_deck(rules, check_regulation(rules, record.format, record.frame)),) * 2
    setup["decks"] = {n: {"cards": [c.code for c in d]} for n, d in zip(PLAYER_NAMES, decks, strict=True)}
    if record.choices is not None and any(record.choices):
        setup["choices"] = {n: _choices(c) for n, c in zip(PLAYER_NAMES, record.choices, strict=True) if _choices(c)}
    script = []
    for i, ((player, decision), state) in enumerate(zip(record.players, played.states, strict=True)):
        try:
            script.append(_step(state, player, decision))
        except ReplayError as exc:
            raise ReplayError(i, exc.message) from None
    end = played.state
    expect: dict[str, Any] = {
        "winner": None if end.winner is None else PLAYER_NAMES[end.winner],
        "turn": PLAYER_NAMES[end.turn_player],
        "life": {n: len(p.life) for n, p in zip(PLAYER_NAMES, end.players, strict=True)},
        "resolved": list(end.resolved),
    }
    data: dict[str, Any] = {"title": title, "section": "6.4", "ruleset": rules.edition.version, "format": record.format}
    if record.frame is not None:
        data["frame"] = record.frame
    data["start"] = {"seed": record.seed, "setup": setup}
    data["script"] = script
    data["expect"] = expect
    head = "# yaml-language-server: $schema=../../schemas/scenario.schema.json\n"
    return head + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=120, default_flow_style=None)
