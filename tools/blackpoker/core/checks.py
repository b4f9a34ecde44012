"""Semantic checks: what a schema cannot say (ids, references both ways, nesting, versions, text vs structure).

Each check is a small generator of ``(origin, message)`` pairs over the model; ``run_checks`` locates them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from blackpoker.core import model as m
from blackpoker.core.errors import DefinitionError
from blackpoker.core.yamlsource import SourceFile

Problem = tuple[m.Origin, str]
Check = Callable[[m.Rules], Iterable[Problem]]
CHECKS: list[Check] = []
# What the simulator needs to read (target phrases, summoning wording): errors in an edition that declares itself
# simulated (the default), warnings in one with ``simulated: false``, which is published all the same.
SIMULATION_CHECKS: list[Check] = []


def check(fn: Check) -> Check:
    """Register a semantic check: every function so marked runs, in order, after the schema passed."""
    CHECKS.append(fn)
    return fn


def simulation_check(fn: Check) -> Check:
    """Register a check of what the simulator relies on: it runs only for an edition that declares itself simulated,
    so an imported edition still checks and builds."""
    SIMULATION_CHECKS.append(fn)
    return fn


def run_checks(rules: m.Rules, sources: dict[str, SourceFile]) -> Iterator[DefinitionError]:
    """Every check's problems, located in the file and at the YAML path of the entry they concern."""
    by_name = {s.name: s for s in sources.values()}
    for fn in CHECKS + (SIMULATION_CHECKS if rules.edition.simulated else []):
        for origin, message in fn(rules):
            yield by_name[origin.file].error(origin.path, message)


def simulation_warnings(rules: m.Rules) -> list[Problem]:
    """The simulation checks' findings in an edition that is not simulated (none in one that is: there they are
    errors)."""
    if rules.edition.simulated:
        return []
    return [(origin, f"simulator: {message}") for fn in SIMULATION_CHECKS for origin, message in fn(rules)]


def _entries(rules: m.Rules) -> Iterator[tuple[str, m.Action | m.Character | m.Fog | m.Trump]]:
    for kind, entries in (("action", rules.actions), ("character", rules.characters),
                          ("fog", rules.fogs), ("trump", rules.trumps)):
        for e in entries:
            yield kind, e


# --- dates ------------------------------------------------------------------------------------

@check
def dates_are_days_of_the_calendar(rules: m.Rules) -> Iterator[Problem]:
    """The release date (ISO: the export's ``release_date``) and each official file's ``lastupdate`` (as the file
    prints it: the official export writes it back) must be real days: the schema sees only their shape."""
    from blackpoker.core.dates import date_problem
    edition = rules.edition
    problem = date_problem(edition.released, iso=True)
    if problem is not None:
        yield edition.origin.sub("released"), problem
    for name, header in edition.official:
        last = dict(header).get("lastupdate")
        problem = date_problem(last) if last is not None else None
        if problem is not None:
            yield m.Origin(edition.origin.file, ("official", name, "lastupdate")), problem


# --- identity ---------------------------------------------------------------------------------

@check
def unique_ids(rules: m.Rules) -> Iterator[Problem]:
    """Ids become anchors, URLs and simulator keys, so two entries of a kind must never share one."""
    for kind, entries in (("format", rules.formats), ("frame", rules.frames), ("action", rules.actions),
                          ("character", rules.characters), ("fog", rules.fogs), ("trump", rules.trumps),
                          ("ruling", rules.rulings)):
        seen: dict[str, m.Origin] = {}
        for e in entries:
            if e.id in seen:
                first = seen[e.id]
                yield e.origin.sub("id"), f"duplicate {kind} id '{e.id}' (first defined in {first.file} at {_path(first)})"
            else:
                seen[e.id] = e.origin
    names = Counter(a.name for a in rules.actions)
    for a in rules.actions:
        if names[a.name] > 1:
            yield a.origin.sub("name"), f"duplicate action name '{a.name}'; scenarios look actions up by name"


@check
def official_anchors_are_unique(rules: m.Rules) -> Iterator[Problem]:
    """Every page answers to an entry's official anchors beside its own (act-summonsSoldier): no anchor may lead
    to two entries."""
    from blackpoker.core.kinds import anchor, kind_of, named_entries, official_anchors
    entries = named_entries(rules)
    owner = {anchor(e): e for e in entries}
    for e in entries:
        for name in official_anchors(e):
            other = owner.setdefault(name, e)
            if other is not e:
                where = e.origin.sub("official_id") if e.official_id else e.origin.sub("id")
                yield where, (f"the official anchor '{name}' of {kind_of(e).key} '{e.id}' is also the anchor of "
                              f"{kind_of(other).key} '{other.id}'; expected an official_id that leads to one entry only")


