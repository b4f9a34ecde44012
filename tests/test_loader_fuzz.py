"""Property: whatever a maintainer does to valid definitions, the loader answers with data or located errors. A
fixed budget, derandomised (the same cases on every run and in CI, like the other readers' fuzzers); the values
include the hostile ones of issue 25 (mutations.HOSTILE)."""

from __future__ import annotations

import contextlib
import copy
import shutil
import unicodedata
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackpoker import DefinitionErrors, load_rules
from blackpoker.core.errors import invisible_character
from blackpoker.core.paths import DEFINITIONS
from mutations import HOSTILE, HOSTILE_VALUES, Digits, data_paths, dump_yaml, mutate

FILES = sorted(p.name for p in DEFINITIONS.glob("*.yaml"))
ORIGINAL = {name: yaml.safe_load((DEFINITIONS / name).read_text(encoding="utf-8")) for name in FILES}

values = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=8), HOSTILE,
                   st.lists(st.one_of(st.text(max_size=4), HOSTILE), max_size=3),
                   st.dictionaries(st.one_of(st.text(max_size=4), HOSTILE), st.integers(), max_size=2))


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, Any]:
    name = draw(st.sampled_from(FILES))
    return name, mutate(draw, ORIGINAL[name], values)


@pytest.mark.slow  # fuzzing: 60 loads of the definitions
@settings(max_examples=60, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations())
def test_loader_only_answers_with_clean_errors(tmp_path_factory: pytest.TempPathFactory, mutation: tuple[str, Any]) -> None:
    with contextlib.suppress(DefinitionErrors):  # checked located in _answers_cleanly
        _answers_cleanly(tmp_path_factory, *mutation)


def _answers_cleanly(tmp_path_factory: pytest.TempPathFactory, name: str, data: Any) -> None:
    """The definitions with ``name`` holding ``data`` load, or raise DefinitionErrors, every one located."""
    target = tmp_path_factory.mktemp("defs")
    shutil.copytree(DEFINITIONS, target, dirs_exist_ok=True)
    (target / name).write_text(dump_yaml(data), encoding="utf-8")
    try:
        load_rules(target)
    except DefinitionErrors as exc:
        assert exc.errors
        for error in exc.errors:
            assert error.line >= 1 and error.column >= 1
            assert error.file.endswith(".yaml") and error.message
            assert "Traceback" not in error.message
        raise


def _rule(value: str) -> str | None:
    """What the one rule for input says of ``value`` wherever it stands (an invisible character, a decomposed
    look-alike, a number past the range), or None for a value only some fields refuse."""
    if isinstance(value, Digits):
        return "expected an integer of at most"
    value = yaml.safe_load(dump_yaml([value]))[0]  # as the file gives it back (a NEL written raw is a line break)
    if invisible_character(value.replace("\n", "")) is not None:
        return "expected visible text"
    if not unicodedata.is_normalized("NFC", value):
        return "composed form (NFC)"
    return None


@pytest.mark.slow  # fuzzing: 2 loads of the definitions for each hostile value (48)
@pytest.mark.parametrize("value", HOSTILE_VALUES, ids=lambda value: ascii(value)[:24])
@settings(max_examples=2, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_hostile_values_anywhere_get_located_errors(tmp_path_factory: pytest.TempPathFactory, value: str,
                                                    data: st.DataObject) -> None:
    """A control character, an invisible one, a decomposed look-alike, a 5,000-digit number, blank text or a date
    off the calendar, in place of any value of any file (each of them, not left to the draw: among the random
    values they are too rare for the budget): data or located errors, never a crash; and what the one rule for
    input refuses is refused, in the file that holds it."""
    name = data.draw(st.sampled_from(FILES))
    mutated = copy.deepcopy(ORIGINAL[name])
    path = data.draw(st.sampled_from([p for p in data_paths(mutated) if p]))
    parent = mutated
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value
    says = _rule(value)
    try:
        _answers_cleanly(tmp_path_factory, name, mutated)
    except DefinitionErrors as exc:
        assert says is None or any(error.file.endswith(name) and error.path == path and says in error.message
                                   for error in exc.errors), exc
    else:
        assert says is None, f"{value!r} accepted at {path} in {name}"


@st.composite
def damaged_bytes(draw: st.DrawFn) -> tuple[str, bytes]:
    """A definitions file with bytes inserted, deleted or overwritten: what a bad editor, a bad merge or a bad
    disk leaves (stray NUL and control bytes, cut UTF-8 sequences, broken indentation, stray brackets)."""
    name = draw(st.sampled_from(FILES))
    data = bytearray((DEFINITIONS / name).read_bytes())
    noise = st.one_of(st.binary(min_size=1, max_size=4), st.sampled_from([b"\x00", b"\x1b", b"\xe3\x81", b"[", b"{",
                                                                          b": ", b"\n  ", b"&a ", b"*a", b"!!", b"\t"]))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "overwrite"]))
        if action == "insert":
            data[at:at] = draw(noise)
        elif action == "delete":
            del data[at:at + draw(st.integers(1, 40))]
        else:
            chunk = draw(noise)
            data[at:at + len(chunk)] = chunk
    return name, bytes(data)


@pytest.mark.slow  # fuzzing: 80 loads of the definitions
@settings(max_examples=80, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damaged_bytes())
def test_damaged_files_get_located_errors_never_a_crash(tmp_path_factory: pytest.TempPathFactory, damage: tuple[str, bytes]) -> None:
    name, data = damage
    target = tmp_path_factory.mktemp("defs")
    shutil.copytree(DEFINITIONS, target, dirs_exist_ok=True)
    (target / name).write_bytes(data)
    try:
        load_rules(target)
    except DefinitionErrors as exc:
        for error in exc.errors:
            assert error.line >= 1 and error.column >= 1 and error.message
            if error.file.endswith(name):
                assert error.line <= data.count(b"\n") + 2  # a real place in the file
