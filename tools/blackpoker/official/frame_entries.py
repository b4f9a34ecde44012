"""Frames: frame.yaml's entries, the frames the entries name that frame.yaml lacks (from the base, else a named
frame without a layout), and the frame texts both ways (デッキ条件, ゲームの始め方, 公開レベル)."""

from __future__ import annotations

import re
from typing import Any

from blackpoker.core.loader import display_path
from blackpoker.official import convert as cv
from blackpoker.official.context import Context, Entry, Skip
from blackpoker.official.fields import FRAME_FIELDS, PICTURE_NAME
from blackpoker.official.reader import FRAME, find_picture


def read_frames(ctx: Context) -> list[Entry]:
    """frame.yaml's frames (an official folder may have none: then every frame comes from the base)."""
    src = ctx.official.sources.get(FRAME)
    if src is None:
        return []
    raw_frames = src.data.get("frames")
    if not isinstance(raw_frames, list):
        ctx.error(src, ("frames",), "missing the frames; expected frames: a list of frames")
        return []
    out = []
    for i, raw in enumerate(raw_frames):
        e = Entry(src, ("frames", i), raw if isinstance(raw, dict) else {})
        if not isinstance(raw, dict):
            ctx.error(src, e.path, "expected a frame (a mapping with name, frameId …)")
            continue
        if not ctx.converts(e, FRAME_FIELDS, _frame):
            ctx.broken_frames.update(str(raw.get(key)) for key in ("name", "frameId") if raw.get(key) is not None)
            continue
        out.append(e)
        _known(ctx, e, e.raw["frameId"])
    for e in out:  # inherits names another frame
        parent = e.raw.get("inherits")
        if parent is not None:
            if str(parent) not in ctx.frame_ids:
                ctx.error(src, e.path + ("inherits",), f"no frame '{parent}'; expected another frame's frameId")
            else:
                e.data["inherits"] = ctx.frame_ids[str(parent)]
    return out


def _known(ctx: Context, e: Entry, official: str) -> None:
    ctx.frame_ids[e.data["name"]] = e.data["id"]
    ctx.frame_ids[official] = e.data["id"]
    ctx.frame_names[e.data["id"]] = e.data["name"]


def _frame(ctx: Context, e: Entry) -> None:
    d = e.data
    official = ctx.text(e, "frameId", required=True) or ""
    d["id"] = ctx.base.id("frame", official) or ctx.mapped(e, "frameId", cv.kebab, required=True)
    if cv.camel(d["id"]) != official:
        d["official_id"] = official
    d["name"] = ctx.text(e, "name", required=True)
    if e.raw.get("ruby") is not None and str(e.raw["ruby"]).strip():  # a blank ruby is no ruby
        d["reading"], note = ctx.mapped(e, "ruby", lambda r: cv.read_reading(r, d["name"]))
        ctx.note(e.src, e.path + ("ruby",), note)
    else:
        reading = ctx.base.reading("frame", official, d["name"])
        if reading is None:
            d["reading"], note = _reading_from_name(ctx, e, d["name"])
        else:
            d["reading"], note = reading, cv.Normalised(d["name"], reading, "reading from the base")
        ctx.note(e.src, e.path + ("name",), note)
    d["formats"], note = ctx.mapped(e, "format", cv.read_formats, required=True)
    ctx.note(e.src, e.path + ("format",), note)
    zones = ctx.base.zones()
    deck = ctx.mapped(e, "deck", read_deck)
    setup = ctx.mapped(e, "start", read_start, required=True)
    disclosure = ctx.mapped(e, "accessLevel", lambda t: read_access(t, zones)) or []
    d["zones"] = [z for z, _name, common in zones if common] + [row["zone"] for row in disclosure]
    if deck:
        d["deck"] = deck
    d["setup"], d["setup_continues"] = setup
    if disclosure:
        d["disclosure"] = disclosure
    d["action_names"] = ctx.mapped(e, "actionList", lambda t: cv.read_bullets(t, "*・")) or []
    image = ctx.text(e, "image")
    if image is not None:
        picture = read_picture(ctx, e, image)
        if picture is not None:
            d["image"] = picture