def _path(origin: m.Origin) -> str:
    from blackpoker.core.errors import format_path
    return format_path(origin.path)


# --- vocabularies -------------------------------------------------------------------------------

@check
def kinds_in_the_right_file(rules: m.Rules) -> Iterator[Problem]:
    """Format actions and frame actions live in separate files; an entry in the wrong one would show in the wrong
    list."""
    for a in rules.actions:
        in_frame_file = a.origin.file.endswith("frame-actions.yaml")
        if in_frame_file and a.formats:
            yield a.origin.sub("formats"), "a frame action has no 'formats': the frames that list it in frames.yaml are its frames"
        elif in_frame_file and not a.frames:
            yield a.origin.sub("id"), f"frame action '{a.id}' is not listed in any frame's actions in frames.yaml"
        if not in_frame_file and not a.formats:
            yield a.origin.sub("id"), "a format action lists 'formats'; frame actions belong in frame-actions.yaml"


@check
def groups_are_declared(rules: m.Rules) -> Iterator[Problem]:
    """The lists are laid out by group: an undeclared group would drop an entry from every list."""
    for a in rules.actions:
        groups = rules.frame_action_groups if a.is_frame_action else rules.action_groups
        if a.group not in groups:
            yield a.origin.sub("group"), f"'{a.group}' is not one of " + ", ".join(f"'{g}'" for g in groups)


@check
def cost_letters_are_defined(rules: m.Rules) -> Iterator[Problem]:
    """A cost letter the ruleset does not define could be neither printed nor paid by the simulator."""
    letters = {c.letter for c in rules.costs}
    for a in rules.actions:
        for i, letter in enumerate(a.cost):
            if letter not in letters:
                yield a.origin.sub("cost", i), f"cost letter '{letter}' is not defined in ruleset.yaml costs"


@check
def labels_are_declared(rules: m.Rules) -> Iterator[Problem]:
    """Labels are matched by name (key units, granted labels): a misspelt one would silently match nothing."""
    known = set(rules.labels)
    for c in rules.characters:
        for i, label in enumerate(c.labels):
            if label.name not in known:
                yield c.origin.sub("labels", i), f"label '{label.name}' is not declared in ruleset.yaml labels"
    for _kind, e in _entries(rules):
        if e.key and e.key.label and e.key.label not in known:
            yield e.origin.sub("key_card"), f"label '{e.key.label}' is not declared in ruleset.yaml labels"
    for t in rules.trumps:
        if t.grants_label and t.grants_label not in known:
            yield t.origin.sub("grants_label"), f"label '{t.grants_label}' is not declared in ruleset.yaml labels"


@check
def triggers_have_conditions(rules: m.Rules) -> Iterator[Problem]:
    """A triggered action without a 誘発条件 could never fire, and a direct one with it contradicts itself."""
    for a in rules.actions:
        if a.trigger is m.Trigger.DIRECT and a.trigger_condition:
            yield a.origin.sub("trigger_condition"), "a direct action has no 誘発条件; remove it or make the trigger 'triggered'"
        if a.trigger is m.Trigger.TRIGGERED and not a.trigger_condition and not rules.rulings_for(f"action:{a.id}"):
            yield a.origin.sub("trigger"), ("a triggered action needs a 誘発条件 (trigger_condition), "
                                            "or a ruling in rulings.yaml that applies to 'action:" + a.id + "'")


@check
def key_card_fields(rules: m.Rules) -> Iterator[Problem]:
    """The key card fields must describe one way to take the key, or the checks and the simulator disagree on it."""
    for a in rules.actions:
        if a.key_card and a.implicit_key:
            yield a.origin.sub("implicit_key"), "an action with a printed key_card needs no implicit_key"
        if a.key and a.key.zone == "field" and "K" not in a.cost:
            yield a.origin.sub("cost"), "a key card taken from the field (a soldier) is paid with cost K (KeyDrive)"
        if "K" in a.cost and not (a.key and a.key.zone == "field"):
            yield a.origin.sub("cost"), "cost K (KeyDrive) drives the key card, so the key card must be a soldier on the field"
        if ("C" in a.cost) != bool(a.key_unit):
            yield a.origin.sub("cost" if a.key_unit is None else "key_unit"), (
                "cost C (UnitDrive) drives the key unit: an action has cost C exactly when it has a key_unit")


