"""The one model of the rules: frozen dataclasses built once by the loader and read by everything else."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, cast

from blackpoker.core.errors import PathPart
from blackpoker.core.keycard import KeyCondition
from blackpoker.core.targets import TargetSpec


class Trigger(str, Enum):
    """An action's トリガー: 直接 (a player requests it) or 誘発 (requested when its condition is met)."""

    DIRECT = "direct"
    TRIGGERED = "triggered"

    @property
    def label(self) -> str:
        """The Japanese word a reader sees; the value stays the schema's English key."""
        return {"direct": "直接", "triggered": "誘発"}[self.value]


class Speed(str, Enum):
    """An action's スピード: 即時 (resolves at once, without the stage) or 通常 (goes through the stage)."""

    INSTANT = "instant"
    NORMAL = "normal"

    @property
    def label(self) -> str:
        """The Japanese word a reader sees; the value stays the schema's English key."""
        return {"instant": "即時", "normal": "通常"}[self.value]


class Timing(str, Enum):
    """An action's タイミング: メイン (the chance, one's own turn and an empty stage) or クイック (the chance)."""

    MAIN = "main"
    QUICK = "quick"

    @property
    def label(self) -> str:
        """The Japanese word a reader sees; the value stays the schema's English key."""
        return {"main": "メイン", "quick": "クイック"}[self.value]


@dataclass(frozen=True)
class Origin:
    """Where an entry was defined: its file and data path, so later checks can point at it."""

    file: str
    path: tuple[PathPart, ...]

    def sub(self, *parts: PathPart) -> Origin:
        """The origin of a field inside this entry, so a check can point at the exact line of the problem."""
        return Origin(self.file, self.path + parts)


# --- structured text -------------------------------------------------------------------------

ListStyle = Literal["numbered", "bulleted", "lettered"]


@dataclass(frozen=True)
class ListItem:
    """One item of a list in an effect text, with the lists nested under it."""

    text: str
    sub: tuple[Block, ...] = ()


@dataclass(frozen=True)
class TextList:
    """A numbered, lettered or bulleted list in an effect text (a block beside plain paragraphs)."""

    style: ListStyle
    items: tuple[ListItem, ...]


Block = str | TextList


def blocks_from_data(raw: list[Any]) -> tuple[Block, ...]:
    """Effect blocks from their YAML (and export) form: a paragraph, or ``{style: [item or {text, sub}]}``."""
    out: list[Block] = []
    for block in raw:
        if isinstance(block, str):
            out.append(block)
            continue
        (style, items), = block.items()
        out.append(TextList(style, tuple(
            ListItem(i) if isinstance(i, str) else ListItem(i["text"], blocks_from_data(i["sub"])) for i in items)))
    return tuple(out)


def iter_text(blocks: tuple[Block, ...]) -> Iterator[str]:
    """Every piece of text in a block tree, in reading order (for search, checks and tests)."""
    for block in blocks:
        if isinstance(block, str):
            yield block
        else:
            for item in block.items:
                yield item.text
                yield from iter_text(item.sub)


# --- tables -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Edition:
    """The edition a ruleset publishes: its names, dates, copyright and where it is published."""

    version: str
    edition: str
    title: str
    subtitle: str | None
    author: str
    release: str
    released: str
    copyright: str
    players: int
    origin: Origin
    site: str | None = None  # the published site's address (ends in /), for printed absolute addresses
    official: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()  # the official files' headers, in order
    simulated: bool = True  # False: the simulator's gaps are warnings, not errors (an imported edition)

    def address(self, path: str) -> str:
        """``path`` (relative to the site's root) as a reader types it: absolute under ``site`` when it is set."""
        return f"{self.site}{path}" if self.site else path


@dataclass(frozen=True)
class CardNumber:
    """A rank's number (Table 2.1 トランプの数字: A is 1, J 11, Q 12, K 13, 2 to 10 as printed)."""

    card: str
    number: int | None
    text: str | None


@dataclass(frozen=True)
class CostType:
    """A cost letter (ruleset.yaml costs): its name and how the simulator pays it."""

    letter: str
    name: str
    payment: str


@dataclass(frozen=True)
class Zone:
    """A zone of the table (2.10), common to both players or each player's own."""

    id: str
    name: str
    common: bool
    description: str | None


@dataclass(frozen=True)
class FlowStep:
    """A box of a flow chart: a step, or a question whose answers are its edges' labels."""

    id: str
    text: str
    decision: bool = False


