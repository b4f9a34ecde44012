"""The whole validated ruleset as one JSON document (schemas/export.schema.json), for other programs."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any

from blackpoker.core import model as m
from blackpoker.core.keycard import KeyCondition
from blackpoker.core.kinds import official_id
from blackpoker.core.targets import TargetSpec

EXPORT_SCHEMA_VERSION = 1


def blocks_data(blocks: Sequence[Any]) -> list[Any]:
    """Effect blocks as the definitions' YAML writes them (a paragraph, or ``{style: [item or {text, sub}]}``):
    the model's blocks here, the official markup's parsed lists in ``official/markup.py``."""
    out: list[Any] = []
    for b in blocks:
        if isinstance(b, str):
            out.append(b)
        else:
            out.append({b.style: [i.text if not i.sub else {"text": i.text, "sub": blocks_data(i.sub)}
                                  for i in b.items]})
    return out


def _key(key: KeyCondition | None) -> dict[str, Any] | None:
    if key is None:
        return None
    return {
        "text": key.text, "zone": key.zone, "label": key.label, "face_down": key.face_down,
        "parts": [{"ranks": sorted(p.ranks), "suits": sorted(p.suits) if p.suits is not None else None,
                   "count": p.count, "at_least": p.at_least, "same_suit": p.same_suit, "same_rank": p.same_rank}
                  for p in key.parts],
    }


def _target(spec: TargetSpec | None) -> dict[str, Any] | None:
    if spec is None:
        return None
    return {"kind": spec.kind, "owner": spec.owner, "count": spec.count, "same_suit_as_key": spec.same_suit_as_key,
            "request_key_counts": sorted(spec.request_key_counts), "request_action": spec.request_action,
            "request_has_target": spec.request_has_target}


def _value(value: Any) -> Any:
    """A model value as JSON data: enums by their value, tuples as lists."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_value(v) for v in value]
    return value


# Fields whose JSON is more than their value; every other field is exported by _value.
_FIELD_EXPORT: dict[str, Callable[[Any], Any]] = {
    "key": _key, "target_spec": _target, "effect": blocks_data,
    "labels": lambda labels: [{"name": x.name, "condition": x.condition} for x in labels],
    "abilities": lambda abilities: [{"name": x.name, "text": x.text} for x in abilities],
    # a picture by its file and content (the bytes stay in the definitions folder)
    "image": lambda p: None if p is None else {"path": p.path, "media_type": p.media_type,
                                               "sha256": hashlib.sha256(p.data).hexdigest()},
}


def _entry(rules: m.Rules, entry: m.Action | m.Character | m.Fog | m.Trump, **extra: Any) -> dict[str, Any]:
    """An entry as JSON, field by field from its dataclass (its origin is not data), then ``extra``."""
    data = {f.name: _FIELD_EXPORT.get(f.name, _value)(getattr(entry, f.name))
            for f in dataclasses.fields(entry) if f.name != "origin"}
    return {**data, "official_id": official_id(entry), **extra, "changed": rules.is_changed(entry)}


def export_rules(rules: m.Rules) -> dict[str, Any]:
    """The export as plain data; every list in definition order."""
    ed = rules.edition
    return {
        "schema_version": EXPORT_SCHEMA_VERSION,
        "ruleset": {"version": ed.version, "edition": ed.edition, "title": ed.title, "subtitle": ed.subtitle,
                    "author": ed.author, "release": ed.release, "release_date": ed.released,
                    "copyright": ed.copyright, "players": ed.players, "simulated": ed.simulated,
                    "site": ed.site, "official": [{"file": name, "header": [list(kv) for kv in header]}
                                                  for name, header in ed.official]},
        "action_groups": list(rules.action_groups), "frame_action_groups": list(rules.frame_action_groups),
        "nesting_exceptions": [vars(e) for e in rules.nesting_exceptions],
        "trump_about": None if rules.trump_about is None else vars(rules.trump_about),
        "formats": [{"id": f.id, "name": f.name, "reading": f.reading} for f in rules.formats],
        "frames": [{
            "id": f.id, "official_id": official_id(f), "name": f.name, "reading": f.reading,
            "formats": list(f.formats), "zones": list(f.zones),
            "deck": None if f.deck is None else {"text": f.deck.text, "cards": list(f.deck.cards) or None,
                                                 "min_cards": f.deck.min_cards},
            "setup": list(f.setup), "setup_continues": f.setup_continues,
            "actions": list(f.actions), "fogs": list(f.fogs), "trumps": list(f.trumps),
            "characters": list(f.characters), "inherits": f.inherits, "image": _FIELD_EXPORT["image"](f.image),
            "disclosure": [vars(d) for d in f.disclosure],
        } for f in rules.frames],
        "actions": [_entry(rules, a, shorthand=a.shorthand) for a in rules.actions],
        "characters": [_entry(rules, c) for c in rules.characters],
        "fogs": [_entry(rules, f) for f in rules.fogs],
        "trumps": [_entry(rules, t) for t in rules.trumps],
        "costs": [vars(c) for c in rules.costs],
        "card_numbers": [vars(c) for c in rules.card_numbers],
        "zones": [vars(z) for z in rules.zones],
        "disclosure_levels": [vars(d) for d in rules.disclosure_levels],
        "disclosure": [vars(d) for d in rules.disclosure],
        "labels": list(rules.labels),
        "flows": [{"id": f.id, "name": f.name, "section": f.section,
                   "steps": [{"id": s.id, "text": s.text, "decision": s.decision} for s in f.steps],
                   "edges": [{"from": e.source, "to": e.target, "label": e.label} for e in f.edges]}
                  for f in rules.flows],
        "rulings": [{"id": r.id, "title": r.title, "source": r.source, "ruling": r.ruling,
                     "applies_to": list(r.applies_to)} for r in rules.rulings],
    }


def export_json(rules: m.Rules) -> str:
    """Deterministic JSON text (UTF-8, Japanese unescaped, stable order)."""
    return json.dumps(export_rules(rules), ensure_ascii=False, indent=2) + "\n"


# An entry's story, flavour text and designers' note (補足): shown in the lists and the JSON, never read by the rules or the simulator.
PROSE_KEYS = frozenset({"story", "flavor", "flavor_speaker", "design_note"})


def _without_prose(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_prose(v) for k, v in data.items() if k not in PROSE_KEYS}
    if isinstance(data, list):
        return [_without_prose(v) for v in data]
    return data


def rules_digest(rules: m.Rules, *, prose: bool = True) -> str:
    """SHA-256 of the ruleset's content; ``prose=False`` leaves out stories and flavour texts, so what does
    not show them (examples, scenarios, tables) can be keyed on it and stay cached when only those change."""
    data = export_rules(rules)
    text = json.dumps(data if prose else _without_prose(data), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
