"""The kinds of named entries, in one place: how each is looked up, anchored, named and referred to.

A kind's ``key`` is how rulings refer to its entries (``applies_to: action:equip``) and how the model indexes
them; ``anchor`` prefixes the entry's id in every page and list (``act-equip``), so links made anywhere
agree; ``name`` is the kind's Japanese name as the lists and the index label it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from blackpoker.core.model import Action, Character, Fog, Frame, Rules, Trump

Named = Action | Character | Fog | Trump | Frame


@dataclass(frozen=True)
class Kind:
    """A kind of entry (action, character …): its name, anchor prefix and how to find one by id."""

    key: str
    anchor: str
    name: str
    type: type
    lookup: Callable[[Rules, str], Named]

    def anchor_of(self, entry_id: str) -> str:
        """The anchor of entry ``entry_id`` of this kind (``act-equip``)."""
        return f"{self.anchor}-{entry_id}"

    def ruling_ref(self, entry_id: str) -> str:
        """How a ruling's ``applies_to`` names the entry (``action:equip``)."""
        return f"{self.key}:{entry_id}"


KINDS: tuple[Kind, ...] = (
    Kind("action", "act", "アクション", Action, Rules.action),
    Kind("character", "char", "キャラクター", Character, Rules.character),
    Kind("fog", "fog", "フォグ", Fog, Rules.fog),
    Kind("trump", "trump", "切札", Trump, Rules.trump),
    Kind("frame", "frame", "フレーム", Frame, Rules.frame),
)
KIND: dict[str, Kind] = {k.key: k for k in KINDS}
FRAME_ACTION_NAME = "フレームアクション"  # how the lists and the index label an action a frame adds


def named_entries(rules: Rules) -> tuple[Named, ...]:
    """Every entry that has an anchor: actions, characters, fogs, trumps and frames."""
    return (*rules.actions, *rules.characters, *rules.fogs, *rules.trumps, *rules.frames)


def kind_of(entry: Named) -> Kind:
    """The kind of a model entry."""
    return next(k for k in KINDS if isinstance(entry, k.type))


def anchor(entry: Named) -> str:
    """The entry's anchor in every page and list."""
    return kind_of(entry).anchor_of(entry.id)


def official_id(entry: Named) -> str:
    """The id the official data files give the entry: its ``official_id``, else its id in camelCase."""
    return entry.official_id or camel_id(entry.id)


def camel_id(entry_id: str) -> str:
    """An id in the official files' camelCase: ``summon-soldier`` → ``summonSoldier``."""
    head, *rest = entry_id.split("-")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def official_anchors(entry: Named) -> tuple[str, ...]:
    """The anchors the official site gave the entry (``act-summonsSoldier``) and the tutorial's lower-cased
    form (``act-summonssoldier``), apart from our own anchor: each must keep leading to the entry."""
    prefix = kind_of(entry).anchor
    official = f"{prefix}-{official_id(entry)}"
    return tuple(dict.fromkeys(a for a in (official, official.lower()) if a != anchor(entry)))


def label(entry: Named) -> str:
    """The entry's kind as the lists and the index label it (frame actions apart)."""
    if isinstance(entry, Action) and entry.is_frame_action:
        return FRAME_ACTION_NAME
    return kind_of(entry).name


# The rulebook page that shows each list of entries (``{bp-list} NAME`` in ``source/<page>.md``; the directive
# refuses any other page), so the action lists can link each entry to its full text.
RULEBOOK_LISTS: dict[str, str] = {
    "actions": "format", "characters": "format", "fogs": "format",
    "frames": "frame", "frame-actions": "frame", "frame-fogs": "frame", "trumps": "frame",
}


def rulebook_list(entry: Named) -> str:
    """The rulebook list that shows the entry (a fog of the formats and of a frame: the formats' list)."""
    if isinstance(entry, Action):
        return "frame-actions" if entry.is_frame_action else "actions"
    if isinstance(entry, Fog):
        return "fogs" if entry.formats else "frame-fogs"
    return {Character: "characters", Trump: "trumps", Frame: "frames"}[type(entry)]


def rulebook_page(entry: Named) -> str:
    """The rulebook page (its document name) where the entry's full text is."""
    return RULEBOOK_LISTS[rulebook_list(entry)]
