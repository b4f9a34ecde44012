"""The game state: small mutable containers of immutable records, copied with :meth:`GameState.clone`.

Why not fully frozen: a step changes a handful of fields across two players, and self-play takes hundreds of
thousands of steps. Records that are shared between copies (cards, characters, requests, fog cards, whole
zones as tuples) are immutable, so ``clone`` only copies two small ``Player`` shells and the top-level fields:
a clone costs a few microseconds and no copy can leak a change into another.

The records made at every step write out their ``__init__``, for the compiled simulator (see
:mod:`blackpoker.core.frozen`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Final

from blackpoker.core.cards import JOKER, Card
from blackpoker.core.frozen import Frozen
from blackpoker.core.model import Rules

PLAYER_NAMES: Final = ("A", "B")
GENERATION_RANKS: Final = frozenset({JOKER, 1, 11, 12, 13})  # 世代交代: Joker, A, J, Q, K


@dataclass(frozen=True)
class Character(Frozen):
    """A character on a field (2.8): one card, or several for 装備兵."""

    uid: int
    owner: int
    cards: tuple[Card, ...]
    kind: str  # "soldier" | "bulwark"
    type_id: str  # the character id in the model (soldier, hero, ace, magician, equipped-soldier, bulwark)
    driven: bool = False
    face_up: bool = True
    entered_turn: int = 0
    timestamp: int = 0

    def __init__(self, uid: int, owner: int, cards: tuple[Card, ...], kind: str, type_id: str, driven: bool = False,
                 face_up: bool = True, entered_turn: int = 0, timestamp: int = 0) -> None:
        object.__setattr__(self, "uid", uid)
        object.__setattr__(self, "owner", owner)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "type_id", type_id)
        object.__setattr__(self, "driven", driven)
        object.__setattr__(self, "face_up", face_up)
        object.__setattr__(self, "entered_turn", entered_turn)
        object.__setattr__(self, "timestamp", timestamp)

    @property
    def base_size(self) -> int:
        """2.8.2: the printed numbers (sum of them for a character of several cards)."""
        return sum(c.number for c in self.cards)

    @property
    def suits(self) -> frozenset[str | None]:
        """The suits of the character's cards, for effects and labels that depend on suit."""
        return frozenset(c.suit for c in self.cards)

    def with_driven(self, driven: bool) -> Character:
        """This character driven or charged: ``dataclasses.replace(ch, driven=…)`` at half the cost (it inspects
        the fields at every call; driving and charging happen at most steps)."""
        return Character(self.uid, self.owner, self.cards, self.kind, self.type_id, driven, self.face_up,
                         self.entered_turn, self.timestamp)


@dataclass(frozen=True)
class FogCard(Frozen):
    """Cards in a fog (2.11.4): the mark of a 滞留魔法 whose ability lasts until the end of ``turn``."""

    fog_id: str
    owner: int
    cards: tuple[Card, ...]
    amount: int
    turn: int
    timestamp: int
    target: int | None = None  # a character uid for アップ / ダウン


@dataclass(frozen=True)
class TrumpCard(Frozen):
    """A card in the 切札 zone (エクストラ): face down it is a 裏切札; face up, the trump its card names."""

    uid: int
    card: Card
    face_up: bool = False


@dataclass(frozen=True)
class Target(Frozen):
    """A chosen target: a character uid, a player index, or a request uid on the stage."""

    kind: str  # "character" | "player" | "request" | "trump"
    ref: int

    def __init__(self, kind: str, ref: int) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "ref", ref)


@dataclass(frozen=True)
class Payment(Frozen):
    """How a cost was paid: the bulwarks driven (B), life paid (L), cards discarded (D), characters sacrificed (S)."""

    bulwarks: tuple[int, ...] = ()
    life: int = 0
    discards: tuple[Card, ...] = ()
    sacrifices: tuple[int, ...] = ()

    def __init__(self, bulwarks: tuple[int, ...] = (), life: int = 0, discards: tuple[Card, ...] = (),
                 sacrifices: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "bulwarks", bulwarks)
        object.__setattr__(self, "life", life)
        object.__setattr__(self, "discards", discards)
        object.__setattr__(self, "sacrifices", sacrifices)


NO_PAYMENT: Final = Payment()  # the cost of an action without one (one shared immutable value)


@dataclass(frozen=True)
class Request(Frozen):
    """A request (6.2.2): an action, its controller, its key cards (held on the stage), cost and targets."""

    uid: int
    action_id: str
    controller: int
    keys: tuple[Card, ...] = ()
    payment: Payment = NO_PAYMENT
    targets: tuple[Target, ...] = ()
    triggered: bool = False
    key_character: int | None = None  # the soldier that is the key card of a cost-K action (兵士起因)

    def __init__(self, uid: int, action_id: str, controller: int, keys: tuple[Card, ...] = (),
                 payment: Payment = NO_PAYMENT, targets: tuple[Target, ...] = (), triggered: bool = False,
                 key_character: int | None = None) -> None:
        object.__setattr__(self, "uid", uid)
        object.__setattr__(self, "action_id", action_id)
        object.__setattr__(self, "controller", controller)
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "payment", payment)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "triggered", triggered)
        object.__setattr__(self, "key_character", key_character)


