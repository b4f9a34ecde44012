"""A ruleset already loaded from the same bytes is reused; any change of a file loads (and checks) afresh."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from blackpoker import load_rules
from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.export import rules_digest
from blackpoker.core.model import Rules
from blackpoker.core.paths import DEFINITIONS


def test_the_same_bytes_give_the_same_model_and_an_edit_a_new_one(tmp_path: Path) -> None:
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    first = load_rules(defs)
    assert load_rules(defs) is first

    actions = defs / "actions.yaml"
    text = actions.read_text(encoding="utf-8")
    actions.write_text(text.replace("これが戦術の基本です。", "これが戦術の基本だ。"), encoding="utf-8")
    edited = load_rules(defs)
    assert edited is not first
    assert rules_digest(edited) != rules_digest(first)
    # the edit touched a flavour text only: the ruleset without prose is the same
    assert rules_digest(edited, prose=False) == rules_digest(first, prose=False)

    actions.write_text(text.replace("speed:", "sped:", 1), encoding="utf-8")
    with pytest.raises(DefinitionErrors):
        load_rules(defs)  # a broken file is never answered from the cache
    with pytest.raises(DefinitionErrors):
        load_rules(defs)


def test_extra_checks_always_run(tmp_path: Path) -> None:
    calls: list[int] = []

    def check(rules: Rules) -> list[object]:
        calls.append(1)
        return []

    load_rules(DEFINITIONS, extra_checks=(check,))
    load_rules(DEFINITIONS, extra_checks=(check,))
    assert len(calls) == 2


def test_a_file_read_again_is_parsed_once_and_each_reader_gets_its_own_copy_under_its_own_name(tmp_path: Path) -> None:
    """The same bytes wherever they lie parse to the same data and positions (core/yamlsource.py: _PARSED); a reader
    that changes its data changes nobody else's, and each copy is named as its reader named it."""
    from blackpoker.core import yamlsource
    text = "name: x\nitems:\n  - a\n  - b: 1\n"
    first, second = tmp_path / "one.yaml", tmp_path / "two.yaml"
    first.write_text(text, encoding="utf-8")
    second.write_text(text, encoding="utf-8")
    one, problems = yamlsource.parse_yaml(first, "one.yaml")
    assert one is not None and problems == []
    assert len([entry for entry in yamlsource._PARSED.values() if entry[1] == one.positions]) == 1  # parsed once
    one.data["items"].append("c")
    one.positions[("items", 2)] = (9, 9)
    two, problems = yamlsource.parse_yaml(second, "two.yaml")
    assert two is not None and problems == []
    assert two.name == "two.yaml" and two.data == {"name": "x", "items": ["a", {"b": 1}]}
    assert two.error(("items", 1, "b"), "bad").line == 4 and ("items", 2) not in two.positions


def test_a_file_with_problems_is_parsed_and_reported_every_time(tmp_path: Path) -> None:
    from blackpoker.core import yamlsource
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: 1\na: 2\n", encoding="utf-8")
    for name in ("first.yaml", "second.yaml"):
        src, problems = yamlsource.parse_yaml(bad, name)
        assert [(p.file, p.line, p.message) for p in problems] == [(name, 2, "duplicate key 'a' (first at line 1)")]


def test_the_same_violation_in_two_copies_is_located_in_each(tmp_path: Path) -> None:
    """What a schema finds in the same data is found once (core/schema.py: _VIOLATIONS), and located in each file:
    the same data written another way is reported at its own line."""
    problems = []
    for name, extra_lines in (("one", 0), ("two", 3)):
        defs = tmp_path / name
        shutil.copytree(DEFINITIONS, defs)
        actions = defs / "actions.yaml"
        text = actions.read_text(encoding="utf-8")
        assert "speed:" in text
        actions.write_text("\n" * extra_lines + text.replace("speed:", "sped:", 1), encoding="utf-8")
        with pytest.raises(DefinitionErrors) as raised:
            load_rules(defs)
        problems.append([(e.file, e.line, e.message) for e in raised.value.errors])
    assert problems[0] and len(problems[0]) == len(problems[1])
    for (file_one, line_one, says_one), (file_two, line_two, says_two) in zip(*problems, strict=True):
        assert "/one/" in file_one and "/two/" in file_two
        assert line_two == line_one + 3 and says_two == says_one
