"""The effect of every format action (4.3.1), registered by action id with ``@effect("up")``.

Everything else about an action (trigger, speed, timing, key card, cost, target) is read from the loaded model;
only what its effect does is code. An effect that needs a decision calls ``ctx.choose``; the engine re-runs the
effect from a snapshot with the answers so far, so effects stay plain functions with no suspended state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Final, TypeVar

from blackpoker.core.cards import Card
from blackpoker.core.model import Rules
from blackpoker.sim import lookup, ops
from blackpoker.sim.abilities import all_labels, can_attack, modifiers, size, soldier_type
from blackpoker.sim.draw import shuffle
from blackpoker.sim.game_errors import IllegalDecision, NeedChoice
from blackpoker.sim.requests import target_candidates
from blackpoker.sim.state import AttackLine, Character, FogCard, GameState, Request, Target, player_name, sort_cards
from blackpoker.sim.text import card_list, char_text
from blackpoker.sim.wording import KNOWN, knows_wording

DONE: Final = "決定"

T = TypeVar("T")


class Ctx:
    """What an effect sees: the state it changes, its request, and the answers to its questions so far."""

    def __init__(self, state: GameState, request: Request, choices: tuple[object, ...]) -> None:
        self.state = state
        self.rules: Rules = state.rules
        self.request = request
        self.me = request.controller
        self.opp = 1 - request.controller
        self.keys_left = list(request.keys)
        self._choices = choices
        self._next = 0

    def choose(self, player: int, prompt: str, options: Iterable[T]) -> T | None:
        """The answer to a question (None when there is no option); one possible answer is taken without asking."""
        opts = tuple(options)
        if not opts:
            return None
        if len(opts) == 1:
            return opts[0]
        if self._next < len(self._choices):
            answer = self._choices[self._next]
            self._next += 1
            if answer not in opts:
                raise IllegalDecision(f"{self.rules.action(self.request.action_id).name}: 選択肢にない選択です")
            return answer
        raise NeedChoice(player, prompt, opts)

    def take_keys(self, cards: Iterable[Card]) -> None:
        """The effect moved these key cards itself (field, hand, fog): they do not go to the graveyard (2.10.4)."""
        for c in cards:
            self.keys_left.remove(c)

    def target(self) -> Target:
        """The request's first target: every effect of v8.1 takes at most one."""
        return self.request.targets[0]

    def target_char(self) -> Character:
        """The targeted character; the engine checked before resolving that it is still there (2.10.4)."""
        ch = self.state.find(self.target().ref)
        assert ch is not None
        return ch

    def key_of_suit(self, suit: str) -> Card:
        """The key card of a suit, for effects that act on the key's suit (same-suit targets)."""
        return next(c for c in self.request.keys if c.suit == suit)

    def log(self, line: str) -> None:
        """A play-by-play line, indented under the resolution it belongs to."""
        self.state.log("　" + line)


Effect = Callable[[Ctx], None]
EFFECTS: Final[dict[str, Effect]] = {}


def effect(action_id: str) -> Callable[[Effect], Effect]:
    """Register the effect of an action by its id: ``check`` reports every action of the definitions that has none."""
    def register(fn: Effect) -> Effect:
        if action_id in EFFECTS:
            raise ValueError(f"two effects for action '{action_id}'")
        EFFECTS[action_id] = fn
        return fn
    return register


# Pattern-1 triggers (2.10.6): which triggered action follows the resolution of which action.
FOLLOWS: Final = {"end": "charge", "charge": "draw", "attack": "block", "block": "damage-judgement"}
# The triggered actions and how their condition is detected (checked against the model by gaps.coverage_gaps).
TRIGGERED = {"charge": "after end", "draw": "after charge", "block": "after attack with an attacker",
             "damage-judgement": "after block", "generation-change": "card leaves a field (ops.to_graveyard)",
             # no 誘発条件 in the rules; ruling trap-counter-trigger gives one (detected by engine._queue_traps)
             "trap-counter": "an opponent's request with a key card equal to your rare card lands on the stage"}


def simulates(action_id: str, rules: Rules | None = None) -> bool:
    """Whether the simulator has an effect for the action (the others are never offered as requests); with
    ``rules``, also whether it knows the edition's wording of it (sim/wording.py)."""
    return action_id in EFFECTS and (rules is None or action_id not in KNOWN or knows_wording(rules, action_id))


