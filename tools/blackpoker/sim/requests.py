"""Which requests a player may make (2.10.3, 6.4 [3]-[5]): timing, activation conditions, key cards, costs, targets.

``check_request`` names the first rule a request breaks; ``request_groups`` lists every legal request, grouped by
action and key cards, with its payments and targets (made only when read: see ``engine.legal_options``). Both
read trigger, speed, timing, key card, cost and target from the loaded model; only the activation-condition texts
are mapped to code (``ACTIVATION``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from math import comb
from typing import Final

from blackpoker.core.cards import Card, full_deck
from blackpoker.core.keycard import KeyCondition
from blackpoker.core.model import Action, Rules, Trigger
from blackpoker.sim import lookup
from blackpoker.sim.abilities import (
    all_labels,
    discard_waivable,
    face_up_trump_names,
    magician_waives_discard,
    waives_discard,
)
from blackpoker.sim.decisions import RequestAction
from blackpoker.sim.game_errors import IllegalDecision
from blackpoker.sim.state import GameState, Payment, Request, Target, player_name, sort_cards

# Activation conditions (起動条件), by their text in the definitions.
ONCE_PER_TURN = "プレイヤーは、1ターンに1回までこのアクションを起こすことができる。"
NOT_TURN_HOLDER = "ターンを持っていない時しかこのアクションを起こすことができない。"
PACK_UNOPENED = "パックが開封済みでない場合のみこのアクションを起こすことができる。"
LIFE_NINE_OR_LESS = "プレイヤーのライフが9以下の場合にしかこのアクションを起こすことができない。"
ACTIVATION: Final[dict[str, Callable[[GameState, int, str], bool]]] = {
    ONCE_PER_TURN: lambda s, p, a: (p, a) not in s.used,
    NOT_TURN_HOLDER: lambda s, p, a: s.turn_player != p,
    PACK_UNOPENED: lambda s, p, a: bool(s.players[p].pack) and not s.players[p].pack_opened,
    LIFE_NINE_OR_LESS: lambda s, p, a: len(s.players[p].life) <= 9,
}
# 兵士起因: 「あなたの切札に「スラッシュ」がある」 holds while a face-up trump of that name is yours (ruling
# trump-face-up).
TRUMP_CONDITION = re.compile(r"^あなたの切札に「(?P<name>[^「」]+)」がある$")


def activation_holds(state: GameState, player: int, action: Action) -> bool:
    """Whether ``action``'s 起動条件 holds; each condition is compiled once per ruleset (the trump one is a regex)."""
    compiled = lookup.derived(state.rules, _activation_table)
    if action.id not in compiled:
        compiled[action.id] = _compile_activation(action)
    check = compiled[action.id]
    return check is None or check(state, player)


def _activation_table(rules: Rules) -> dict[str, Callable[[GameState, int], bool] | None]:
    return {}


def activation_known(text: str) -> bool:
    """Whether an activation-condition text is simulated (``blackpoker check`` reports the others)."""
    return text in ACTIVATION or bool(TRUMP_CONDITION.match(text))


# 特記事項 that keeps a request out of a counter's reach (フォース, 剣の雨, 徴募, 奇襲, R・S・F).
COUNTER_IMMUNE = "このアクションはカウンターアクションの対象にならない。"
# The counter actions that note means: カウンター and, by ruling trap-counter-immune, 罠カウンター.
COUNTER_ACTIONS: Final = frozenset({"counter", "trap-counter"})
# 防壁設置 has no キーカード field: its effect takes 「手札からカード1枚」, chosen when it is requested and held
# like a key card until it resolves (it is instant, so nothing can act on it in between).
HAND_CARD_ACTIONS: Final = frozenset({"bulwark-set"})
# The actions whose effect puts on the field the character whose summoned_by names them (effects.summoned_type):
# in an edition where no character names one (wording the check cannot read), it is not requested.
SUMMONING: Final = frozenset({"soldier-summon", "hero-summon", "ace-summon", "magician-summon", "quick-summon",
                              "equip"})


