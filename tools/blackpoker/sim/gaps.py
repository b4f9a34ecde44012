"""What the simulator does not cover in a ruleset: the report ``blackpoker check`` and the build read.

Actions with no effect, effects worded as the simulator does not know (sim/wording.py), effects with no action,
triggered actions with no detection, activation and label conditions the simulator does not know, frames with no
setup, zones with no disclosure view. It reads the simulator's registries (effects, frame setups, views, label
conditions), never the engine, so checking the definitions does not load the game.
"""

from __future__ import annotations

from dataclasses import dataclass

from blackpoker.core.model import Origin, Rules
from blackpoker.sim import frame_effects  # noqa: F401  (registers the frame actions' effects)
from blackpoker.sim.abilities import label_condition
from blackpoker.sim.effects import EFFECTS, TRIGGERED
from blackpoker.sim.frames import SETUPS
from blackpoker.sim.observe import VIEWS
from blackpoker.sim.requests import SUMMONING, activation_known
from blackpoker.sim.wording import unknown_wordings


@dataclass(frozen=True)
class Gap:  # not core.frozen.Frozen: that base is compiled, and an interpreted class cannot extend a compiled one
    """Something in the definitions the simulator does not cover, or code with no definition; ``origin`` is
    where ``blackpoker check`` points, ``message`` what it says, ``text`` what the verification report says
    (Japanese, for maintainers; empty for simulator code with no definition, which the report only counts)."""

    origin: Origin
    message: str
    text: str = ""


def coverage_gaps(rules: Rules) -> list[Gap]:
    """Actions with no effect, effects worded as the simulator does not know (sim/wording.py), effects with no
    action, unmapped condition texts, frames with no setup, zones
    with no disclosure view."""
    gaps = []
    actions_file = Origin(rules.actions[0].origin.file, ())
    action_ids = {a.id for a in rules.actions}
    for a in rules.actions:
        if a.id not in EFFECTS:
            gaps.append(Gap(a.origin, f"action '{a.id}' has no effect in the simulator",
                            f"アクション「{a.name}」: 効果をシミュレーターが扱いません"))
    for a in unknown_wordings(rules):
        gaps.append(Gap(a.origin.sub("effect"), f"action '{a.id}': the wording of its effect is not one the simulator "
                        "knows (sim/wording.py)", f"アクション「{a.name}」: 効果の文言をシミュレーターが扱いません"))
    for action_id in sorted(set(EFFECTS) - action_ids):
        gaps.append(Gap(actions_file, f"effect '{action_id}' has no action in the definitions"))
    for a in rules.actions:
        if a.trigger.value == "triggered" and a.id not in TRIGGERED:
            gaps.append(Gap(a.origin, f"triggered action '{a.id}' has no trigger detection",
                            f"アクション「{a.name}」: 誘発の検出をシミュレーターが扱いません"))
        if a.target is not None and a.target_spec is None and not rules.edition.simulated:  # else a check's error
            gaps.append(Gap(a.origin.sub("target"), f"action '{a.id}': target '{a.target}' is not simulated",
                            f"アクション「{a.name}」: 対象「{a.target}」をシミュレーターが扱いません"))
        if a.id in SUMMONING and not any(a.id in c.summoned_by for c in rules.characters):
            gaps.append(Gap(a.origin, f"action '{a.id}': summons no character of the list (no summoned_by names it)",
                            f"アクション「{a.name}」: 出すキャラクターをキャラクターリストから読めません"))
        if a.activation_condition and not activation_known(a.activation_condition):
            gaps.append(Gap(a.origin.sub("activation_condition"),
                            f"action '{a.id}': activation condition '{a.activation_condition}' is not simulated",
                            f"アクション「{a.name}」: 起動条件「{a.activation_condition}」をシミュレーターが扱いません"))
    for c in rules.characters:
        for i, label in enumerate(c.labels):
            if label.condition is not None and label_condition(label.condition) is None:
                gaps.append(Gap(c.origin.sub("labels", i, "condition"),
                                f"character '{c.id}': label condition '{label.condition}' is not simulated",
                                f"キャラクター「{c.name}」: ラベル<{label.name}>の条件「{label.condition}」を"
                                "シミュレーターが扱いません"))
    for frame in rules.frames:
        if frame.id not in SETUPS:
            gaps.append(Gap(frame.origin, f"frame '{frame.id}' has no setup in the simulator",
                            f"フレーム「{frame.name}」: セットアップをシミュレーターが扱いません"))
    for frame_id in sorted(set(SETUPS) - {f.id for f in rules.frames}):
        gaps.append(Gap(Origin(rules.frames[0].origin.file, ()),
                        f"setup of frame '{frame_id}' has no frame in the definitions"))
    for i, zone in enumerate(rules.zones):
        if zone.id not in VIEWS:
            gaps.append(Gap(Origin(rules.edition.origin.file, ("zones", i)),
                            f"zone '{zone.id}' has no disclosure view in the simulator",
                            f"場所「{zone.name}」: 公開レベルをシミュレーターが扱いません"))
    return gaps


def missing_effects(rules: Rules) -> list[str]:
    """The messages of :func:`coverage_gaps` (empty when the simulator covers the whole ruleset)."""
    return [g.message for g in coverage_gaps(rules)]


def coverage_problems(rules: Rules) -> list[tuple[Origin, str]]:
    """:func:`coverage_gaps` located at the definitions they concern, for ``blackpoker check``: errors for an
    edition that declares itself simulated (the default), nothing for one that does not (see
    :func:`coverage_warnings`)."""
    return _located(rules) if rules.edition.simulated else []


def coverage_warnings(rules: Rules) -> list[tuple[Origin, str]]:
    """The same gaps as warnings, for an edition with ``simulated: false``: it is published all the same."""
    return [] if rules.edition.simulated else _located(rules)


def _located(rules: Rules) -> list[tuple[Origin, str]]:
    return [(g.origin, f"simulator: {g.message}") for g in coverage_gaps(rules)]