def summoned_type(rules: Rules, action_id: str, kind: str = "soldier") -> str:
    """The character an action puts on the field, from the character list's ``summoned_by``."""
    for ch in rules.characters:
        if action_id in ch.summoned_by and (ch.category == "兵士") == (kind == "soldier"):
            return ch.id
    raise KeyError(action_id)


# ------------------------------------------------------------------------------------------------ 基本
@effect("end")
def _end(ctx: Ctx) -> None:
    s, p = ctx.state, ctx.state.players[ctx.me]
    while len(p.hand) > 7:  # 1. hand limit 7
        card = ctx.choose(ctx.me, "捨てるカード(手札は7枚まで)", sort_cards(p.hand))
        assert card is not None  # the hand has more than 7 cards
        ops.discard(s, ctx.me, (card,))
    fog_cards = tuple(c for f in p.fog for c in f.cards)  # 2. own fog to the graveyard
    p.fog, p.graveyard = (), p.graveyard + fog_cards
    if fog_cards and ctx.state.recording:
        ctx.log(f"フォグの {card_list(fog_cards)} を墓地へ")
    s.turn_player, s.turn = ctx.opp, s.turn + 1  # 3. the turn passes
    s.used, s.attack = frozenset(), ()
    s.modifiers = tuple(m for m in s.modifiers if m.turn is None)  # 「このターンが終わるまで」 ends here
    if ctx.state.recording:
        ctx.log(f"ターンが {player_name(ctx.opp)} に移る(第{s.turn}ターン)")


@effect("charge")
def _charge(ctx: Ctx) -> None:
    s = ctx.state
    p = s.players[s.turn_player]
    # only the driven ones are rebuilt (a charged one is already as wanted)
    p.field = tuple(ch.with_driven(False) if ch.driven else ch for ch in p.field)
    if ctx.state.recording:
        ctx.log(f"{player_name(s.turn_player)} のキャラクターを全てチャージ")


@effect("draw")
def _draw(ctx: Ctx) -> None:
    s = ctx.state
    ops.draw(s, ctx.me)
    if s.players[ctx.me].life and ctx.choose(ctx.me, "もう1枚引くか", ("引く", "引かない")) == "引く":
        ops.draw(s, ctx.me)


def eligible_attackers(state: GameState, player: int) -> list[Character]:
    """The soldiers that may be declared attackers: charged, with <アタッカー>, allowed by modifiers, and not summoned
    this turn unless they have <速攻>."""
    out = []
    mods = modifiers(state)
    for ch in state.players[player].field:
        tags = all_labels(state, ch)
        if ch.kind != "soldier" or ch.driven or "アタッカー" not in tags or not can_attack(state, ch, mods):
            continue
        if ch.entered_turn == state.turn and "速攻" not in tags:
            continue  # このターン場に出たキャラクターは指定できない (<速攻> を除く)
        out.append(ch)
    return out


@effect("attack")
def _attack(ctx: Ctx) -> None:
    s, chosen = ctx.state, list[int]()
    eligible = [ch.uid for ch in eligible_attackers(s, ctx.me)]  # the state does not change while choosing
    while True:
        options: list[int | str] = [uid for uid in eligible if uid not in chosen]
        pick = ctx.choose(ctx.me, "アタッカーを指定(決定で終了)", [*options, DONE])
        if not isinstance(pick, int):  # 決定, or no attacker left
            break
        chosen.append(pick)
    for uid in chosen:
        s.replace(s.character(uid).with_driven(True))
    s.attack = tuple(AttackLine(uid) for uid in chosen)
    if s.recording:
        ctx.log("アタッカー: " + ("、".join(char_text(s.character(u)) for u in chosen) or "なし"))


@effect("block")
def _block(ctx: Ctx) -> None:
    s, defender = ctx.state, ctx.opp
    taken: list[int] = []
    lines = []
    # the state does not change while choosing: who may block is read once
    able = [(ch.uid, ch.kind) for ch in s.players[defender].field if not ch.driven and "ブロッカー" in all_labels(s, ch)]
    for line in s.attack:
        blockers: list[int] = []
        prompt = f"{char_text(s.character(line.attacker))} をブロックするキャラクター(決定で終了)"
        while True:
            options: list[int | str] = []
            for uid, kind in able:
                if uid in taken:
                    continue
                if kind == "bulwark" and blockers:
                    continue  # only soldiers may block one attacker together
                options.append(uid)
            if blockers and s.character(blockers[0]).kind == "bulwark":
                options = []
            pick = ctx.choose(defender, prompt, [*options, DONE])
            if not isinstance(pick, int):  # 決定 (never None: 決定 is always an option)
                break
            blockers.append(pick)
            taken.append(pick)
        lines.append(AttackLine(line.attacker, tuple(blockers)))
        if blockers and s.recording:
            ctx.log(f"{char_text(s.character(line.attacker))} を "
                    + "、".join(char_text(s.character(b)) for b in blockers) + " がブロック")
    s.attack = tuple(lines)