# --- references ---------------------------------------------------------------------------------

@check
def frames_list_their_entries(rules: m.Rules) -> Iterator[Problem]:
    """frames.yaml is the one place of frame membership: what a frame lists exists and is a frame entry,
    and every frame action and trump is listed by some frame."""
    frame_actions = {a.id for a in rules.actions if a.origin.file.endswith("frame-actions.yaml")}
    trumps = {t.id for t in rules.trumps}
    for frame in rules.frames:
        for attr, kind, known in (("actions", "frame-action", frame_actions), ("trumps", "trump", trumps)):
            for i, ref in enumerate(getattr(frame, attr)):
                if ref not in known:
                    yield frame.origin.sub(attr, i), f"no {kind} with id '{ref}'"
    for t in rules.trumps:
        if not t.frames:
            yield t.origin.sub("id"), f"trump '{t.id}' is not listed in any frame's trumps in frames.yaml"
    characters = {c.id for c in rules.characters}
    frame_ids = {f.id for f in rules.frames}
    for frame in rules.frames:
        for i, ref in enumerate(frame.characters):
            if ref not in characters:
                yield frame.origin.sub("characters", i), f"no character with id '{ref}'"
        if frame.inherits is not None and (frame.inherits not in frame_ids or frame.inherits == frame.id):
            yield frame.origin.sub("inherits"), f"no other frame with id '{frame.inherits}'"
    for c in rules.characters:
        if bool(c.formats) == bool(c.frames):
            yield c.origin.sub("id"), (f"character '{c.id}' needs either 'formats' or a frame that lists it in "
                                       "frames.yaml (characters), not both")


@check
def fogs_and_actions_agree(rules: m.Rules) -> Iterator[Problem]:
    """A fog exists only through the action that places it: each must name the other, in both directions."""
    actions = {a.id: a for a in rules.actions}
    placed = {f.placed_by for f in rules.fogs}
    for f in rules.fogs:  # the loader has refused a placed_by that names no action
        action = actions[f.placed_by]
        if "フォグにキーカードを置" not in "".join(m.iter_text(action.effect)):
            yield f.origin.sub("placed_by"), f"action '{action.id}' does not put its key card in the fog"
    for a in rules.actions:
        if "フォグにキーカードを置" in "".join(m.iter_text(a.effect)) and a.id not in placed:
            yield a.origin.sub("effect"), "the effect puts its key card in the fog, but no fog in fogs.yaml has placed_by: " + a.id


@check
def trumps_and_soldier_actions_agree(rules: m.Rules) -> Iterator[Problem]:
    """A 兵士起因 action is usable only while its trump is face up: the trump and the action must name each other."""
    actions = {a.id: a for a in rules.actions}
    enabled = Counter(t.enables for t in rules.trumps if t.enables)
    for t in rules.trumps:
        if t.enables is None:
            continue
        action = actions.get(t.enables)
        if action is None:
            yield t.origin.sub("enables"), f"no action with id '{t.enables}'"
        elif not (action.key and action.key.zone == "field" and action.key.label == t.grants_label):
            yield t.origin.sub("enables"), (f"action '{action.id}' must take as key card a soldier with "
                                            f"<{t.grants_label}> (the label this trump grants)")
        if t.enables and enabled[t.enables] > 1:
            yield t.origin.sub("enables"), f"action '{t.enables}' is enabled by more than one trump"
    for a in rules.actions:
        if a.key and a.key.zone == "field" and a.id not in enabled:
            yield a.origin.sub("key_card"), f"no trump in trumps.yaml grants <{a.key.label}> (enables: {a.id})"


@check
def summons_exist(rules: m.Rules) -> Iterator[Problem]:
    """A character's summoning action must exist, or the character could never enter play."""
    actions = {a.id for a in rules.actions}
    for c in rules.characters:
        for i, ref in enumerate(c.summoned_by):
            if ref not in actions:
                yield c.origin.sub("summoned_by", i), f"no action with id '{ref}'"


@check
def targets_known(rules: m.Rules) -> Iterator[Problem]:
    """A 対象 text outside core/targets.py, in an edition that declares itself simulated (in one that does not,
    the lists print it and the simulator's coverage names it once as not simulated: sim/gaps.py)."""
    from blackpoker.core.targets import TargetSyntaxError, parse_target
    if not rules.edition.simulated:
        return
    for a in rules.actions:
        if a.target is not None and a.target_spec is None:
            try:
                parse_target(a.target)
            except TargetSyntaxError as exc:
                yield a.origin.sub("target"), str(exc)