def requestable(rules: Rules, action: Action) -> bool:
    """Whether the simulator can play the action when it is requested, beyond having its effect: a target phrase
    it can read, and for a summoning action a character to make (an edition with simulated: false may lack
    either)."""
    if action.target is not None and action.target_spec is None:
        return False
    return action.id not in SUMMONING or any(action.id in c.summoned_by for c in rules.characters)


def _where(state: GameState) -> str:
    top = state.stage[-1].action_id if state.stage else "空"
    return (f"ターン: {player_name(state.turn_player)}, チャンス: {player_name(state.chance)}, "
            f"ステージ最上段: {top}")


def timing_ok(state: GameState, player: int, action: Action) -> str | None:
    """2.10.1 タイミング: メイン needs the turn, the chance and an empty stage; クイック only the chance."""
    if state.chance != player:
        return "6.1.5: チャンスを持っていないプレイヤーはアクションを起こせません"
    if action.timing.value == "main":
        if state.turn_player != player:
            return f"2.10.1: タイミングがメインの「{action.name}」は自分のターンにしか起こせません"
        if state.stage:
            return f"2.10.1: タイミングがメインの「{action.name}」はステージが空のときにしか起こせません"
    return None


def activation_ok(state: GameState, player: int, action: Action) -> str | None:
    """Why the 起動条件 forbids the request now (Japanese, shown to the player), or None."""
    if not activation_holds(state, player, action):
        return f"2.10.1: 起動条件: 「{action.name}」— {action.activation_condition}"
    return None


def available_actions(state: GameState) -> tuple[Action, ...]:
    """3.2: the regulation's actions: the format's (4.3.1) and the frame's (5.3.2), in list order (made once per
    regulation of a ruleset, as self-play asks for them at every decision)."""
    return _plans(state).actions


def key_zone(action: Action) -> str:
    """Where an action's key cards come from: the hand (2.10.1), the rare card (ruling rare-card-key), or a
    soldier on the field (cost K, 兵士起因)."""
    if action.implicit_key == "rare":
        return "rare"
    if action.key is not None and action.key.zone == "field":
        return "field"
    return "hand"


def key_soldiers(state: GameState, player: int, action: Action) -> list[int]:
    """Soldiers that may be the key card of a 兵士起因 action: yours, carrying its label, and charged so that
    cost K (キーカードをドライブする) can be paid."""
    label = action.key.label if action.key is not None else None
    return [ch.uid for ch in state.players[player].field
            if ch.kind == "soldier" and not ch.driven and label in all_labels(state, ch)]


def key_choices(state: GameState, player: int, action: Action) -> list[tuple[Card, ...]]:
    """Every key-card set the player could give for this action now, in the order requests are listed."""
    hand = state.players[player].hand
    zone = key_zone(action)
    if zone == "rare":
        return [(c,) for c in state.players[player].rare]
    if zone == "field":
        return [()]
    if action.id in HAND_CARD_ACTIONS:
        return [(c,) for c in sort_cards(hand)]
    if action.key is None:
        return [()]
    return action.key.choices(hand)


def cost_letters(state: GameState, player: int, action: Action) -> list[str]:
    """The costs to pay now: the action's letters, less the discard a 魔術士 waives."""
    letters = list(action.cost)
    if "D" in letters and waives_discard(state.rules, state, player, action.id):
        letters = [c for c in letters if c != "D"]
    return letters