@effect("damage-judgement")
def _damage_judgement(ctx: Ctx) -> None:
    s = ctx.state
    for line in s.attack:
        attacker = s.find(line.attacker)
        if attacker is None:
            continue
        blockers = [b for b in (s.find(u) for u in line.blockers) if b is not None]
        if not blockers:  # 3. unblocked (or its blockers left the field): damage equal to its size
            ops.damage(s, ctx.opp, max(0, size(s, attacker)))  # ruling damage-judgement-numbers
        elif blockers[0].kind == "bulwark":  # 2. attacker against a bulwark
            bulwark = blockers[0]
            s.replace(replace(bulwark, face_up=True))
            card = bulwark.cards[0]
            if ctx.state.recording:
                ctx.log(f"防壁を表にする: {card}")
            # ruling damage-judgement-numbers: printed numbers, never the size
            if card.is_joker or card.number in {c.number for c in attacker.cards}:
                ops.to_graveyard(s, attacker.uid)
            ops.to_graveyard(s, bulwark.uid)
        else:  # 1. soldier against soldiers; ruling multiple-blockers: the blockers' total against the attacker
            mine, theirs = size(s, attacker), sum(size(s, b) for b in blockers)
            if ctx.state.recording:
                ctx.log(f"サイズ比較: アタッカー {mine} 対 ブロッカー {theirs}")
            if mine <= theirs:
                ops.to_graveyard(s, attacker.uid)
            if theirs <= mine:
                for b in blockers:
                    ops.to_graveyard(s, b.uid)
    s.attack = ()


@effect("generation-change")
def _generation_change(ctx: Ctx) -> None:
    p = ctx.state.players[ctx.me]
    moved: list[Card] = []
    while p.life:
        card, p.life = p.life[0], p.life[1:]
        if card.rank in (0, 1, 11, 12, 13):
            p.hand += (card,)
            if ctx.state.recording:
                ctx.log(f"世代交代: {card_list(moved)} を墓地へ、{card} を手札へ")
            p.graveyard += tuple(moved)
            return
        moved.append(card)
    p.graveyard += tuple(moved)
    if ctx.state.recording:
        ctx.log(f"世代交代: 該当カードなし、{card_list(moved)} を墓地へ")


# ------------------------------------------------------------------------------------------------ 召喚
@effect("bulwark-set")
def _bulwark_set(ctx: Ctx) -> None:
    ctx.take_keys(ctx.request.keys)
    ops.place(ctx.state, ctx.me, ctx.request.keys, "bulwark")


def _summon(ctx: Ctx) -> None:
    ctx.take_keys(ctx.request.keys)
    ops.place(ctx.state, ctx.me, ctx.request.keys, "soldier",
              type_id=summoned_type(ctx.rules, ctx.request.action_id))


for _id in ("soldier-summon", "hero-summon", "ace-summon", "magician-summon"):
    effect(_id)(_summon)


@effect("quick-summon")
def _quick_summon(ctx: Ctx) -> None:
    as_what = ctx.choose(ctx.me, "エースとして出すか防壁として出すか", ("エース", "防壁"))
    ctx.take_keys(ctx.request.keys)
    if as_what == "エース":
        ops.place(ctx.state, ctx.me, ctx.request.keys, "soldier", type_id=summoned_type(ctx.rules, "quick-summon"))
    else:
        ops.place(ctx.state, ctx.me, ctx.request.keys, "bulwark")


@effect("equip")
def _equip(ctx: Ctx) -> None:
    soldier = ctx.target_char()
    ctx.take_keys(ctx.request.keys)
    equipped = replace(soldier, cards=soldier.cards + ctx.request.keys, type_id=summoned_type(ctx.rules, "equip"))
    ctx.state.replace(equipped)
    if ctx.state.recording:
        ctx.log(f"{char_text(soldier)} に {card_list(ctx.request.keys)} を装備 → {char_text(equipped)}")