@simulation_check
def characters_and_summons_agree(rules: m.Rules) -> Iterator[Problem]:
    """A character enters play only through a summoning action: each side must name the other."""
    actions = {a.id: a for a in rules.actions}
    summoned = {ref for c in rules.characters for ref in c.summoned_by}
    for c in rules.characters:
        if not c.summoned_by:
            yield c.origin.sub("summoned_by"), f"no action summons '{c.name}'; expected the actions whose effect " \
                f"makes a card {c.name} ('{c.name}として')"
        for i, ref in enumerate(c.summoned_by):
            action = actions.get(ref)
            if action is not None and not re.search(f"{c.name}と(して|する)", "".join(m.iter_text(action.effect))):
                yield c.origin.sub("summoned_by", i), (f"the effect of '{ref}' does not make a card {c.name} "
                                                       f"('{c.name}として' or '{c.name}とする')")
    for a in rules.actions:
        if a.category == "召喚" and a.id not in summoned:
            yield a.origin.sub("category"), "a summoning action must be listed in some character's summoned_by"


@check
def rulings_apply_to_something(rules: m.Rules) -> Iterator[Problem]:
    """A ruling is shown where it applies; one that names nothing that exists would be shown nowhere."""
    from blackpoker.core.kinds import KIND
    for r in rules.rulings:
        for i, ref in enumerate(r.applies_to):
            kind, _, id = ref.partition(":")
            if kind in KIND:
                try:
                    KIND[kind].lookup(rules, id)
                except KeyError:
                    yield r.origin.sub("applies_to", i), f"no {kind} with id '{id}'"


# --- formats and frames ---------------------------------------------------------------------------

@check
def formats_are_nested(rules: m.Rules) -> Iterator[Problem]:
    """Each format holds everything of the smaller ones (an entry of ライト is in every later format), unless
    formats.yaml declares the exception: the lists and the simulator rely on it."""
    order = [f.id for f in rules.formats]
    excused = {(e.kind, e.id) for e in rules.nesting_exceptions}
    for kind, e in _entries(rules):
        formats = getattr(e, "formats", ())
        unknown = [f for f in formats if f not in order]
        for f in unknown:
            yield e.origin.sub("formats", formats.index(f)), f"format '{f}' is not defined in formats.yaml"
        if not formats or unknown or (kind, e.id) in excused:
            continue
        first = min(order.index(f) for f in formats)
        expected = order[first:]
        if list(formats) != expected:
            names = {f.id: f.name for f in rules.formats}
            yield e.origin.sub("formats"), (
                f"formats must be nested ({' ⊂ '.join(order)}): an entry in {names[order[first]]} is in every later "
                f"format, expected [{', '.join(expected)}], or declare it in formats.yaml nesting_exceptions")


@check
def frames_mention_only_their_formats(rules: m.Rules) -> Iterator[Problem]:
    """A frame's setup text that names a format the frame is not played in is a copying mistake (unless a ruling
    speaks of it)."""
    for frame in rules.frames:
        rulings = rules.rulings_for(f"frame:{frame.id}")
        for i, step in enumerate(frame.setup):
            for fmt in rules.formats:
                ruled = any(fmt.name in r.source for r in rulings)  # a ruling that speaks of this format
                if f"フォーマットが{fmt.name}" in step and fmt.id not in frame.formats and not ruled:
                    yield frame.origin.sub("setup", i), (
                        f"the setup speaks of format {fmt.name}, which frame '{frame.id}' does not support; "
                        f"fix it or add a ruling for 'frame:{frame.id}' about {fmt.name} in rulings.yaml")


@check
def frame_zones_and_disclosure(rules: m.Rules) -> Iterator[Problem]:
    """Every frame is played on the common zones, and its disclosure may only name zones it lays out."""
    common = [z.id for z in rules.zones if z.common]
    for frame in rules.frames:
        missing = [z for z in common if z not in frame.zones]
        if missing:
            yield frame.origin.sub("zones"), "a frame's layout has every common zone; missing " + ", ".join(missing)
        added = [z for z in frame.zones if z not in common]
        disclosed = [d.zone for d in frame.disclosure]
        for i, zone in enumerate(disclosed):
            if zone not in added:
                yield frame.origin.sub("disclosure", i, "zone"), f"zone '{zone}' is not a zone this frame adds"
        for zone in added:
            if zone not in disclosed:
                yield frame.origin.sub("disclosure"), f"the frame adds zone '{zone}' but gives no disclosure level for it"
    covered = [d.zone for d in rules.disclosure]
    for zone in common:
        if zone not in covered:
            yield m.Origin(rules.edition.origin.file, ("disclosure",)), f"common zone '{zone}' has no disclosure level"


