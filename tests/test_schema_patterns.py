"""Every pattern of every schema ends the text where it says ``$``: a trailing newline never passes."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackpoker import DefinitionErrors, load_rules
from blackpoker.core.paths import DEFINITIONS, SCHEMAS
from blackpoker.core.schema import Validator


def _patterns(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            yield node["pattern"]
        for value in node.values():
            yield from _patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _patterns(value)


PATTERNS = sorted({p for path in SCHEMAS.glob("*.schema.json")
                   for p in _patterns(json.loads(path.read_text(encoding="utf-8")))})


def test_the_schemas_have_patterns_to_check() -> None:
    assert len(PATTERNS) >= 10


@pytest.mark.parametrize("pattern", PATTERNS)
def test_a_match_followed_by_a_newline_is_refused(pattern: str) -> None:
    validator = Validator({"type": "string", "pattern": pattern})

    @settings(max_examples=20, deadline=None)
    @given(st.from_regex(pattern.removesuffix("$") + r"\Z", fullmatch=True))
    def check(text: str) -> None:
        assert validator.is_valid(text), text
        assert not validator.is_valid(text + "\n"), text
    check()


def test_an_id_with_a_trailing_newline_is_a_located_error(tmp_path: Path) -> None:
    defs = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, defs)
    fogs = defs / "fogs.yaml"
    fogs.write_text(fogs.read_text(encoding="utf-8").replace("  - id: up\n", '  - id: "up\\n"\n', 1), encoding="utf-8")
    with pytest.raises(DefinitionErrors) as raised:
        load_rules(defs)
    messages = [str(e) for e in raised.value.errors]
    assert any(":4:9: fogs[0].id: " in m and "is not valid" in m for m in messages), messages