def check_payment(state: GameState, player: int, action: Action, keys: tuple[Card, ...], pay: Payment) -> str | None:
    """Why a payment does not pay the costs (Japanese, with the rule's number), or None."""
    letters = cost_letters(state, player, action)
    p = state.players[player]
    nb, nl, nd, ns = (letters.count(x) for x in "BLDS")
    if len(pay.bulwarks) != nb or len(set(pay.bulwarks)) != nb:
        return f"2.10.2: コスト B を {nb} 回支払う必要があります(自分のチャージ状態の防壁をドライブ)"
    for uid in pay.bulwarks:
        ch = state.find(uid)
        if ch is None or ch.owner != player or ch.kind != "bulwark" or ch.driven:
            return "2.10.2: コスト B は自分の場にいるチャージ状態の防壁をドライブして支払います"
    if pay.life != nl:
        return f"2.10.2: コスト L を {nl} 回支払う必要があります"
    if nl > len(p.life):
        return "2.10.2: ライフが足りずコスト L を支払えません(コストは全て支払う必要があります)"
    if len(pay.discards) != nd:
        return f"2.10.2: コスト D として手札を {nd} 枚捨てる必要があります"
    rest = list(p.hand)
    hand_keys = keys if key_zone(action) == "hand" else ()
    for c in hand_keys + pay.discards:
        if c not in rest:
            return f"2.10.3: {c} は手札にありません(キーカードとコストは別のカードです)"
        rest.remove(c)
    if len(pay.sacrifices) != ns or any((ch := state.find(u)) is None or ch.owner != player for u in pay.sacrifices):
        return f"2.10.2: コスト S として自分のキャラクターを {ns} 体墓地に移す必要があります"
    return None


def target_candidates(state: GameState, player: int, action: Action, keys: tuple[Card, ...],
                      exclude_request: int | None = None) -> list[Target]:
    """Everything ``action`` may target for ``player`` with these key cards (2.10.3; never itself)."""
    spec = action.target_spec
    if spec is None:
        return []
    if spec.kind == "player":
        players = [state.other(player)] if spec.owner == "opponent" else [0, 1]
        return [Target("player", i) for i in players]
    if spec.kind == "trump":
        return [Target("trump", t.uid) for p in state.players for t in p.trumps]
    if spec.kind == "request":
        out = []
        for r in state.stage:
            if r.uid == exclude_request:
                continue
            target_action = lookup.action(state.rules, r.action_id)
            if spec.request_key_counts and len(r.keys) not in spec.request_key_counts:
                continue
            if spec.request_action and r.action_id != spec.request_action:
                continue
            if spec.request_has_target and not r.targets:
                continue
            if action.id in COUNTER_ACTIONS and target_action.note == COUNTER_IMMUNE:
                continue
            out.append(Target("request", r.uid))
        return out
    out = []
    for ch in state.characters():
        if spec.owner == "own" and ch.owner != player or spec.owner == "opponent" and ch.owner == player:
            continue
        if spec.kind in ("soldier", "bulwark") and ch.kind != spec.kind:
            continue
        if spec.same_suit_as_key:
            # ruling equip-joker: a Joker has no suit, so a Joker soldier never shares the key card's suit
            suits = {c.suit for c in keys}
            if None in ch.suits or len(suits) != 1 or ch.suits != suits:
                continue
        out.append(Target("character", ch.uid))
    return out


def check_request(state: GameState, player: int, req: RequestAction) -> None:
    """Raise :class:`IllegalDecision` naming the rule ``req`` breaks; return quietly when it is legal."""
    rules = state.rules
    try:
        action = lookup.action(rules, req.action_id)
    except KeyError:
        raise IllegalDecision(f"4.3.1: アクション '{req.action_id}' はありません") from None
    if not is_available(state, action.id):
        raise IllegalDecision(f"3.2: 「{action.name}」はこの対戦レギュレーション({regulation_name(state)})"
                              "では起こせません", _where(state))
    if action.trigger is Trigger.TRIGGERED:
        raise IllegalDecision(f"2.10.1: 「{action.name}」はトリガーが誘発のため、プレイヤーは起こせません", _where(state))
    for problem in (timing_ok(state, player, action), activation_ok(state, player, action)):
        if problem:
            raise IllegalDecision(problem, _where(state))
    _check_keys(state, player, action, req)
    problem = check_payment(state, player, action, req.keys, req.payment)
    if problem:
        raise IllegalDecision(problem, _where(state))
    spec = action.target_spec
    if spec is None:
        if req.targets:
            raise IllegalDecision(f"2.10.1: 「{action.name}」に対象はありません", _where(state))
        return
    legal = target_candidates(state, player, action, req.keys)
    if not legal:
        raise IllegalDecision("2.10.3: 対象を指定できないアクションは起こせません"
                              f"(「{action.name}」の対象: {action.target})", _where(state))
    if len(req.targets) != spec.count or any(t not in legal for t in req.targets):
        raise IllegalDecision(f"2.10.3: 対象は「{action.target}」を満たす必要があります"
                              "(アクションは自分自身を対象にできません)", _where(state))


