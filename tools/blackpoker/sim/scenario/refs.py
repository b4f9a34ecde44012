"""A scenario file as read, and what its text refers to: cards, actions, fogs, characters, trumps, requests
(each resolved against the position, or a located error)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from blackpoker.core.cards import Card, parse_card
from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.model import Rules
from blackpoker.core.yamlsource import SourceFile
from blackpoker.sim.state import (
    GameState,
    Target,
)
from blackpoker.sim.text import TYPE_NAMES

SCHEMA = "scenario.schema.json"

PLAYER_INDEX = {"A": 0, "B": 1}

TYPE_BY_NAME = {v: k for k, v in TYPE_NAMES.items()}

@dataclass(frozen=True)
class Scenario:
    """A parsed, validated scenario file (its data stays located for errors found while running)."""

    path: str
    title: str
    section: str
    format: str
    src: SourceFile
    frame: str | None = None

class Located(Exception):
    """A problem at a data path of the scenario (``key``: at the mapping key rather than its value)."""

    def __init__(self, path: tuple[Any, ...], message: str, *, key: bool = False) -> None:
        self.path, self.message, self.key = path, message, key

def unplayable(what: str, exc: Exception) -> str:
    """The message for an exception the simulator raised on a scenario that passed every check: the scenario is
    still named at the text that led there, with what went wrong (a bug of the checks or of the simulator)."""
    return (f"the simulator cannot play {what} ({type(exc).__name__}: {exc}); expected a position and a script "
            "the rules can reach (if they are, this is a bug in the simulator)")

def card_at(text: str, path: tuple[Any, ...]) -> Card:
    """A card written in a scenario; a bad one is an error at its place in the file."""
    try:
        return parse_card(str(text))
    except ValueError as exc:
        raise Located(path, str(exc)) from None

def cards_at(items: list[Any], path: tuple[Any, ...]) -> tuple[Card, ...]:
    """A list of cards written in a scenario, each located."""
    return tuple(card_at(t, path + (i,)) for i, t in enumerate(items))

def located(scenario: Scenario, exc: Located) -> DefinitionErrors:
    """A scenario's located problem as the errors every command reports (file:line:col)."""
    return DefinitionErrors([scenario.src.error(exc.path, exc.message, key=exc.key)])

def fog_at(rules: Rules, text: str, path: tuple[Any, ...]) -> str:
    """A fog by id or Japanese name, as scenario authors write either."""
    for f in rules.fogs:
        if text in (f.id, f.name):
            return f.id
    raise Located(path, f"'{text}' is not a fog; expected one of " + ", ".join(f.name for f in rules.format_fogs))

def action_at(rules: Rules, text: str, path: tuple[Any, ...]) -> str:
    """An action by id or Japanese name, as scenario authors write either."""
    try:
        return rules.find_action(str(text)).id
    except KeyError as exc:
        raise Located(path, str(exc.args[0])) from None

def character_at(s: GameState, ref: str, path: tuple[Any, ...]) -> int:
    """A character reference: owner and one of its cards, ``A:♠7`` (ASCII ``A:S7`` too)."""
    owner, _, card_text = str(ref).partition(":")
    if owner not in PLAYER_INDEX or not card_text:
        raise Located(path, f"'{ref}' is not a character reference; expected e.g. 'A:♠7'")
    card = card_at(card_text, path)
    for ch in s.players[PLAYER_INDEX[owner]].field:
        if card in ch.cards:
            return ch.uid
    raise Located(path, f"no character with {card} on {owner}'s field")

def _trump(s: GameState, ref: str, path: tuple[Any, ...]) -> int:
    """A trump reference: ``trump:A:♠2`` (owner and card)."""
    owner, _, card_text = str(ref)[len("trump:"):].partition(":")
    if owner not in PLAYER_INDEX or not card_text:
        raise Located(path, f"'{ref}' is not a trump reference; expected e.g. 'trump:A:♠2'")
    card = card_at(card_text, path)
    for t in s.players[PLAYER_INDEX[owner]].trumps:
        if t.card == card:
            return t.uid
    raise Located(path, f"no trump {card} in {owner}'s trump zone")

def mark_at(s: GameState, ref: str, path: tuple[Any, ...]) -> int:
    """What a fog card marks: a trump (クローズ) or a character (アップ, ダウン)."""
    return _trump(s, ref, path) if str(ref).startswith("trump:") else character_at(s, ref, path)

def _request_ref(s: GameState, ref: str, path: tuple[Any, ...]) -> int:
    """``request:アップ``: the topmost アップ on the stage; ``request:アップ#2``: the second from the top."""
    name, _, nth = str(ref)[len("request:"):].partition("#")
    if nth and not nth.isdigit() or nth == "0":
        raise Located(path, f"'{ref}' is not a request reference; expected e.g. 'request:アップ' or 'request:アップ#2'")
    found = [r.uid for r in reversed(s.stage) if name in (s.rules.action(r.action_id).id, s.rules.action(r.action_id).name)]
    if len(found) >= int(nth or 1):
        return found[int(nth or 1) - 1]
    raise Located(path, f"no request '{name}'{f' #{nth}' if nth else ''} on the stage")

def target_at(s: GameState, ref: str, path: tuple[Any, ...]) -> Target:
    """A target reference (``A``, ``A:♠7``, ``request:カウンター#2``, ``trump:B:♠2``) resolved in the position."""
    ref = str(ref)
    if ref in PLAYER_INDEX:
        return Target("player", PLAYER_INDEX[ref])
    if ref.startswith("request:"):
        return Target("request", _request_ref(s, ref, path))
    if ref.startswith("trump:"):
        return Target("trump", _trump(s, ref, path))
    return Target("character", character_at(s, ref, path))