# ------------------------------------------------------------------------------------------------ 速攻魔法
def place_fog(ctx: Ctx, fog_id: str, cards: tuple[Card, ...], target: int | None) -> None:
    """A 滞留魔法's mark (2.11.4): its key cards go to the fog, in force until the end of this turn."""
    s = ctx.state
    ctx.take_keys(cards)
    fog = FogCard(fog_id, ctx.me, cards, sum(c.number for c in cards), s.turn, s.uid(), target)
    s.players[ctx.me].fog += (fog,)
    if ctx.state.recording:
        ctx.log(f"フォグに {card_list(cards)} を置く({ctx.rules.fog(fog_id).name})")


@effect("up")
def _up(ctx: Ctx) -> None:
    before = size(ctx.state, ctx.target_char())
    place_fog(ctx, "up", ctx.request.keys, ctx.target().ref)
    if ctx.state.recording:
        ctx.log(f"サイズ {before} → {size(ctx.state, ctx.target_char())}")


@effect("down")
def _down(ctx: Ctx) -> None:
    s, ch = ctx.state, ctx.target_char()
    after = size(s, ch) - ctx.request.keys[0].number
    if ctx.state.recording:
        ctx.log(f"サイズ {size(s, ch)} → {after}")
    if after <= 0:
        ops.to_graveyard(s, ch.uid)
    else:
        place_fog(ctx, "down", ctx.request.keys, ch.uid)


@effect("twist")
def _twist(ctx: Ctx) -> None:
    ch = ctx.target_char()
    how = ctx.choose(ctx.me, "ドライブ状態にするかチャージ状態にするか", ("ドライブ", "チャージ"))
    ctx.state.replace(ch.with_driven(how == "ドライブ"))
    if ctx.state.recording:
        ctx.log(f"{char_text(ch)} を{how}状態にする")


def negate(ctx: Ctx, uid: int) -> None:
    """Remove a request from the stage without resolving it; its key cards go to the graveyard."""
    s = ctx.state
    victim = s.request_on_stage(uid)
    assert victim is not None
    s.stage = tuple(r for r in s.stage if r.uid != uid)
    s.players[victim.controller].graveyard += victim.keys
    name = lookup.action(ctx.rules, victim.action_id).name
    s.resolved += (f"{name}({player_name(victim.controller)}) 無効",)
    if ctx.state.recording:
        ctx.log(f"「{name}」を無効にする(キーカード {card_list(victim.keys)} を墓地へ)")


@effect("counter")
def _counter(ctx: Ctx) -> None:
    victim = ctx.state.request_on_stage(ctx.target().ref)
    assert victim is not None
    mine = ctx.request.keys[0].number
    if len(victim.keys) == 2 or (len(victim.keys) == 1 and mine >= victim.keys[0].number):
        negate(ctx, victim.uid)
    else:
        if ctx.state.recording:
            ctx.log(f"キーカードの数字 {mine} < {victim.keys[0].number} のため無効にできない")


@effect("ceasefire")
def _ceasefire(ctx: Ctx) -> None:
    negate(ctx, ctx.target().ref)  # its target, a ダメージ判定 request, has no key cards (wording.py)


@effect("reunion")
def _reunion(ctx: Ctx) -> None:
    p = ctx.state.players[ctx.me]
    card = ctx.choose(ctx.me, "墓地から手札に加えるカード", sort_cards(p.graveyard))
    if card is not None:
        grave = list(p.graveyard)
        grave.remove(card)
        p.graveyard, p.hand = tuple(grave), p.hand + (card,)
        if ctx.state.recording:
            ctx.log(f"墓地の {card} を見せて手札に加える")


@effect("kill")
def _kill(ctx: Ctx) -> None:
    ops.to_graveyard(ctx.state, ctx.target().ref)


@effect("retarget")
def _retarget(ctx: Ctx) -> None:
    s = ctx.state
    victim = s.request_on_stage(ctx.target().ref)
    assert victim is not None
    action = lookup.action(ctx.rules, victim.action_id)
    options = [t for t in target_candidates(s, victim.controller, action, victim.keys, exclude_request=victim.uid)
               if t not in victim.targets]
    new = ctx.choose(ctx.me, f"「{action.name}」の新しい対象", [(t.kind, t.ref) for t in options])
    if new is None:
        ctx.log("変更できる対象がない")
        return
    changed = replace(victim, targets=(Target(*new),))
    s.stage = tuple(changed if r.uid == victim.uid else r for r in s.stage)
    if ctx.state.recording:
        ctx.log(f"「{action.name}」の対象を変更")