def regulation_name(state: GameState) -> str:
    """3.2.1 notation 「フォーマット + フレーム」."""
    name = state.rules.format(state.format).name
    return f"{name} + {state.rules.frame(state.frame).name}" if state.frame else name


def key_character_of(state: GameState, action_id: str, chosen: Sequence[int]) -> int | None:
    """The key soldier of a request from the characters a player chose as its key cards (the tutorial lets a
    learner choose any): none or the first, which :func:`check_request` then checks; several for an action whose
    key card is a soldier are refused here (a request has one key soldier)."""
    if len(chosen) > 1 and action_id in _plans(state).ids:
        action = lookup.action(state.rules, action_id)
        if key_zone(action) == "field":
            raise IllegalDecision(f"2.10.1: 「{action.name}」のキーカードは「{action.key_card}」です(場の兵士は1体だけ選びます)",
                                  _where(state))
    return chosen[0] if chosen else None


def _check_keys(state: GameState, player: int, action: Action, req: RequestAction) -> None:
    zone = key_zone(action)
    if zone == "field":  # 兵士起因: the key card is a soldier on your field, driven as cost K
        if req.keys:
            raise IllegalDecision(f"2.10.1: 「{action.name}」のキーカードは場の兵士です(手札や切札のカードではありません)",
                                  _where(state))
        if req.key_character not in key_soldiers(state, player, action):
            raise IllegalDecision(f"2.10.1: キーカードは「{action.key_card}」(チャージ状態、コスト K でドライブ)"
                                  "を満たす自分の兵士です", _where(state))
        return
    if req.key_character is not None:
        where = "自分のレアカード" if zone == "rare" else "手札"
        raise IllegalDecision(f"2.10.1: 「{action.name}」のキーカードは{where}から選びます(場のキャラクターではありません)",
                              _where(state))
    if zone == "rare":  # ruling rare-card-key
        if len(req.keys) != 1 or req.keys[0] not in state.players[player].rare:
            ruling = state.rules.ruling("rare-card-key").title
            raise IllegalDecision(f"2.10.1: 「{action.name}」のキーカードは自分のレアカード1枚です(裁定「{ruling}」)",
                                  _where(state))
        return
    hand = list(state.players[player].hand)
    for c in req.keys:
        if c not in hand:
            raise IllegalDecision(f"2.10.3: キーカード {c} は手札にありません", _where(state))
        hand.remove(c)
    if action.id in HAND_CARD_ACTIONS:
        if len(req.keys) != 1:
            raise IllegalDecision(f"2.10.1: 「{action.name}」: キーカードとして手札からカード1枚を選びます", _where(state))
    elif action.key is not None and not action.key.accepts(req.keys):
        raise IllegalDecision(f"2.10.1: キーカードが条件「{action.key_card}」に合いません", _where(state))
    elif action.key is None and req.keys:
        raise IllegalDecision(f"2.10.1: 「{action.name}」にキーカードはありません", _where(state))


