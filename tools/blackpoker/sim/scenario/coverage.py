"""Which scenarios an edition cannot verify, and why: those written for other editions only (their ``ruleset``
does not name it), and, for an edition that is not simulated (``simulated: false``), what it cannot play.

Such an edition may lack actions the scenarios request, hold actions the simulator has no effect for, or be
another version than the one the scenarios were written for. Playing those would only fail or crash; they are
reported as not verified instead (the build's scenario step and the verification report), each with its reason
in Japanese. Every other scenario is played and checked as strictly as for a simulated edition; a simulated
edition verifies every scenario written for it (its gaps are errors before anything is played).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from blackpoker.core.model import Rules
from blackpoker.core.yamlsource import SourceFile, parse_yaml
from blackpoker.sim.effects import FOLLOWS, TRIGGERED, simulates
from blackpoker.sim.files import editions_of
from blackpoker.sim.frames import SETUPS

# The actions the core flow itself plays (the triggered ones and what triggers them): without them no game runs.
ENGINE_ACTIONS = tuple(dict.fromkeys([*FOLLOWS, *FOLLOWS.values(), *TRIGGERED]))


@dataclass(frozen=True)
class Unverified:
    """A scenario the edition cannot verify: what the report shows of it."""

    title: str
    section: str
    reason: str  # Japanese, for maintainers


def unverified(rules: Rules, path: Path, display_name: str | None = None) -> Unverified | None:
    """Why the scenario at ``path`` cannot be verified with ``rules``; None when it can (for a simulated edition,
    whenever it is written for it), or when the file is malformed (loading it reports that, located)."""
    src, problems = parse_yaml(path, display_name or str(path), folder=path.parent)
    if src is None or problems:
        return None
    return unverified_source(rules, src, path)


def unverified_source(rules: Rules, src: SourceFile, path: Path) -> Unverified | None:
    """:func:`unverified` of a file already parsed (a caller that loads it next parses it once)."""
    if not isinstance(src.data, dict):
        return None
    data: dict[str, Any] = src.data
    reason = _other_edition(rules, data) if rules.edition.simulated else _reason(rules, data)
    if reason is None:
        return None
    return Unverified(str(data.get("title", path.stem)), str(data.get("section", "")), reason)


def _other_edition(rules: Rules, data: dict[str, Any]) -> str | None:
    versions = editions_of(data)
    if versions and rules.edition.version not in versions:
        return f"このシナリオは {'、'.join(versions)} のルール用で、この定義は {rules.edition.version} です"
    return None


def _reason(rules: Rules, data: dict[str, Any]) -> str | None:
    other = _other_edition(rules, data)
    if other is not None:
        return other
    ids = {a.id for a in rules.actions}
    engine = [i for i in ENGINE_ACTIONS if i not in ids or not simulates(i, rules)]
    if engine:
        names = "、".join(f"「{rules.action(i).name}」" if i in ids else f"「{i}」" for i in engine)
        return f"ゲームの進行に必要なアクション {names} がないか、シミュレーターが扱いません"
    if data.get("format") not in {f.id for f in rules.formats}:
        return "このシナリオのフォーマットが定義にありません"
    frame = data.get("frame")
    if frame is not None:
        known = {f.id: f for f in rules.frames}
        if frame not in known:
            return "このシナリオのフレームが定義にありません"
        if frame not in SETUPS:
            return f"フレーム「{known[frame].name}」のセットアップをシミュレーターが扱いません"
    for step in data.get("script", ()) or ():
        name = step.get("request") if isinstance(step, dict) else None
        if name is None:
            continue
        try:
            action = rules.find_action(str(name))
        except KeyError:
            return f"アクション「{name}」が定義にありません"
        if not simulates(action.id, rules):
            return f"アクション「{action.name}」をシミュレーターが扱いません"
    return None