@effect("search")
def _search(ctx: Ctx) -> None:
    s, p = ctx.state, ctx.state.players[ctx.me]
    card = ctx.choose(ctx.me, "ライフから手札に加えるカード", sort_cards(p.life))
    if card is not None:
        life = list(p.life)
        life.remove(card)
        shuffle(s.rng(), life)
        p.life, p.hand = tuple(life), p.hand + (card,)
        if ctx.state.recording:
            ctx.log(f"ライフの {card} を見せて手札に加え、ライフを切りなおす")


def bj_points(card: Card, total: int) -> int:
    """B・J: A is 11, or 1 when 11 would make 22 or more (ruling blackjack-ace: never re-counted later);
    J, Q, K are 10, Joker 0, 2~10 as printed."""
    if card.rank == 1:
        return 1 if total + 11 >= 22 else 11
    if card.rank >= 11:
        return 10
    return card.rank


@effect("blackjack")
def _blackjack(ctx: Ctx) -> None:
    p = ctx.state.players[ctx.me]
    total, shown = 0, []
    while p.life:
        card, p.life = p.life[0], p.life[1:]
        shown.append(card)
        total += bj_points(card, total)
        if ctx.state.recording:
            ctx.log(f"めくる: {card}(合計 {total} 点)")
        if total >= 22:
            p.graveyard += tuple(shown)
            if ctx.state.recording:
                ctx.log(f"22点以上: 公開カード {card_list(shown)} を墓地へ")
            return
        options = ("ヒット", "スタンド") if p.life else ("スタンド",)
        if ctx.choose(ctx.me, f"合計 {total} 点: ヒットかスタンドか", options) == "スタンド":
            break
    p.hand += tuple(shown)
    if ctx.state.recording:
        ctx.log(f"スタンド: 公開カード {card_list(shown)} を手札へ")


@effect("royal-straight-flush")
def _rsf(ctx: Ctx) -> None:
    ops.damage(ctx.state, ctx.target().ref, 40)


@effect("reverse")
def _reverse(ctx: Ctx) -> None:
    s, ch = ctx.state, ctx.target_char()
    how = ctx.choose(ctx.me, "チャージ状態またはドライブ状態にするか", ("そのまま", "チャージ", "ドライブ"))
    driven = ch.driven if how == "そのまま" else how == "ドライブ"
    if ch.kind == "soldier":
        ops.remove_character(s, ch.uid)  # no graveyard: no 世代交代; attacker/blocker status goes with it
        if len(ch.cards) > 1:
            s.split = s.split | {ch.uid}
        ctx.log(f"{char_text(ch)} を防壁にする" + ("(分裂)" if len(ch.cards) > 1 else ""))
        for card in ch.cards:  # 2.8.3: one bulwark per card
            ops.place(s, ch.owner, (card,), "bulwark", driven=driven, entered_turn=ch.entered_turn)
    else:
        soldier = replace(ch, kind="soldier", type_id=soldier_type(ch.cards[0].rank), face_up=True, driven=driven)
        s.replace(soldier)
        s.attack = tuple(AttackLine(line.attacker, tuple(b for b in line.blockers if b != ch.uid)) for line in s.attack)
        if ctx.state.recording:
            ctx.log(f"{char_text(ch)} を兵士にする → {char_text(soldier)}")


@effect("return")
def _return(ctx: Ctx) -> None:
    ch = ctx.target_char()
    if not ch.driven:
        ops.to_hand(ctx.state, ch.uid)
    ctx.take_keys(ctx.request.keys)
    ctx.state.players[ctx.me].hand += ctx.request.keys
    if ctx.state.recording:
        ctx.log(f"キーカード {card_list(ctx.request.keys)} を手札に戻す")


# ------------------------------------------------------------------------------------------------ 通常魔法
@effect("bulwark-break")
def _bulwark_break(ctx: Ctx) -> None:
    ops.to_graveyard(ctx.state, ctx.target().ref)


@effect("throw")
def _throw(ctx: Ctx) -> None:
    ops.damage(ctx.state, ctx.target().ref, ctx.key_of_suit("S").number)