@dataclass(frozen=True)
class Modifier(Frozen):
    """A static ability (6.3) as the simulator applies it: a size change or an attack permission with a scope."""

    scope: str  # "all" | "your" | "this" (6.4.2 [1] [2] [3])
    owner: int  # whose "your"
    timestamp: int
    size: int = 0
    can_attack: bool | None = None
    target: int | None = None  # the character of a "this" ability
    source: str = ""
    turn: int | None = None  # an ability that lasts until the end of this turn (激励); None: while the game lasts


@dataclass(frozen=True)
class AttackLine(Frozen):
    """One attacker and the characters blocking it (アタック → ブロック → ダメージ判定)."""

    attacker: int
    blockers: tuple[int, ...] = ()

    def __init__(self, attacker: int, blockers: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "attacker", attacker)
        object.__setattr__(self, "blockers", blockers)


@dataclass(frozen=True)
class Pending(Frozen):
    """An effect waiting for a decision: re-run from ``snapshot`` with ``choices`` plus the answer."""

    snapshot: GameState
    request: Request
    where: str  # "direct" | "stage" | "trigger"
    choices: tuple[object, ...]
    player: int
    prompt: str
    options: tuple[object, ...]

    def __init__(self, snapshot: GameState, request: Request, where: str, choices: tuple[object, ...], player: int,
                 prompt: str, options: tuple[object, ...]) -> None:
        object.__setattr__(self, "snapshot", snapshot)
        object.__setattr__(self, "request", request)
        object.__setattr__(self, "where", where)
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "prompt", prompt)
        object.__setattr__(self, "options", options)


@dataclass
class Player:
    """One player's zones (life, hand, graveyard, field, fog, pack …) in a game state."""

    life: tuple[Card, ...] = ()  # top first
    hand: tuple[Card, ...] = ()
    graveyard: tuple[Card, ...] = ()  # bottom first; the last card is the public top (2.11.1)
    field: tuple[Character, ...] = ()
    fog: tuple[FogCard, ...] = ()
    pack: tuple[Card, ...] = ()  # the frames' パック, face down until opened
    pack_opened: bool = False
    rare: tuple[Card, ...] = ()  # the frames' レアカード
    trumps: tuple[TrumpCard, ...] = ()  # エクストラ's 切札
    deck: frozenset[Card] = frozenset()  # every card the player brought (for the one-zone invariant)

    def clone(self) -> Player:
        """Every field is immutable: a shallow copy is a full one. Made with ``__new__`` and the fields listed
        (not ``__init__``, which ``dataclass`` writes in Python, nor ``__dict__``, which the compiled simulator's
        native classes lack), the fastest way both compiled and not; a test checks that every field is listed."""
        new = Player.__new__(Player)
        new.life, new.hand, new.graveyard, new.field, new.fog = self.life, self.hand, self.graveyard, self.field, self.fog
        new.pack, new.pack_opened, new.rare, new.trumps, new.deck = (self.pack, self.pack_opened, self.rare, self.trumps,
                                                                     self.deck)
        return new

    def same_zones(self, other: Player) -> bool:
        """Whether every field of ``other`` is the very object of this one: a clone the step did not touch (the
        invariant checks ask at every step)."""
        return (self.life is other.life and self.hand is other.hand and self.graveyard is other.graveyard
                and self.field is other.field and self.fog is other.fog and self.pack is other.pack
                and self.pack_opened is other.pack_opened and self.rare is other.rare and self.trumps is other.trumps
                and self.deck is other.deck)


