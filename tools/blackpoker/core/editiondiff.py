"""What changed between two editions of the rules: entries added, removed and changed, field by field.

Pure: two loaded rulesets in, one :class:`RulesDiff` out (the command line loads them, the renderers show it).
Entries are matched by kind and id, then by official id (an entry renamed in our ids but not in the official
files is the same entry). Each changed field keeps its old and new text, split into runs that are the same or
changed, and says whether only the typography changed: the same text once width (NFKC), ◇/♢, ~/〜 and every
space and line break are set aside. Such changes are counted apart from changes of wording.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from blackpoker.core.field_labels import FIELD_LABELS, FRAME_LABELS
from blackpoker.core.kinds import KINDS, Named, kind_of, named_entries, official_id
from blackpoker.core.model import Action, Block, Character, Fog, Frame, Rules, TextList, Trump
from blackpoker.core.typography import typography_key


@dataclass(frozen=True)
class Run:
    """A piece of a field's text, the same on both sides or ``changed``."""

    text: str
    changed: bool


@dataclass(frozen=True)
class FieldChange:
    """One field of an entry that differs between two editions, with its text split into runs."""

    key: str  # our field name (``effect``)
    label: str  # as the lists label it (効果)
    old: str  # "" where the field was absent
    new: str
    typography: bool  # only widths, glyph variants, spaces or line breaks differ
    old_runs: tuple[Run, ...]
    new_runs: tuple[Run, ...]


@dataclass(frozen=True)
class EntryRef:
    """An entry as a page of changes names it: kind, ids and name."""

    kind: str  # the kind's key (action, character …)
    kind_name: str  # アクション, キャラクター …
    id: str
    official_id: str
    name: str


@dataclass(frozen=True)
class EntryChange:
    """An entry in both editions whose fields differ."""

    old: EntryRef
    new: EntryRef
    fields: tuple[FieldChange, ...]
    updated_old: tuple[str, ...]  # the hand-kept 更新 versions on each side
    updated_new: tuple[str, ...]

    @property
    def wording(self) -> tuple[FieldChange, ...]:
        """The fields whose words changed: what a reader must relearn, counted and listed apart."""
        return tuple(f for f in self.fields if not f.typography)

    @property
    def typography(self) -> tuple[FieldChange, ...]:
        """The fields where only widths, glyph variants, spaces or line breaks changed: shown, but no new rule."""
        return tuple(f for f in self.fields if f.typography)


@dataclass(frozen=True)
class Edition:
    """The edition on one side of a comparison, as the page of changes heads it."""

    version: str  # v8.1
    edition: str  # 第8.1版
    release: str


@dataclass(frozen=True)
class RulesDiff:
    """Everything that differs between two editions: entries added, removed and changed."""

    old: Edition
    new: Edition
    added: tuple[EntryRef, ...]
    removed: tuple[EntryRef, ...]
    changed: tuple[EntryChange, ...]

    @property
    def wording_changes(self) -> int:
        """How many fields changed their words, for the summary line (CLI and 版の違い page) alike."""
        return sum(len(c.wording) for c in self.changed)

    @property
    def typography_changes(self) -> int:
        """How many fields changed only their typography, counted apart so they do not inflate the rewordings."""
        return sum(len(c.typography) for c in self.changed)

    @property
    def reworded(self) -> tuple[EntryChange, ...]:
        """The entries with at least one change of wording."""
        return tuple(c for c in self.changed if c.wording)

    def unversioned(self) -> tuple[EntryChange, ...]:
        """Entries whose wording changed while their hand-kept 更新 versions did not gain a new one."""
        return tuple(c for c in self.reworded if not set(c.updated_new) - set(c.updated_old))

    def version_warnings(self) -> list[str]:
        """:meth:`unversioned`, one line each (for maintainers)."""
        return [f"{c.new.kind_name} {c.new.name} ({c.new.id}): its wording changed from {self.old.version} to "
                f"{self.new.version}, but its 更新バージョン ({', '.join(c.updated_new) or 'none'}) gained no new version"
                for c in self.unversioned()]


# --- the fields of each kind, as text ------------------------------------------------------------------