@effect("death-spear")
def _death_spear(ctx: Ctx) -> None:
    s, ch = ctx.state, ctx.target_char()
    n, d = size(s, ch), ctx.key_of_suit("D").number  # 第8.1版's 「数字」 is the size: ruling soldier-number-size
    if n == 0 or n % d:
        if ctx.state.recording:
            ctx.log(f"兵士のサイズ {n} は {d} で割り切れない(または0)ため効果なし")
        return
    ops.remove_character(s, ch.uid)
    rest = list(ch.cards)
    while rest:  # 1. onto the top of the owner's life, face down, in any order
        card = ctx.choose(ctx.me, "ライフの一番上に置くカード(先に置くほど下)", sort_cards(rest))
        assert card is not None  # rest is not empty
        rest.remove(card)
        s.players[ch.owner].life = (card, *s.players[ch.owner].life)
    if ctx.state.recording:
        ctx.log(f"{char_text(ch)} を {player_name(ch.owner)} のライフの一番上へ")
    ops.damage(s, ch.owner, ctx.key_of_suit("S").number)  # 2.


@effect("bulwark-refill")
def _bulwark_refill(ctx: Ctx) -> None:
    s, p = ctx.state, ctx.state.players[ctx.me]
    how = ctx.choose(ctx.me, "1枚をチャージ状態で出すか2枚をドライブ状態で出すか", ("1枚チャージ", "2枚ドライブ"))
    count = 1 if how == "1枚チャージ" else 2
    cards, p.life = p.life[:count], p.life[count:]
    for card in cards:
        ops.place(s, ctx.me, (card,), "bulwark", driven=(count == 2))


@effect("reanimate")
def _reanimate(ctx: Ctx) -> None:
    s, p = ctx.state, ctx.state.players[ctx.me]
    card = ctx.choose(ctx.me, "墓地から選ぶカード", sort_cards(p.graveyard))
    ops.to_graveyard(s, ctx.target().ref)
    if card is not None:
        grave = list(p.graveyard)
        grave.remove(card)
        p.graveyard = tuple(grave)
        ops.place(s, ctx.me, (card,), "soldier")


@effect("hand-destruction")
def _hand_destruction(ctx: Ctx) -> None:
    victim = ctx.target().ref
    card = ctx.choose(ctx.me, "対戦相手が捨てるカード", sort_cards(ctx.state.players[victim].hand))
    if card is not None:
        ops.discard(ctx.state, victim, (card,))


@effect("force")
def _force(ctx: Ctx) -> None:
    place_fog(ctx, "force", ctx.request.keys, None)


@effect("sword-rain")
def _sword_rain(ctx: Ctx) -> None:
    s, limit = ctx.state, sum(c.number for c in ctx.request.keys)
    doomed = [ch.uid for ch in s.characters() if ch.kind == "soldier" and size(s, ch) <= limit]
    for uid in doomed:
        ops.to_graveyard(s, uid)


@effect("conscription")
def _conscription(ctx: Ctx) -> None:
    s, p = ctx.state, ctx.state.players[ctx.me]
    limit = sum(c.number for c in ctx.request.keys)
    shown, p.life = p.life[:4], p.life[4:]
    if ctx.state.recording:
        ctx.log(f"ライフの上から {card_list(shown)} をめくる")
    rest = []
    for card in shown:
        if card.number <= limit:
            ops.place(s, ctx.me, (card,), "soldier", driven=True)
        else:
            rest.append(card)
    while rest:  # 2. to the bottom in any order
        picked = ctx.choose(ctx.me, "ライフの一番下に移すカード(先に移すほど上)", sort_cards(rest))
        assert picked is not None  # rest is not empty
        rest.remove(picked)
        p.life += (picked,)


@effect("ambush")
def _ambush(ctx: Ctx) -> None:
    p = ctx.state.players[ctx.me]
    changed = []
    for ch in p.field:
        if ch.kind == "bulwark":
            ch = replace(ch, kind="soldier", type_id=soldier_type(ch.cards[0].rank), face_up=True)
        changed.append(ch.with_driven(False) if ch.kind == "soldier" else ch)
    p.field = tuple(changed)
    if ctx.state.recording:
        ctx.log(f"{player_name(ctx.me)} の防壁を全て兵士にし、兵士を全てチャージ")
