"""The rulebook's text names entries of the definitions (``{ref}`カウンター <act-counter>```, an index term's
``label: frame-extra``); a definitions folder without one of them cannot build that page.

The build asks before anything is written, so a maintainer building other definitions (an imported edition)
learns at once which page refers to which missing entry, each located in the Markdown, instead of a Sphinx
warning deep in the rulebook step. The fix is theirs to choose: add the entry, or change the page.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from blackpoker.core.errors import DefinitionError
from blackpoker.core.kinds import KINDS, anchor, named_entries
from blackpoker.core.model import Rules

# {ref}`label`, {ref}`text <label>`, {numref}`…`: the label whose prefix is an entry kind's anchor
_ROLE = re.compile(r"\{(?:ref|numref)\}`(?:[^`<]*<)?(?P<label>[^`<>]+?)>?`")
_TERM_LABEL = re.compile(r"\blabel:\s*(?P<label>[A-Za-z0-9_-]+)")
_KIND_NAME = {k.anchor: k for k in KINDS}
INDEX_TERMS = "index-terms.yaml"


def _entry_label(label: str) -> str | None:
    """The kind prefix of an entry's anchor (``act``), or None for a section, figure or other label."""
    prefix = label.split("-", 1)[0]
    return prefix if prefix in _KIND_NAME and "-" in label else None


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)


def missing_entries(rules: Rules, source: Path) -> list[DefinitionError]:
    """Every reference of the rulebook's pages (and its index terms) to an entry the definitions lack."""
    entries = named_entries(rules)
    known = {anchor(e) for e in entries}
    files = [*sorted(source.glob("*.md")), source / INDEX_TERMS]
    problems = []
    for path in files:
        if not path.is_file():
            continue
        pattern = _TERM_LABEL if path.suffix == ".yaml" else _ROLE
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in pattern.finditer(line):
                label = match.group("label")
                prefix = _entry_label(label)
                if prefix is None or label in known:
                    continue
                kind = _KIND_NAME[prefix]
                entry_id = label.removeprefix(f"{prefix}-")
                page = f"page {path.stem}" if path.suffix == ".md" else "index terms"
                problems.append(DefinitionError(
                    _display(path), number, match.start("label") + 1, (),
                    f"the rulebook's {page} refers to {kind.key} '{entry_id}' ({label}), which the definitions do "
                    f"not have; expected that {kind.key} in the definitions, or {path.name} changed not to refer "
                    "to it"))
    return problems