@dataclass(frozen=True)
class FlowEdge:
    """An arrow of a flow chart, from one step to the next, labelled with an answer where it has one."""

    source: str
    target: str
    label: str = ""


@dataclass(frozen=True)
class Flow:
    """A flow chart of the rules (6.4 コアフロー, 6.4.1 誘発チェック): steps and the arrows between them."""

    id: str
    name: str
    section: str
    steps: tuple[FlowStep, ...]
    edges: tuple[FlowEdge, ...]
    origin: Origin


@dataclass(frozen=True)
class DisclosureLevel:
    """A level of 2.11.1 公開レベル (完全公開, 個人公開, 非公開) and what it lets a player see."""

    id: str
    name: str
    description: str


@dataclass(frozen=True)
class Disclosure:
    """A frame's disclosure of one zone: its level for the public, the owner and what is hidden."""

    zone: str
    public: str
    personal: str
    hidden: str


@dataclass(frozen=True)
class Format:
    """A format (ライト, スタンダード …), one of the nested sets of entries; each entry names the formats it is in."""

    id: str
    name: str
    reading: str
    origin: Origin


@dataclass(frozen=True)
class NestingException:
    """An entry excused from the rule that formats are nested (formats.yaml nesting_exceptions), and why."""

    kind: str
    id: str
    reason: str


# --- entries --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Action:
    """An action entry as the book prints it, with what the checks and the simulator derive from it."""

    id: str
    name: str
    reading: str
    category: str
    group: str
    trigger: Trigger
    speed: Speed
    timing: Timing
    effect: tuple[Block, ...]
    origin: Origin
    key_card: str | None = None
    key: KeyCondition | None = None
    implicit_key: str | None = None
    cost: tuple[str, ...] = ()
    note: str | None = None
    activation_condition: str | None = None
    trigger_condition: str | None = None
    target: str | None = None
    target_spec: TargetSpec | None = None
    story: str | None = None
    flavor: str | None = None
    flavor_speaker: str | None = None
    introduced: str | None = None
    updated: tuple[str, ...] = ()
    official_id: str | None = None  # the official data files' id, when it is not the camelCase id
    formats: tuple[str, ...] = ()
    frames: tuple[str, ...] = ()
    key_unit: str | None = None  # キーユニット条件 (cost C drives it)
    design_note: str | None = None  # 補足
    changed: bool | None = None  # この版で変更, where it is not derived from ``updated``

    @property
    def is_frame_action(self) -> bool:
        """Frame actions are the ones some frame lists; they have no formats of their own."""
        return bool(self.frames)

    @property
    def shorthand(self) -> str:
        """The rules' notation ``@直接-通常-メイン``."""
        return f"@{self.trigger.label}-{self.speed.label}-{self.timing.label}"

    @property
    def cost_text(self) -> str:
        """The cost as the lists print it (``BDS``), one letter per cost paid."""
        return "".join(self.cost)


@dataclass(frozen=True)
class Label:
    """A character's label (<兵士> …), with the condition under which it has it."""

    name: str
    condition: str | None = None


@dataclass(frozen=True)
class Ability:
    """A character's ability: its name (empty for an unnamed one) and its text."""

    name: str  # "" for an ability without a name
    text: str


@dataclass(frozen=True)
class Character:
    """A character entry: its key card, size, labels, abilities and the actions that summon it."""

    id: str
    name: str
    reading: str
    category: str
    key_card: str
    key: KeyCondition
    labels: tuple[Label, ...]
    summoned_by: tuple[str, ...]
    origin: Origin
    formats: tuple[str, ...] = ()  # none for a frame's character (frames.yaml lists it)
    size: str | None = None
    abilities: tuple[Ability, ...] = ()
    story: str | None = None
    flavor: str | None = None
    flavor_speaker: str | None = None
    introduced: str | None = None
    updated: tuple[str, ...] = ()
    official_id: str | None = None  # the official data files' id, when it is not the camelCase id
    group: str | None = None  # the list section, where it is not the category
    design_note: str | None = None
    changed: bool | None = None
    frames: tuple[str, ...] = ()  # a frame's character: the frames that list it
    note: str | None = None  # 特記事項


@dataclass(frozen=True)
class Fog:
    """A fog entry: a card placed in the fog zone and what it does there."""

    id: str
    name: str
    reading: str
    category: str
    key_card: str
    key: KeyCondition
    ability: str
    placed_by: str
    origin: Origin
    target: str | None = None
    story: str | None = None
    flavor: str | None = None
    flavor_speaker: str | None = None
    introduced: str | None = None
    updated: tuple[str, ...] = ()
    official_id: str | None = None  # the official data files' id, when it is not the camelCase id
    formats: tuple[str, ...] = ()
    frames: tuple[str, ...] = ()
    group: str | None = None
    design_note: str | None = None
    changed: bool | None = None


