"""The definitions files of an import: the converted entries in their files (fields in their schema's order),
frame membership, and ruleset.yaml, formats.yaml and rulings.yaml from the base where the official files say
nothing."""

from __future__ import annotations

import re
from typing import Any

from blackpoker.official.context import Context, Entry, Skip
from blackpoker.official.fields import HEADER_NAMES, UNIT_DRIVE, ordered
from blackpoker.official.reader import ACT, ACT_FRAME

KINDS = ("action", "character", "fog", "trump", "frame")


def assemble(ctx: Context, frames: list[Entry], actions: list[Entry], characters: list[Entry], fogs: list[Entry],
             trumps: list[Entry]) -> None:
    """The converted entries as the definitions' files, each entry in the schema's field order; a frame's actionList
    is checked against the actions that name the frame, which give the membership."""
    files = ctx.result.files
    frames = frames + ctx.extra_frames
    for f in frames:
        fid = f.data["id"]
        members = {"actions": [a.data["id"] for a in actions if fid in a.frames],
                   "characters": [c.data["id"] for c in characters if fid in c.frames],
                   "trumps": [t.data["id"] for t in trumps if fid in t.frames]}
        names = f.data.pop("action_names")
        listed = [a.data["name"] for a in actions if fid in a.frames]
        if names and sorted(names) != sorted(listed):  # two files that disagree: the actions' bullets decide
            ctx.warn(f.src, f.path + ("actionList",), f"lists {', '.join(names)}, but the actions whose frame "
                     f"names {f.data['name']} are {', '.join(listed) or 'none'}: the frame's actions are those")
        for key, members_of_kind in members.items():
            if members_of_kind:
                f.data[key] = members_of_kind
    files["frames.yaml"] = {"frames": [ordered(f.data, "frames.schema.json", "frame") for f in frames]}
    for name, converted in (("frames.yaml", frames), ("actions.yaml", [a for a in actions if "formats" in a.data]),
                            ("frame-actions.yaml", [a for a in actions if "formats" not in a.data]),
                            ("characters.yaml", characters), ("fogs.yaml", fogs), ("trumps.yaml", trumps)):
        ctx.result.origins.update({(name, i): (e.src, e.path) for i, e in enumerate(converted)})
    format_actions = [a for a in actions if "formats" in a.data]
    frame_actions = [a for a in actions if "formats" not in a.data]
    files["actions.yaml"] = {"actions": [ordered(a.data, "actions.schema.json", "action") for a in format_actions]}
    files["frame-actions.yaml"] = {"actions": [ordered(a.data, "actions.schema.json", "action")
                                               for a in frame_actions]}
    for entry in characters + fogs:
        if entry.data["group"] == entry.data["category"]:
            del entry.data["group"]
    files["characters.yaml"] = {"characters": [ordered(c.data, "characters.schema.json", "character")
                                               for c in characters]}
    files["fogs.yaml"] = {"fogs": [ordered(f.data, "fogs.schema.json", "fog") for f in fogs]}
    trumps_file: dict[str, Any] = {}
    about = trump_data(ctx)
    if about:
        trumps_file["about"] = about
    trumps_file["trumps"] = [ordered(t.data, "trumps.schema.json", "trump") for t in trumps]
    files["trumps.yaml"] = trumps_file
    files["ruleset.yaml"] = ruleset(ctx, format_actions, frame_actions, characters, trumps)
    ids = {("action", a.data["id"]) for a in actions} | {("character", c.data["id"]) for c in characters} | \
          {("fog", f.data["id"]) for f in fogs} | {("trump", t.data["id"]) for t in trumps} | \
          {("frame", f.data["id"]) for f in frames}
    formats = ctx.base.data("formats.yaml")
    files["formats.yaml"] = {"formats": formats["formats"], "nesting_exceptions": [
        x for x in formats["nesting_exceptions"] if (x["kind"], x["id"]) in ids]}
    kept, left = _rulings(ctx.base.data("rulings.yaml")["rulings"], ids)
    files["rulings.yaml"] = {"rulings": kept}
    for r in kept:  # decided on the base's text: the maintainer checks they still apply
        entries = [ref for ref in r["applies_to"] if ref.split(":", 1)[0] in KINDS]
        if entries:
            ctx.result.notes.append(f"rulings.yaml: ruling '{r['id']}' kept from the base for "
                                    f"{', '.join(entries)}: check that it still applies to the imported text")
    ctx.result.left_out = [f"{r['id']} ({r['title']}): no {', '.join(missing)} in the imported edition"
                           for r, missing in left]
    ctx.result.counts = {"frames": len(frames), "format actions": len(format_actions),
                         "frame actions": len(frame_actions), "characters": len(characters), "fogs": len(fogs),
                         "trumps": len(trumps), "rulings kept from the base": len(kept),
                         "rulings left out": len(left)}


