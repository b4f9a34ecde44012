"""The one-line summary ``blackpoker check`` prints on success."""

from __future__ import annotations

from blackpoker.core.model import Rules


def summary(rules: Rules) -> str:
    """The one line ``blackpoker check`` prints on success: what was loaded, so a maintainer sees that nothing went
    missing."""
    kinds = (f"{len(rules.frames)} frames, {len(rules.actions)} actions "
             f"({len(rules.format_actions)} format + {len(rules.frame_actions)} frame), "
             f"{len(rules.characters)} characters, {len(rules.fogs)} fogs, {len(rules.trumps)} trumps, "
             f"{len(rules.rulings)} rulings")
    per_format = "; ".join(
        f"{f.id} {len(rules.actions_in_format(f.id))}/{len(rules.characters_in_format(f.id))}/"
        f"{len(rules.fogs_in_format(f.id))}" for f in rules.formats)
    return f"{rules.edition.version} ok: {kinds} | actions/characters/fogs per format: {per_format}"
