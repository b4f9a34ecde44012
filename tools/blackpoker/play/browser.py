"""The play page's worker calls this: one game at a time, each command JSON in and JSON out.

``load(rules_json)`` reads the site's export once (``edition()`` says which); ``handle(command_json)`` runs one
command (``new``, ``play``, ``position``, ``step``, ``undo``, ``record``, ``resume``, ``final``; the tutorial's
``lesson…``, see ``tutorial.py``) and answers ``{"ok": true, …}`` or ``{"ok": false, "error": …}``. The tests run
the same functions in CPython, so the browser and the command line play the same game.
"""

from __future__ import annotations

import json
import time
from typing import Any

from blackpoker.core.fromexport import rules_from_export
from blackpoker.core.model import Rules
from blackpoker.play.gameview import decision_text, view
from blackpoker.play.position import decode_state
from blackpoker.play.session import Game, PlayError, from_position, resume, start
from blackpoker.play.tutorial import Tutorial
from blackpoker.play.tutorial import run as run_lesson
from blackpoker.sim.game_errors import SimError
from blackpoker.sim.state import PLAYER_NAMES, GameState

_rules: Rules | None = None
_game: Game | None = None
_lesson: Tutorial | None = None  # the guided tutorial's lesson (play/tutorial.html)


def load(rules_json: str) -> str:
    """Read the ruleset from the export; answers the edition's version."""
    global _rules
    _rules = rules_from_export(json.loads(rules_json))
    return _rules.edition.version


def edition() -> str:
    """The loaded ruleset's version (a restored engine has its rules loaded already)."""
    if _rules is None:
        raise PlayError("the rules are not loaded")
    return _rules.edition.version


def final_state(state: GameState) -> dict[str, Any]:
    """A position in full (every zone, in order), to compare a game played here with the same game elsewhere."""
    return {
        "turn": state.turn, "turn_player": state.turn_player, "chance": state.chance, "winner": state.winner,
        "stage": [[r.action_id, r.controller, [c.code for c in r.keys]] for r in state.stage],
        "resolved": list(state.resolved),
        "players": [{
            "life": [c.code for c in p.life], "hand": [c.code for c in p.hand],
            "graveyard": [c.code for c in p.graveyard],
            "field": [[ch.type_id, [c.code for c in ch.cards], ch.driven, ch.face_up] for ch in p.field],
            "fog": [[f.fog_id, [c.code for c in f.cards]] for f in p.fog],
            "pack": [c.code for c in p.pack], "rare": [c.code for c in p.rare],
            "trumps": [[t.card.code, t.face_up] for t in p.trumps],
        } for p in state.players],
    }


def _run(command: dict[str, Any]) -> dict[str, Any]:
    global _game, _lesson
    if _rules is None:
        raise PlayError("the rules are not loaded")
    name = command.get("command")
    if str(name).startswith("lesson"):
        _lesson, answer = run_lesson(_lesson, _rules, command)
        return answer
    if name == "new":
        _game = start(_rules, command["format"], command.get("frame") or None, command["opponent"],
                      int(command["seed"]), starts=command.get("starts", "human"))
        return {"view": view(_game)}
    if name == "position":  # a worked example's start (play/examples/*.json, written by the build)
        position = command["position"]
        _game = from_position(_rules, decode_state(_rules, position["state"]), command["opponent"],
                              int(command.get("seed", 0)))
        return {"view": view(_game), "title": position["title"]}
    if name == "resume":
        _game = resume(_rules, command["record"], opponent=command.get("opponent"))
        return {"view": view(_game)}
    game = _game
    if game is None:
        raise PlayError("no game has started")
    if name == "play":
        game.play(int(command["move"]))
        return {"view": view(game)}
    if name == "step":
        before = game.state
        who = PLAYER_NAMES[game.to_act] if game.to_act is not None else ""
        began = time.perf_counter()
        decision = game.opponent_step()
        seconds = time.perf_counter() - began
        return {"view": view(game), "did": f"{who}: {decision_text(game, before, decision)}", "seconds": seconds}
    if name == "undo":
        return {"undone": game.undo(), "view": view(game)}
    if name == "record":
        return {"record": game.record_data()}
    if name == "final":
        return {"state": final_state(game.state)}
    raise PlayError(f"unknown command {name!r}")


def handle(command_json: str) -> str:
    """One command; a refusal is an answer (``ok: false``) so the page can say it, never an exception."""
    try:
        answer = {"ok": True, **_run(json.loads(command_json))}
    except (PlayError, SimError, KeyError, ValueError, TypeError) as exc:
        answer = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    return json.dumps(answer, ensure_ascii=False)
