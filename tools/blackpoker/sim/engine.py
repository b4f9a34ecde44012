"""The core flow of 6.4 ([1]-[16]) with the trigger check of 6.4.1, in the spirit of OpenSpiel's State API.

``legal_decisions(state)`` lists what the player to act may do (``legal_options(state)``: the same, made only
as read); ``apply(state, decision)`` returns the next state (the given state is never changed). Interpretations,
each with the text it rests on:

* 6.4 [16] 「チャンスを持っているプレイヤーからチャンスを持っていないプレイヤーにチャンスを移動します」: after a pass
  that does not end the round, the chance goes to the other player. After the rule system resolves the last request
  ([13]-[15]), 図 6.6 goes on through [9] and [6] back to [2]: the turn player gets the chance and the pass record
  starts again (ruling chance-after-resolution; [16] is only reached when not everyone has passed).
* [14] with an empty stage: back to [2], the turn player gets the chance with a fresh pass record.
* 6.4.1 [6-8]/[6-9] read 「通常」 for 「即時」 (ruling trigger-check-typos). Within one player and timing the
  buffer is taken in the order requests were triggered ([6-5-2] lets the player choose; the format's triggered
  actions of one kind are identical, so the order cannot matter).
* 罠カウンター (ruling trap-counter-trigger) targets a request on the stage, so it is detected when a request is
  added to the stage ([10]), and a second trigger check runs then; it lands above its target.
* 誘発条件 「ターンプレイヤーかつ、…」: the triggered request's controller is the turn player when it triggers
  (after エンド the new turn player charges and draws). 世代交代's controller is the owner of the field it left.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final, overload

from blackpoker.core.model import Rules, Speed
from blackpoker.sim import (
    frame_effects,  # noqa: F401  (registers the frame actions' effects)
    lookup,
)
from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
from blackpoker.sim.effects import EFFECTS, FOLLOWS, Ctx, simulates
from blackpoker.sim.game_errors import GameOver, IllegalDecision, NeedChoice
from blackpoker.sim.ops import damage, queue_trigger, to_graveyard
from blackpoker.sim.requests import (
    RequestGroup,
    check_request,
    is_available,
    key_zone,
    request_groups,
    target_candidates,
    target_valid,
)
from blackpoker.sim.state import GameState, Pending, Request, Target, player_name
from blackpoker.sim.text import card_list, char_text


# --- queries ---------------------------------------------------------------------------------------
def current_player(state: GameState) -> int | None:
    """Who decides now: the player asked by an effect, else the chance holder; None when the game is over."""
    if state.winner is not None:
        return None
    if state.pending is not None:
        return state.pending.player
    return state.chance


def is_terminal(state: GameState) -> bool:
    """Whether someone has won: the game loops and replays stop here (there are no draws)."""
    return state.winner is not None


def legal_decisions(state: GameState) -> list[Decision]:
    """:func:`legal_options` as a list: every decision the player to act may take (an effect's options, or passing
    and every legal request), all made."""
    options = legal_options(state)
    return options.all() if isinstance(options, Options) else list(options)


def legal_options(state: GameState) -> Sequence[Decision]:
    """:func:`legal_decisions` as a sequence that makes a request only when it is read (same length and order):
    a player picking one option of many need not pay for making all of them."""
    if state.winner is not None:
        return []
    if state.pending is not None:
        return [Choose(o) for o in state.pending.options]
    assert state.chance is not None
    # an action the simulator has no effect for (an edition with ``simulated: false``) is never offered
    return Options([g for g in request_groups(state, state.chance) if simulates(g.action_id, state.rules)])


class Options(Sequence[Decision]):
    """Passing, then the requests of each group in turn."""

    def __init__(self, groups: list[RequestGroup]) -> None:
        self._groups = groups
        self._sizes = [len(g) for g in groups]
        self._len = 1 + sum(self._sizes)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Decision]:
        return iter(self.all())

    def all(self) -> list[Decision]:
        """Every decision made out, in order: what :func:`legal_decisions` returns, for callers that want a list."""
        out: list[Decision] = [PASS]
        for group in self._groups:
            out += group.requests()
        return out

    @overload
    def __getitem__(self, index: int) -> Decision: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Decision]: ...

    def __getitem__(self, index: int | slice) -> Decision | Sequence[Decision]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(index)
        if index == 0:
            return PASS
        index -= 1
        for group, size in zip(self._groups, self._sizes, strict=True):
            if index < size:
                return group.request(index)
            index -= size
        raise AssertionError("unreachable: the groups hold _len - 1 requests")


PASS: Final = Pass()  # decisions are immutable values: one Pass serves every list



# --- applying decisions ------------------------------------------------------------------------------
def apply(state: GameState, decision: Decision, *, validate: bool = True) -> GameState:
    """The state after ``decision``; raises :class:`IllegalDecision` (naming the rule) when it is not allowed.

    ``validate=False`` skips the rule check of a request (2.10.1-2.10.3: action, timing, key cards, cost, targets)
    for a caller that took the decision from :func:`legal_options` of this very state, where every request passed
    those checks already (``tests/test_sim_engine.py`` checks that the listing and the check agree); self-play
    applies hundreds of thousands of such decisions."""
    if state.winner is not None:
        raise GameOver(f"ゲームは終了しています(勝者: {player_name(state.winner)})")
    s = state.clone()
    if s.pending is not None:
        if not isinstance(decision, Choose):
            raise IllegalDecision(f"効果の解決中です: {s.pending.prompt} を選んでください",
                                  f"選ぶプレイヤー: {player_name(s.pending.player)}")
        _answer(s, decision.option)
    elif isinstance(decision, Choose):
        raise IllegalDecision("選択を求めている効果はありません")
    elif isinstance(decision, Pass):
        _pass(s)
    else:
        _request(s, decision, validate)
    return s


def _request(s: GameState, decision: RequestAction, validate: bool = True) -> None:
    player = s.chance
    assert player is not None
    if validate:
        check_request(s, player, decision)
    if not simulates(decision.action_id, s.rules):  # legal, but its effect is unknown (an edition with simulated: false)
        raise IllegalDecision(f"「{s.rules.action(decision.action_id).name}」はシミュレーターが扱わないアクションです")
    action = lookup.action(s.rules, decision.action_id)
    s.passes = ()  # [4]
    p = s.players[player]
    pay = decision.payment  # [5] pay the cost in full, then put the key cards down
    for uid in pay.bulwarks:
        s.replace(s.character(uid).with_driven(True))
    zone = key_zone(action)
    hand = list(p.hand)
    for c in (decision.keys if zone == "hand" else ()) + pay.discards:
        hand.remove(c)
    p.hand = tuple(hand)
    p.graveyard += pay.discards
    if zone == "rare":  # the rare card goes onto the stage, fully public (特記事項)
        p.rare = tuple(c for c in p.rare if c not in decision.keys)
    if decision.key_character is not None:  # cost K: drive the key soldier
        s.replace(s.character(decision.key_character).with_driven(True))
    req = Request(s.uid(), action.id, player, decision.keys, pay, decision.targets,
                  key_character=decision.key_character)
    if s.recording:
        s.log(f"{player_name(player)}: 「{action.name}」をリクエスト" + request_detail(s, req))
    if pay.life:
        damage(s, player, pay.life)
    for uid in pay.sacrifices:
        to_graveyard(s, uid)
    if action.activation_condition:
        s.used = s.used | {(player, action.id)}
    s.after = ("keep", player)
    if not _run_triggers(s):  # [6]
        return
    if action.speed is Speed.INSTANT:  # [7] → [8] [9]
        if _resolve(s, req, "direct"):
            _after_resolution(s, "direct")
    else:  # [10]
        s.stage += (req,)
        if _queue_traps(s, req) and _run_triggers(s):
            _finish(s)


def _queue_traps(s: GameState, req: Request) -> bool:
    """Ruling trap-counter-trigger: an opponent's request with 1 or 2 key cards, one of them equal in suit and
    number to your rare card, triggers 罠カウンター with the rare card as its key, targeting that request. By
    ruling trap-counter-immune, a request that counters cannot target does not trigger it."""
    trap_id = "trap-counter"
    if not is_available(s, trap_id):
        return False
    owner = s.other(req.controller)
    p = s.players[owner]
    rare = next((r for r in p.rare if any((k.suit, k.rank) == (r.suit, r.rank) for k in req.keys)), None)
    # its target (a request with 1 or 2 key cards, not one counters cannot target) as the model defines it
    if rare is None or Target("request", req.uid) not in target_candidates(s, owner, s.rules.action(trap_id), (rare,)):
        return False
    p.rare = tuple(c for c in p.rare if c != rare)
    s.buffer += (Request(s.uid(), trap_id, owner, (rare,), targets=(Target("request", req.uid),), triggered=True),)
    s.log(f"{player_name(owner)} のレアカード {rare} が「{s.rules.action(req.action_id).name}」のキーカードと同じ"
          "ため「罠カウンター」が誘発(レアカードをステージに置き公開)")
    return True


def request_detail(s: GameState, req: Request | RequestAction) -> str:
    """A request's key cards, cost payment and targets as the play-by-play writes them (`` ★♠7 / $L / 対象 …``);
    the play page labels an offered request with it too."""
    parts = []
    if req.keys:
        parts.append(f"★{card_list(req.keys)}")
    if req.key_character is not None and (key := s.find(req.key_character)) is not None:
        parts.append(f"★{char_text(key)}")
    pay = req.payment
    cost = [f"B:{char_text(b)}" for u in pay.bulwarks if (b := s.find(u)) is not None]
    cost += ["L"] * pay.life + [f"D:{c}" for c in pay.discards]
    cost += [f"S:{char_text(ch)}" for u in pay.sacrifices if (ch := s.find(u)) is not None]
    if req.key_character is not None:
        cost.append("K")
    if cost:
        parts.append("$" + " ".join(cost))
    for t in req.targets:
        parts.append("対象 " + target_text(s, t.kind, t.ref))
    return (" " + " / ".join(parts)) if parts else ""


def target_text(s: GameState, kind: str, ref: int) -> str:
    """A target as the Japanese play-by-play names it."""
    if kind == "player":
        return player_name(ref)
    if kind == "request":
        r = s.request_on_stage(ref)
        return f"「{s.rules.action(r.action_id).name}」" if r else "(リクエスト)"
    if kind == "trump":
        t = s.find_trump(ref)
        if t is None:
            return "(切札)"
        return f"{player_name(s.trump_owner(ref))}の切札[{t.card if t.face_up else '裏切札'}]"
    ch = s.find(ref)
    return char_text(ch) if ch else "(キャラクター)"


def _pass(s: GameState) -> None:
    player = s.chance
    assert player is not None
    if s.recording:
        s.log(f"{player_name(player)}: パス")
    if player not in s.passes:  # [11]
        s.passes += (player,)
    if len(s.passes) < len(s.players):  # [12] → [16]
        s.chance = s.other(player)
        return
    s.chance = None  # [13]
    if not s.stage:  # [14] no → [2]
        s.chance, s.passes = s.turn_player, ()
        return
    s.after = ("next", s.turn_player)  # [15] → [9] → [6] → [2]: the turn player, with a fresh pass record
    if _resolve(s, s.stage[-1], "stage"):  # [15]
        _after_resolution(s, "stage")


def _answer(s: GameState, option: object) -> None:
    pending = s.pending
    assert pending is not None
    if option not in pending.options:
        raise IllegalDecision(f"「{pending.prompt}」の選択肢にありません: {option}",
                              "選択肢: " + ", ".join(map(str, pending.options)))
    base = pending.snapshot.clone()
    s.take(base)
    if _resolve(s, pending.request, pending.where, pending.choices + (option,)):
        _after_resolution(s, pending.where)


def _after_resolution(s: GameState, where: str) -> None:
    if _win_check(s) or where == "trigger":
        if where == "trigger" and s.winner is None and _run_triggers(s):
            _finish(s)
        return
    if _run_triggers(s):
        _finish(s)


def _finish(s: GameState) -> None:
    if s.winner is not None:
        return
    how, player = s.after
    s.chance = player
    if how == "next":
        s.passes = ()


def _resolve(s: GameState, req: Request, where: str, choices: tuple[object, ...] = ()) -> bool:
    """[8]/[15] 2.10.4: check targets, apply the effect as far as possible, remove the request, key cards to the
    graveyard. False when the effect asks a question first (the state then waits in ``pending``)."""
    work = s.clone()
    ctx = Ctx(work, req, choices)
    action = lookup.action(s.rules, req.action_id)
    failure = next((f for f in (target_valid(work, req, t) for t in req.targets) if f), None) if req.targets else None
    try:
        if failure is None:
            if work.recording:
                work.log(f"解決: 「{action.name}」({player_name(req.controller)})")
            EFFECTS[req.action_id](ctx)
        elif work.recording:
            work.log(f"解決: 「{action.name}」({player_name(req.controller)}) — {failure}ため効果を発揮しない")
    except NeedChoice as need:
        snapshot = s.clone()
        snapshot.pending = None
        s.pending = Pending(snapshot, req, where, choices, need.player, need.prompt, need.options)
        return False
    work.stage = tuple(r for r in work.stage if r.uid != req.uid)
    if ctx.keys_left:
        work.players[req.controller].graveyard += tuple(ctx.keys_left)
    work.resolved += (f"{action.name}({player_name(req.controller)})" + (f" {failure}" if failure else ""),)
    if failure is None:
        follow = FOLLOWS.get(req.action_id)
        if follow and (req.action_id != "attack" or work.attack):
            queue_trigger(work, follow, work.turn_player)
    work.pending = None
    s.take(work)
    return True


def _win_check(s: GameState) -> bool:
    """2.10.5: the turn player is checked first; both at 0 → the turn player loses. No draws."""
    for p in s.order():
        if not s.players[p].life:
            s.winner = s.other(p)
            if s.recording:
                s.log(f"勝敗判定: {player_name(p)} のライフが0枚 — {player_name(s.winner)} の勝ち")
            return True
    return False


def _kinds_of(rules: Rules) -> dict[str, tuple[str, str]]:
    return {a.id: (a.speed.value, a.timing.value) for a in rules.actions}


def _trigger_kinds(rules: Rules) -> dict[str, tuple[str, str]]:
    """Every action's (speed, timing), by id, made once per ruleset: the trigger check looks them up for every
    buffered request in each of its eight passes."""
    return lookup.derived(rules, _kinds_of)


def _over(s: GameState) -> bool:
    """Whether the game has ended. A call, not ``s.winner is None`` in the loop condition: the type checker
    narrows that attribute to None for the whole loop although resolutions inside set it, and the compiled
    simulator trusts the narrowing."""
    return s.winner is not None


def _run_triggers(s: GameState) -> bool:
    """6.4.1: empty the buffer; False when a triggered effect waits for a decision."""
    kinds = _trigger_kinds(s.rules)
    while s.buffer and not _over(s):
        for speed in ("instant", "normal"):  # [6-3] … [6-7], then [6-8] … [6-12]
            for player in s.order():
                for timing in ("main", "quick"):
                    kind = (speed, timing)
                    while not _over(s):
                        req = next((r for r in s.buffer if r.controller == player and kinds[r.action_id] == kind),
                                   None)
                        if req is None:
                            break
                        s.buffer = tuple(r for r in s.buffer if r.uid != req.uid)
                        name = lookup.action(s.rules, req.action_id).name
                        if speed == "instant":
                            if s.recording:
                                s.log(f"誘発: 「{name}」({player_name(player)})")
                            if not _resolve(s, req, "trigger"):
                                return False
                            _win_check(s)
                        elif timing == "main" and s.stage:  # [6-10-6]
                            s.resolved += (f"{name}({player_name(player)}) 破棄",)
                            s.players[req.controller].graveyard += req.keys
                            if s.recording:
                                s.log(f"誘発: 「{name}」— ステージが空でないため破棄")
                        else:
                            if s.recording:
                                s.log(f"誘発: 「{name}」({player_name(player)})をステージに追加")
                            s.stage += (req,)
    return True