@dataclass(frozen=True)
class _Plan:
    """What :func:`request_groups` needs of one requestable action, read from the model once per regulation
    (the model does not change during a game; reading it again at every decision was most of the engine's time)."""

    action: Action
    main: bool  # タイミング メイン: needs the turn and an empty stage
    activation: Callable[[GameState, int], bool] | None  # 起動条件, compiled; None: none
    zone: str  # key_zone(action)
    key: KeyCondition | None  # a hand key condition (None for rare, field and keyless actions, and 防壁設置)
    key_mask: int  # Card.bit of every card some part of ``key`` allows: a hand without enough of them has no key
    key_count: int  # key.card_count
    bulwarks: int  # cost B, L, D, S counts
    life: int
    discards: int
    sacrifices: int
    quick_magic: bool  # a 速攻魔法, whose cost D 魔術士 waives (abilities.discard_waivable)
    keyed_targets: bool  # the targets depend on the key cards (same suit as the key)
    key_sets: dict[int, tuple[tuple[Card, ...], ...]] = field(default_factory=dict, compare=False)  # by pool mask


def _compile_activation(action: Action) -> Callable[[GameState, int], bool] | None:
    cond = action.activation_condition
    if not cond:
        return None
    action_id = action.id
    if cond in ACTIVATION:
        check = ACTIVATION[cond]
        return lambda s, p: check(s, p, action_id)
    m = TRUMP_CONDITION.match(cond)
    if m is None:
        return lambda s, p: False
    name = m["name"]
    return lambda s, p: name in face_up_trump_names(s, p)


def _plan(action: Action) -> _Plan:
    zone = key_zone(action)
    key = action.key if zone == "hand" and action.id not in HAND_CARD_ACTIONS else None
    mask = 0
    if key is not None:
        for card in full_deck(2):  # every card a deck may hold (2.3: 52 cards and at most two Jokers)
            if any(part.allows(card) for part in key.parts):
                mask |= card.bit
    nb, nl, nd, ns = (action.cost.count(x) for x in "BLDS")
    spec = action.target_spec
    return _Plan(action, action.timing.value == "main", _compile_activation(action), zone, key, mask,
                 key.card_count if key is not None else 0, nb, nl, nd, ns, discard_waivable(action),
                 spec is not None and spec.same_suit_as_key)


_KEY_SETS_KEPT: Final = 4096  # memoised hands per table; hands repeat across decisions and games, but not without bound


@dataclass(frozen=True)
class _Plans:
    actions: tuple[Action, ...]  # the regulation's actions (3.2), triggered ones included, in list order
    every: tuple[_Plan, ...]  # the regulation's requestable (not triggered) actions in list order
    quick: tuple[_Plan, ...]  # the same without the main-timing ones (a player without the turn or with a
    # request on the stage has only these; most decisions are such)
    ids: frozenset[str]  # the ids of every available action, triggered ones included (3.2)
    # (main timing possible, hand as Card.bit sum) → the plans whose key cards that hand can hold: a hand stays
    # the same for many decisions, so most actions are ruled out by one dictionary look-up
    by_hand: dict[tuple[bool, int], tuple[_Plan, ...]] = field(default_factory=dict, compare=False)

    def for_hand(self, main: bool, hand_mask: int) -> tuple[_Plan, ...]:
        hit = self.by_hand.get((main, hand_mask))
        if hit is None:
            hit = tuple(plan for plan in (self.every if main else self.quick)
                        if not plan.key_mask or (hand_mask & plan.key_mask).bit_count() >= plan.key_count)
            if len(self.by_hand) >= _KEY_SETS_KEPT:
                self.by_hand.clear()
            self.by_hand[main, hand_mask] = hit
        return hit


def _plans(state: GameState) -> _Plans:
    """The regulation's actions, compiled once per regulation and kept with the ruleset: a game asks at every
    decision."""
    regulations = lookup.derived(state.rules, _regulation_table)
    hit = regulations.get((state.format, state.frame))
    if hit is None:
        frame = state.rules.frame(state.frame).actions if state.frame else ()
        actions = tuple(a for a in state.rules.actions if state.format in a.formats or a.id in frame)
        # an action whose 対象 or summoned character the simulator cannot read (an edition with simulated: false)
        # is never requested
        plans = tuple(_plan(a) for a in actions
                      if a.trigger is not Trigger.TRIGGERED and requestable(state.rules, a))
        hit = regulations[state.format, state.frame] = _Plans(actions, plans, tuple(p for p in plans if not p.main),
                                                              frozenset(a.id for a in actions))
    return hit