def _reading_from_name(ctx: Context, e: Entry, name: str) -> tuple[str, cv.Normalised | None]:
    try:
        return cv.read_reading(None, name)
    except cv.Unmappable as exc:
        ctx.error(e.src, e.path, str(exc))
        raise Skip from None


def read_picture(ctx: Context, e: Entry, name: str) -> str | None:
    """``image:`` as the picture's path in our definitions; a picture not found beside the files is a warning
    (the entry is kept and drawn without it)."""
    if not PICTURE_NAME.match(name):
        ctx.error(e.src, e.path + ("image",), f"'{name}' is not a picture name; expected letters, digits, "
                  "'.', '_' or '-', in at most one folder (tarot/…)")
        raise Skip
    found = find_picture(ctx.official.folder, name)
    if found is None:
        ctx.warn(e.src, e.path + ("image",), f"no picture '{name}' (.png, .jpg, .jpeg or .svg) under "
                 f"{display_path(ctx.official.folder, 'images')}: kept without its picture")
        return None
    ours = f"images/{name}{found.suffix.lower()}"
    ctx.result.pictures[ours] = found
    return ours


def frame_named(ctx: Context, e: Entry, name: str) -> str:
    """Our id of the frame an entry names; a frame frame.yaml lacks is taken from the base by name or id, else
    kept as a named frame without a layout (a warning either way)."""
    if name in ctx.frame_ids:
        return ctx.frame_ids[name]
    where = e.path + ("frame",)
    if name in ctx.broken_frames:
        ctx.error(e.src, where, f"the frame '{name}' has a problem in {FRAME} (reported there); expected a frame "
                  "that converts")
        raise Skip
    found = ctx.base.frame(name)
    if found is not None and found["id"] not in ctx.frame_names:
        data = {k: v for k, v in found.items() if k not in ("actions", "characters", "trumps", "inherits")}
        data["action_names"] = []
        image = data.get("image")
        if image is not None:
            picture = ctx.base.folder / image
            if picture.is_file() and not picture.is_symlink():
                ctx.result.pictures[image] = picture
            else:
                del data["image"]
        ctx.warn(e.src, where, f"frame '{name}' is not in {FRAME}: taken from the base definitions "
                 f"({display_path(ctx.base.folder, 'frames.yaml')})")
    else:
        ours = f"frame-{len(ctx.extra_frames) + 1}" if found is None else f"{found['id']}-{len(ctx.extra_frames) + 1}"
        reading = cv.default_reading(name)
        data = {"id": ours, "name": name, "formats": list(cv.FORMAT_ORDER),
                "zones": [z for z, _name, common in ctx.base.zones() if common], "action_names": []}
        if reading:
            data["reading"] = reading
        ctx.warn(e.src, where, f"frame '{name}' is neither in {FRAME} nor in the base definitions: kept as a "
                 "named frame without a layout (no setup, zones or disclosure of its own)"
                 + ("" if reading else " and without a reading"))
    frame = Entry(e.src, where, {}, data)
    ctx.extra_frames.append(frame)
    ctx.frame_ids[name] = data["id"]
    ctx.frame_names[data["id"]] = name
    return str(data["id"])


# --- frame texts ---------------------------------------------------------------------------------------

