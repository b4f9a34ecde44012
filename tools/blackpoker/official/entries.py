"""The entries of act.yaml and act-frame.yaml (actions, characters, fogs, trumps), field by field into ours.

What the official format allows is never an error here: a missing ruby is read from the base or the name, a
frame frame.yaml lacks comes from the base (frame_entries.py), a missing picture and a 対象 text the simulator does not
know are warnings (the entry is kept)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from blackpoker.core.targets import TargetSyntaxError, parse_target
from blackpoker.official import convert as cv
from blackpoker.official.context import Context, Entry, Skip
from blackpoker.official.fields import (
    ACTION_CATEGORIES,
    CHARACTER_CATEGORIES,
    FOG_CATEGORIES,
    LISTS,
    PREFIX_KINDS,
    PROSE,
    TRUMP_CATEGORIES,
)
from blackpoker.official.frame_entries import frame_named, read_picture
from blackpoker.official.markup import read_effect


def read_entries(ctx: Context, name: str, list_key: str, convert: Callable[[Context, Entry], None]) -> Iterator[Entry]:
    """The entries of one list (``actList`` …) of one file that convert without an error."""
    src = ctx.official.sources.get(name)
    if src is None or list_key not in src.data or src.data[list_key] is None:
        return
    item_key, fields = LISTS[list_key]
    groups = src.data[list_key]
    if not isinstance(groups, list):
        ctx.error(src, (list_key,), f"expected a list of groups (type: …, {item_key}: […])")
        return
    for g, group in enumerate(groups):
        if not isinstance(group, dict) or not isinstance(group.get("type"), str) or not group["type"].strip():
            ctx.error(src, (list_key, g), f"expected a group with a type (its list section) and {item_key}")
            continue
        ctx.unknown_keys(src, (list_key, g), group, ("type", item_key))
        items = group.get(item_key) or []
        if not isinstance(items, list):
            ctx.error(src, (list_key, g, item_key), "expected a list of entries")
            continue
        for i, raw in enumerate(items):
            e = Entry(src, (list_key, g, item_key, i), raw if isinstance(raw, dict) else {})
            if not isinstance(raw, dict):
                ctx.error(src, e.path, "expected an entry (a mapping of its fields)")
                continue
            e.data["group"] = group["type"].strip()
            if ctx.converts(e, fields, convert):
                yield e


def identity(ctx: Context, e: Entry, prefix: str) -> None:
    """id (and official_id where it is not our id in camelCase), name, reading."""
    d = e.data
    official = ctx.text(e, f"{prefix}Id", required=True) or ""
    first = ctx.official_ids.setdefault((prefix, official), (e.src.name, *e.src.locate(e.path + (f"{prefix}Id",))))
    if first != (e.src.name, *e.src.locate(e.path + (f"{prefix}Id",))):
        ctx.error(e.src, e.path + (f"{prefix}Id",), f"duplicate {prefix}Id '{official}' (first at "
                  f"{first[0]}:{first[1]}:{first[2]}); expected each entry's id once")
        raise Skip
    ours = ctx.mapped(e, f"{prefix}Id", cv.kebab, required=True)
    ours = ctx.base.id(PREFIX_KINDS[prefix], official) or ours
    d.update(id=ours, name=ctx.text(e, f"{prefix}Name", required=True))
    if cv.camel(ours) != official:
        d["official_id"] = official
    if ctx.text(e, "ruby") is not None:  # a blank ruby is no ruby, as for every text field
        reading, note = ctx.mapped(e, "ruby", lambda r: cv.read_reading(r, d["name"]))
        ctx.note(e.src, e.path + ("ruby",), note)
        d["reading"] = reading
        return
    base = ctx.base.reading(PREFIX_KINDS[prefix], official, d["name"])
    if base is not None:
        d["reading"] = base
        ctx.note(e.src, e.path + (f"{prefix}Name",), cv.Normalised(d["name"], base, "reading from the base"))
        return
    try:
        reading, note = cv.read_reading(None, d["name"])
    except cv.Unmappable:
        ctx.warn(e.src, e.path + (f"{prefix}Name",), f"no ruby, and neither the base nor the name '{d['name']}' "
                 "gives a reading: kept without one (the index sorts it by its name); add 'ruby' in hiragana")
        return
    d["reading"] = reading
    ctx.note(e.src, e.path + (f"{prefix}Name",), note)


def _present(e: Entry, key: str) -> bool:
    value = e.raw.get(key)
    return value is not None and not (isinstance(value, str) and not value.strip())


def availability(ctx: Context, e: Entry, *, frames_only: bool = False) -> None:
    """An entry is in formats or in frames, never both: the two lists are kept apart in the definitions."""
    # present = not blank, as ctx.text reads it (format: " " or an empty frame: is absent, not a crash); a value
    # that is not text is reported where it is read, after the entry's unknown fields
    has_format, has_frame = _present(e, "format"), _present(e, "frame")
    if has_format == has_frame or (frames_only and not has_frame):
        ctx.error(e.src, e.path, "expected frames (frame: ・…)" if frames_only else
                  "expected either format (lite,std,pro,mast) or frame (・パック …), not both")
        raise Skip
    if has_format:
        formats, note = ctx.mapped(e, "format", cv.read_formats)
        ctx.note(e.src, e.path + ("format",), note)
        e.data["formats"] = formats
        return
    names = ctx.mapped(e, "frame", cv.read_bullets)
    e.frames = [frame_named(ctx, e, name) for name in names]


def versions(ctx: Context, e: Entry, *, required: bool = False) -> None:
    """``since``/``update`` as ``introduced``/``updated``; an update without a since has no history to extend, so it
    is an error."""
    d = e.data
    since = ctx.mapped(e, "since", cv.read_version, required=required)
    if since:
        d["introduced"] = since[0]
        ctx.note(e.src, e.path + ("since",), since[1])
    update = ctx.mapped(e, "update", cv.read_versions)
    if update:
        if not since:
            ctx.error(e.src, e.path + ("update",), "update without since; expected since (導入バージョン) too")
            raise Skip
        d["updated"] = update[0]
        for note in update[1]:
            ctx.note(e.src, e.path + ("update",), note)
    changed = ctx.text(e, "changed")
    if changed is not None and changed != "changed":
        ctx.error(e.src, e.path + ("changed",), f"'{changed}' is not the mark; expected 'changed'")
        raise Skip
    derived = ctx.version in d.get("updated", ())
    if (changed is not None) != derived:
        d["changed"] = changed is not None
    design = ctx.text(e, "devNote")
    if design:
        d["design_note"] = design


def keep(data: dict[str, Any], **fields: Any) -> None:
    """Set the fields that have a value: the official format leaves an empty field where ours has none."""
    data.update((name, value) for name, value in fields.items() if value)


def prose(ctx: Context, e: Entry) -> None:
    """The story, the flavour text and its speaker, kept as written."""
    keep(e.data, **{ours: ctx.text(e, official) for official, ours in PROSE})


def key_card(ctx: Context, e: Entry, key: str, *, required: bool = True) -> str | None:
    """A key-card text in the canonical form the checks require, noting what was normalised."""
    result = ctx.mapped(e, key, cv.read_key_card, required=required)
    if result is None:
        return None
    ctx.note(e.src, e.path + (key,), result[1])
    return str(result[0])


def target(ctx: Context, e: Entry, key: str) -> str | None:
    """対象: any text is kept as the lists print it; one outside core/targets.py is a warning (the import writes
    an edition that is not simulated, and the simulator cannot aim such an action)."""
    text = ctx.text(e, key)
    if text is None:
        return None
    if key == "actTarget":
        try:
            parse_target(text)
        except TargetSyntaxError:
            ctx.warn(e.src, e.path + (key,), f"the target '{text}' is not one the simulator knows "
                     "(core/targets.py): kept as text; the simulator does not offer the action")
    return text


def action(ctx: Context, e: Entry) -> None:
    """One act.yaml action as our definition."""
    d = e.data
    availability(ctx, e)
    identity(ctx, e, "act")
    d["category"] = ctx.enum(e, "actType", ACTION_CATEGORIES)
    d["trigger"] = ctx.enum(e, "actTrigger", cv.TRIGGERS)
    d["speed"] = ctx.enum(e, "actSpeed", cv.SPEEDS)
    d["timing"] = ctx.enum(e, "actTime", cv.TIMINGS)
    if ctx.text(e, "actKey") == cv.RARE_KEY:
        d["implicit_key"] = "rare"
    else:
        key = key_card(ctx, e, "actKey", required=False)
        if key:
            d["key_card"] = key
    keep(d, key_unit=ctx.text(e, "actUnit"), cost=ctx.mapped(e, "actCost", cv.read_cost),
         note=ctx.mapped(e, "actNote", cv.read_note), activation_condition=ctx.text(e, "actActCond"),
         trigger_condition=ctx.text(e, "actTriggerCond"), target=target(ctx, e, "actTarget"))
    d["effect"] = ctx.mapped(e, "actEffect", read_effect, required=True)
    spaced = [n for n, line in enumerate(str(e.raw["actEffect"]).strip().splitlines(), 1) if line != line.rstrip()]
    if spaced:
        ctx.note_once(e, "actEffect", f"spaces at the end of line {', '.join(map(str, spaced))} dropped")
    prose(ctx, e)
    versions(ctx, e)


def character(ctx: Context, e: Entry) -> None:
    """One character as our definition."""
    d = e.data
    availability(ctx, e)
    identity(ctx, e, "char")
    d["category"] = ctx.enum(e, "charType", CHARACTER_CATEGORIES)
    d["key_card"] = key_card(ctx, e, "charKey")
    keep(d, size=ctx.text(e, "charSize"), note=ctx.mapped(e, "charNote", cv.read_note))
    d["labels"] = ctx.mapped(e, "charLabel", cv.read_labels) or []
    keep(d, abilities=ctx.mapped(e, "charAbility", cv.read_abilities))
    prose(ctx, e)
    versions(ctx, e, required=True)


def fog(ctx: Context, e: Entry) -> None:
    """One fog as our definition."""
    d = e.data
    availability(ctx, e)
    identity(ctx, e, "fog")
    d["category"] = ctx.enum(e, "fogType", FOG_CATEGORIES)
    d["key_card"] = key_card(ctx, e, "fogKey", required=False)
    keep(d, target=target(ctx, e, "fogTarget"))
    d["ability"] = ctx.text(e, "fogAbility", required=True)
    prose(ctx, e)
    versions(ctx, e, required=True)


def trump(ctx: Context, e: Entry) -> None:
    """One trump as our definition (trumps belong to frames only)."""
    d = e.data
    availability(ctx, e, frames_only=True)
    identity(ctx, e, "trump")
    d["category"] = ctx.enum(e, "trumpType", TRUMP_CATEGORIES)
    d["key_card"] = key_card(ctx, e, "trumpKey")
    d["ability"] = ctx.text(e, "trumpAbility", required=True)
    label = ctx.text(e, "trumpLabel")
    if label:
        d["grants_label"] = label.strip("<>")
    image = ctx.text(e, "image")
    if image is not None:
        picture = read_picture(ctx, e, image)
        if picture is not None:
            d["image"] = picture
    prose(ctx, e)
    versions(ctx, e)