@dataclass(frozen=True)
class Picture:
    """A picture file of the definitions, as bytes: renderers embed it, so none of them reads files."""

    path: str  # as written in the definitions (images/…)
    media_type: str  # image/png, image/jpeg or image/svg+xml
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class Trump:
    """A trump (切札) entry of a frame: its key card, its ability and the label or action it grants."""

    id: str
    name: str
    reading: str
    category: str
    group: str
    key_card: str
    key: KeyCondition
    ability: str
    frames: tuple[str, ...]
    origin: Origin
    grants_label: str | None = None
    enables: str | None = None
    introduced: str | None = None
    updated: tuple[str, ...] = ()
    official_id: str | None = None  # the official data files' id, when it is not the camelCase id
    image: Picture | None = None  # イメージ: read from the definitions folder when the ruleset loads
    story: str | None = None
    flavor: str | None = None
    flavor_speaker: str | None = None
    design_note: str | None = None
    changed: bool | None = None


@dataclass(frozen=True)
class TrumpAbout:
    """The trump list's introduction (the official trumpData)."""

    description: str
    design_note: str | None = None


@dataclass(frozen=True)
class DeckCondition:
    """A frame's デッキ条件: the exact cards, or a minimum count, with the text the book prints."""

    text: str
    cards: tuple[str, ...] = ()
    min_cards: int | None = None


@dataclass(frozen=True)
class Frame:
    """A frame (フレーム): its layout, deck condition, setup, extra entries and zones' disclosure."""

    id: str
    name: str
    reading: str
    formats: tuple[str, ...]
    zones: tuple[str, ...]
    setup: tuple[str, ...]
    setup_continues: str
    origin: Origin
    deck: DeckCondition | None = None
    actions: tuple[str, ...] = ()
    fogs: tuple[str, ...] = ()
    trumps: tuple[str, ...] = ()
    disclosure: tuple[Disclosure, ...] = ()
    official_id: str | None = None
    characters: tuple[str, ...] = ()
    inherits: str | None = None
    image: Picture | None = None  # 配置図 as a picture (the official image)


@dataclass(frozen=True)
class Ruling:
    """A decision the project takes where the source rules are ambiguous or wrong (shown as a note)."""

    id: str
    title: str
    source: str
    ruling: str
    applies_to: tuple[str, ...]
    origin: Origin


Entry = Action | Character | Fog | Trump


