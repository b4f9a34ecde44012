"""Convert the official data files into our definitions (the YAML data of each definitions file).

Every official field has a place (see FIELDS below and the README's "Switching from the official toolchain");
a value that cannot be mapped is a located error at the official file's line and column, and the entry that
holds it is left out (``--keep-going`` writes the rest). Changes that keep the meaning (``8.0`` → ``v8.0``,
positional formats, katakana readings, key-card spacing) are reported as notes. What the official files do not
hold (the common tables of ruleset.yaml, formats.yaml, the rulings) comes from a base definitions folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from blackpoker.core.errors import DefinitionError, PathPart, format_path
from blackpoker.core.loader import FILES, display_path
from blackpoker.core.targets import TargetSyntaxError, parse_target
from blackpoker.core.yamlsource import SourceFile, parse_yaml
from blackpoker.official import convert as cv
from blackpoker.official.markup import read_effect
from blackpoker.official.reader import ACT, ACT_FRAME, FRAME, VERSION, OfficialFiles, find_picture
from blackpoker.official.yamltext import dump

ACTION_CATEGORIES = ("基本", "召喚", "速攻魔法", "通常魔法", "基礎魔法", "中級魔法", "上級魔法", "魔法", "誘発魔法",
                     "パック", "パック操作", "レアカード操作", "切札", "切札操作", "兵士起因")
CHARACTER_CATEGORIES = ("兵士", "防壁")
FOG_CATEGORIES = ("滞留魔法",)
TRUMP_CATEGORIES = ("立ち上がる兵", "表切札", "裏切札")
HEADER_KEYS = ("id", "ver", "lastupdate", "pdfurl_std", "pdfurl_lite", "pdfurl_pro", "pdfurl_mast",
               "qrStd", "qrLite", "qrPro", "qrMast")
HEADER_NAMES = {ACT: "act", ACT_FRAME: "act_frame", FRAME: "frame", VERSION: "version"}
UNIT_DRIVE = {"letter": "C", "name": "UnitDrive", "payment": "キーユニットをドライブする"}
PICTURE_NAME = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*/)?[A-Za-z0-9][A-Za-z0-9._-]*$")

# The official fields of each kind, in the order the export writes them. Prose fields keep their text.
ACTION_FIELDS = ("format", "frame", "actName", "ruby", "actId", "actType", "actTrigger", "actSpeed", "actTime",
                 "actUnit", "actCost", "actKey", "actActCond", "actTriggerCond", "actNote", "actTarget", "actEffect",
                 "story", "flavor", "flavorSpeaker", "since", "update", "changed", "devNote")
CHARACTER_FIELDS = ("format", "frame", "charName", "ruby", "charId", "charType", "charKey", "charSize", "charNote",
                    "charLabel", "charAbility", "story", "flavor", "flavorSpeaker", "since", "update", "changed",
                    "devNote")
FOG_FIELDS = ("format", "frame", "fogName", "ruby", "fogId", "fogType", "fogKey", "fogTarget", "fogAbility",
              "story", "flavor", "flavorSpeaker", "since", "update", "changed", "devNote")
TRUMP_FIELDS = ("frame", "trumpName", "ruby", "trumpId", "trumpType", "trumpKey", "trumpAbility", "trumpLabel",
                "image", "story", "flavor", "flavorSpeaker", "since", "update", "changed", "devNote")
FRAME_FIELDS = ("name", "ruby", "image", "frameId", "format", "deck", "start", "actionList", "accessLevel", "inherits")
LISTS = {"actList": ("acts", ACTION_FIELDS), "charList": ("chars", CHARACTER_FIELDS),
         "fogList": ("fogs", FOG_FIELDS), "trumpList": ("trumps", TRUMP_FIELDS)}
TOP_KEYS = {ACT: ("data", "actList", "charList", "fogList"),
            ACT_FRAME: ("data", "actList", "charList", "fogList", "trumpList", "trumpData"),
            FRAME: ("data", "frames"), VERSION: ("ver", "lastupdate")}
PREFIX_KINDS = {"act": "action", "char": "character", "fog": "fog", "trump": "trump"}
PROSE = (("story", "story"), ("flavor", "flavor"), ("flavorSpeaker", "flavor_speaker"))


@dataclass
class ImportResult:
    """The definitions as YAML data by file name, the pictures to copy, and what was found on the way."""

    files: dict[str, Any] = field(default_factory=dict)
    pictures: dict[str, Path] = field(default_factory=dict)  # images/… in the definitions ← the official file
    errors: list[DefinitionError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # normalised values, and rulings to review
    normalised: int = 0
    counts: dict[str, int] = field(default_factory=dict)


@dataclass
class _Entry:
    """One official entry on its way: where it is, its raw mapping, and our data for it."""

    src: SourceFile
    path: tuple[PathPart, ...]
    raw: dict[str, Any]
    data: dict[str, Any] = field(default_factory=dict)
    frames: list[str] = field(default_factory=list)  # our frame ids, from its frame: bullets


class _Skip(Exception):
    """The entry has a problem (already recorded): leave it out."""


class Importer:
    def __init__(self, official: OfficialFiles, base: Path) -> None:
        self.official = official
        self.base = base
        self.result = ImportResult()
        self.version = ""  # the edition (v9.0), with its printed form and date; "" until the header is read
        self.edition_text = self.release = self.released = ""
        self.headers: dict[str, dict[str, str]] = {}
        self.frame_ids: dict[str, str] = {}  # frame name and official id → our id
        self.frame_names: dict[str, str] = {}  # our frame id → its name
        self._base: dict[str, Any] = {}
        self._base_ids: dict[tuple[str, str], str] = {}

    # --- reporting ---------------------------------------------------------------------------------
    def error(self, src: SourceFile, path: tuple[PathPart, ...], message: str, *, key: bool = False) -> None:
        self.result.errors.append(src.error(path, message, key=key))

    def note(self, src: SourceFile, path: tuple[PathPart, ...], note: cv.Normalised | None) -> None:
        if note is not None:
            self.result.normalised += 1
            line, column = src.locate(path)
            self.result.notes.append(f"{src.name}:{line}:{column}: {format_path(path)}: {note.what}: "
                                     f"'{note.before}' → '{note.after}'")

    # --- values ------------------------------------------------------------------------------------
    def text(self, e: _Entry, key: str, *, required: bool = False) -> str | None:
        """A string field (numbers are read as their text), stripped; None when absent or empty."""
        value = e.raw.get(key)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                self.error(e.src, e.path, f"missing field '{key}'")
                raise _Skip
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.error(e.src, e.path + (key,), f"{type(value).__name__} is not text; expected a string")
            raise _Skip
        return str(value).strip()

    def mapped(self, e: _Entry, key: str, fn: Callable[[str], Any], *, required: bool = False) -> Any:
        """``fn`` of a string field; its Unmappable becomes a located error (the entry is left out)."""
        value = self.text(e, key, required=required)
        if value is None:
            return None
        try:
            return fn(value)
        except cv.Unmappable as exc:
            self.error(e.src, e.path + (key,), str(exc))
            raise _Skip from None

    def enum(self, e: _Entry, key: str, allowed: dict[str, str] | tuple[str, ...]) -> str:
        def pick(value: str) -> str:
            if value not in allowed:
                raise cv.Unmappable(f"'{value}' is not one of " + ", ".join(f"'{a}'" for a in allowed))
            return allowed[value] if isinstance(allowed, dict) else value
        return str(self.mapped(e, key, pick, required=True))

    # --- the whole import ---------------------------------------------------------------------------
    def run(self) -> ImportResult:
        src = self.official.sources
        for name, source in src.items():
            self.unknown_keys(source, (), source.data, TOP_KEYS[name])
        self.edition()
        frames = self.frames()
        actions = [e for name in (ACT, ACT_FRAME) for e in self.entries(name, "actList", self.action)]
        characters = [e for name in (ACT, ACT_FRAME) for e in self.entries(name, "charList", self.character)]
        fogs = [e for name in (ACT, ACT_FRAME) for e in self.entries(name, "fogList", self.fog)]
        trumps = list(self.entries(ACT_FRAME, "trumpList", self.trump))
        self.derive(actions, characters, fogs, trumps)
        self.assemble(frames, actions, characters, fogs, trumps)
        return self.result

    def unknown_keys(self, src: SourceFile, path: tuple[PathPart, ...], raw: dict[str, Any],
                     known: tuple[str, ...]) -> None:
        for key in raw:
            if key not in known:
                extra = " (actS is the legacy flag of old templates: actSpeed says 即時)" if key == "actS" else ""
                extra = " (a trump belongs to frames: use frame)" if key == "format" and "trumpName" in raw else extra
                self.error(src, path + (key,), f"unknown field '{key}'{extra}; expected one of {', '.join(known)}",
                           key=True)

    # --- header -------------------------------------------------------------------------------------
    def header(self, name: str) -> dict[str, str] | None:
        src = self.official.sources.get(name)
        if src is None:
            return None
        raw = src.data if name == VERSION else src.data.get("data")
        path: tuple[PathPart, ...] = () if name == VERSION else ("data",)
        if not isinstance(raw, dict):
            self.error(src, path, "missing the header; expected data: with ver and lastupdate")
            return None
        if name != VERSION:
            self.unknown_keys(src, path, raw, HEADER_KEYS)
        out: dict[str, str] = {}
        for key in HEADER_KEYS:
            if key in raw and raw[key] is not None:
                if isinstance(raw[key], (dict, list, bool)):
                    self.error(src, path + (key,), f"{type(raw[key]).__name__} is not text; expected a string")
                    continue
                out[key] = str(raw[key]).strip()
        for key in ("ver", "lastupdate"):
            if key not in out:
                self.error(src, path, f"missing field '{key}'")
                return None
        return out

    def edition(self) -> None:
        self.headers = {name: h for name in (ACT, ACT_FRAME, FRAME, VERSION) if (h := self.header(name))}
        main = VERSION if VERSION in self.headers else ACT
        header = self.headers.get(main)
        if header is None:
            return
        src = self.official.sources[main]
        where: tuple[PathPart, ...] = () if main == VERSION else ("data",)
        ver, last = header["ver"], header["lastupdate"]
        number = re.search(r"([0-9]+)\.([0-9]+)", ver) or re.search(r"第([0-9]+)版", ver)
        if number is None:
            self.error(src, where + ("ver",), f"'{ver}' names no edition number; expected e.g. 第9.0版")
            return
        version = f"v{number[1]}.{number[2] if number.lastindex == 2 else 0}"
        self.edition_text = (re.search(r"第[0-9.]+版", ver) or re.search(r".+", ver))[0]  # type: ignore[index]  # `.+` matches: ver holds the number found above
        date = re.match(r"^([0-9]{4})/([0-9]{1,2})(?:/([0-9]{1,2}))?", last)
        if date is None:
            self.error(src, where + ("lastupdate",), f"'{last}' is not a date; expected YYYY/M/D, e.g. 2026/04/13")
            return
        self.version, self.release = version, last
        self.released = f"{date[1]}-{int(date[2]):02d}" + (f"-{int(date[3]):02d}" if date[3] else "")

    def synthesised_header(self, name: str) -> dict[str, str]:
        """The header the export writes when none was kept: only what differs from it is stored."""
        ids = {ACT: {"id": "act"}, ACT_FRAME: {"id": "act-frame"}}.get(name, {})
        return {**ids, "ver": self.edition_text, "lastupdate": self.release}

    # --- frames -------------------------------------------------------------------------------------
    def frames(self) -> list[_Entry]:
        src = self.official.sources.get(FRAME)
        if src is None:
            return []
        raw_frames = src.data.get("frames")
        if not isinstance(raw_frames, list):
            self.error(src, ("frames",), "missing the frames; expected frames: a list of frames")
            return []
        out = []
        for i, raw in enumerate(raw_frames):
            e = _Entry(src, ("frames", i), raw if isinstance(raw, dict) else {})
            if not isinstance(raw, dict):
                self.error(src, e.path, "expected a frame (a mapping with name, frameId …)")
                continue
            before = len(self.result.errors)
            self.unknown_keys(src, e.path, raw, FRAME_FIELDS)
            try:
                self.frame(e)
            except _Skip:
                continue
            if len(self.result.errors) != before:
                continue
            out.append(e)
            self.frame_ids[e.data["name"]] = e.data["id"]
            self.frame_ids[e.raw["frameId"]] = e.data["id"]
            self.frame_names[e.data["id"]] = e.data["name"]
        for e in out:  # inherits names another frame
            parent = e.raw.get("inherits")
            if parent is not None:
                if str(parent) not in self.frame_ids:
                    self.error(src, e.path + ("inherits",), f"no frame '{parent}'; expected another frame's frameId")
                else:
                    e.data["inherits"] = self.frame_ids[str(parent)]
        return out

    def frame(self, e: _Entry) -> None:
        d = e.data
        official = self.text(e, "frameId", required=True) or ""
        d["id"] = self.base_id("frame", official) or self.mapped(e, "frameId", cv.kebab, required=True)
        if cv.camel(d["id"]) != official:
            d["official_id"] = official
        d["name"] = self.text(e, "name", required=True)
        if e.raw.get("ruby") is not None:
            d["reading"], note = self.mapped(e, "ruby", lambda r: cv.read_reading(r, d["name"]))
            self.note(e.src, e.path + ("ruby",), note)
        else:
            d["reading"], note = self.reading_from_name(e, d["name"])
            self.note(e.src, e.path + ("name",), note)
        d["formats"], note = self.mapped(e, "format", cv.read_formats, required=True)
        self.note(e.src, e.path + ("format",), note)
        zones = self.base_zones()
        deck = self.mapped(e, "deck", read_deck)
        setup = self.mapped(e, "start", read_start, required=True)
        disclosure = self.mapped(e, "accessLevel", lambda t: read_access(t, zones)) or []
        d["zones"] = [z for z, _name, common in zones if common] + [row["zone"] for row in disclosure]
        if deck:
            d["deck"] = deck
        d["setup"], d["setup_continues"] = setup
        if disclosure:
            d["disclosure"] = disclosure
        d["action_names"] = self.mapped(e, "actionList", lambda t: cv.read_bullets(t, "*・")) or []
        image = self.text(e, "image")
        if image is not None:
            d["image"] = self.picture(e, image)

    def reading_from_name(self, e: _Entry, name: str) -> tuple[str, cv.Normalised | None]:
        try:
            return cv.read_reading(None, name)
        except cv.Unmappable as exc:
            self.error(e.src, e.path, str(exc))
            raise _Skip from None

    def picture(self, e: _Entry, name: str) -> str:
        if not PICTURE_NAME.match(name):
            self.error(e.src, e.path + ("image",), f"'{name}' is not a picture name; expected letters, digits, "
                       "'.', '_' or '-', in at most one folder (tarot/…)")
            raise _Skip
        found = find_picture(self.official.folder, name)
        if found is None:
            self.error(e.src, e.path + ("image",), f"no picture '{name}' (.png, .jpg, .jpeg or .svg) under "
                       f"{display_path(self.official.folder, 'images')}; expected the picture file beside the data")
            raise _Skip
        ours = f"images/{name}{found.suffix.lower()}"
        self.result.pictures[ours] = found
        return ours

    def base_zones(self) -> list[tuple[str, str, bool]]:
        return [(z["id"], z["name"], z["common"]) for z in self.base_data("ruleset.yaml")["zones"]]

    def base_data(self, name: str) -> Any:
        cache = self._base
        if name not in cache:
            src, problems = parse_yaml(self.base / name, display_path(self.base, name), folder=self.base)
            if src is None:
                raise OSError(f"{display_path(self.base, name)}: the base definitions do not read: "
                              + "; ".join(str(p) for p in problems))
            cache[name] = src.data
        return cache[name]

    # --- entries ------------------------------------------------------------------------------------
    def entries(self, name: str, list_key: str, convert: Callable[[_Entry], None]) -> Iterator[_Entry]:
        src = self.official.sources.get(name)
        if src is None or list_key not in src.data or src.data[list_key] is None:
            return
        item_key, fields = LISTS[list_key]
        groups = src.data[list_key]
        if not isinstance(groups, list):
            self.error(src, (list_key,), f"expected a list of groups (type: …, {item_key}: […])")
            return
        for g, group in enumerate(groups):
            if not isinstance(group, dict) or not isinstance(group.get("type"), str) or not group["type"].strip():
                self.error(src, (list_key, g), f"expected a group with a type (its list section) and {item_key}")
                continue
            self.unknown_keys(src, (list_key, g), group, ("type", item_key))
            items = group.get(item_key) or []
            if not isinstance(items, list):
                self.error(src, (list_key, g, item_key), "expected a list of entries")
                continue
            for i, raw in enumerate(items):
                e = _Entry(src, (list_key, g, item_key, i), raw if isinstance(raw, dict) else {})
                if not isinstance(raw, dict):
                    self.error(src, e.path, "expected an entry (a mapping of its fields)")
                    continue
                e.data["group"] = group["type"].strip()
                before = len(self.result.errors)
                self.unknown_keys(src, e.path, raw, fields)
                try:
                    convert(e)
                except _Skip:
                    continue
                if len(self.result.errors) == before:
                    yield e

    def base_id(self, kind: str, official: str) -> str | None:
        """The base's id of the entry of this kind with this official id (its ``official_id``, else its id in
        camelCase): an edition imported again keeps the ids its scenarios and the simulator know."""
        if not self._base_ids:
            files = (("action", "actions.yaml", "actions"), ("action", "frame-actions.yaml", "actions"),
                     ("character", "characters.yaml", "characters"), ("fog", "fogs.yaml", "fogs"),
                     ("trump", "trumps.yaml", "trumps"), ("frame", "frames.yaml", "frames"))
            for k, name, key in files:
                for entry in self.base_data(name).get(key) or ():
                    self._base_ids[(k, entry.get("official_id") or cv.camel(entry["id"]))] = entry["id"]
        return self._base_ids.get((kind, official))

    def identity(self, e: _Entry, prefix: str) -> None:
        """id (and official_id where it is not our id in camelCase), name, reading."""
        d = e.data
        official = self.text(e, f"{prefix}Id", required=True) or ""
        ours = self.mapped(e, f"{prefix}Id", cv.kebab, required=True)
        ours = self.base_id(PREFIX_KINDS[prefix], official) or ours
        d.update(id=ours, name=self.text(e, f"{prefix}Name", required=True))
        if cv.camel(ours) != official:
            d["official_id"] = official
        if "ruby" in e.raw and e.raw["ruby"] is not None:
            reading, note = self.mapped(e, "ruby", lambda r: cv.read_reading(r, d["name"]))
            self.note(e.src, e.path + ("ruby",), note)
        else:
            reading, note = self.reading_from_name(e, d["name"])
            self.note(e.src, e.path + (f"{prefix}Name",), note)
        d["reading"] = reading

    def availability(self, e: _Entry, *, frames_only: bool = False) -> None:
        has_format, has_frame = e.raw.get("format") is not None, e.raw.get("frame") is not None
        if has_format == has_frame or (frames_only and not has_frame):
            self.error(e.src, e.path, "expected frames (frame: ・…)" if frames_only else
                       "expected either format (lite,std,pro,mast) or frame (・パック …), not both")
            raise _Skip
        if has_format:
            formats, note = self.mapped(e, "format", cv.read_formats)
            self.note(e.src, e.path + ("format",), note)
            e.data["formats"] = formats
            return
        names = self.mapped(e, "frame", cv.read_bullets)
        for name in names:
            if name not in self.frame_ids:
                known = ", ".join(f"'{n}'" for n in self.frame_names.values())
                self.error(e.src, e.path + ("frame",), f"no frame named '{name}' in {FRAME}; expected one of {known}")
                raise _Skip
        e.frames = [self.frame_ids[n] for n in names]

    def versions(self, e: _Entry, *, required: bool = False) -> None:
        d = e.data
        since = self.mapped(e, "since", cv.read_version, required=required)
        if since:
            d["introduced"] = since[0]
            self.note(e.src, e.path + ("since",), since[1])
        update = self.mapped(e, "update", cv.read_versions)
        if update:
            if not since:
                self.error(e.src, e.path + ("update",), "update without since; expected since (導入バージョン) too")
                raise _Skip
            d["updated"] = update[0]
            for note in update[1]:
                self.note(e.src, e.path + ("update",), note)
        changed = self.text(e, "changed")
        if changed is not None and changed != "changed":
            self.error(e.src, e.path + ("changed",), f"'{changed}' is not the mark; expected 'changed'")
            raise _Skip
        derived = self.version in d.get("updated", ())
        if (changed is not None) != derived:
            d["changed"] = changed is not None
        design = self.text(e, "devNote")
        if design:
            d["design_note"] = design

    def prose(self, e: _Entry) -> None:
        for official, ours in PROSE:
            value = self.text(e, official)
            if value:
                e.data[ours] = value

    def key_card(self, e: _Entry, key: str, *, required: bool = True) -> str | None:
        result = self.mapped(e, key, cv.read_key_card, required=required)
        if result is None:
            return None
        self.note(e.src, e.path + (key,), result[1])
        return str(result[0])

    def action(self, e: _Entry) -> None:
        d = e.data
        self.availability(e)
        self.identity(e, "act")
        d["category"] = self.enum(e, "actType", ACTION_CATEGORIES)
        d["trigger"] = self.enum(e, "actTrigger", cv.TRIGGERS)
        d["speed"] = self.enum(e, "actSpeed", cv.SPEEDS)
        d["timing"] = self.enum(e, "actTime", cv.TIMINGS)
        if self.text(e, "actKey") == cv.RARE_KEY:
            d["implicit_key"] = "rare"
        else:
            key = self.key_card(e, "actKey", required=False)
            if key:
                d["key_card"] = key
        unit = self.text(e, "actUnit")
        if unit:
            d["key_unit"] = unit
        cost = self.mapped(e, "actCost", cv.read_cost)
        if cost:
            d["cost"] = cost
        note = self.mapped(e, "actNote", cv.read_note)
        if note:
            d["note"] = note
        for official, ours in (("actActCond", "activation_condition"), ("actTriggerCond", "trigger_condition")):
            value = self.text(e, official)
            if value:
                d[ours] = value
        target = self.text(e, "actTarget")
        if target:
            try:
                parse_target(target)
            except TargetSyntaxError as exc:
                self.error(e.src, e.path + ("actTarget",), str(exc))
                raise _Skip from None
            d["target"] = target
        d["effect"] = self.mapped(e, "actEffect", read_effect, required=True)
        self.prose(e)
        self.versions(e)

    def character(self, e: _Entry) -> None:
        d = e.data
        self.availability(e)
        self.identity(e, "char")
        d["category"] = self.enum(e, "charType", CHARACTER_CATEGORIES)
        d["key_card"] = self.key_card(e, "charKey")
        size = self.text(e, "charSize")
        if size:
            d["size"] = size
        note = self.mapped(e, "charNote", cv.read_note)
        if note:
            d["note"] = note
        d["labels"] = self.mapped(e, "charLabel", cv.read_labels) or []
        abilities = self.mapped(e, "charAbility", cv.read_abilities)
        if abilities:
            d["abilities"] = abilities
        self.prose(e)
        self.versions(e, required=True)

    def fog(self, e: _Entry) -> None:
        d = e.data
        self.availability(e)
        self.identity(e, "fog")
        d["category"] = self.enum(e, "fogType", FOG_CATEGORIES)
        d["key_card"] = self.key_card(e, "fogKey", required=False)
        target = self.text(e, "fogTarget")
        if target:
            d["target"] = target
        d["ability"] = self.text(e, "fogAbility", required=True)
        self.prose(e)
        self.versions(e, required=True)

    def trump(self, e: _Entry) -> None:
        d = e.data
        self.availability(e, frames_only=True)
        self.identity(e, "trump")
        d["category"] = self.enum(e, "trumpType", TRUMP_CATEGORIES)
        d["key_card"] = self.key_card(e, "trumpKey")
        d["ability"] = self.text(e, "trumpAbility", required=True)
        label = self.text(e, "trumpLabel")
        if label:
            d["grants_label"] = label.strip("<>")
        image = self.text(e, "image")
        if image is not None:
            d["image"] = self.picture(e, image)
        self.prose(e)
        self.versions(e)

    # --- what the official files leave implicit ------------------------------------------------------
    def derive(self, actions: list[_Entry], characters: list[_Entry], fogs: list[_Entry], trumps: list[_Entry]) -> None:
        """summoned_by, placed_by and enables: the official files say them only in the effect texts and names."""
        def effect_text(a: _Entry) -> str:
            return "".join(_texts(a.data["effect"]))

        for c in characters:
            name = c.data["name"]
            c.data["summoned_by"] = [a.data["id"] for a in actions
                                     if re.search(f"{re.escape(name)}と(して|する)", effect_text(a))]
            if not c.data["summoned_by"]:
                self.error(c.src, c.path + ("charName",), f"no action's effect makes a card {name} ('{name}として'); "
                           "expected the action that summons it")
        for f in list(fogs):
            named = [a for a in actions if a.data["name"] == f.data["name"]]
            placing = [a for a in named if "フォグにキーカードを置" in effect_text(a)] or named
            if len(placing) != 1:
                self.error(f.src, f.path + ("fogName",), f"no single action named '{f.data['name']}' that puts its "
                           "key card in the fog; expected the action that places this fog to have the fog's name")
                fogs.remove(f)
                continue
            action = placing[0]
            f.data["placed_by"] = action.data["id"]
            key = f.data.pop("key_card")
            if key != action.data.get("key_card"):
                self.error(f.src, f.path + ("fogKey",), f"'{key}' is not the key card of action "
                           f"'{action.data['name']}' ('{action.data.get('key_card')}'); a fog's key card is that "
                           "of the action that places it")
                fogs.remove(f)
                continue
            if (f.data.get("formats"), f.frames) != (action.data.get("formats"), action.frames):
                where = "format" if "formats" in f.data else "frame"
                self.error(f.src, f.path + (where,), f"the fog's {where} is not that of action "
                           f"'{action.data['name']}'; a fog is available where the action that places it is")
                fogs.remove(f)
                continue
            f.data.pop("formats", None)  # a fog is available where its action is: not stored twice
        for t in trumps:
            label = t.data.get("grants_label")
            if label:
                enabling = [a.data["id"] for a in actions if re.fullmatch(f"<{re.escape(label)}> を持つ兵士[0-9]+体",
                                                                          a.data.get("key_card", ""))]
                if len(enabling) == 1:
                    t.data["enables"] = enabling[0]

    # --- the definitions files -----------------------------------------------------------------------
    def assemble(self, frames: list[_Entry], actions: list[_Entry], characters: list[_Entry], fogs: list[_Entry],
                 trumps: list[_Entry]) -> None:
        files = self.result.files
        for f in frames:
            fid = f.data["id"]
            members = {"actions": [a.data["id"] for a in actions if fid in a.frames],
                       "characters": [c.data["id"] for c in characters if fid in c.frames],
                       "trumps": [t.data["id"] for t in trumps if fid in t.frames]}
            names = f.data.pop("action_names")
            listed = [a.data["name"] for a in actions if fid in a.frames]
            if names and sorted(names) != sorted(listed):
                self.error(f.src, f.path + ("actionList",), f"lists {', '.join(names)}, but the actions whose frame "
                           f"names {f.data['name']} are {', '.join(listed) or 'none'}; expected the same actions")
            for key, members_of_kind in members.items():
                if members_of_kind:
                    f.data[key] = members_of_kind
        files["frames.yaml"] = {"frames": [_ordered(f.data, FRAME_ORDER) for f in frames]}
        format_actions = [a for a in actions if "formats" in a.data]
        frame_actions = [a for a in actions if "formats" not in a.data]
        files["actions.yaml"] = {"actions": [_ordered(a.data, ACTION_ORDER) for a in format_actions]}
        files["frame-actions.yaml"] = {"actions": [_ordered(a.data, ACTION_ORDER) for a in frame_actions]}
        for c in characters:
            if c.data["group"] == c.data["category"]:
                del c.data["group"]
        files["characters.yaml"] = {"characters": [_ordered(c.data, CHARACTER_ORDER) for c in characters]}
        for f in fogs:
            if f.data["group"] == f.data["category"]:
                del f.data["group"]
        files["fogs.yaml"] = {"fogs": [_ordered(f.data, FOG_ORDER) for f in fogs]}
        trumps_file: dict[str, Any] = {}
        about = self.trump_data()
        if about:
            trumps_file["about"] = about
        trumps_file["trumps"] = [_ordered(t.data, TRUMP_ORDER) for t in trumps]
        files["trumps.yaml"] = trumps_file
        files["ruleset.yaml"] = self.ruleset(format_actions, frame_actions, characters, trumps)
        ids = {("action", a.data["id"]) for a in actions} | {("character", c.data["id"]) for c in characters} | \
              {("fog", f.data["id"]) for f in fogs} | {("trump", t.data["id"]) for t in trumps} | \
              {("frame", f.data["id"]) for f in frames}
        formats = self.base_data("formats.yaml")
        files["formats.yaml"] = {"formats": formats["formats"], "nesting_exceptions": [
            x for x in formats["nesting_exceptions"] if (x["kind"], x["id"]) in ids]}
        rulings = self.base_data("rulings.yaml")["rulings"]
        kinds = {"action", "character", "fog", "trump", "frame"}
        kept = [r for r in rulings if all(tuple(ref.split(":", 1)) in ids for ref in r["applies_to"]
                                          if ref.split(":", 1)[0] in kinds)]
        files["rulings.yaml"] = {"rulings": kept}
        for r in kept:  # decided on the base's text: the maintainer checks they still apply
            entries = [ref for ref in r["applies_to"] if ref.split(":", 1)[0] in kinds]
            if entries:
                self.result.notes.append(f"rulings.yaml: ruling '{r['id']}' kept from the base for "
                                         f"{', '.join(entries)}: check that it still applies to the imported text")
        self.result.counts = {"frames": len(frames), "format actions": len(format_actions),
                              "frame actions": len(frame_actions), "characters": len(characters), "fogs": len(fogs),
                              "trumps": len(trumps), "rulings kept from the base": len(kept),
                              "rulings left out": len(rulings) - len(kept)}

    def trump_data(self) -> dict[str, str] | None:
        src = self.official.sources.get(ACT_FRAME)
        if src is None or src.data.get("trumpData") is None:
            return None
        raw = src.data["trumpData"]
        e = _Entry(src, ("trumpData",), raw if isinstance(raw, dict) else {})
        if not isinstance(raw, dict):
            self.error(src, e.path, "expected description and devNote")
            return None
        self.unknown_keys(src, e.path, raw, ("description", "devNote"))
        try:
            about = {"description": self.text(e, "description", required=True) or ""}
            if design := self.text(e, "devNote"):
                about["design_note"] = design
        except _Skip:
            return None
        return about

    def ruleset(self, format_actions: list[_Entry], frame_actions: list[_Entry], characters: list[_Entry],
                trumps: list[_Entry]) -> dict[str, Any]:
        base = self.base_data("ruleset.yaml")
        # an imported edition does not declare itself simulated: the simulator's gaps are warnings (issue 15.3)
        ruleset = {**base["ruleset"], "simulated": False}
        if self.version:
            ruleset.update(version=self.version, edition=self.edition_text, release=self.release,
                           released=self.released)
        official = {HEADER_NAMES[name]: header for name, header in self.headers.items()
                    if self.version and header != self.synthesised_header(name)}
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
        out: dict[str, Any] = {"ruleset": ruleset}
        if official:
            out["official"] = official
        groups = list(dict.fromkeys(a.data["group"] for a in format_actions))
        frame_groups = list(dict.fromkeys(a.data["group"] for a in frame_actions))
        out.update({key: base[key] for key in ("card_numbers",)}, costs=costs,
                   **{key: base[key] for key in ("zones", "disclosure_levels", "disclosure")},
                   labels=labels, action_groups=groups or base["action_groups"],
                   frame_action_groups=frame_groups or base["frame_action_groups"], flows=base["flows"])
        return out


ACTION_ORDER = ("id", "official_id", "name", "reading", "category", "group", "trigger", "speed", "timing", "key_card",
                "implicit_key", "key_unit", "cost", "note", "activation_condition", "trigger_condition", "target",
                "effect", "story", "flavor", "flavor_speaker", "introduced", "updated", "changed", "design_note",
                "formats")
CHARACTER_ORDER = ("id", "official_id", "name", "reading", "category", "group", "key_card", "size", "note", "labels",
                   "abilities", "summoned_by", "story", "flavor", "flavor_speaker", "formats", "introduced",
                   "updated", "changed", "design_note")
FOG_ORDER = ("id", "official_id", "name", "reading", "category", "group", "target", "ability", "placed_by", "story",
             "flavor", "flavor_speaker", "introduced", "updated", "changed", "design_note")
TRUMP_ORDER = ("id", "official_id", "name", "reading", "category", "group", "key_card", "ability", "grants_label",
               "enables", "story", "flavor", "flavor_speaker", "introduced", "updated", "changed", "design_note",
               "image")
FRAME_ORDER = ("id", "official_id", "name", "reading", "formats", "zones", "deck", "setup", "setup_continues",
               "actions", "characters", "trumps", "disclosure", "inherits", "image")


def _ordered(data: dict[str, Any], order: tuple[str, ...]) -> dict[str, Any]:
    """The entry's fields in the order the definitions write them (every field: a missing name is a bug)."""
    missing = set(data) - set(order)
    assert not missing, missing
    return {key: data[key] for key in order if key in data}


def _texts(blocks: list[Any]) -> Iterator[str]:
    for block in blocks:
        if isinstance(block, str):
            yield block
        else:
            for items in block.values():
                for item in items:
                    if isinstance(item, str):
                        yield item
                    else:
                        yield item["text"]
                        yield from _texts(item["sub"])


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
    return "\n\n".join(f"{name}\n | 完全公開：{public}\n | 個人公開：{personal}\n | 非公開：{hidden}"
                       for name, public, personal, hidden in rows)


def import_official(official: OfficialFiles, base: Path) -> ImportResult:
    """Convert ``official`` (already read) into definitions data, with ``base`` for what it does not hold."""
    return Importer(official, base).run()


def schema_line(schema: str) -> str:
    """The first line of every definitions file: the schema editors validate it with."""
    return f"# yaml-language-server: $schema=../schemas/{schema}"


def definitions_texts(result: ImportResult) -> dict[str, str]:
    """Each definitions file's YAML text, starting with its schema line."""
    return {f.name: dump(result.files[f.name], schema_line(f.schema)) for f in FILES}