_SUIT_CODES = {"♠": "S", "♡": "H", "♥": "H", "♢": "D", "◇": "D", "♦": "D", "♣": "C"}
_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def read_deck(text: str) -> dict[str, Any]:
    """デッキ条件: its first line, then either ``* ♠A, 2, 3`` lines (the exact cards) or 「N枚以上」."""
    first, *rest = [line.strip() for line in text.strip().splitlines() if line.strip()]
    cards: list[str] = []
    for line in rest:
        if not line.startswith("*"):
            raise cv.Unmappable(f"the line '{line[:30]}' is not a card line; expected '* ♠A, 2, 3' after the first line")
        body = line[1:].strip()
        suit = _SUIT_CODES.get(body[:1])
        ranks = [r.strip() for r in body[1:].split(",")]
        if suit is None or any(r not in _RANKS for r in ranks):
            raise cv.Unmappable(f"'{body}' is not a suit and its ranks; expected e.g. '♠A, 2, 3'")
        cards.extend(suit + r for r in ranks)
    if cards:
        return {"text": first, "cards": cards}
    least = re.search(r"([0-9]+)枚以上", first)
    if least is None:
        raise cv.Unmappable(f"'{first}' gives neither the cards ('* ♠A, 2' lines) nor a least number ('40枚以上')")
    return {"text": first, "min_cards": int(least[1])}


def write_deck(text: str, cards: tuple[str, ...]) -> str:
    """A deck condition as frame.yaml writes it: the sentence, then the exact cards by suit."""
    lines = [text]
    by_suit: dict[str, list[str]] = {}
    for card in cards:
        by_suit.setdefault(card[0], []).append(card[1:])
    symbols = {"S": "♠", "H": "♡", "D": "♢", "C": "♣"}
    lines += [f"* {symbols[suit]}{', '.join(ranks)}" for suit, ranks in by_suit.items()]
    return "\n".join(lines)


def read_start(text: str) -> tuple[list[str], str]:
    """ゲームの始め方: ``* step`` lines (or ``#.``), then the sentence where the common setup takes over."""
    steps: list[str] = []
    after: list[str] = []
    for line in text.strip().splitlines():
        line = line.strip()
        if not line:
            continue
        match = re.match(r"^(?:\*|#\.|[0-9]+\.)\s*(.+)$", line)
        if match and not after:
            steps.append(match[1])
        else:
            after.append(line)
    if not steps or not after:
        raise cv.Unmappable("expected the steps as '* …' lines, then the sentence that continues the setup "
                            "(以降は、…)")
    return steps, "\n".join(after)


def write_start(steps: tuple[str, ...], continues: str) -> str:
    """A frame's setup as frame.yaml writes it: the steps as a list, then the sentence after them."""
    return "\n".join([f"* {step}" for step in steps] + ["", continues])


def read_access(text: str, zones: list[tuple[str, str, bool]]) -> list[dict[str, str]]:
    """公開レベル: per zone its name, then `` | 完全公開：…``, `` | 個人公開：…``, `` | 非公開：…``."""
    by_name = {name: id for id, name, _common in zones}
    rows: list[dict[str, str]] = []
    levels = {"完全公開": "public", "個人公開": "personal", "非公開": "hidden"}
    for line in text.strip().splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("|"):
            match = re.match(r"^\|\s*(完全公開|個人公開|非公開)\s*[：:]\s*(.+)$", stripped)
            if match is None or not rows:
                raise cv.Unmappable(f"'{stripped[:30]}' is not a level of a zone; expected ' | 完全公開：…' under "
                                    "the zone's name")
            rows[-1][levels[match[1]]] = match[2].strip()
            continue
        if stripped not in by_name:
            raise cv.Unmappable(f"'{stripped}' is not a zone; expected one of " + ", ".join(by_name))
        rows.append({"zone": by_name[stripped]})
    for row in rows:
        missing = [level for level in levels if levels[level] not in row]
        if missing:
            raise cv.Unmappable(f"zone '{row['zone']}' has no {', '.join(missing)}; expected all three levels")
    return rows


def write_access(rows: list[tuple[str, str, str, str]]) -> str:
    """The disclosure as frame.yaml writes it (公開レベル per zone), the inverse of :func:`read_access`."""
    return "\n\n".join(f"{name}\n | 完全公開：{public}\n | 個人公開：{personal}\n | 非公開：{hidden}"
                       for name, public, personal, hidden in rows)
