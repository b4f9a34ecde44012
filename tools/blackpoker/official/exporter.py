"""Write a ruleset back in the official layout (act.yaml, act-frame.yaml, frame.yaml, version.json), so the
official generator and the tutorial's catalog script keep reading it: the inverse of importer.py.

Only what the official files hold is written; what they leave implicit (summoned_by, placed_by, enables,
frame zones) the importer derives again. Values the importer derives the same way are not written twice (a ruby
the name already reads as, a header that says only the edition and its date)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import Any

from blackpoker.core import model as m
from blackpoker.core.kinds import official_id
from blackpoker.core.loader import load_rules
from blackpoker.official import convert as cv
from blackpoker.official.fields import ACTION_FIELDS, CHARACTER_FIELDS, FOG_FIELDS, FRAME_FIELDS, TRUMP_FIELDS
from blackpoker.official.frame_entries import write_access, write_deck, write_start
from blackpoker.official.markup import write_effect
from blackpoker.official.reader import ACT, ACT_FRAME, FRAME, VERSION
from blackpoker.official.splice import entries, splice
from blackpoker.official.yamltext import dump

SOURCE = "official-source"  # beside the definitions an import writes: the official files it read, as they were
SNAPSHOT = "definitions"  # in it: the definitions as imported, to tell what changed since
FIELD_ORDER = {"actId": ACTION_FIELDS, "charId": CHARACTER_FIELDS, "fogId": FOG_FIELDS, "trumpId": TRUMP_FIELDS,
               "frameId": FRAME_FIELDS}


def _header(rules: m.Rules, name: str, kept: dict[str, dict[str, str]]) -> dict[str, str]:
    if name in kept:
        return kept[name]
    ed = rules.edition
    ids = {"act": {"id": "act"}, "act_frame": {"id": "act-frame"}}.get(name, {})
    return {**ids, "ver": ed.edition, "lastupdate": ed.release}


def _common(entry: m.Action | m.Character | m.Fog | m.Trump, rules: m.Rules) -> dict[str, Any]:
    """story … devNote, in the official order."""
    out: dict[str, Any] = {}
    for ours, official in (("story", "story"), ("flavor", "flavor"), ("flavor_speaker", "flavorSpeaker")):
        if getattr(entry, ours, None):
            out[official] = getattr(entry, ours)
    if entry.introduced:
        out["since"] = entry.introduced
    if entry.updated:
        out["update"] = cv.write_versions(entry.updated)
    if rules.is_changed(entry):
        out["changed"] = "changed"
    if entry.design_note:
        out["devNote"] = entry.design_note
    return out


def _where(entry: m.Action | m.Character | m.Fog | m.Trump, rules: m.Rules) -> dict[str, str]:
    if entry.frames:
        return {"frame": cv.write_bullets([rules.frame(f).name for f in entry.frames])}
    return {"format": cv.write_formats(getattr(entry, "formats", ()))}


def _identity(entry: m.Action | m.Character | m.Fog | m.Trump, prefix: str) -> dict[str, str]:
    ruby = {"ruby": entry.reading} if entry.reading else {}
    return {f"{prefix}Name": entry.name, **ruby, f"{prefix}Id": official_id(entry)}


def action(a: m.Action, rules: m.Rules) -> dict[str, Any]:
    """One action in the official layout and field order; the optional fields only when the entry has them."""
    out: dict[str, Any] = {**_where(a, rules), **_identity(a, "act"), "actType": a.category,
                           "actTrigger": a.trigger.label, "actSpeed": a.speed.label, "actTime": a.timing.label}
    if a.key_unit:
        out["actUnit"] = a.key_unit
    if a.cost:
        out["actCost"] = a.cost_text
    if a.key_card:
        out["actKey"] = cv.to_official_key(a.key_card)
    elif a.implicit_key == "rare":
        out["actKey"] = cv.RARE_KEY
    for ours, official in (("activation_condition", "actActCond"), ("trigger_condition", "actTriggerCond")):
        if getattr(a, ours):
            out[official] = getattr(a, ours)
    if a.note:
        out["actNote"] = cv.NOTE_MARK + a.note
    if a.target:
        out["actTarget"] = a.target
    out["actEffect"] = write_effect(a.effect)
    return out | _common(a, rules)


def character(c: m.Character, rules: m.Rules) -> dict[str, Any]:
    """One character in the official layout and field order."""
    out: dict[str, Any] = {**_where(c, rules), **_identity(c, "char"), "charType": c.category,
                           "charKey": cv.to_official_key(c.key_card)}
    if c.size:
        out["charSize"] = c.size
    if c.note:
        out["charNote"] = cv.NOTE_MARK + c.note
    if c.labels:
        out["charLabel"] = cv.write_labels([(label.name, label.condition) for label in c.labels])
    if c.abilities:
        out["charAbility"] = cv.write_abilities([(ab.name, ab.text) for ab in c.abilities])
    return out | _common(c, rules)


def fog(f: m.Fog, rules: m.Rules) -> dict[str, Any]:
    """One fog in the official layout and field order."""
    out: dict[str, Any] = {**_where(f, rules), **_identity(f, "fog"), "fogType": f.category,
                           "fogKey": cv.to_official_key(f.key_card)}
    if f.target:
        out["fogTarget"] = f.target
    out["fogAbility"] = f.ability
    return out | _common(f, rules)


def trump(t: m.Trump, rules: m.Rules) -> dict[str, Any]:
    """One trump in the official layout and field order (its picture by file name)."""
    out: dict[str, Any] = {**_where(t, rules), **_identity(t, "trump"), "trumpType": t.category,
                           "trumpKey": cv.to_official_key(t.key_card), "trumpAbility": t.ability}
    if t.grants_label:
        out["trumpLabel"] = t.grants_label
    if t.image:
        out["image"] = picture_name(t.image)
    return out | _common(t, rules)


def picture_name(picture: m.Picture) -> str:
    """images/tarot/Swords_01.jpg → tarot/Swords_01 (the official image: names a picture without its suffix)."""
    path = PurePosixPath(picture.path).relative_to("images")
    return str(path.with_suffix(""))


def frame(f: m.Frame, rules: m.Rules) -> dict[str, Any]:
    """One frame.yaml entry; the ruby is written only where it is not what the name reads as, as the import derives
    it again."""
    out: dict[str, Any] = {"name": f.name}
    if f.reading and cv.default_reading(f.name) != f.reading:
        out["ruby"] = f.reading
    if f.image:
        out["image"] = picture_name(f.image)
    out.update(frameId=official_id(f), format=cv.write_formats(f.formats))
    if f.deck:
        out["deck"] = write_deck(f.deck.text, f.deck.cards) if f.deck.cards else f.deck.text
    if f.setup:
        out["start"] = write_start(f.setup, f.setup_continues)
    if f.actions:
        out["actionList"] = cv.write_bullets([rules.action(a).name for a in f.actions], "*")
    if f.disclosure:
        out["accessLevel"] = write_access([(rules.zone(d.zone).name, d.public, d.personal, d.hidden)
                                           for d in f.disclosure])
    if f.inherits:
        out["inherits"] = official_id(rules.frame(f.inherits))
    return out


def _groups(entries: Iterable[Any], group_of: Any, order: Iterable[str] = ()) -> list[tuple[str, list[Any]]]:
    """Entries by list section, sections in ``order`` first, then as they come."""
    groups: dict[str, list[Any]] = {g: [] for g in order}
    for e in entries:
        groups.setdefault(group_of(e), []).append(e)
    return [(g, items) for g, items in groups.items() if items]


def export_official(rules: m.Rules, source: Path | None = None) -> dict[str, str | bytes]:
    """The official files' texts by path (pictures under images/ as bytes). With ``source`` (the folder the
    import keeps beside the definitions, ``official-source/``), each file the import read is written as it was,
    with only the values that changed since edited in place (see splice.py)."""
    data = official_data(rules)
    out: dict[str, str | bytes] = {}
    if source is not None and (source / SNAPSHOT).is_dir():
        old = official_data(load_rules(source / SNAPSHOT, checks=False))  # checked when it was imported
        old_all = {ident: entry for value in old.values() for _g, ident, entry in entries(value)}
        new_all = {ident: entry for value in data.values() for _g, ident, entry in entries(value)}
        for name in (ACT, ACT_FRAME, FRAME, VERSION):
            path = source / name
            if not path.is_file():
                continue
            original = path.read_bytes().decode("utf-8")
            if name == VERSION:
                out[name] = original if old[name] == data[name] else _text(name, data[name])
            else:
                out[name] = splice(original, old[name], data[name], FIELD_ORDER, old_all, new_all)
    out.update({name: _text(name, value) for name, value in data.items() if name not in out})
    for picture in [t.image for t in rules.trumps] + [f.image for f in rules.frames]:
        if picture is not None:
            out[picture.path] = picture.data
    return out


def _text(name: str, data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n" if name == VERSION else dump(data)


def official_data(rules: m.Rules) -> dict[str, dict[str, Any]]:
    """The official files' data by file name."""
    kept = {name: dict(fields) for name, fields in rules.edition.official}
    in_formats = [c for c in rules.characters if c.formats], [f for f in rules.fogs if f.formats]
    in_frames = [c for c in rules.characters if c.frames], [f for f in rules.fogs if f.frames]

    def lists(actions: list[m.Action], order: tuple[str, ...], characters: list[m.Character],
              fogs: list[m.Fog]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if actions:
            out["actList"] = [{"type": g, "acts": [action(a, rules) for a in items]}
                              for g, items in _groups(actions, lambda a: a.group, order)]
        if characters:
            out["charList"] = [{"type": g, "chars": [character(c, rules) for c in items]}
                               for g, items in _groups(characters, lambda c: c.group or c.category)]
        if fogs:
            out["fogList"] = [{"type": g, "fogs": [fog(f, rules) for f in items]}
                              for g, items in _groups(fogs, lambda f: f.group or f.category)]
        return out

    act = {"data": _header(rules, "act", kept),
           **lists(list(rules.format_actions), rules.action_groups, *in_formats)}
    act_frame = {"data": _header(rules, "act_frame", kept),
                 **lists(list(rules.frame_actions), rules.frame_action_groups, *in_frames)}
    if rules.trump_about:
        about = {"description": rules.trump_about.description}
        if rules.trump_about.design_note:
            about["devNote"] = rules.trump_about.design_note
        act_frame["trumpData"] = about
    if rules.trumps:
        act_frame["trumpList"] = [{"type": g, "trumps": [trump(t, rules) for t in items]}
                                  for g, items in _groups(rules.trumps, lambda t: t.group)]
    frames = {"data": {k: v for k, v in _header(rules, "frame", kept).items() if k != "id" or "frame" in kept},
              "frames": [frame(f, rules) for f in rules.frames]}
    return {ACT: act, ACT_FRAME: act_frame, FRAME: frames, VERSION: _header(rules, "version", kept)}
