"""``{bp-examples} 2.10.4``: the rules' worked examples of a section, played by the simulator.

Every scenario in the examples folders (the worked examples and the frame scenarios) whose ``section`` is the argument is run at build time; its Japanese
play-by-play and checked expectations are shown at that place. An example whose expectation no longer holds
stops the build with the scenario's file and the failing expectation, so a rules change cannot silently
break an example.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from docutils import nodes
from sphinx.errors import SphinxError

from blackpoker.errors import DefinitionErrors
from blackpoker.model import Rules
from blackpoker.sphinxext import RulesDirective
from blackpoker.sphinxext import render as r


class ExampleFailed(SphinxError):
    category = "BlackPoker example failed"


@lru_cache(maxsize=4)
def _scenarios(folder: str, rules: Rules) -> tuple[object, ...]:
    from blackpoker.sim.scenario import load_scenario
    scenarios = []
    for path in sorted(Path(folder).glob("*.yaml")):
        try:
            scenarios.append(load_scenario(path, rules, display_name=str(path)))
        except DefinitionErrors as exc:
            raise ExampleFailed("\n" + str(exc)) from None
    return tuple(scenarios)


def examples_for(folders: str, rules: Rules, section: str) -> list[object]:
    """The scenarios of ``section`` in ``folders`` (joined by os.pathsep), in folder then file order."""
    return [s for folder in folders.split(os.pathsep) for s in _scenarios(folder, rules)
            if s.section == section]  # type: ignore[attr-defined]


class ExamplesDirective(RulesDirective):
    """Render every example of one section; fail the build on any failing expectation."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        from blackpoker.sim.scenario import run_scenario
        section = self.arguments[0]
        folder = self.config.blackpoker_examples
        self.note_definitions(prose=False)
        found = examples_for(folder, self.rules, section)
        if not found:
            raise self.error(f"no example scenario in {folder} has section '{section}'")
        out: list[nodes.Node] = []
        for scenario in found:
            self.env.note_dependency(str(Path(scenario.path).resolve()))
            result = run_scenario(self.rules, scenario)
            failed = [e for e in result.expectations if not e.passed]
            if not result.passed:
                detail = "\n".join(f"  {e.line()}" for e in failed) or "  (no expectation was checked)"
                raise ExampleFailed(f"{scenario.path}: the example 「{scenario.title}」 no longer holds:\n{detail}")
            box = nodes.container(classes=["bp-example"])
            box += nodes.rubric("", "", *r.suited(f"例: {scenario.title}"))
            lines = [line for line in result.transcript if not line.startswith("# ")]
            box += nodes.literal_block("\n".join(lines), "\n".join(lines), classes=["bp-playbyplay"])
            # The transcript interleaves the checked expectations (PASS lines) with the play.
            box += nodes.paragraph("", f"✓ シミュレーターで検証済み({len(result.expectations)} 項目、"
                                       f"{Path(scenario.path).name})", classes=["bp-verified"])
            out.append(box)
        return out
