"""Loading a scenario: parse, validate against the schema and the ruleset, and try its start, all located."""

from __future__ import annotations

from pathlib import Path

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.model import Rules
from blackpoker.core.yamlsource import SourceFile
from blackpoker.sim.files import read_checked
from blackpoker.sim.frames import SetupError
from blackpoker.sim.scenario.refs import SCHEMA, Located, Scenario, action_at, cards_at, located
from blackpoker.sim.scenario.start import build_start


def framed(src: SourceFile, rules: Rules) -> Scenario:
    """A validated file as a scenario (a lesson is one too), its frame one the ruleset has."""
    data = src.data
    scenario = Scenario(src.name, data["title"], data["section"], data["format"], src, data.get("frame"))
    if scenario.frame is not None and scenario.frame not in {f.id for f in rules.frames}:
        raise DefinitionErrors([src.error(("frame",), f"'{scenario.frame}' is not a frame; expected one of "
                                                      + ", ".join(f.id for f in rules.frames))])
    return scenario


# --- loading -------------------------------------------------------------------------------------------
def load_scenario(path: Path, rules: Rules, display_name: str | None = None) -> Scenario:
    """Parse and validate one scenario; raises :class:`DefinitionErrors` with located problems."""
    src = read_checked(path, SCHEMA, rules, display_name)
    data = src.data
    scenario = framed(src, rules)
    try:
        build_start(scenario, rules)  # semantic problems surface at load time, located
    except SetupError:
        pass  # a refused regulation, deck or setup choice is behaviour (expect: setup_error), checked when run
    try:
        for i, step in enumerate(data.get("script", [])):
            if "request" in step:
                action_at(rules, step["request"], ("script", i, "request"))
            cards_at(step.get("keys", []), ("script", i, "keys"))
            cards_at(step.get("cost", {}).get("discard", []), ("script", i, "cost", "discard"))
    except Located as exc:
        raise located(scenario, exc) from None
    return scenario
