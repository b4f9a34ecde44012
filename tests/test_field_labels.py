"""Field names in one place (core/field_labels.py): the action lists' templates and the rulebook's entry lists
read them there and spell none of them out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from blackpoker import load_rules
from blackpoker.core import field_labels
from blackpoker.render.actionlist.html import render_pages

ROOT = Path(__file__).resolve().parents[1]


def test_no_template_or_entry_list_spells_out_a_field_name() -> None:
    names = set(field_labels.FIELD_LABELS.values()) | set(field_labels.SHORT.values())
    spelled = []
    for path in sorted((ROOT / "templates" / "actionlist").glob("*.html")):
        text = path.read_text(encoding="utf-8")
        for name in names:
            for pattern in (f'field("{name}"', f'title="{name}"', f">{name}</span>", f"<b>{name}</b>"):
                if pattern in text:
                    spelled.append(f"{path.name}: {pattern}")
    for module in ("sphinxext/lists.py", "core/editiondiff.py"):  # the rulebook's entry lists, the pages of changes
        code = (ROOT / "tools" / "blackpoker" / module).read_text(encoding="utf-8")
        frame_names = set(field_labels.FRAME_LABELS.values())
        spelled += [f"{module}: {name}" for name in names | frame_names if re.search(rf'"{re.escape(name)}"', code)]
    assert spelled == []


def test_the_action_lists_show_the_names_from_core(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules()
    monkeypatch.setitem(field_labels.FIELD_LABELS, "target", "対象(試験)")
    monkeypatch.setitem(field_labels.SHORT, "summoned_by", "召喚元(試験)")
    page = render_pages(rules)["html/all.html"]
    assert "対象(試験)" in page and "召喚元(試験)" in page
