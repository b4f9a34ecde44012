"""The model loaded from the JSON export equals the model loaded from the YAML definitions (the play page loads the
export in the browser, where there is no YAML or schema library)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from blackpoker.core import model as m
from blackpoker.core.export import export_json
from blackpoker.core.fromexport import rules_from_export
from blackpoker.core.loader import load_rules
from blackpoker.core.paths import DEFINITIONS


def _placeless(value: Any) -> Any:
    """The value with every place (origin) and picture's bytes left out: the only things the export does not carry."""
    if isinstance(value, m.Origin):
        return None
    if isinstance(value, m.Picture):
        return (value.path, value.media_type)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, tuple((f.name, _placeless(getattr(value, f.name)))
                                            for f in dataclasses.fields(value) if f.compare))
    if isinstance(value, tuple | list):
        return tuple(_placeless(v) for v in value)
    return value


def _roundtrip(rules: m.Rules) -> m.Rules:
    return rules_from_export(json.loads(export_json(rules)))


def test_export_gives_the_same_model() -> None:
    rules = load_rules(DEFINITIONS)
    again = _roundtrip(rules)
    assert _placeless(again) == _placeless(rules)
    assert export_json(again) == export_json(rules)


def test_every_field_counts() -> None:
    """The comparison sees a difference in any entry (so the test above could fail)."""
    rules = load_rules(DEFINITIONS)
    again = _roundtrip(rules)
    changed = dataclasses.replace(again, actions=(dataclasses.replace(again.actions[0], cost=("L",)), *again.actions[1:]))
    assert _placeless(changed) != _placeless(rules)


def test_entries_with_and_without_official_ids_and_changed_flags() -> None:
    rules = load_rules(DEFINITIONS)
    again = _roundtrip(rules)
    assert {a.official_id for a in rules.actions} - {None}, "the definitions give some official ids"
    assert [a.official_id for a in again.actions] == [a.official_id for a in rules.actions]
    assert [a.changed for a in again.actions] == [a.changed for a in rules.actions]


def test_another_edition(tmp_path: Path) -> None:
    """An edition with another version, explicit official ids of every kind and an action it does not simulate."""
    from editions import edition
    rules = load_rules(edition(tmp_path / "defs", simulated=False, version="v9.0", official_ids=True))
    assert _placeless(_roundtrip(rules)) == _placeless(rules)
