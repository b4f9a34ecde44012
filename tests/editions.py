"""Copies of definitions/ as other editions: one that declares ``simulated`` and holds an action the simulator
has no effect for (メテオ), and explicit ``official_id``s on entries of every kind."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from blackpoker.core.paths import DEFINITIONS

METEOR = """
  - id: meteor
    name: メテオ
    reading: めてお
    category: 通常魔法
    group: 通常魔法
    trigger: direct
    speed: normal
    timing: main
    key_card: ♡A~10
    effect:
      - 対戦相手に2点ダメージを与える。
    introduced: {version}
    formats: [mast]
"""

# (file, entry id, official id): one entry of every kind, each with an id the camelCase rule would not give
OFFICIAL_IDS = (
    ("actions.yaml", "generation-change", "changeOfGeneration"),
    ("actions.yaml", "attack", "attackAction"),
    ("frame-actions.yaml", "pack-open", "openPack"),
    ("characters.yaml", "hero", "heroUnit"),
    ("fogs.yaml", "up", "upCard"),
    ("trumps.yaml", "s2", "spadeTwo"),
    ("frames.yaml", "extra", "extraFrame"),
)


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (path, old)
    path.write_text(text.replace(old, new), encoding="utf-8")


def edition(target: Path, *, simulated: bool | None, version: str = "v8.1", meteor: bool = True,
            official_ids: bool = False) -> Path:
    """A copy of definitions/ at ``target``: ``simulated`` written into ruleset.yaml (None: left out), the
    edition's version, メテオ appended to actions.yaml, and with ``official_ids`` the ids of OFFICIAL_IDS."""
    shutil.copytree(DEFINITIONS, target)
    ruleset = target / "ruleset.yaml"
    _replace(ruleset, "  players: 2\n", "  players: 2\n" + ("" if simulated is None else f"  simulated: {str(simulated).lower()}\n"))
    if version != "v8.1":
        _replace(ruleset, "  version: v8.1\n", f"  version: {version}\n")
    if meteor:
        with (target / "actions.yaml").open("a", encoding="utf-8") as f:
            f.write(METEOR.format(version=version))
    if official_ids:
        for name, entry_id, official in OFFICIAL_IDS:  # in place of the one definitions/ may give
            path = target / name
            text, count = re.subn(rf"  - id: {re.escape(entry_id)}\n(    official_id: \S+\n)?",
                                  f"  - id: {entry_id}\n    official_id: {official}\n", path.read_text(encoding="utf-8"))
            assert count == 1, (path, entry_id)
            path.write_text(text, encoding="utf-8")
    return target


def meteor_line(definitions: Path) -> int:
    """The line of メテオ's ``- id:`` in the copy's actions.yaml."""
    lines = (definitions / "actions.yaml").read_text(encoding="utf-8").splitlines()
    return lines.index("  - id: meteor") + 1
