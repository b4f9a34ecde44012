"""The game state's hand-written parts that mirror its fields: the records' ``__init__`` and the states' copies.

They are written out for speed (see ``core/frozen.py``); these tests fail when a field is added to a record or a state
and one of them is not brought along."""

from __future__ import annotations

import ast
import dataclasses

from blackpoker.native import source_of
from blackpoker.sim import decisions as decisions_module
from blackpoker.sim import state as state_module
from blackpoker.sim.policies import observation as observation_module
from blackpoker.sim.state import GameState, Player

STATE_SOURCE = source_of(state_module.__name__)  # the source, also when the compiled module is imported


def _records() -> dict[str, ast.ClassDef]:
    """The frozen records of the state, the decisions and the observations."""
    records: dict[str, ast.ClassDef] = {}
    for source in (STATE_SOURCE, source_of(decisions_module.__name__), source_of(observation_module.__name__)):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        records |= {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)
                    and any("frozen=True" in ast.unparse(d) for d in node.decorator_list)}
    return records


def _init(record: ast.ClassDef) -> ast.FunctionDef | None:
    return next((s for s in record.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None)


def test_every_written_init_takes_and_sets_exactly_its_fields() -> None:
    records = _records()
    written = {name for name, record in records.items() if _init(record) is not None}
    assert written >= {"Character", "Request", "Target", "RequestAction", "Choose", "Observation", "CharacterView"}
    for record in records.values():
        fields = [(s.target.id, None if s.value is None else ast.unparse(s.value)) for s in record.body
                  if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
        init = _init(record)
        if init is None:
            continue
        params = [a.arg for a in init.args.args[1:]]
        defaults = [None] * (len(params) - len(init.args.defaults)) + [ast.unparse(d) for d in init.args.defaults]
        assert list(zip(params, defaults, strict=True)) == fields, record.name
        assigned = [(ast.unparse(c.args[1]), ast.unparse(c.args[2])) for s in init.body
                    if isinstance(s, ast.Expr) and isinstance(c := s.value, ast.Call)
                    and ast.unparse(c.func) == "object.__setattr__"]
        assert assigned == [(repr(name), name) for name, _ in fields], record.name
        assert len(init.body) == len(fields), f"{record.name}.__init__ does more than set its fields"


def _method(cls: str, name: str) -> ast.FunctionDef:
    tree = ast.parse(STATE_SOURCE.read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    return next(s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == name)


def _attributes(node: ast.AST, owner: str) -> list[str]:
    """``owner.x`` in the order written (assigned or read)."""
    return [n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute) and ast.unparse(n.value) == owner]


def test_the_written_copies_list_every_field() -> None:
    player_fields = [f.name for f in dataclasses.fields(Player)]
    state_fields = [f.name for f in dataclasses.fields(GameState)]
    assert sorted(_attributes(_method("Player", "clone"), "new")) == sorted(player_fields)
    assert sorted(_attributes(_method("Player", "clone"), "self")) == sorted(player_fields)
    assert sorted(_attributes(_method("Player", "same_zones"), "self")) == sorted(player_fields)
    assert sorted(_attributes(_method("Player", "same_zones"), "other")) == sorted(player_fields)
    assert sorted(_attributes(_method("GameState", "take"), "self")) == sorted(state_fields)
    assert sorted(_attributes(_method("GameState", "take"), "other")) == sorted(state_fields)


def test_a_clone_of_a_game_in_progress_equals_it_and_shares_no_mutable_part() -> None:
    from blackpoker import load_rules
    from blackpoker.sim.engine import apply, legal_decisions
    from blackpoker.sim.setup import new_game
    state = new_game(load_rules(), "mast", 7)
    state.events = []
    for _ in range(40):
        state = apply(state, legal_decisions(state)[-1])
    copy = state.clone()
    for f in dataclasses.fields(GameState):
        if f.name not in ("players", "events"):
            # equal (a compiled state keeps a tuple of fixed size such as ``after`` unboxed: no identity to compare)
            assert getattr(copy, f.name) == getattr(state, f.name), f.name
    assert copy.stage is state.stage and copy.resolved is state.resolved  # shared, not copied
    assert copy.events == state.events and copy.events is not state.events
    for mine, theirs in zip(copy.players, state.players, strict=True):
        assert mine is not theirs and mine.same_zones(theirs) and theirs.same_zones(mine)