@dataclass
class GameState:
    """The whole state of a game: both players, the stage, who holds the turn and the chance."""

    rules: Rules
    format: str
    seed: int
    players: list[Player]
    frame: str | None = None  # None: the common rules only (2.9), no frame
    turn_player: int = 0
    chance: int | None = 0  # None: the rule system holds it (6.4 [13])
    turn: int = 1
    stage: tuple[Request, ...] = ()  # bottom first
    passes: tuple[int, ...] = ()
    buffer: tuple[Request, ...] = ()  # the action buffer of 6.4.1
    used: frozenset[tuple[int, str]] = frozenset()  # once-per-turn actions requested this turn
    attack: tuple[AttackLine, ...] = ()
    modifiers: tuple[Modifier, ...] = ()  # abilities a scenario adds (6.4.2 examples)
    split: frozenset[int] = frozenset()  # character uids that split (2.10.4 対象が分裂した場合)
    pending: Pending | None = None
    after: tuple[str, int] = ("none", 0)  # what follows the trigger check: give the chance to a player
    winner: int | None = None
    rng_count: int = 0
    next_uid: int = 1
    resolved: tuple[str, ...] = ()  # the log of resolved requests (expectations read it)
    events: list[str] | None = field(default=None)  # Japanese play-by-play, when recording

    def clone(self) -> GameState:
        """A copy sharing every immutable record; only the players and the event list are copied. The engine
        clones several times per decision: made as :meth:`Player.clone` is (a test checks every field is copied)."""
        new = GameState.__new__(GameState)
        new.take(self)
        new.players = [self.players[0].clone(), self.players[1].clone()]
        if self.events is not None:
            new.events = list(self.events)
        return new

    def take(self, other: GameState) -> None:
        """Take every field of ``other``, sharing its values (:meth:`clone` copies the mutable ones after; a
        resolution works on a clone and keeps it with this when the effect did not stop for a question)."""
        self.rules, self.format, self.seed, self.players = other.rules, other.format, other.seed, other.players
        self.frame, self.turn_player, self.chance, self.turn = other.frame, other.turn_player, other.chance, other.turn
        self.stage, self.passes, self.buffer, self.used = other.stage, other.passes, other.buffer, other.used
        self.attack, self.modifiers, self.split = other.attack, other.modifiers, other.split
        self.pending, self.after, self.winner = other.pending, other.after, other.winner
        self.rng_count, self.next_uid, self.resolved, self.events = (other.rng_count, other.next_uid, other.resolved,
                                                                     other.events)

    # --- helpers -------------------------------------------------------------------------------
    def uid(self) -> int:
        """A new object id: requests, characters and fog cards are referred to by it, never by position."""
        self.next_uid += 1
        return self.next_uid - 1

    def rng(self) -> random.Random:
        """Randomness comes only from the seed kept here, so a replay reproduces every shuffle."""
        self.rng_count += 1
        return random.Random(self.seed * 1_000_003 + self.rng_count)

    @property
    def recording(self) -> bool:
        """Whether a play-by-play is recorded: code that formats a line tests this first, so that self-play, which
        records nothing, never formats one (a tenth of its time, when it did)."""
        return self.events is not None

    def log(self, line: str) -> None:
        """Record a play-by-play line (code that formats one tests :attr:`recording` first, so that self-play, which
        does not record, never formats the text)."""
        if self.events is not None:
            self.events.append(line)

    def other(self, player: int) -> int:
        """The opponent of a player."""
        return 1 - player

    def order(self) -> tuple[int, int]:
        """Players in turn order, the turn player first (6.4.1 notes)."""
        return (self.turn_player, 1 - self.turn_player)

    def character(self, uid: int) -> Character:
        """The character ``uid`` on a field; it must be there (callers hold a uid they just read)."""
        found = self.find(uid)
        if found is None:
            raise LookupError(f"no character {uid} on the field")
        return found

    def find(self, uid: int) -> Character | None:
        """A character on either field by uid, or None once it has left (targets are checked with it)."""
        for p in self.players:
            for ch in p.field:
                if ch.uid == uid:
                    return ch
        return None

    def characters(self) -> list[Character]:
        """Every character on both fields."""
        return [ch for p in self.players for ch in p.field]

    def find_trump(self, uid: int) -> TrumpCard | None:
        """A trump card by uid, or None."""
        for p in self.players:
            for t in p.trumps:
                if t.uid == uid:
                    return t
        return None

    def trump_owner(self, uid: int) -> int:
        """Who owns the trump card with this uid."""
        return next(i for i, p in enumerate(self.players) if any(t.uid == uid for t in p.trumps))

    def request_on_stage(self, uid: int) -> Request | None:
        """A request still on the stage, or None once it resolved or was negated."""
        return next((r for r in self.stage if r.uid == uid), None)

    def replace(self, ch: Character) -> None:
        """Put a changed character in place of its old record (records are immutable; states share them)."""
        p = self.players[ch.owner]
        p.field = tuple(ch if c.uid == ch.uid else c for c in p.field)

    def all_cards(self, player: int) -> list[Card]:
        """Every card a player owns, wherever it is (for the one-zone invariant)."""
        p = self.players[player]
        cards = list(p.life) + list(p.hand) + list(p.graveyard)
        cards += [c for ch in p.field for c in ch.cards] + [c for f in p.fog for c in f.cards]
        cards += list(p.pack) + list(p.rare) + [t.card for t in p.trumps]
        for r in self.stage + self.buffer:
            if r.controller == player:
                cards += r.keys
        waiting = self.pending.request if self.pending else None
        if waiting and waiting.controller == player and self.request_on_stage(waiting.uid) is None:
            cards += waiting.keys  # an instant request waiting on its effect's question holds its key cards
        return cards


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Distinct cards in the rules' order, so listed choices and logs are the same in every run."""
    return sorted(set(cards), key=_CARD_ORDER)  # Card's order, by its kept sort key (no Python __lt__ per comparison)


_CARD_ORDER: Final = attrgetter("sort_key")


def player_name(index: int | None) -> str:
    """A player as the play-by-play names them (A, B, or ルールシステム for the rules' own actions)."""
    return "ルールシステム" if index is None else PLAYER_NAMES[index]
