"""Fuzzing every reader besides the definitions and scenarios (issue 25): the official importer (act.yaml,
act-frame.yaml, frame.yaml, version.json) and game records answer any damage with data or located errors, never
an exception. A fixed budget, derandomised (the same cases on every run and in CI); a crash found is a test."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blackpoker import load_rules
from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.paths import DEFINITIONS
from blackpoker.official import importer
from blackpoker.official.base_definitions import Base
from blackpoker.official.importer import import_official
from blackpoker.official.reader import read_official
from mutations import HOSTILE, dump_json, dump_yaml, mutate

OFFICIAL = Path(__file__).parent / "data" / "official" / "full"
OFFICIAL_FILES = sorted(p.name for p in OFFICIAL.iterdir() if p.is_file())
ORIGINAL = {name: yaml.safe_load((OFFICIAL / name).read_text(encoding="utf-8")) for name in OFFICIAL_FILES}

# what a careless or hostile file holds where text is expected
values = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 60), st.text(max_size=8), HOSTILE,
    st.sampled_from(["", " ", "\u3000", "・", "・\n・", ",", "lite,lite", "1" * 5000, "第" + "9" * 5000 + "版",
                     "\x1b[2J", "ス\u200bラ", "か\u3099", "2026/13/99", "*", "#.", "<b>x</b>", "0x" + "f" * 100]),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.lists(st.text(max_size=4), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(), max_size=2))


@st.composite
def official_mutations(draw: st.DrawFn) -> tuple[str, Any]:
    name = draw(st.sampled_from(OFFICIAL_FILES))
    return name, mutate(draw, ORIGINAL[name], values, ("replace", "replace", "delete", "duplicate"))


def _dump(name: str, data: Any) -> str:
    return dump_json(data) if name.endswith(".json") else dump_yaml(data)


class _ParsedBase(Base):
    """The base definitions (always definitions/, never damaged here) parsed once for the whole run rather than
    once per example: each example gets its own deep copy, so an import that changed the data changes no other."""

    parsed: ClassVar[dict[str, Any]] = {}

    def data(self, name: str) -> Any:
        if name not in self._files:
            if name not in self.parsed:
                self.parsed[name] = Base.data(Base(self.folder), name)
            self._files[name] = copy.deepcopy(self.parsed[name])
        return self._files[name]


@pytest.fixture
def parsed_base(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importer, "Base", _ParsedBase)


def _located(errors: Any) -> None:
    for error in errors:
        assert error.line >= 1 and error.column >= 1 and error.message


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(official_mutations())
def test_the_importer_only_answers_with_located_errors(tmp_path_factory: pytest.TempPathFactory, parsed_base: None,
                                                       mutation: tuple[str, Any]) -> None:
    name, data = mutation
    folder = tmp_path_factory.mktemp("official")
    shutil.copytree(OFFICIAL, folder, dirs_exist_ok=True)
    (folder / name).write_text(_dump(name, data), encoding="utf-8")
    official, problems = read_official(folder)
    _located(problems)
    if problems:
        return
    result = import_official(official, DEFINITIONS)
    _located(result.errors)


@st.composite
def damaged_version(draw: st.DrawFn) -> bytes:
    """version.json with bytes inserted or overwritten (a bad editor, a bad merge)."""
    data = bytearray((OFFICIAL / "version.json").read_bytes())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        noise = draw(st.one_of(st.binary(min_size=1, max_size=4),
                               st.sampled_from([b"\x00", b"\x1b", b'"', b"{", b"9" * 5000, b"\\u0000", b"\\e", b"1e999"])))
        data[at:at + draw(st.integers(0, 2))] = noise
    return bytes(data)


@settings(max_examples=80, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(damaged_version())
def test_a_damaged_version_json_is_a_located_error(tmp_path_factory: pytest.TempPathFactory, parsed_base: None,
                                                   data: bytes) -> None:
    folder = tmp_path_factory.mktemp("official")
    shutil.copytree(OFFICIAL, folder, dirs_exist_ok=True)
    (folder / "version.json").write_bytes(data)
    official, problems = read_official(folder)
    _located(problems)
    if not problems:
        _located(import_official(official, DEFINITIONS).errors)


# --- game records -----------------------------------------------------------------------------------------------

RULES = load_rules()


def _record() -> dict[str, Any]:
    from blackpoker.sim.match import play_match
    from blackpoker.sim.record import dumps
    record, _, _ = play_match(RULES, "std", "rarepack", 2, ("random", "random"))
    data: dict[str, Any] = json.loads(dumps(record))
    return data


RECORD = _record()


@settings(max_examples=120, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_a_damaged_game_record_is_a_located_error(tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    from blackpoker.sim.recordfile import load_record
    from blackpoker.sim.replay import ReplayError, replay
    record = data.draw(st.composite(lambda draw: mutate(draw, RECORD, values, ("replace", "replace", "delete", "duplicate")))())
    path = tmp_path_factory.mktemp("record") / "game.json"
    path.write_text(dump_json(record), encoding="utf-8")
    try:
        loaded, _ = load_record(path, RULES)
    except DefinitionErrors as exc:
        _located(exc.errors)
        return
    try:
        replay(RULES, loaded)
    except ReplayError as exc:
        assert exc.message
