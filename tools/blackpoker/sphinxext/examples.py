"""``{bp-examples} 2.10.4``: the rules' worked examples of a section, played by the simulator.

Every scenario in the examples folders (the worked examples and the frame scenarios) whose ``section`` is
the argument is run at build time; its Japanese play-by-play and checked expectations are shown at that
place. An example whose expectation no longer holds stops the build with the scenario's file and the failing
expectation, so a rules change cannot silently break an example.

Loading and playing scenarios is the costliest part of reading a page, and a page with examples is read
again whenever any definition shown on it changes. So the environment keeps, per scenario file, its section
and what it showed, keyed by the file's bytes and the ruleset without its prose: an edited flavour text
plays nothing again, and an edited scenario plays only itself.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.errors import SphinxError

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.model import Rules
from blackpoker.sphinxext import render as r
from blackpoker.sphinxext.base import RulesDirective, without_prose_digest


class ExampleFailed(SphinxError):
    category = "BlackPoker example failed"


@dataclass(frozen=True)
class PlayedExample:
    """What the page shows of one passing scenario."""

    path: str
    title: str
    lines: tuple[str, ...]  # the play-by-play with its checked expectations
    checked: int


def load(path: Path, rules: Rules) -> Any:
    from blackpoker.sim.scenario import load_scenario
    try:
        return load_scenario(path, rules, display_name=str(path))
    except DefinitionErrors as exc:
        raise ExampleFailed("\n" + str(exc)) from None


def play(rules: Rules, scenario: Any) -> PlayedExample:
    """Run one example; raise ExampleFailed (with the failing expectations) if it no longer holds."""
    from blackpoker.sim.scenario import run_scenario
    try:
        result = run_scenario(rules, scenario)
    except DefinitionErrors as exc:  # a reference that does not resolve at its step, located
        raise ExampleFailed("\n" + str(exc)) from None
    if not result.passed:
        failed = [e for e in result.expectations if not e.passed]
        detail = "\n".join(f"  {e.line()}" for e in failed) or "  (no expectation was checked)"
        raise ExampleFailed(f"{scenario.path}: the example 「{scenario.title}」 no longer holds:\n{detail}")
    lines = tuple(line for line in result.transcript if not line.startswith("# "))
    return PlayedExample(str(Path(scenario.path).resolve()), scenario.title, lines, len(result.expectations))


class Examples:
    """The scenario files of the example folders, each loaded and played at most once per content.

    Kept in the environment between builds: ``sections`` (file → its bytes' digest and its section) and
    ``played`` (file → digest, ruleset digest, what it showed).
    """

    def __init__(self) -> None:
        self.sections: dict[str, tuple[str, str]] = {}
        self.played: dict[str, tuple[str, str, PlayedExample]] = {}
        self.loaded: dict[tuple[str, str, str], Any] = {}  # this build's loaded scenarios (not kept)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "loaded": {}}

    def merge(self, other: Examples) -> None:
        """Take what another reading process loaded and played (entries are keyed by file and content)."""
        self.sections.update(other.sections)
        self.played.update(other.played)

    def scenario(self, path: Path, digest: str, rules: Rules, ruleset: str) -> Any:
        key = (str(path), digest, ruleset)
        if key not in self.loaded:
            self.loaded[key] = load(path, rules)
        return self.loaded[key]

    def of_section(self, folders: str, section: str, rules: Rules, ruleset: str) -> list[PlayedExample]:
        """The examples of ``section`` in ``folders`` (joined by os.pathsep), in folder then file order."""
        files = [p.resolve() for folder in folders.split(os.pathsep) for p in sorted(Path(folder).glob("*.yaml"))]
        shown = []
        for path in files:
            name = str(path)
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if self.sections.get(name, ("",))[0] != digest:
                self.sections[name] = (digest, str(self.scenario(path, digest, rules, ruleset).section))
            if self.sections[name][1] != section:
                continue
            kept = self.played.get(name)
            if kept is None or kept[:2] != (digest, ruleset):
                kept = self.played[name] = (digest, ruleset, play(rules, self.scenario(path, digest, rules, ruleset)))
            shown.append(kept[2])
        return shown


class ExamplesDirective(RulesDirective):
    """Render every example of one section; fail the build on any failing expectation."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        section = self.arguments[0]
        folders = self.config.blackpoker_examples
        self.note_definitions(prose=False)
        examples: Examples = self.env.__dict__.setdefault("bp_examples", Examples())
        found = examples.of_section(folders, section, self.rules, without_prose_digest(self.env))
        if not found:
            raise self.error(f"no example scenario in {folders} has section '{section}'")
        out: list[nodes.Node] = []
        for example in found:
            self.env.note_dependency(example.path)
            box = nodes.container(classes=["bp-example"])
            box += nodes.rubric("", "", *r.suited(f"例: {example.title}"))
            text = "\n".join(example.lines)
            box += nodes.literal_block(text, text, classes=["bp-playbyplay"])
            # The transcript interleaves the checked expectations (PASS lines) with the play.
            box += nodes.paragraph("", f"✓ シミュレーターで検証済み({example.checked} 項目、"
                                       f"{Path(example.path).name})", classes=["bp-verified"])
            out.append(box)
        return out
