"""Static abilities (6.3) and their order (6.4.2): sizes, labels and attack permission, derived on demand.

Nothing here is stored: every call recomputes from the printed cards in the order [1] all → [2] your → [3] this,
each scope by timestamp, so a size can never be added twice (6.4.2 適用タイミング, example E8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from blackpoker.core.cards import Card
from blackpoker.core.model import Action, Rules, Trump
from blackpoker.core.typography import typography_key
from blackpoker.sim import lookup
from blackpoker.sim.state import Character, GameState, Modifier

SCOPE_ORDER: Final = {"all": 0, "your": 1, "this": 2}

# 4.3.2: a label that holds only sometimes names its condition in the definitions; each condition text is code here,
# found whatever its typography (第8.2版 writes キーカードにAが…: core.typography.typography_key).
LABEL_CONDITIONS: Final = {
    typography_key("キーカードに A が含まれる場合のみ"): lambda ch: any(c.rank == 1 for c in ch.cards),
}


def label_condition(text: str) -> Callable[[Character], bool] | None:
    """The code of a label condition, read whatever its typography (the official files write 「キーカードにAが含まれ
    る場合のみ」: core.typography.typography_key); None for one the simulator does not know: the label is then not
    held, and ``blackpoker check`` lists the condition as not simulated."""
    return LABEL_CONDITIONS.get(typography_key(text))


# 4.3.3: the fog abilities, as (scope, sign). アップ/ダウン act on their target ("対象とした兵士" → this),
# フォース on "自分の兵士全て" (your).
FOG_SCOPES: Final = {"up": ("this", 1), "down": ("this", -1), "force": ("your", 1)}


def modifiers(state: GameState) -> list[Modifier]:
    """Every ability in force now: fogs placed this turn (until end of turn) and those a scenario adds."""
    mods = [m for m in state.modifiers if m.turn is None or m.turn == state.turn]
    for p in state.players:
        for fog in p.fog:
            if fog.turn != state.turn or fog.fog_id not in FOG_SCOPES:
                continue
            scope, sign = FOG_SCOPES[fog.fog_id]
            mods.append(Modifier(scope, fog.owner, fog.timestamp, size=sign * fog.amount, target=fog.target,
                                 source=fog.fog_id))
    mods.sort(key=lambda m: (SCOPE_ORDER[m.scope], m.timestamp))
    return mods


def _applies(mod: Modifier, ch: Character) -> bool:
    if ch.kind != "soldier":
        return False
    if mod.scope == "all":
        return True
    if mod.scope == "your":
        return ch.owner == mod.owner
    return ch.uid == mod.target


def size(state: GameState, ch: Character, mods: list[Modifier] | None = None) -> int:
    """2.8.2 サイズ: printed numbers plus every size ability in order; it may be 0 or less (ruling
    ability-order-example-sum: the soldier stays on the field)."""
    total = ch.base_size
    for mod in modifiers(state) if mods is None else mods:
        if mod.size and _applies(mod, ch):
            total += mod.size
    return total


def labels(rules: Rules, ch: Character) -> frozenset[str]:
    """The labels of a character (2.8.1), read from the character list; conditional ones checked here."""
    out = set()
    for label in lookup.character(rules, ch.type_id).labels:
        if label.condition is None:
            out.add(label.name)
            continue
        holds = label_condition(label.condition)
        if holds is not None and holds(ch):
            out.add(label.name)
    return frozenset(out)


def trump_of(rules: Rules, card: Card) -> Trump | None:
    """The trump a face-up 切札 card is (5.3.4: identified by its key card, ♠2 → スラッシュ); None for a card the
    list does not name (ruling trump-face-up: it has no ability). Kept per ruleset, card by card: the 兵士起因
    actions' activation conditions ask at every decision of an エクストラ game."""
    known = lookup.derived(rules, _trump_table)
    if card not in known:
        known[card] = next((trump for trump in rules.trumps if trump.key.zone == "hand"
                            and not trump.key.face_down and trump.key.accepts((card,))), None)
    return known[card]


def _trump_table(rules: Rules) -> dict[Card, Trump | None]:
    return {}


def face_up_trumps(state: GameState, player: int) -> list[Trump]:
    """The trumps in force for ``player``: face-up 切札 cards only (ruling trump-face-up)."""
    return [trump for t in state.players[player].trumps
            if t.face_up and (trump := trump_of(state.rules, t.card)) is not None]


def face_up_trump_names(state: GameState, player: int) -> frozenset[str]:
    """The names of :func:`face_up_trumps` (what 「あなたの切札に「スラッシュ」がある」 asks)."""
    trumps = state.players[player].trumps
    if not trumps:
        return _NO_NAMES
    return frozenset(trump.name for trump in face_up_trumps(state, player))


_NO_NAMES: Final[frozenset[str]] = frozenset()


def granted_labels(state: GameState, ch: Character) -> frozenset[str]:
    """5.3.4 「あなたの場にいる ♠ の兵士は <スラッシュ> を持つ」: labels a face-up trump gives the owner's
    soldiers of its key card's suit (a Joker soldier has no suit and gets none)."""
    if ch.kind != "soldier" or not state.players[ch.owner].trumps:
        return frozenset()
    out = set()
    for trump in face_up_trumps(state, ch.owner):
        suits = trump.key.parts[0].suits or frozenset()
        if trump.grants_label and None not in ch.suits and ch.suits <= suits:
            out.add(trump.grants_label)
    return frozenset(out)


def all_labels(state: GameState, ch: Character) -> frozenset[str]:
    """A character's labels from the character list and from face-up trumps."""
    return labels(state.rules, ch) | granted_labels(state, ch)


def can_attack(state: GameState, ch: Character, mods: list[Modifier] | None = None) -> bool:
    """Abilities that forbid or allow attacking; a later (narrower, or newer) one overrides (6.4.2, E6, E7)."""
    allowed = True
    for mod in modifiers(state) if mods is None else mods:
        if mod.can_attack is not None and _applies(mod, ch):
            allowed = mod.can_attack
    return allowed


def discard_waivable(action: Action) -> bool:
    """Whether 魔術士's 魔力増加 applies to the action: a 速攻魔法 (its cost D is none while the 魔術士 is out)."""
    return action.category == "速攻魔法"


def magician_waives_discard(state: GameState, player: int) -> bool:
    """Whether ``player`` has a 魔術士 soldier on the field: its 魔力増加 (v8.1) waives the cost D of their 速攻魔法.
    Read from its controller's point of view (6.2.1: effects are read as the controller's), so it helps its own
    player."""
    return any(ch.type_id == "magician" and ch.kind == "soldier" for ch in state.players[player].field)


def waives_discard(rules: Rules, state: GameState, player: int, action_id: str) -> bool:
    """魔術士 魔力増加: the cost D of this request of ``player`` is none."""
    return discard_waivable(lookup.action(rules, action_id)) and magician_waives_discard(state, player)


def soldier_type(card_rank: int) -> str:
    """The character a lone card becomes as a soldier (ruling preset-characters): 2~10 一般兵, J~K 英雄,
    A エース, Joker 魔術士."""
    if card_rank == 0:
        return "magician"
    if card_rank == 1:
        return "ace"
    if card_rank >= 11:
        return "hero"
    return "soldier"