def effect_text(blocks: tuple[Block, ...], depth: int = 0) -> str:
    """Effect blocks as lines of text, list items with their marks (1. ・ A.) and nested items indented."""
    lines: list[str] = []
    indent = "  " * depth
    for block in blocks:
        if isinstance(block, str):
            lines.append(indent + block)
            continue
        for i, item in enumerate(block.items):
            lines.append(f"{indent}{_mark(block, i)}{item.text}")
            if item.sub:
                lines.append(effect_text(item.sub, depth + 1))
    return "\n".join(lines)


def _mark(block: TextList, i: int) -> str:
    if block.style == "numbered":
        return f"{i + 1}. "
    if block.style == "lettered":
        return f"{chr(ord('A') + i)}. "
    return "・"


def _versions(versions: tuple[str, ...]) -> str:
    return ", ".join(versions)


def _picture(entry: Trump | Frame) -> str:
    if entry.image is None:
        return ""
    return f"{entry.image.path} ({hashlib.sha256(entry.image.data).hexdigest()[:12]})"


Fields = list[tuple[str, str, str | None]]  # (key, label, text)


def _labelled(*fields: tuple[str, str | None], labels: dict[str, str] = FIELD_LABELS) -> Fields:
    """(key, text) pairs with the label readers know each field by (core/field_labels.py)."""
    return [(key, labels[key], text) for key, text in fields]


def _availability(rules: Rules, entry: Action | Character | Fog | Trump) -> Fields:
    formats = getattr(entry, "formats", ())
    return _labelled(("formats", "、".join(rules.format(f).name for f in formats) or None),
                     ("frames", "、".join(rules.frame(f).name for f in entry.frames) or None))


def _head(entry: Named, category: str | None, group: str | None) -> Fields:
    return _labelled(("name", entry.name), ("reading", entry.reading), ("category", category), ("group", group))


def _tail(entry: Action | Character | Fog | Trump) -> Fields:
    return _labelled(("story", entry.story), ("flavor", entry.flavor), ("flavor_speaker", entry.flavor_speaker),
                     ("introduced", entry.introduced), ("updated", _versions(entry.updated)),
                     ("design_note", entry.design_note))


def _action(rules: Rules, a: Action) -> Fields:
    return [*_head(a, a.category, a.group), *_availability(rules, a), *_labelled(
        ("trigger", a.trigger.label), ("speed", a.speed.label), ("timing", a.timing.label),
        ("key_card", a.key_card), ("implicit_key", a.implicit_key), ("key_unit", a.key_unit), ("cost", a.cost_text),
        ("note", a.note), ("activation_condition", a.activation_condition),
        ("trigger_condition", a.trigger_condition), ("target", a.target), ("effect", effect_text(a.effect))),
        *_tail(a)]


def _character(rules: Rules, c: Character) -> Fields:
    labels = "、".join(f"<{lb.name}>" + (f"（{lb.condition}）" if lb.condition else "") for lb in c.labels)
    abilities = "\n".join(f"【{ab.name}】{ab.text}" if ab.name else ab.text for ab in c.abilities)
    return [*_head(c, c.category, c.group), *_availability(rules, c), *_labelled(
        ("key_card", c.key_card), ("size", c.size), ("note", c.note), ("labels", labels), ("abilities", abilities)),
        *_tail(c)]


def _fog(rules: Rules, f: Fog) -> Fields:
    return [*_head(f, f.category, f.group), *_availability(rules, f),
            *_labelled(("key_card", f.key_card), ("target", f.target), ("ability", f.ability)), *_tail(f)]


def _trump(rules: Rules, t: Trump) -> Fields:
    return [*_head(t, t.category, t.group), *_availability(rules, t), *_labelled(
        ("key_card", t.key_card), ("ability", t.ability), ("grants_label", t.grants_label), ("image", _picture(t))),
        *_tail(t)]


def _frame(rules: Rules, f: Frame) -> Fields:
    disclosure = "\n".join(f"{rules.zone(d.zone).name}: {d.public}/{d.personal}/{d.hidden}" for d in f.disclosure)
    actions = "、".join(rules.action(a).name for a in f.actions if a in {x.id for x in rules.actions})
    return [*_head(f, None, None), *_labelled(
        ("formats", "、".join(rules.format(x).name for x in f.formats)), ("deck", f.deck.text if f.deck else None),
        ("setup", "\n".join(f.setup) + ("\n" + f.setup_continues if f.setup_continues else "")),
        ("actions", actions), ("disclosure", disclosure),
        ("inherits", rules.frame(f.inherits).name if f.inherits else None), ("image", _picture(f)),
        labels=FRAME_LABELS)]