_COUNT = re.compile(r"(\d+)\s*枚")


@check
def deck_conditions_match_text(rules: m.Rules) -> Iterator[Problem]:
    """The deck condition is stated twice, as text for readers and as cards for the simulator: the counts must
    agree."""
    for frame in rules.frames:
        if not frame.deck:
            continue
        stated = [int(n) for n in _COUNT.findall(frame.deck.text)]
        actual = len(frame.deck.cards) if frame.deck.cards else frame.deck.min_cards
        if stated and actual not in stated:
            what = "cards" if frame.deck.cards else "min_cards"
            yield frame.origin.sub("deck", what), f"the text says {stated[0]} 枚 but the structure says {actual}"
        if frame.deck.min_cards is not None and "以上" not in frame.deck.text:
            yield frame.origin.sub("deck", "text"), "min_cards needs a text that says 以上"


# --- versions ---------------------------------------------------------------------------------------

_VERSION = re.compile(r"^(v|ex)(\d+)\.(\d+)(?:\.(\d+))?$")


def version_key(version: str) -> tuple[str, tuple[int, ...]]:
    """('v', (8, 1)) for v8.1; versions compare only within one series (v or ex)."""
    match = _VERSION.match(version)
    if not match:
        raise ValueError(f"not a version: {version}")
    return match[1], tuple(int(x) for x in match.groups()[1:] if x is not None)


@check
def flows_are_connected(rules: m.Rules) -> Iterator[Problem]:
    """Every arrow joins two steps of its chart, step ids are unique, and every step has an arrow."""
    for flow in rules.flows:
        ids = [s.id for s in flow.steps]
        for i, step_id in enumerate(ids):
            if ids.index(step_id) != i:
                yield flow.origin.sub("steps", i, "id"), f"step id '{step_id}' is used twice in flow '{flow.id}'"
        joined: set[str] = set()
        for i, edge in enumerate(flow.edges):
            for end, name in ((edge.source, "from"), (edge.target, "to")):
                if end not in ids:
                    yield flow.origin.sub("edges", i, name), f"no step '{end}' in flow '{flow.id}'"
                joined.add(end)
        for i, step_id in enumerate(ids):
            if step_id not in joined:
                yield flow.origin.sub("steps", i), f"step '{step_id}' has no arrow in flow '{flow.id}'"


@check
def versions_are_ordered(rules: m.Rules) -> Iterator[Problem]:
    """The change marks read an entry's history in order; a version out of order, or newer than the edition, is a
    typo."""
    current = version_key(rules.edition.version)
    for _kind, e in _entries(rules):
        chain = ([e.introduced] if e.introduced else []) + list(e.updated)
        for i in range(1, len(chain)):
            (s1, k1), (s2, k2) = version_key(chain[i - 1]), version_key(chain[i])
            if s1 == s2 and k2 <= k1:
                where: tuple[str | int, ...] = ("updated", i - 1) if e.introduced else ("updated", i)
                yield e.origin.sub(*where), f"version {chain[i]} does not come after {chain[i - 1]}"
        for i, v in enumerate(chain):
            series, key = version_key(v)
            if series == current[0] and key > current[1]:
                where = ("introduced",) if (e.introduced and i == 0) else ("updated", i - (1 if e.introduced else 0))
                yield e.origin.sub(*where), f"version {v} is newer than the ruleset ({rules.edition.version})"


# --- the core rules' requirements -----------------------------------------------------------------

@check
def some_action_passes_the_turn(rules: m.Rules) -> Iterator[Problem]:
    """6.2.1: 「最低1つはターンを別のプレイヤーに渡すアクションを定義してください」, in every format."""
    for fmt in rules.formats:
        if not any("ターンを渡す" in "".join(m.iter_text(a.effect)) for a in rules.actions_in_format(fmt.id)):
            yield fmt.origin, f"format {fmt.name} has no action that passes the turn (ターンを渡す); the core rules need one"
