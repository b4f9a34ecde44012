"""A game position as JSON and back: how a worked example's starting position reaches the play page.

The build starts each worked example as the scenario runner does (``sim/scenario``, which reads YAML) and writes
its state with :func:`encode_state`; the browser, which has no YAML, reads it with :func:`decode_state`. Every
record of ``sim/state.py`` is written field by field with its type's name, cards by their code, tuples and sets
marked, so the position read back equals the one written (tested on every example).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from blackpoker.core.cards import Card, parse_card
from blackpoker.core.model import Rules
from blackpoker.sim import state as st

_TYPES: dict[str, type] = {cls.__name__: cls for cls in (
    st.Character, st.FogCard, st.TrumpCard, st.Target, st.Payment, st.Request, st.Modifier, st.AttackLine,
    st.Pending, st.Player, st.GameState)}
_SKIP = frozenset({"rules"})  # the state's ruleset: the reader's own


def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return {"$card": value.code}
    if isinstance(value, bool) or value is None or isinstance(value, int | str):
        return value
    if isinstance(value, tuple):
        return {"$tuple": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, frozenset):
        items = [_encode(v) for v in value]
        return {"$set": sorted(items, key=lambda v: json.dumps(v, sort_keys=True, ensure_ascii=False))}
    name = type(value).__name__
    if _TYPES.get(name) is type(value) and dataclasses.is_dataclass(value):
        return {"$type": name, **{f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)
                                  if f.name not in _SKIP}}
    raise TypeError(f"a value a position cannot hold: {value!r}")


def _decode(value: Any, rules: Rules) -> Any:
    if isinstance(value, list):
        return [_decode(v, rules) for v in value]
    if not isinstance(value, dict):
        return value
    if "$card" in value:
        return parse_card(value["$card"])
    if "$tuple" in value:
        return tuple(_decode(v, rules) for v in value["$tuple"])
    if "$set" in value:
        return frozenset(_decode(v, rules) for v in value["$set"])
    cls = _TYPES[value["$type"]]
    fields = {k: _decode(v, rules) for k, v in value.items() if k != "$type"}
    if cls is st.GameState:
        return st.GameState(rules=rules, **fields)
    return cls(**fields)


def encode_state(state: st.GameState) -> dict[str, Any]:
    """The whole position as JSON data."""
    data: dict[str, Any] = _encode(state)
    return data


def decode_state(rules: Rules, data: dict[str, Any]) -> st.GameState:
    state = _decode(data, rules)
    assert isinstance(state, st.GameState)
    return state
