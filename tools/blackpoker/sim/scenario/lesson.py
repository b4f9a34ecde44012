"""The guided tutorial's lessons (``tutorial/*.yaml``): a scenario whose every move of the learner has an
instruction and a hint, read and played here as the build verifies the worked examples.

A lesson is loaded like a scenario (``lesson.schema.json``, its start built by ``start.py``, its moves written as a
scenario's script steps) and played through at once: each move must be the rules' legal decision for the player
who decides there, each listed mistake must be refused by the engine with the text given (as the tutorial page
asks it, ``sim/probe.py``), and each ``expect`` must hold. Anything else is a located error
(``tutorial/02-…yaml:14:9: steps[2].move: …``), so a lesson that no longer fits the rules fails the build.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from blackpoker.core.cards import Card
from blackpoker.core.errors import DefinitionError, DefinitionErrors
from blackpoker.core.model import Rules
from blackpoker.core.paths import TUTORIAL
from blackpoker.core.yamlsource import SourceFile
from blackpoker.sim.decisions import Decision, RequestAction
from blackpoker.sim.engine import apply, current_player, legal_decisions
from blackpoker.sim.files import checked, parsed
from blackpoker.sim.frames import SetupError
from blackpoker.sim.game_errors import IllegalDecision
from blackpoker.sim.probe import try_made, try_request
from blackpoker.sim.scenario.coverage import unverified_source
from blackpoker.sim.scenario.expect import ScenarioResult, _check
from blackpoker.sim.scenario.load import framed
from blackpoker.sim.scenario.refs import PLAYER_INDEX, Located, Scenario, located
from blackpoker.sim.scenario.run import decision_at
from blackpoker.sim.scenario.start import build_start
from blackpoker.sim.state import GameState, player_name

SCHEMA = "lesson.schema.json"


@dataclass(frozen=True)
class Mistake:
    """A move the learner may try at a step, and a part of the rules' refusal of it: an action with key cards
    (and a key character), tried as the page tries it, or a whole request with the payment and targets written."""

    action_id: str
    keys: tuple[Card, ...]
    refusal: str
    key_character: int | None = None
    request: RequestAction | None = None  # the payment and targets the learner chose (None: the page's first ones)


@dataclass(frozen=True)
class LessonStep:
    """One move of a lesson: who makes it, the decision, and what the learner is told."""

    player: int
    decision: Decision
    say: str  # the instruction (the learner's move) or the narration after it (the opponent's)
    hint: str  # the learner's: what to do, for a legal move that is not the lesson's
    mistakes: tuple[Mistake, ...] = ()


@dataclass(frozen=True)
class Lesson:
    """A lesson read and played through: its start and every step, each move checked legal where it is made."""

    path: str
    title: str
    section: str
    format: str
    frame: str | None
    learner: int
    goal: str
    done: str
    start: GameState
    steps: tuple[LessonStep, ...]



def load_lesson(path: Path, rules: Rules, display_name: str | None = None, src: SourceFile | None = None) -> Lesson:
    """Read (unless ``src`` is the file already parsed), validate and play one lesson; raises
    :class:`DefinitionErrors` with located problems."""
    src = checked(src if src is not None else parsed(path, display_name), SCHEMA, rules)
    scenario = framed(src, rules)
    try:
        start = build_start(scenario, rules, record=True)
    except SetupError as exc:
        raise DefinitionErrors([src.error(("start",), f"the rules refuse this setup: {exc.rule}; expected a "
                                                      "position a game can start from")]) from None
    data = src.data
    learner = PLAYER_INDEX[data.get("learner", "A")]
    try:
        steps = _play(scenario, start, learner, data["steps"])
    except Located as exc:
        raise located(scenario, exc) from None
    if not any(s.player == learner for s in steps):
        raise DefinitionErrors([src.error(("steps",), "no move of the learner; expected at least one")])
    return Lesson(src.name, data["title"], data["section"], data["format"], data.get("frame"), learner,
                  data["goal"], data["done"], start, steps)


def load_lessons(rules: Rules, folder: Path = TUTORIAL) -> list[tuple[str, Lesson]]:
    """Every lesson (by file stem, in file order) read and played; every problem of every file, located. A lesson
    the loaded rules cannot verify (written for other editions, or an edition the simulator does not play: the
    scenarios' own rule, ``sim/scenario/coverage.py``) is left out, as the build leaves out such a scenario."""
    out: list[tuple[str, Lesson]] = []
    errors: list[DefinitionError] = []
    for path in sorted(folder.glob("*.yaml")):
        try:
            src = parsed(path, f"tutorial/{path.name}")  # once, for both questions (check is meant to be quick)
            if unverified_source(rules, src, path) is not None:
                continue
            out.append((path.stem, load_lesson(path, rules, src=src)))
        except DefinitionErrors as exc:
            errors += exc.errors
    if errors:
        raise DefinitionErrors(errors)
    return out


def _play(scenario: Scenario, state: GameState, learner: int, items: list[dict[str, Any]]) -> tuple[LessonStep, ...]:
    steps: list[LessonStep] = []
    for i, item in enumerate(items):
        path: tuple[Any, ...] = ("steps", i)
        move = item["move"]
        player = PLAYER_INDEX[move["player"]]
        if player == learner and not ("say" in item and "hint" in item):
            raise Located(path, "a move of the learner needs 'say' (the instruction) and 'hint' (what to do)")
        if player != learner and ("hint" in item or "mistakes" in item):
            raise Located(path + ("hint" if "hint" in item else "mistakes",),
                          "only the learner's moves have a hint and mistakes", key=True)
        if current_player(state) != player:
            who = current_player(state)
            raise Located(path + ("move", "player"), f"{move['player']} does not decide here; expected "
                                                     + ("nobody (the game is over)" if who is None else player_name(who)))
        mistakes = tuple(_mistake(state, player, m, path + ("mistakes", j)) for j, m in enumerate(item.get("mistakes", [])))
        decision = decision_at(state, move, path + ("move",))
        try:
            after = apply(state, decision)
        except IllegalDecision as exc:
            raise Located(path + ("move",), f"the rules refuse this move here: {exc.rule}; expected a legal move") from None
        decision = _offered(state, decision, path + ("move",))
        if "expect" in item:
            result = ScenarioResult(scenario)
            _check(after, item["expect"], i, result, path + ("expect",))
            failed = [e.line() for e in result.expectations if not e.passed]
            if failed:
                raise Located(path + ("expect",), "; ".join(failed))
        steps.append(LessonStep(player, decision, item.get("say", ""), item.get("hint", ""), mistakes))
        state = after
    return tuple(steps)


def _offered(state: GameState, decision: Decision, path: tuple[Any, ...]) -> Decision:
    """The legal decision the move writes (its key cards in any order): the one the page's engine compares with."""
    def same(d: Decision) -> bool:
        if not (isinstance(d, RequestAction) and isinstance(decision, RequestAction)):
            return d == decision
        return (d.action_id, sorted(d.keys), d.payment, d.targets, d.key_character) == (
            decision.action_id, sorted(decision.keys), decision.payment, decision.targets, decision.key_character)
    found = next((d for d in legal_decisions(state) if same(d)), None)
    if found is None:
        raise Located(path, "this move is not one the engine offers here; expected one of its legal decisions")
    return found


def _mistake(state: GameState, player: int, item: dict[str, Any], path: tuple[Any, ...]) -> Mistake:
    """A listed mistake, checked: the engine must refuse it, with the text given."""
    written = decision_at(state, {**item, "player": player_name(player)}, path)
    assert isinstance(written, RequestAction)
    made = written if "cost" in item or "targets" in item else None
    mistake = Mistake(written.action_id, written.keys, item["refusal"], written.key_character, made)
    try:
        if made is None:
            try_request(state, player, mistake.action_id, mistake.keys, mistake.key_character)
        else:
            try_made(state, player, made)
    except IllegalDecision as exc:
        if mistake.refusal not in exc.rule:
            raise Located(path + ("refusal",), f"the engine refuses it with '{exc.rule}'; expected a refusal "
                                               f"containing '{mistake.refusal}'") from None
        return mistake
    raise Located(path, "the rules allow this move here; expected a move they refuse")