def _rulings(rulings: list[dict[str, Any]], ids: set[tuple[str, str]]
             ) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], list[str]]]]:
    """The base's rulings whose every entry exists in the import, and the others with the entries they lack."""
    kept, left = [], []
    for r in rulings:
        missing = [ref for ref in r["applies_to"]
                   if ref.split(":", 1)[0] in KINDS and tuple(ref.split(":", 1)) not in ids]
        if missing:
            left.append((r, missing))
        else:
            kept.append(r)
    return kept, left


def trump_data(ctx: Context) -> dict[str, str] | None:
    """The trump list's introduction (``trumpData``), or None when the files have none."""
    src = ctx.official.sources.get(ACT_FRAME)
    if src is None or src.data.get("trumpData") is None:
        return None
    raw = src.data["trumpData"]
    e = Entry(src, ("trumpData",), raw if isinstance(raw, dict) else {})
    if not isinstance(raw, dict):
        ctx.error(src, e.path, "expected description and devNote")
        return None
    ctx.unknown_keys(src, e.path, raw, ("description", "devNote"))
    try:
        about = {"description": ctx.text(e, "description", required=True) or ""}
        if design := ctx.text(e, "devNote"):
            about["design_note"] = design
    except Skip:
        return None
    return about


def synthesised_header(ctx: Context, name: str) -> dict[str, str]:
    """The header the export writes when none was kept: only what differs from it is stored."""
    ids = {ACT: {"id": "act"}, ACT_FRAME: {"id": "act-frame"}}.get(name, {})
    return {**ids, "ver": ctx.edition_text, "lastupdate": ctx.release}


def ruleset(ctx: Context, format_actions: list[Entry], frame_actions: list[Entry], characters: list[Entry],
            trumps: list[Entry]) -> dict[str, Any]:
    """ruleset.yaml: the base's tables with this edition's version and headers; marked not simulated, since the
    official files cannot say what the simulator covers."""
    base = ctx.base.data("ruleset.yaml")
    # an imported edition does not declare itself simulated: the simulator's gaps are warnings (issue 15.3)
    rules = {**base["ruleset"], "simulated": False}
    if ctx.version:
        rules.update(version=ctx.version, edition=ctx.edition_text, release=ctx.release, released=ctx.released)
    official = {HEADER_NAMES[name]: header for name, header in ctx.headers.items()
                if ctx.version and header != synthesised_header(ctx, name)}
    labels = list(base["labels"])
    used = [label if isinstance(label, str) else label["name"] for c in characters for label in c.data["labels"]]
    used += [t.data["grants_label"] for t in trumps if "grants_label" in t.data]
    used += [m[1] for a in format_actions + frame_actions
             if (m := re.match(r"^<([^<>]+)>", a.data.get("key_card", "")))]
    labels += [label for label in dict.fromkeys(used) if label not in labels]
    costs = list(base["costs"])
    if any("C" in a.data.get("cost", ()) for a in format_actions + frame_actions) and \
            not any(c["letter"] == "C" for c in costs):
        costs.append(UNIT_DRIVE)
    out: dict[str, Any] = {"ruleset": rules}
    if official:
        out["official"] = official
    groups = list(dict.fromkeys(a.data["group"] for a in format_actions))
    frame_groups = list(dict.fromkeys(a.data["group"] for a in frame_actions))
    out.update({key: base[key] for key in ("card_numbers",)}, costs=costs,
               **{key: base[key] for key in ("zones", "disclosure_levels", "disclosure")},
               labels=labels, action_groups=groups or base["action_groups"],
               frame_action_groups=frame_groups or base["frame_action_groups"], flows=base["flows"])
    return out