@dataclass(frozen=True)
class Rules:
    """The whole validated ruleset. Build it with :func:`blackpoker.load_rules`."""

    edition: Edition
    card_numbers: tuple[CardNumber, ...]
    costs: tuple[CostType, ...]
    zones: tuple[Zone, ...]
    disclosure_levels: tuple[DisclosureLevel, ...]
    disclosure: tuple[Disclosure, ...]
    labels: tuple[str, ...]
    action_groups: tuple[str, ...]
    frame_action_groups: tuple[str, ...]
    formats: tuple[Format, ...]
    nesting_exceptions: tuple[NestingException, ...]
    frames: tuple[Frame, ...]
    actions: tuple[Action, ...]
    characters: tuple[Character, ...]
    fogs: tuple[Fog, ...]
    trumps: tuple[Trump, ...]
    rulings: tuple[Ruling, ...] = ()
    flows: tuple[Flow, ...] = ()
    trump_about: TrumpAbout | None = None
    # (kind, id) → the entry, an instance of that kind's class (the lookups below cast to it)
    _index: dict[tuple[str, str], object] = field(default_factory=dict, compare=False, repr=False)
    # Tables a reader derives from this ruleset once, by the function that makes them (the simulator's request
    # plans and look-ups: blackpoker.sim.lookup.derived): they live and die with the ruleset, with no global cache
    # keyed by id() to hold or evict them. Never compared, copied by dataclasses.replace, or pickled.
    derived: dict[object, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "derived": {}}

    def __post_init__(self) -> None:
        for kind, entries in (("format", self.formats), ("frame", self.frames), ("action", self.actions),
                              ("character", self.characters), ("fog", self.fogs), ("trump", self.trumps), ("ruling", self.rulings)):
            for entry in entries:
                self._index.setdefault((kind, entry.id), entry)

    # lookups -----------------------------------------------------------------------------------
    def action(self, id: str) -> Action:
        """The action with this id (KeyError naming the id otherwise): ids are how scenarios, rulings and the
        simulator refer to entries."""
        return cast(Action, self._get("action", id))

    def character(self, id: str) -> Character:
        """The character with this id (KeyError naming the id otherwise)."""
        return cast(Character, self._get("character", id))

    def fog(self, id: str) -> Fog:
        """The fog with this id (KeyError naming the id otherwise)."""
        return cast(Fog, self._get("fog", id))

    def trump(self, id: str) -> Trump:
        """The trump with this id (KeyError naming the id otherwise)."""
        return cast(Trump, self._get("trump", id))

    def frame(self, id: str) -> Frame:
        """The frame with this id (KeyError naming the id otherwise)."""
        return cast(Frame, self._get("frame", id))

    def ruling(self, id: str) -> Ruling:
        """The ruling with this id (KeyError naming the id otherwise)."""
        return cast(Ruling, self._get("ruling", id))

    def rulings_for(self, ref: str) -> tuple[Ruling, ...]:
        """The rulings that apply to ``kind:id`` (e.g. ``frame:pack``, ``section:6.4.2``)."""
        return tuple(r for r in self.rulings if ref in r.applies_to)

    def format(self, id: str) -> Format:
        """The format with this id (KeyError naming the id otherwise)."""
        return cast(Format, self._get("format", id))

    def flow(self, id: str) -> Flow:
        """A flow chart of chapter 6 by id, which the rulebook draws from these steps rather than from a picture."""
        try:
            return next(f for f in self.flows if f.id == id)
        except StopIteration:
            raise KeyError(f"no flow with id '{id}'") from None

    def zone(self, id: str) -> Zone:
        """A zone by id, for its Japanese name and whether every frame lays it out."""
        return next(z for z in self.zones if z.id == id)

    def cost_type(self, letter: str) -> CostType:
        """A cost by its letter, for the Japanese name and the explanation the lists print."""
        return next(c for c in self.costs if c.letter == letter)

    def _get(self, kind: str, id: str) -> object:
        try:
            return self._index[(kind, id)]
        except KeyError:
            raise KeyError(f"no {kind} with id '{id}'") from None

    def find_action(self, name_or_id: str) -> Action:
        """An action by id or by its Japanese name (scenarios accept both)."""
        for action in self.actions:
            if name_or_id in (action.id, action.name):
                return action
        raise KeyError(f"no action with id or name '{name_or_id}'")

    # views --------------------------------------------------------------------------------------
    @property
    def format_actions(self) -> tuple[Action, ...]:
        """The actions of the action list proper (4.3.1), without the frames' own."""
        return tuple(a for a in self.actions if not a.is_frame_action)

    @property
    def frame_actions(self) -> tuple[Action, ...]:
        """The frames' own actions (5.3.2), listed apart from the format actions."""
        return tuple(a for a in self.actions if a.is_frame_action)

    @property
    def format_fogs(self) -> tuple[Fog, ...]:
        """The fogs of the formats (4.3.3), listed apart from the frames' (5.3.3)."""
        return tuple(f for f in self.fogs if f.formats)

    @property
    def frame_fogs(self) -> tuple[Fog, ...]:
        """The fogs that only frames bring (5.3.3)."""
        return tuple(f for f in self.fogs if f.frames)

    def actions_in_format(self, format_id: str) -> tuple[Action, ...]:
        """A format's list: what a player of that format may request (4.3.1)."""
        return tuple(a for a in self.actions if format_id in a.formats)

    def characters_in_format(self, format_id: str) -> tuple[Character, ...]:
        """The characters a format allows (4.3.2)."""
        return tuple(c for c in self.characters if format_id in c.formats)

    def fogs_in_format(self, format_id: str) -> tuple[Fog, ...]:
        """The fogs a format allows (4.3.3)."""
        return tuple(f for f in self.fogs if format_id in f.formats)

    def frames_for_format(self, format_id: str) -> tuple[Frame, ...]:
        """The frames Table 3.1 allows with a format, for the regulations the simulator plays."""
        return tuple(f for f in self.frames if format_id in f.formats)

    def is_changed(self, entry: Entry) -> bool:
        """True when the entry was updated in this edition (marked in lists and the changes section): as the
        entry says (``changed``), else when its updated versions include this edition's."""
        if entry.changed is not None:
            return entry.changed
        return self.edition.version in entry.updated
