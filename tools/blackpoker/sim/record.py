"""Game records: a game as data (regulation, seed, decks, setup choices, every decision), written as JSON.

A record replays exactly: the engine draws every random step from the seed, so the same decks, choices and
decisions give the same game. ``recordfile.load_record`` reads a file against ``game-record.schema.json`` (this module needs no YAML or
schema library: the play page encodes and decodes records in the browser).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from blackpoker.core.cards import Card, parse_card
from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
from blackpoker.sim.frames import SetupChoice
from blackpoker.sim.state import PLAYER_NAMES, Payment, Target

SCHEMA = "game-record.schema.json"
VERSION = 1


@dataclass(frozen=True)
class GameEnd:
    """How a game ended: ``win``, ``turn-cap`` (no winner after the turn cap), ``stalled`` (no winner after
    the decision cap), ``invariant`` (a broken invariant) or ``error`` (the engine raised)."""

    end: str
    winner: int | None
    turns: int
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameRecord:
    """What replays a game exactly: the format, frame, seed, decks, setup choices and every decision."""

    format: str
    frame: str | None
    seed: int
    decks: tuple[tuple[Card, ...], ...] | None  # (A's, B's) in the order brought; None: the default decks
    choices: tuple[SetupChoice | None, ...] | None
    players: tuple[tuple[int, Decision], ...]  # (who decided, what)
    ruleset: str = ""
    policies: tuple[str, str] | None = None
    result: GameEnd | None = None

    def __post_init__(self) -> None:
        if self.choices is not None and all(c is None for c in self.choices):
            object.__setattr__(self, "choices", None)  # no choice at all: one spelling, so records compare equal


# --- encoding -----------------------------------------------------------------------------------------------
def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


def encode_option(option: object) -> dict[str, Any]:
    """A choice option as JSON: cards by code, characters by uid, so a record stays readable and replays exactly."""
    if isinstance(option, Card):
        return {"card": option.code}
    if isinstance(option, bool) or option is None:
        return {"none": True}
    if isinstance(option, int):
        return {"uid": option}
    if isinstance(option, str):
        return {"text": option}
    if isinstance(option, tuple) and len(option) == 2:
        return {"target": {"kind": option[0], "ref": option[1]}}
    raise TypeError(f"an option the record cannot hold: {option!r}")


def encode_decision(player: int, d: Decision) -> dict[str, Any]:
    """A decision as the game record stores it (schemas/game-record.schema.json)."""
    out: dict[str, Any] = {"player": PLAYER_NAMES[player]}
    if isinstance(d, Pass):
        out["pass"] = True
    elif isinstance(d, Choose):
        out["choose"] = encode_option(d.option)
    else:
        out["request"] = d.action_id
        if d.keys:
            out["keys"] = _cards(d.keys)
        pay = d.payment
        payment = {k: v for k, v in (("bulwarks", list(pay.bulwarks)), ("life", pay.life),
                                      ("discards", _cards(pay.discards)), ("sacrifices", list(pay.sacrifices))) if v}
        if payment:
            out["payment"] = payment
        if d.targets:
            out["targets"] = [{"kind": t.kind, "ref": t.ref} for t in d.targets]
        if d.key_character is not None:
            out["key_character"] = d.key_character
    return out


def _choice(c: SetupChoice | None) -> dict[str, Any] | None:
    if c is None:
        return None
    return {"trumps": _cards(c.trumps), "starting": _cards(c.starting), "rare": c.rare.code if c.rare else None,
            "reveal": c.reveal.code if c.reveal else None}


def to_json(record: GameRecord) -> dict[str, Any]:
    """The whole record as JSON: what a game needs to be replayed decision for decision, and its recorded end."""
    decks = record.decks or (None, None)
    choices = record.choices or (None, None)
    out: dict[str, Any] = {
        "$schema": SCHEMA, "record": VERSION, "ruleset": record.ruleset, "format": record.format,
        "frame": record.frame, "seed": record.seed,
        "decks": {n: (_cards(d) if d is not None else None) for n, d in zip(PLAYER_NAMES, decks, strict=True)},
        "choices": {n: _choice(c) for n, c in zip(PLAYER_NAMES, choices, strict=True)},
        "decisions": [encode_decision(p, d) for p, d in record.players],
    }
    if record.policies:
        out["policies"] = dict(zip(PLAYER_NAMES, record.policies, strict=True))
    if record.result:
        r = record.result
        out["result"] = {"end": r.end, "winner": None if r.winner is None else PLAYER_NAMES[r.winner],
                         "turns": r.turns, "problems": list(r.problems)}
    return out


def dumps(record: GameRecord) -> str:
    """The record as a file's text (UTF-8, Japanese kept readable)."""
    return json.dumps(to_json(record), ensure_ascii=False, indent=1) + "\n"


# --- decoding -----------------------------------------------------------------------------------------------
def decode_option(data: dict[str, Any]) -> object:
    """The inverse of :func:`encode_option`."""
    if "card" in data:
        return parse_card(data["card"])
    if "uid" in data:
        return int(data["uid"])
    if "text" in data:
        return str(data["text"])
    if "target" in data:
        return (data["target"]["kind"], int(data["target"]["ref"]))
    return None


def decode_decision(data: dict[str, Any]) -> Decision:
    """The inverse of :func:`encode_decision`."""
    if data.get("pass"):
        return Pass()
    if "choose" in data:
        return Choose(decode_option(data["choose"]))
    pay = data.get("payment", {})
    payment = Payment(tuple(pay.get("bulwarks", ())), int(pay.get("life", 0)),
                      tuple(parse_card(c) for c in pay.get("discards", ())), tuple(pay.get("sacrifices", ())))
    return RequestAction(data["request"], tuple(parse_card(c) for c in data.get("keys", ())), payment,
                         tuple(Target(t["kind"], int(t["ref"])) for t in data.get("targets", ())),
                         data.get("key_character"))


def _setup_choice(data: dict[str, Any] | None) -> SetupChoice | None:
    if data is None:
        return None

    def one(key: str) -> Card | None:
        return parse_card(data[key]) if data.get(key) else None
    return SetupChoice(tuple(map(parse_card, data.get("trumps", ()))), tuple(map(parse_card, data.get("starting", ()))),
                       one("rare"), one("reveal"))


def from_json(data: dict[str, Any]) -> GameRecord:
    """A record read back; :func:`load_record` checked it against the schema first, so the fields are there."""
    decks_data = [data["decks"][n] for n in PLAYER_NAMES]
    decks = None if all(d is None for d in decks_data) else tuple(tuple(map(parse_card, d or ())) for d in decks_data)
    choices_data = [data["choices"][n] for n in PLAYER_NAMES]
    choices = None if all(c is None for c in choices_data) else tuple(_setup_choice(c) for c in choices_data)
    result = None
    if "result" in data:
        r = data["result"]
        result = GameEnd(r["end"], None if r["winner"] is None else PLAYER_NAMES.index(r["winner"]), r["turns"],
                         tuple(r.get("problems", ())))
    policies = tuple(data["policies"].get(n, "") for n in PLAYER_NAMES) if "policies" in data else None
    return GameRecord(data["format"], data.get("frame"), data["seed"], decks, choices,
                      tuple((PLAYER_NAMES.index(d["player"]), decode_decision(d)) for d in data["decisions"]),
                      data["ruleset"], policies, result)
