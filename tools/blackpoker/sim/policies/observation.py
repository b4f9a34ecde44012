"""What a player sees (2.11 公開レベル) as a frozen value a policy decides from, never the state itself.

:func:`observe` reads a state once and keeps only what ``viewer`` may know: every 完全公開 fact of both players,
the 個人公開 facts of the viewer's own zones, and nothing 非公開 (the contents and order of every life, the
opponent's hand, face-down bulwarks, rare cards, face-down trumps and opened pack, any unopened pack, the seed
and the random draws it will give). The zone-by-zone levels are those of :mod:`blackpoker.sim.observe`, whose
text view is kept as ``disclosure``; the structured fields name the same facts with the ids the legal decisions
use (character uids, request uids), so a policy can tell what a decision does. The value holds only cards,
numbers and strings: no reference to the state, its players or a random generator.

The views write out their ``__init__`` (ISMCTS observes at every step of its rollouts; see
:mod:`blackpoker.core.frozen`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from blackpoker.core.cards import Card
from blackpoker.core.frozen import Frozen
from blackpoker.sim.observe import observation
from blackpoker.sim.state import AttackLine, FogCard, GameState, Modifier, Request
from blackpoker.sim.text import life_answer


@dataclass(frozen=True)
class CharacterView(Frozen):
    """A character as the viewer sees it: ``cards`` is None for the opponent's face-down bulwark."""

    uid: int
    owner: int
    cards: tuple[Card, ...] | None
    kind: str
    type_id: str
    driven: bool
    face_up: bool
    entered_turn: int
    timestamp: int

    def __init__(self, uid: int, owner: int, cards: tuple[Card, ...] | None, kind: str, type_id: str, driven: bool,
                 face_up: bool, entered_turn: int, timestamp: int) -> None:
        object.__setattr__(self, "uid", uid)
        object.__setattr__(self, "owner", owner)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "type_id", type_id)
        object.__setattr__(self, "driven", driven)
        object.__setattr__(self, "face_up", face_up)
        object.__setattr__(self, "entered_turn", entered_turn)
        object.__setattr__(self, "timestamp", timestamp)


@dataclass(frozen=True)
class TrumpView(Frozen):
    """A trump as a player sees it: the card when face up or the viewer's own, else hidden."""

    uid: int
    card: Card | None  # None: the opponent's face-down trump (裏切札)
    face_up: bool

    def __init__(self, uid: int, card: Card | None, face_up: bool) -> None:
        object.__setattr__(self, "uid", uid)
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "face_up", face_up)


@dataclass(frozen=True)
class SideView(Frozen):
    """One player's zones: exact contents where the viewer may know them, counts where only those are public."""

    life_answer: str  # 完全公開: the answer to 「ライフは何枚?」 (2.11.1, E14)
    life: int | None  # 個人公開: the exact count, for the viewer's own life only
    hand: tuple[Card, ...] | None  # the viewer's own hand; None for the opponent's
    hand_count: int
    graveyard: tuple[Card, ...]
    field: tuple[CharacterView, ...]
    fog: tuple[FogCard, ...]
    pack_count: int
    pack_opened: bool
    pack: tuple[Card, ...] | None  # an opened pack of the viewer's own
    rare: tuple[Card, ...] | None  # the viewer's own rare cards
    rare_count: int
    trumps: tuple[TrumpView, ...]
    deck: frozenset[Card] | None  # the cards the viewer brought (they know their own deck)

    def __init__(self, life_answer: str, life: int | None, hand: tuple[Card, ...] | None, hand_count: int,
                 graveyard: tuple[Card, ...], field: tuple[CharacterView, ...], fog: tuple[FogCard, ...],
                 pack_count: int, pack_opened: bool, pack: tuple[Card, ...] | None, rare: tuple[Card, ...] | None,
                 rare_count: int, trumps: tuple[TrumpView, ...], deck: frozenset[Card] | None) -> None:
        object.__setattr__(self, "life_answer", life_answer)
        object.__setattr__(self, "life", life)
        object.__setattr__(self, "hand", hand)
        object.__setattr__(self, "hand_count", hand_count)
        object.__setattr__(self, "graveyard", graveyard)
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "fog", fog)
        object.__setattr__(self, "pack_count", pack_count)
        object.__setattr__(self, "pack_opened", pack_opened)
        object.__setattr__(self, "pack", pack)
        object.__setattr__(self, "rare", rare)
        object.__setattr__(self, "rare_count", rare_count)
        object.__setattr__(self, "trumps", trumps)
        object.__setattr__(self, "deck", deck)


@dataclass(frozen=True)
class PendingView(Frozen):
    """An effect's question to the viewer: the request resolving, where, and the answers given so far in it
    (all the viewer's own or public: attackers, blockers, a word)."""

    request: Request
    where: str
    choices: tuple[object, ...]
    prompt: str

    def __init__(self, request: Request, where: str, choices: tuple[object, ...], prompt: str) -> None:
        object.__setattr__(self, "request", request)
        object.__setattr__(self, "where", where)
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "prompt", prompt)


