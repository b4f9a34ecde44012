"""Load the definitions once: parse YAML, validate against the schemas, build the model, run the checks."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from blackpoker.core import model as m
from blackpoker.core.errors import DefinitionError, DefinitionErrors, DefinitionWarning
from blackpoker.core.keycard import KeyCardSyntaxError, parse_key_card, render_key_card
from blackpoker.core.paths import DEFINITIONS, SCHEMAS
from blackpoker.core.pictures import picture_problem
from blackpoker.core.schema import validate
from blackpoker.core.targets import TargetSyntaxError, parse_target
from blackpoker.core.yamlsource import SourceFile, parse_yaml, read_input


@dataclass(frozen=True)
class DefinitionFile:
    """One file of a definitions folder, the schema it is checked against and what it defines."""

    name: str
    schema: str
    kind: str


IMAGES = "images"  # the definitions' pictures (a trump's イメージ)
MAX_PICTURE_BYTES = 1_000_000

FILES: tuple[DefinitionFile, ...] = (
    DefinitionFile("ruleset.yaml", "ruleset.schema.json", "ruleset"),
    DefinitionFile("formats.yaml", "formats.schema.json", "formats"),
    DefinitionFile("frames.yaml", "frames.schema.json", "frames"),
    DefinitionFile("actions.yaml", "actions.schema.json", "format-actions"),
    DefinitionFile("frame-actions.yaml", "actions.schema.json", "frame-actions"),
    DefinitionFile("characters.yaml", "characters.schema.json", "characters"),
    DefinitionFile("fogs.yaml", "fogs.schema.json", "fogs"),
    DefinitionFile("trumps.yaml", "trumps.schema.json", "trumps"),
    DefinitionFile("rulings.yaml", "rulings.schema.json", "rulings"),
)


def display_path(directory: Path, name: str) -> str:
    """The file name as the user should see it: relative to the working directory when possible."""
    path = directory / name
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)


class _Builder:
    """Turns validated data into model objects, collecting key-card and target problems on the way."""

    def __init__(self, sources: dict[str, SourceFile], directory: Path | None = None) -> None:
        self.sources = sources
        self.directory = directory
        self.problems: list[DefinitionError] = []

    def picture(self, path: str | None, origin: m.Origin) -> m.Picture | None:
        """A picture file named in the definitions (``images/…``), read whole; a located problem if it is not a
        regular file inside the folder, or is too large."""
        if path is None or self.directory is None:
            return None
        folder = self.directory.resolve()
        target = self.directory / path
        try:
            resolved = target.resolve()
            inside = resolved.is_relative_to(folder) and not target.is_symlink()
            size = resolved.stat().st_size if inside and resolved.is_file() else -1
        except OSError:
            inside, size = False, -1
        if not inside or size < 0:
            self.error(origin, f"'{path}' is not a file in the definitions folder; expected a picture under images/")
            return None
        if size > MAX_PICTURE_BYTES:
            self.error(origin, f"'{path}' is {size} bytes; a picture may have at most {MAX_PICTURE_BYTES} bytes")
            return None
        media = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".svg": "image/svg+xml"}
        picture = m.Picture(path, media[resolved.suffix.lower()], resolved.read_bytes())
        problem = picture_problem(picture.data, picture.media_type)
        if problem is not None:
            self.error(origin, f"'{path}' {problem}")
            return None
        return picture

    def origin(self, kind: str, *path: Any) -> m.Origin:
        return m.Origin(self.sources[kind].name, tuple(path))

    def error(self, origin: m.Origin, message: str) -> None:
        src = next(s for s in self.sources.values() if s.name == origin.file)
        self.problems.append(src.error(origin.path, message))

    def key(self, text: str | None, origin: m.Origin) -> Any:
        if text is None:
            return None
        try:
            key = parse_key_card(text)
        except KeyCardSyntaxError as exc:
            self.error(origin, f"key card does not parse: {exc}")
            return None
        canonical = render_key_card(key)
        if canonical != text:
            self.error(origin, f"key card '{text}' is not written canonically; expected '{canonical}'")
        return key

    def target(self, text: str | None) -> Any:
        """The structure of a target phrase, or None for a text outside the table (reported by the simulation
        check ``targets_known``: an error in a simulated edition, a warning otherwise)."""
        if text is None:
            return None
        try:
            return parse_target(text)
        except TargetSyntaxError:
            return None


def _opt(raw: dict[str, Any], key: str) -> Any:
    return raw.get(key)


_E = TypeVar("_E", m.Action, m.Character, m.Fog, m.Trump)


def _label(raw: str | dict[str, str]) -> m.Label:
    return m.Label(raw) if isinstance(raw, str) else m.Label(raw["name"], raw["condition"])


# How a YAML value becomes a field's value, where it is more than the value itself. Fields that are not in
# the YAML (the parsed key card, the target, derived memberships, the origin) are given by the caller.
_CONVERT: dict[str, Callable[[Any], Any]] = {
    "trigger": m.Trigger, "speed": m.Speed, "timing": m.Timing, "effect": m.blocks_from_data,
    "labels": lambda raw: tuple(_label(x) for x in raw),
    "abilities": lambda raw: tuple(m.Ability("", x) if isinstance(x, str) else m.Ability(x["name"], x["text"]) for x in raw),
}


# Fields the YAML may leave out that the model always has: an entry without a reading (an imported edition
# whose official files give none) is shown without ruby and indexed by its name.
_ABSENT: dict[str, Any] = {"reading": ""}


def _entry(cls: type[_E], raw: dict[str, Any], **given: Any) -> _E:
    """A model entry from its YAML mapping, field by field: each field the YAML has, converted
    (``_CONVERT``, lists to tuples); every other field from ``given``, ``_ABSENT`` or its default."""
    values: dict[str, Any] = dict(_ABSENT)
    for f in dataclasses.fields(cls):
        if f.name in given:
            values[f.name] = given[f.name]
        elif f.name in raw:
            value = raw[f.name]
            values[f.name] = _CONVERT[f.name](value) if f.name in _CONVERT else (
                tuple(value) if isinstance(value, list) else value)
    return cls(**values)


def _build_rules(b: _Builder) -> m.Rules:
    rs = b.sources["ruleset"].data
    edition = m.Edition(**{k: rs["ruleset"].get(k) for k in (
        "version", "edition", "title", "subtitle", "author", "release", "released", "copyright", "players", "site")},
        official=tuple((name, tuple(header.items())) for name, header in rs.get("official", {}).items()),
        simulated=rs["ruleset"].get("simulated", True), origin=b.origin("ruleset", "ruleset"))
    fm = b.sources["formats"].data

    # Frame membership lives in frames.yaml only: an entry's frames are the frames that list it.
    frame_data = b.sources["frames"].data["frames"]

    def frames_listing(attr: str, entry_id: str) -> tuple[str, ...]:
        return tuple(f["id"] for f in frame_data if entry_id in f.get(attr, ()))

    actions: list[m.Action] = []
    for kind in ("format-actions", "frame-actions"):
        for i, a in enumerate(b.sources[kind].data["actions"]):
            origin = b.origin(kind, "actions", i)
            actions.append(_entry(
                m.Action, a, origin=origin, key=b.key(_opt(a, "key_card"), origin.sub("key_card")),
                target_spec=b.target(_opt(a, "target")), frames=frames_listing("actions", a["id"])))

    characters = []
    for i, c in enumerate(b.sources["characters"].data["characters"]):
        origin = b.origin("characters", "characters", i)
        characters.append(_entry(m.Character, c, origin=origin, key=b.key(c["key_card"], origin.sub("key_card")),
                                 frames=frames_listing("characters", c["id"])))

    # A fog's key card, formats and frames are those of the action that places it (placed_by).
    placing = {a.id: a for a in actions}
    fogs = []
    for i, f in enumerate(b.sources["fogs"].data["fogs"]):
        origin = b.origin("fogs", "fogs", i)
        action = placing.get(f["placed_by"])
        if action is None or action.key is None:
            b.error(origin.sub("placed_by"), f"no action with id '{f['placed_by']}'" if action is None else
                    f"action '{action.id}' has no key card; a fog's key card is the one of the action that places it")
            continue
        fogs.append(_entry(m.Fog, f, origin=origin, key_card=action.key_card or "", key=action.key,
                           formats=action.formats, frames=action.frames))

    trumps = []
    for i, t in enumerate(b.sources["trumps"].data["trumps"]):
        origin = b.origin("trumps", "trumps", i)
        trumps.append(_entry(m.Trump, t, origin=origin, key=b.key(t["key_card"], origin.sub("key_card")),
                             frames=frames_listing("trumps", t["id"]),
                             image=b.picture(t.get("image"), origin.sub("image"))))

    frames = []
    for i, f in enumerate(b.sources["frames"].data["frames"]):
        deck = f.get("deck")
        frames.append(m.Frame(
            id=f["id"], name=f["name"], reading=f.get("reading", ""), formats=tuple(f["formats"]),
            official_id=f.get("official_id"), zones=tuple(f["zones"]), setup=tuple(f.get("setup", ())),
            setup_continues=f.get("setup_continues", ""),
            origin=b.origin("frames", "frames", i),
            deck=m.DeckCondition(deck["text"], tuple(deck.get("cards", ())), deck.get("min_cards")) if deck else None,
            actions=tuple(f.get("actions", ())), trumps=tuple(f.get("trumps", ())),
            fogs=tuple(fog.id for fog in fogs if fog.placed_by in f.get("actions", ())),
            disclosure=tuple(m.Disclosure(**d) for d in f.get("disclosure", ())),
            characters=tuple(f.get("characters", ())), inherits=f.get("inherits"),
            image=b.picture(f.get("image"), b.origin("frames", "frames", i, "image")),
        ))

    rulings = tuple(
        m.Ruling(id=r["id"], title=r["title"], source=r["source"], ruling=r["ruling"],
                 applies_to=tuple(r["applies_to"]), origin=b.origin("rulings", "rulings", i))
        for i, r in enumerate(b.sources["rulings"].data["rulings"]))

    about = b.sources["trumps"].data.get("about")
    return m.Rules(
        edition=edition, trump_about=m.TrumpAbout(about["description"], about.get("design_note")) if about else None,
        card_numbers=tuple(m.CardNumber(c["card"], c["number"], c.get("text")) for c in rs["card_numbers"]),
        costs=tuple(m.CostType(**c) for c in rs["costs"]),
        zones=tuple(m.Zone(z["id"], z["name"], z["common"], z.get("description")) for z in rs["zones"]),
        disclosure_levels=tuple(m.DisclosureLevel(**d) for d in rs["disclosure_levels"]),
        disclosure=tuple(m.Disclosure(**d) for d in rs["disclosure"]),
        labels=tuple(rs["labels"]), action_groups=tuple(rs["action_groups"]),
        frame_action_groups=tuple(rs["frame_action_groups"]),
        formats=tuple(m.Format(f["id"], f["name"], f["reading"], b.origin("formats", "formats", i))
                      for i, f in enumerate(fm["formats"])),
        nesting_exceptions=tuple(m.NestingException(**e) for e in fm["nesting_exceptions"]),
        frames=tuple(frames), actions=tuple(actions), characters=tuple(characters), fogs=tuple(fogs),
        trumps=tuple(trumps), rulings=rulings,
        flows=tuple(m.Flow(f["id"], f["name"], f["section"],
                           tuple(m.FlowStep(s["id"], s["text"], s.get("decision", False)) for s in f["steps"]),
                           tuple(m.FlowEdge(e["from"], e["to"], e.get("label", "")) for e in f["edges"]),
                           b.origin("ruleset", "flows", i))
                    for i, f in enumerate(rs["flows"])),
    )


Check = Callable[[m.Rules], Any]  # a further check: the rules → (origin, message) pairs


@dataclass(frozen=True)
class Checked:
    """A ruleset that loaded, and the located warnings its checks gave (each still worth reading)."""

    rules: m.Rules
    warnings: tuple[DefinitionWarning, ...] = ()


def check_rules(directory: Path | str = DEFINITIONS, *, extra_checks: tuple[Check, ...] = (),
                warning_checks: tuple[Check, ...] = ()) -> Checked:
    """:func:`load_rules`, and ``warning_checks`` whose findings are located warnings rather than errors (what
    the simulator does not cover in an edition that is not simulated)."""
    from blackpoker.core.checks import simulation_warnings
    rules = load_rules(directory, extra_checks=extra_checks)
    warning_checks = (simulation_warnings, *warning_checks)
    directory = Path(directory)
    by_name = {display_path(directory, f.name): f for f in FILES}
    sources: dict[str, SourceFile] = {}
    warnings: list[DefinitionWarning] = []
    for check in warning_checks:
        for origin, message in check(rules):
            if origin.file not in sources:  # the file loaded a moment ago: read again only to locate
                src, _ = parse_yaml(directory / by_name[origin.file].name, origin.file, folder=directory)
                assert src is not None, origin.file
                sources[origin.file] = src
            located = sources[origin.file].error(origin.path, message)
            warnings.append(DefinitionWarning(located.file, located.line, located.column, located.path, message))
    return Checked(rules, tuple(sorted(set(warnings))))


def load_rules(directory: Path | str = DEFINITIONS, *, schema_dir: Path = SCHEMAS,
               checks: bool = True, extra_checks: tuple[Check, ...] = ()) -> m.Rules:
    """Load, validate and check the definitions in ``directory``.

    Raises :class:`DefinitionErrors` with every problem found (syntax, schema, then semantic checks).
    """
    from blackpoker.core.checks import run_checks  # checks read the model; import late to keep layers clear

    directory = Path(directory)
    key = _content_key(directory, schema_dir, checks) if not extra_checks else None
    if key is not None and key in _LOADED:
        return _LOADED[key]
    errors: list[DefinitionError] = []
    sources: dict[str, SourceFile] = {}
    if not directory.is_dir():
        raise DefinitionErrors([DefinitionError(str(directory), 1, 1, (), "no such definitions folder")])
    for f in FILES:
        name = display_path(directory, f.name)
        path = directory / f.name
        if not path.exists():
            errors.append(DefinitionError(name, 1, 1, (), f"missing file; expected {f.name} in {display_path(directory, '.')}"))
            continue
        src, problems = parse_yaml(path, name, folder=directory)
        errors.extend(problems)
        if src is None:
            continue
        refused = {problem.path for problem in problems}  # a value refused as it was read is not also "null"
        errors.extend(e for e in validate(src, f.schema, schema_dir) if e.path not in refused)
        sources[f.kind] = src
    if errors:
        raise DefinitionErrors(errors)

    builder = _Builder(sources, directory)
    rules = _build_rules(builder)
    errors.extend(builder.problems)
    if checks:
        errors.extend(run_checks(rules, builder.sources))
        by_name = {src.name: src for src in builder.sources.values()}
        for extra in extra_checks:  # e.g. the simulator's coverage of the actions
            for origin, message in extra(rules):
                errors.append(by_name[origin.file].error(origin.path, message))
    if errors:
        raise DefinitionErrors(errors)
    if key is not None:
        _LOADED.clear()  # the last ruleset only: a build loads one, a long-running preview the newest
        _LOADED[key] = rules
    return rules


# One build asks for the same ruleset many times (the build itself, each step, each Sphinx run, every worker
# process forked from it): the model is immutable, so a ruleset already loaded from the same bytes is reused.
_LOADED: dict[str, m.Rules] = {}


def definition_files(directory: Path) -> list[Path]:
    """The files a ruleset is loaded from, and the pictures it may name (``images/``); other files in the
    folder, such as a README, are not read."""
    images = directory / IMAGES
    pictures = sorted(p for p in images.iterdir() if p.is_file()) if images.is_dir() else []
    return [directory / f.name for f in FILES] + pictures


def _content_key(directory: Path, schema_dir: Path, checks: bool) -> str | None:
    """SHA-256 of every definition and schema file's bytes; None if one cannot be read (then load normally)."""
    # the places in the model name the files as the user sees them: relative to the working directory
    digest = hashlib.sha256(f"{checks}\0{directory.resolve()}\0{os.getcwd()}\0".encode())
    folder = directory.resolve()
    try:
        for path in definition_files(directory) + sorted(schema_dir.glob("*.json")):
            if path.parent.resolve() != schema_dir.resolve() and not path.resolve().is_relative_to(folder):
                return None  # a link out of the definitions: loading refuses it unread, and so must this
            if path.parent.name == IMAGES:  # a larger picture is refused by its size: the rest is never read
                size = path.stat().st_size
                data = f"{size}\0".encode() + read_input(path, min(size, MAX_PICTURE_BYTES))
            else:
                data = read_input(path)
            digest.update(path.name.encode() + b"\0" + data + b"\0")
    except OSError:
        return None
    return digest.hexdigest()