def _regulation_table(rules: Rules) -> dict[tuple[str, str | None], _Plans]:
    return {}


def is_available(state: GameState, action_id: str) -> bool:
    """Whether the regulation has this action (3.2), without comparing whole Action records."""
    return action_id in _plans(state).ids




def _hand_keys(plan: _Plan, hand: tuple[Card, ...], hand_mask: int) -> tuple[tuple[Card, ...], ...]:
    """key_choices for a hand key condition, from the cards it allows only (the same sets in the same order)."""
    assert plan.key is not None
    mask = hand_mask & plan.key_mask
    if mask.bit_count() < plan.key_count:
        return ()
    hit = plan.key_sets.get(mask)
    if hit is None:
        hit = tuple(plan.key.choices(c for c in hand if c.bit & mask))
        if len(plan.key_sets) >= _KEY_SETS_KEPT:
            plan.key_sets.clear()
        plan.key_sets[mask] = hit
    return hit


class PaymentChoices:
    """The payments of one request, in the order ``for bulwarks: for discards: for sacrifices``, made only when
    asked for: a player picks one request of many. Even the discard
    choices are listed only then (their number is a binomial coefficient)."""

    __slots__ = ("bulwarks", "discard_count", "discard_choices", "discards", "hand", "keys", "life", "sacrifices",
                 "size")

    def __init__(self, bulwarks: tuple[tuple[int, ...], ...], life: int, hand: tuple[Card, ...],
                 keys: tuple[Card, ...], discards: int, sacrifices: tuple[tuple[int, ...], ...]) -> None:
        self.bulwarks, self.life, self.sacrifices = bulwarks, life, sacrifices
        self.hand, self.keys, self.discards = hand, keys, discards
        # the hand's cards are distinct, so the key cards in it leave len(hand) - (keys in hand) to discard from
        self.discard_count = comb(len(hand) - sum(1 for k in keys if k in hand), discards) if discards else 1
        self.discard_choices: tuple[tuple[Card, ...], ...] | None = None if discards else _NO_DISCARD
        self.size = len(bulwarks) * self.discard_count * len(sacrifices)

    def __len__(self) -> int:
        return self.size

    def payment(self, index: int) -> Payment:
        """The payment at ``index``, making the discard choices only on first use (there may be many)."""
        b, rest = divmod(index, self.discard_count * len(self.sacrifices))
        d, s = divmod(rest, len(self.sacrifices))
        choices = self.discard_choices
        if choices is None:
            choices = self.discard_choices = _discards(self.hand, self.keys, self.discards)
        return Payment(self.bulwarks[b], self.life, choices[d], self.sacrifices[s])


class RequestGroup:
    """Legal requests that share an action, key cards and key soldier: one per payment and target, in the order
    ``for payment: for target``. Self-play picks one request of all; making only that one is cheaper than
    making every request at every decision. (A plain class with slots, not a frozen dataclass: one is made per
    action a player may request, at every decision.)"""

    __slots__ = ("action_id", "key_character", "keys", "payments", "size", "targets")

    def __init__(self, action_id: str, keys: tuple[Card, ...], key_character: int | None, payments: PaymentChoices,
                 targets: list[tuple[Target, ...]]) -> None:
        self.action_id, self.keys, self.key_character = action_id, keys, key_character
        self.payments, self.targets = payments, targets
        self.size = len(payments) * len(targets)

    def __len__(self) -> int:
        return self.size

    def request(self, index: int) -> RequestAction:
        """The request at ``index`` alone: self-play picks one, so the others are never made."""
        pay, target = divmod(index, len(self.targets))
        return RequestAction(self.action_id, self.keys, self.payments.payment(pay), self.targets[target],
                             self.key_character)

    def requests(self) -> list[RequestAction]:
        """Every request of the group, for callers that list them all."""
        return [self.request(i) for i in range(self.size)]


