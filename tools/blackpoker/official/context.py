"""What every step of an import shares: the result being built, located reporting (errors, warnings, notes) and
reading one official value with its problems located."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from blackpoker.core.errors import DefinitionError, DefinitionWarning, PathPart, format_path
from blackpoker.core.yamlsource import SourceFile
from blackpoker.official import convert as cv
from blackpoker.official.base_definitions import Base
from blackpoker.official.reader import OfficialFiles


@dataclass
class ImportResult:
    """The definitions as YAML data by file name, the pictures to copy, and what was found on the way."""

    files: dict[str, Any] = field(default_factory=dict)
    pictures: dict[str, Path] = field(default_factory=dict)  # images/… in the definitions ← the official file
    errors: list[DefinitionError] = field(default_factory=list)
    warnings: list[DefinitionWarning] = field(default_factory=list)  # kept, but worth a look (a missing picture)
    notes: list[str] = field(default_factory=list)  # normalised values, and rulings to review
    normalised: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)  # the base's rulings not kept, one line each
    # (definitions file, index in its list) → the official entry it was converted from, to report a problem the
    # checks find in the converted definitions at the official file's line
    origins: dict[tuple[str, int], tuple[SourceFile, tuple[PathPart, ...]]] = field(default_factory=dict)

    def in_official(self, problem: DefinitionError, written: dict[str, str]) -> DefinitionError:
        """``problem``, found in the converted definitions (``written``: file name → the name the problem
        gives), at the official entry it comes from; the converted file and path are named in the message."""
        for name, shown in written.items():
            if problem.file != shown or len(problem.path) < 2 or not isinstance(problem.path[1], int):
                continue
            origin = self.origins.get((name, problem.path[1]))
            if origin is None:
                break
            message = problem.message
            for other, other_shown in written.items():
                message = message.replace(other_shown, f"the converted {other}")
            src, path = origin
            field = official_field(path, problem.path[2]) if len(problem.path) > 2 else None
            where = path + (field,) if field is not None and src.locate(path + (field,)) != src.locate(path) else path
            return src.error(where, f"{message} (in the converted {name} at {format_path(problem.path)})")
        return problem


@dataclass
class Entry:
    """One official entry on its way: where it is, its raw mapping, and our data for it."""

    src: SourceFile
    path: tuple[PathPart, ...]
    raw: dict[str, Any]
    data: dict[str, Any] = field(default_factory=dict)
    frames: list[str] = field(default_factory=list)  # our frame ids, from its frame: bullets


# Our field → the official field it is read from ({p}: the entry's prefix, act, char, fog or trump).
OFFICIAL_FIELD = {"id": "{p}Id", "name": "{p}Name", "reading": "ruby", "category": "{p}Type", "key_card": "{p}Key",
                  "target": "{p}Target", "note": "{p}Note", "ability": "{p}Ability", "formats": "format",
                  "introduced": "since", "updated": "update", "changed": "changed", "design_note": "devNote",
                  "story": "story", "flavor": "flavor", "flavor_speaker": "flavorSpeaker", "trigger": "actTrigger",
                  "speed": "actSpeed", "timing": "actTime", "cost": "actCost", "key_unit": "actUnit",
                  "activation_condition": "actActCond", "trigger_condition": "actTriggerCond", "effect": "actEffect",
                  "size": "charSize", "labels": "charLabel", "abilities": "charAbility", "grants_label": "trumpLabel",
                  "image": "image", "deck": "deck", "setup": "start", "setup_continues": "start",
                  "disclosure": "accessLevel", "inherits": "inherits"}
PREFIXES = {"actList": "act", "charList": "char", "fogList": "fog", "trumpList": "trump", "frames": "frame"}


def official_field(path: tuple[PathPart, ...], ours: PathPart) -> str | None:
    """The official field of the entry at ``path`` that our field ``ours`` is read from (None: none)."""
    prefix = PREFIXES.get(str(path[0]), "") if path else ""
    field = OFFICIAL_FIELD.get(str(ours))
    if field is None:
        return None
    if prefix == "frame":
        return {"{p}Id": "frameId", "{p}Name": "name"}.get(field, field)
    return field.replace("{p}", prefix)


class Skip(Exception):
    """The entry has a problem (already recorded): leave it out."""


class Context:
    """One import's shared state: the official files, the base, the frames found so far, the edition; located
    errors, warnings and notes, and the value readers that report through them."""

    def __init__(self, official: OfficialFiles, base: Base) -> None:
        self.official = official
        self.base = base
        self.result = ImportResult()
        self.version = ""  # the edition (v9.0), with its printed form and date; "" until the header is read
        self.edition_text = self.release = self.released = ""
        self.headers: dict[str, dict[str, str]] = {}
        self.frame_ids: dict[str, str] = {}  # frame name and official id → our id
        self.frame_names: dict[str, str] = {}  # our frame id → its name
        self.broken_frames: set[str] = set()  # names and ids of frame.yaml's frames that did not convert
        self.extra_frames: list[Entry] = []  # frames the entries name and frame.yaml lacks (from the base)
        self.official_ids: dict[tuple[str, str], tuple[str, int, int]] = {}  # (kind, official id) → first place
        self._noted: set[tuple[str, tuple[PathPart, ...], str]] = set()

    def error(self, src: SourceFile, path: tuple[PathPart, ...], message: str, *, key: bool = False) -> None:
        """A located problem in an official file: every problem of an import names its file, line and column there."""
        self.result.errors.append(src.error(path, message, key=key))

    def warn(self, src: SourceFile, path: tuple[PathPart, ...], message: str) -> None:
        """A located warning: the import goes on (a missing picture or ruby, a frame from the base, what the
        simulator will not cover), but the maintainer should look."""
        e = src.error(path, message)
        self.result.warnings.append(DefinitionWarning(e.file, e.line, e.column, e.path, e.message))

    def note(self, src: SourceFile, path: tuple[PathPart, ...], note: cv.Normalised | None) -> None:
        """A located note of a normalisation (same meaning, canonical form), so the maintainer sees every text the
        import changed."""
        if note is not None:
            self.result.normalised += 1
            line, column = src.locate(path)
            self.result.notes.append(f"{src.name}:{line}:{column}: {format_path(path)}: {note.what}: "
                                     f"'{note.before}' → '{note.after}'")

    def text(self, e: Entry, key: str, *, required: bool = False) -> str | None:
        """A string field (numbers are read as their text), stripped; None when absent or empty."""
        value = e.raw.get(key)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                self.error(e.src, e.path, f"missing field '{key}'")
                raise Skip
            return None
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.error(e.src, e.path + (key,), f"{type(value).__name__} is not text; expected a string")
            raise Skip
        text = str(value)
        if not isinstance(value, str):
            self.note_once(e, key, f"the number {text} read as the text '{text}'")
        elif text != text.strip():
            self.note_once(e, key, "spaces or line breaks around the text dropped"
                           + (" (the final line break of a | block)" if text == text.strip() + "\n" else ""))
        return text.strip()

    def note_once(self, e: Entry, key: str, what: str) -> None:
        """A located note of a normalisation that has no short before and after (whitespace, a number's type);
        each value is noted once, however often it is read."""
        place = (e.src.name, e.path + (key,), what)
        if place in self._noted:
            return
        self._noted.add(place)
        self.result.normalised += 1
        line, column = e.src.locate(e.path + (key,))
        self.result.notes.append(f"{e.src.name}:{line}:{column}: {format_path(e.path + (key,))}: {what}")

    def mapped(self, e: Entry, key: str, fn: Callable[[str], Any], *, required: bool = False) -> Any:
        """``fn`` of a string field; its Unmappable becomes a located error (the entry is left out)."""
        value = self.text(e, key, required=required)
        if value is None:
            return None
        try:
            return fn(value)
        except cv.Unmappable as exc:
            self.error(e.src, e.path + (key,), str(exc))
            raise Skip from None

    def enum(self, e: Entry, key: str, allowed: dict[str, str] | tuple[str, ...]) -> str:
        """A required field with a closed set of values, mapped to ours; anything else is a located error listing
        the values allowed."""
        def pick(value: str) -> str:
            if value not in allowed:
                raise cv.Unmappable(f"'{value}' is not one of " + ", ".join(f"'{a}'" for a in allowed))
            return allowed[value] if isinstance(allowed, dict) else value
        return str(self.mapped(e, key, pick, required=True))

    def converts(self, e: Entry, known: tuple[str, ...], convert: Callable[[Context, Entry], None]) -> bool:
        """Convert one entry (its unknown fields reported first); False when that added an error, so an entry with a
        bad field is left out whole rather than published in part (Skip is raised only after an error)."""
        before = len(self.result.errors)
        self.unknown_keys(e.src, e.path, e.raw, known)
        try:
            convert(self, e)
        except Skip:
            pass
        return len(self.result.errors) == before

    def unknown_keys(self, src: SourceFile, path: tuple[PathPart, ...], raw: dict[str, Any],
                     known: tuple[str, ...]) -> None:
        """Every field the import does not know is an error, never dropped in silence."""
        for key in raw:
            if key not in known:
                extra = " (actS is the legacy flag of old templates: actSpeed says 即時)" if key == "actS" else ""
                extra = " (a trump belongs to frames: use frame)" if key == "format" and "trumpName" in raw else extra
                self.error(src, path + (key,), f"unknown field '{key}'{extra}; expected one of {', '.join(known)}",
                           key=True)
