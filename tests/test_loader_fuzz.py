"""Property: whatever a maintainer does to valid definitions, the loader answers with data or located errors."""

from __future__ import annotations

import shutil
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackpoker import DefinitionErrors, load_rules
from blackpoker.core.paths import DEFINITIONS
from mutations import mutate

FILES = sorted(p.name for p in DEFINITIONS.glob("*.yaml"))
ORIGINAL = {name: yaml.safe_load((DEFINITIONS / name).read_text(encoding="utf-8")) for name in FILES}

values = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=8),
                   st.lists(st.text(max_size=4), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, Any]:
    name = draw(st.sampled_from(FILES))
    return name, mutate(draw, ORIGINAL[name], values)


@pytest.mark.slow  # fuzzing: 60 loads of the definitions
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations())
def test_loader_only_answers_with_clean_errors(tmp_path_factory: pytest.TempPathFactory, mutation: tuple[str, Any]) -> None:
    name, data = mutation
    target = tmp_path_factory.mktemp("defs")
    shutil.copytree(DEFINITIONS, target, dirs_exist_ok=True)
    (target / name).write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    try:
        load_rules(target)
    except DefinitionErrors as exc:
        assert exc.errors
        for error in exc.errors:
            assert error.line >= 1 and error.column >= 1
            assert error.file.endswith(".yaml") and error.message
            assert "Traceback" not in error.message


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
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
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