def request_groups(state: GameState, player: int) -> list[RequestGroup]:
    """Every legal request of ``player`` now, grouped by action, key cards and key soldier (none of them made yet).

    The same requests in the same order as checking every action with :func:`timing_ok`, :func:`activation_ok`,
    :func:`key_choices`, every way to pay the cost and :func:`target_candidates` (``tests/test_sim_request_oracle.py``
    compares the two), but each test is done once per action
    (not per key set) and the cheap ones first, so an action that cannot be requested costs a few comparisons."""
    groups: list[RequestGroup] = []
    if state.chance != player:
        return groups
    main = state.turn_player == player and not state.stage
    p = state.players[player]
    hand = p.hand
    hand_mask = _hand_mask(hand)
    life = len(p.life)
    magician: bool | None = None
    for plan in _plans(state).for_hand(main, hand_mask):
        if plan.life > life:
            continue
        if plan.activation is not None and not plan.activation(state, player):
            continue
        action = plan.action
        bulwarks: tuple[tuple[int, ...], ...] = ((),)
        if plan.bulwarks:
            bulwarks = tuple(combinations(sorted(ch.uid for ch in p.field if ch.kind == "bulwark" and not ch.driven),
                                          plan.bulwarks))
            if not bulwarks:
                continue
        sacrifices: tuple[tuple[int, ...], ...] = ((),)
        if plan.sacrifices:
            sacrifices = tuple(combinations(sorted(ch.uid for ch in p.field), plan.sacrifices))
            if not sacrifices:
                continue
        discards = plan.discards
        if discards and plan.quick_magic:
            if magician is None:
                magician = magician_waives_discard(state, player)
            if magician:
                discards = 0
        if discards > len(hand):
            continue
        if plan.zone == "field":
            key_chars: list[int | None] = [*key_soldiers(state, player, action)]
            key_sets: Sequence[tuple[Card, ...]] = ((),)
        else:
            key_chars = [None]
            key_sets = _hand_keys(plan, hand, hand_mask) if plan.key else key_choices(state, player, action)
        if not key_chars or not key_sets:
            continue
        targets: list[tuple[Target, ...]] = [()]
        if action.target_spec is not None and not plan.keyed_targets:
            targets = [(t,) for t in target_candidates(state, player, action, ())]
            if not targets:
                continue
        for key_character in key_chars:
            for keys in key_sets:
                pays = PaymentChoices(bulwarks, plan.life, hand, keys, discards, sacrifices)
                if not pays:
                    continue
                if plan.keyed_targets:
                    targets = [(t,) for t in target_candidates(state, player, action, keys)]
                if targets:
                    groups.append(RequestGroup(action.id, keys, key_character, pays, targets))
    return groups


def _hand_mask(hand: tuple[Card, ...]) -> int:
    """The hand as a ``Card.bit`` sum (a few cards: cheaper to add again than to look up)."""
    mask = 0
    for c in hand:
        mask |= c.bit
    return mask


def _discards(hand: tuple[Card, ...], keys: tuple[Card, ...], discards: int) -> tuple[tuple[Card, ...], ...]:
    """The choices of ``discards`` cards of the hand without the key cards, in card order."""
    rest = list(hand)
    for k in keys:
        if k in rest:  # a rare card key is not in the hand
            rest.remove(k)
    return tuple(combinations(sort_cards(rest), discards))


_NO_DISCARD: Final[tuple[tuple[Card, ...], ...]] = ((),)


def target_valid(state: GameState, req: Request, target: Target) -> str | None:
    """2.10.4 対象条件を確認: None when the target is still there, else why the effect is not applied."""
    if target.kind == "character":
        if target.ref in state.split:
            return "対象が分裂した"
        if state.find(target.ref) is None:
            return "対象が存在しない"
    elif (target.kind == "request" and state.request_on_stage(target.ref) is None
          or target.kind == "trump" and state.find_trump(target.ref) is None):
        return "対象が存在しない"
    return None
