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
