"""Reading a game record file: parsed, validated against ``game-record.schema.json`` and checked against the loaded
ruleset, with located errors (``file:line:col: path: message``) for a malformed one."""

from __future__ import annotations

from pathlib import Path

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.model import Rules
from blackpoker.core.yamlsource import SourceFile
from blackpoker.sim.files import read_checked
from blackpoker.sim.record import SCHEMA, GameRecord, from_json


def load_record(path: Path, rules: Rules, display_name: str | None = None) -> tuple[GameRecord, SourceFile]:
    """Parse and validate a record file; raises :class:`DefinitionErrors` with located problems."""
    src = read_checked(path, SCHEMA, rules, display_name)
    data = src.data
    try:
        rules.format(data["format"])
    except KeyError:
        raise DefinitionErrors([src.error(("format",), f"'{data['format']}' is not a format")]) from None
    for i, d in enumerate(data["decisions"]):
        if "request" in d:
            try:
                rules.action(d["request"])
            except KeyError:
                raise DefinitionErrors([src.error(("decisions", i, "request"), f"'{d['request']}' is not an action; "
                                                  "expected an action id such as 'attack'")]) from None
    return from_json(data), src