@dataclass(frozen=True)
class Observation(Frozen):
    """What one player may know of a game state (2.11.1), the only input an opponent decides on."""

    viewer: int
    format: str
    frame: str | None
    turn: int
    turn_player: int
    chance: int | None
    players: tuple[SideView, SideView]
    stage: tuple[Request, ...]  # requests and their key cards lie face up on the stage
    buffer: tuple[Request, ...]
    passes: tuple[int, ...]
    used: frozenset[tuple[int, str]]
    attack: tuple[AttackLine, ...]
    modifiers: tuple[Modifier, ...]
    split: frozenset[int]
    after: tuple[str, int]
    next_uid: int
    resolved: tuple[str, ...]
    pending_player: int | None
    pending: PendingView | None  # only when the viewer is the one asked
    disclosure: str  # sim/observe.py's view of 2.11 for the viewer, as JSON text

    def __init__(self, viewer: int, format: str, frame: str | None, turn: int, turn_player: int, chance: int | None,
                 players: tuple[SideView, SideView], stage: tuple[Request, ...], buffer: tuple[Request, ...],
                 passes: tuple[int, ...], used: frozenset[tuple[int, str]], attack: tuple[AttackLine, ...],
                 modifiers: tuple[Modifier, ...], split: frozenset[int], after: tuple[str, int], next_uid: int,
                 resolved: tuple[str, ...], pending_player: int | None, pending: PendingView | None,
                 disclosure: str) -> None:
        object.__setattr__(self, "viewer", viewer)
        object.__setattr__(self, "format", format)
        object.__setattr__(self, "frame", frame)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "turn_player", turn_player)
        object.__setattr__(self, "chance", chance)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "stage", stage)
        object.__setattr__(self, "buffer", buffer)
        object.__setattr__(self, "passes", passes)
        object.__setattr__(self, "used", used)
        object.__setattr__(self, "attack", attack)
        object.__setattr__(self, "modifiers", modifiers)
        object.__setattr__(self, "split", split)
        object.__setattr__(self, "after", after)
        object.__setattr__(self, "next_uid", next_uid)
        object.__setattr__(self, "resolved", resolved)
        object.__setattr__(self, "pending_player", pending_player)
        object.__setattr__(self, "pending", pending)
        object.__setattr__(self, "disclosure", disclosure)

    @property
    def me(self) -> SideView:
        """The viewer's own side: the only one whose hand and exact life count are known."""
        return self.players[self.viewer]

    @property
    def opponent(self) -> SideView:
        """The other side, as 2.11 discloses it."""
        return self.players[1 - self.viewer]

    def key(self) -> tuple[object, ...]:
        """The information set: everything the viewer knows, hashable (ISMCTS shares statistics by it)."""
        return (self.viewer, self.turn, self.turn_player, self.chance, self.players, self.stage, self.buffer,
                self.passes, self.attack, self.resolved, self.pending_player,
                None if self.pending is None else (self.pending.request.uid, self.pending.choices))


def _side(state: GameState, index: int, viewer: int) -> SideView:
    p = state.players[index]
    own = index == viewer
    field = tuple(CharacterView(ch.uid, ch.owner, ch.cards if (own or ch.face_up) else None, ch.kind, ch.type_id,
                                ch.driven, ch.face_up, ch.entered_turn, ch.timestamp) for ch in p.field)
    trumps = tuple(TrumpView(t.uid, t.card if (own or t.face_up) else None, t.face_up) for t in p.trumps)
    return SideView(life_answer(len(p.life)), len(p.life) if own else None, p.hand if own else None, len(p.hand),
                    p.graveyard, field, p.fog, len(p.pack), p.pack_opened,
                    p.pack if own and p.pack_opened else None, p.rare if own else None, len(p.rare), trumps,
                    p.deck if own else None)


def observe(state: GameState, viewer: int, *, text: bool = True) -> Observation:
    """``state`` as ``viewer`` may know it (see the module docstring); ``text=False`` leaves ``disclosure`` empty
    (a search that only needs the information-set key)."""
    pending = state.pending
    pending_view = None
    if pending is not None and pending.player == viewer:
        pending_view = PendingView(pending.request, pending.where, pending.choices, pending.prompt)
    disclosure = json.dumps(observation(state, viewer), ensure_ascii=False, sort_keys=True) if text else ""
    return Observation(
        viewer, state.format, state.frame, state.turn, state.turn_player, state.chance,
        (_side(state, 0, viewer), _side(state, 1, viewer)), state.stage, state.buffer, state.passes, state.used,
        state.attack, state.modifiers, state.split, state.after, state.next_uid, state.resolved,
        None if pending is None else pending.player, pending_view, disclosure)
