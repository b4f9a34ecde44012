"""The model from the JSON export (``blackpoker-rules.json``), without YAML or schema libraries.

The play page runs the simulator in the browser (Pyodide), where PyYAML and jsonschema are not at hand: it loads
the site's own export, which the build wrote from a ruleset that passed every check. The export is the model's
data field by field (core/export.py), so this is its inverse: key cards and targets are parsed again from their
text as the YAML loader parses them. Two things the export derives are read back: an entry's ``official_id`` (the
export always writes one: the camelCase id when the definitions gave none) and ``changed`` (the export writes
whether the entry changed in this edition; the definitions say it only where ``updated`` does not).
Places (``origin``) point into the export; a picture keeps its path and type, not its bytes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from blackpoker.core import model as m
from blackpoker.core.keycard import parse_key_card
from blackpoker.core.kinds import camel_id
from blackpoker.core.targets import parse_target

FILE = "blackpoker-rules.json"


def _picture(raw: dict[str, Any] | None) -> m.Picture | None:
    return None if raw is None else m.Picture(raw["path"], raw["media_type"], b"")


_CONVERT: dict[str, Callable[[Any], Any]] = {
    "trigger": m.Trigger, "speed": m.Speed, "timing": m.Timing, "effect": m.blocks_from_data,
    "labels": lambda raw: tuple(m.Label(x["name"], x["condition"]) for x in raw),
    "abilities": lambda raw: tuple(m.Ability(x["name"], x["text"]) for x in raw),
    "image": _picture,
}
_DERIVED = frozenset({"origin", "key", "target_spec", "official_id", "changed"})

_E = TypeVar("_E", m.Action, m.Character, m.Fog, m.Trump)


def _entry(cls: type[_E], raw: dict[str, Any], version: str, origin: m.Origin) -> _E:
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in _DERIVED or f.name not in raw:
            continue
        value = raw[f.name]
        values[f.name] = _CONVERT[f.name](value) if f.name in _CONVERT else (
            tuple(value) if isinstance(value, list) else value)
    key_text = raw.get("key_card")
    values["key"] = parse_key_card(key_text) if key_text else None
    if "target_spec" in {f.name for f in dataclasses.fields(cls)}:
        values["target_spec"] = parse_target(raw["target"]) if raw.get("target") else None
    values["official_id"] = None if raw["official_id"] == camel_id(raw["id"]) else raw["official_id"]
    derived = version in tuple(raw.get("updated", ()))
    values["changed"] = None if raw["changed"] == derived else raw["changed"]
    return cls(origin=origin, **values)


def rules_from_export(data: dict[str, Any]) -> m.Rules:
    """The model the export was written from (``schemas/export.schema.json``, a ruleset already checked)."""
    rs = data["ruleset"]

    def origin(*path: str | int) -> m.Origin:
        return m.Origin(FILE, tuple(path))

    edition = m.Edition(
        version=rs["version"], edition=rs["edition"], title=rs["title"], subtitle=rs["subtitle"], author=rs["author"],
        release=rs["release"], released=rs["release_date"], copyright=rs["copyright"], players=rs["players"],
        origin=origin("ruleset"), site=rs.get("site"), simulated=rs["simulated"],
        official=tuple((o["file"], tuple((k, v) for k, v in o["header"])) for o in rs.get("official", ())))
    version = edition.version

    def entries(cls: type[_E], kind: str) -> tuple[_E, ...]:
        return tuple(_entry(cls, raw, version, origin(kind, i)) for i, raw in enumerate(data[kind]))

    frames = tuple(m.Frame(
        id=f["id"], name=f["name"], reading=f["reading"], formats=tuple(f["formats"]),
        official_id=None if f["official_id"] == camel_id(f["id"]) else f["official_id"],
        zones=tuple(f["zones"]), setup=tuple(f["setup"]), setup_continues=f["setup_continues"],
        origin=origin("frames", i),
        deck=None if f["deck"] is None else m.DeckCondition(f["deck"]["text"], tuple(f["deck"]["cards"] or ()),
                                                           f["deck"]["min_cards"]),
        actions=tuple(f["actions"]), fogs=tuple(f["fogs"]), trumps=tuple(f["trumps"]),
        disclosure=tuple(m.Disclosure(**d) for d in f["disclosure"]), characters=tuple(f["characters"]),
        inherits=f["inherits"], image=_picture(f["image"]),
    ) for i, f in enumerate(data["frames"]))
    about = data.get("trump_about")
    return m.Rules(
        edition=edition,
        card_numbers=tuple(m.CardNumber(c["card"], c["number"], c["text"]) for c in data["card_numbers"]),
        costs=tuple(m.CostType(**c) for c in data["costs"]),
        zones=tuple(m.Zone(**z) for z in data["zones"]),
        disclosure_levels=tuple(m.DisclosureLevel(**d) for d in data["disclosure_levels"]),
        disclosure=tuple(m.Disclosure(**d) for d in data["disclosure"]),
        labels=tuple(data["labels"]), action_groups=tuple(data.get("action_groups", ())),
        frame_action_groups=tuple(data.get("frame_action_groups", ())),
        formats=tuple(m.Format(f["id"], f["name"], f["reading"], origin("formats", i))
                      for i, f in enumerate(data["formats"])),
        nesting_exceptions=tuple(m.NestingException(**e) for e in data.get("nesting_exceptions", ())),
        frames=frames, actions=entries(m.Action, "actions"), characters=entries(m.Character, "characters"),
        fogs=entries(m.Fog, "fogs"), trumps=entries(m.Trump, "trumps"),
        rulings=tuple(m.Ruling(r["id"], r["title"], r["source"], r["ruling"], tuple(r["applies_to"]),
                               origin("rulings", i)) for i, r in enumerate(data["rulings"])),
        flows=tuple(m.Flow(f["id"], f["name"], f["section"],
                           tuple(m.FlowStep(s["id"], s["text"], s["decision"]) for s in f["steps"]),
                           tuple(m.FlowEdge(e["from"], e["to"], e["label"]) for e in f["edges"]), origin("flows", i))
                    for i, f in enumerate(data["flows"])),
        trump_about=None if about is None else m.TrumpAbout(about["description"], about["design_note"]),
    )