_FIELDS: dict[type, Callable[[Rules, Any], Fields]] = {  # Any: each function takes an entry of its key's type
    Action: _action, Character: _character, Fog: _fog, Trump: _trump, Frame: _frame}


def entry_fields(rules: Rules, entry: Named) -> Fields:
    """The entry's fields as (key, label, text), in the order the lists show them."""
    return _FIELDS[type(entry)](rules, entry)


# --- matching and comparing ---------------------------------------------------------------------------

def _ref(entry: Named) -> EntryRef:
    kind = kind_of(entry)
    return EntryRef(kind.key, kind.name, entry.id, official_id(entry), entry.name)


def _entries(rules: Rules, kind_key: str) -> list[Named]:
    return [e for e in named_entries(rules) if kind_of(e).key == kind_key]


def match(old: list[Named], new: list[Named]) -> tuple[list[tuple[Named, Named]], list[Named], list[Named]]:
    """Pairs of the same entry (by id, then by official id), then the old ones left (removed) and the new ones
    left (added), each in its own order."""
    by_id = {e.id: e for e in new}
    pairs: dict[str, Named] = {}  # old id → new entry
    for e in old:
        if e.id in by_id:
            pairs[e.id] = by_id[e.id]
    taken = {n.id for n in pairs.values()}
    by_official = {official_id(e): e for e in new if e.id not in taken}
    for e in old:
        if e.id not in pairs and official_id(e) in by_official:
            pairs[e.id] = by_official.pop(official_id(e))
    taken = {n.id for n in pairs.values()}
    return ([(e, pairs[e.id]) for e in old if e.id in pairs], [e for e in old if e.id not in pairs],
            [e for e in new if e.id not in taken])


def runs(old: str, new: str) -> tuple[tuple[Run, ...], tuple[Run, ...]]:
    """The two texts split into runs of characters that are the same or changed (a character-level diff)."""
    a: list[Run] = []
    b: list[Run] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            a.append(Run(old[i1:i2], False))
            b.append(Run(new[j1:j2], False))
            continue
        if i2 > i1:
            a.append(Run(old[i1:i2], True))
        if j2 > j1:
            b.append(Run(new[j1:j2], True))
    return tuple(a), tuple(b)


def compare_fields(old: Fields, new: Fields) -> tuple[FieldChange, ...]:
    """Every field whose text differs, in the new entry's order (a field only one side has is from or to "")."""
    before = {key: (label, text or "") for key, label, text in old}
    after = {key: (label, text or "") for key, label, text in new}
    changes: list[FieldChange] = []
    for key in dict.fromkeys([k for k, _, _ in new] + [k for k, _, _ in old]):
        label, a = before.get(key, after.get(key, ("", "")))
        b = after.get(key, ("", ""))[1]
        if a == b:
            continue
        old_runs, new_runs = runs(a, b)
        typography = bool(a) and bool(b) and typography_key(a) == typography_key(b)
        changes.append(FieldChange(key, label, a, b, typography, old_runs, new_runs))
    return tuple(changes)


def _edition(rules: Rules) -> Edition:
    return Edition(rules.edition.version, rules.edition.edition, rules.edition.release)


def diff_rules(old: Rules, new: Rules) -> RulesDiff:
    """Everything that differs between two editions, entries of each kind in the order of the kinds."""
    added: list[EntryRef] = []
    removed: list[EntryRef] = []
    changed: list[EntryChange] = []
    for kind in KINDS:
        pairs, gone, came = match(_entries(old, kind.key), _entries(new, kind.key))
        removed.extend(_ref(e) for e in gone)
        added.extend(_ref(e) for e in came)
        for a, b in pairs:
            fields = compare_fields(entry_fields(old, a), entry_fields(new, b))
            if fields:
                changed.append(EntryChange(_ref(a), _ref(b), fields, getattr(a, "updated", ()),
                                           getattr(b, "updated", ())))
    return RulesDiff(_edition(old), _edition(new), tuple(added), tuple(removed), tuple(changed))


def marked(runs_: tuple[Run, ...], left: str = "[", right: str = "]") -> str:
    """Runs as one line of plain text with the changed characters between marks (for a terminal)."""
    return "".join(f"{left}{r.text}{right}" if r.changed else r.text for r in runs_)
