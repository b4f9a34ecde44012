"""The effects of the frame actions (5.3.2): the pack, the rare card, the trumps and the 兵士起因 actions.

Registered in the same table as the format actions' effects; trigger, speed, timing, key card, cost and target
come from the model as for any action. The 兵士起因 actions follow ruling keydrive-double-drive: step 1's drive
was done by paying cost K, and 「ドライブできた場合」 holds when the key soldier is still on the field.
"""

from __future__ import annotations

from blackpoker.sim import ops
from blackpoker.sim.abilities import size
from blackpoker.sim.effects import Ctx, effect, negate, place_fog
from blackpoker.sim.state import Character, GameState, Modifier, TrumpCard, player_name, sort_cards
from blackpoker.sim.text import card_list, char_text


# ------------------------------------------------------------------------------------------------ パック
@effect("pack-open")
def _pack_open(ctx: Ctx) -> None:
    p = ctx.state.players[ctx.me]
    options = sort_cards(p.pack) + list(p.rare)  # 「レアカードがある場合、代わりにそれを…加えてもよい」
    card = ctx.choose(ctx.me, "パックから手札に加えるカード(レアカードも選べます)", options)
    if card is not None:
        if card in p.rare:
            p.rare = tuple(c for c in p.rare if c != card)
            if ctx.state.recording:
                ctx.log(f"パックの代わりにレアカード {card} を対戦相手に見せ手札に加える")
        else:
            p.pack = tuple(c for c in p.pack if c != card)
            if ctx.state.recording:
                ctx.log(f"パックの {card} を対戦相手に見せ手札に加える")
        p.hand += (card,)
    p.pack_opened = True
    if ctx.state.recording:
        ctx.log(f"パックを表向きにし、開封済みとする(残り {len(p.pack)} 枚)")


@effect("rare-draw")
def _rare_draw(ctx: Ctx) -> None:
    p = ctx.state.players[ctx.me]
    if not p.rare:
        ctx.log("レアカードがないため効果なし")
        return
    card, p.rare = p.rare[0], p.rare[1:]
    p.hand += (card,)
    ctx.log("レアカードを1枚手札に加える")


@effect("rare-summon")
def _rare_summon(ctx: Ctx) -> None:
    ctx.take_keys(ctx.request.keys)
    ops.place(ctx.state, ctx.me, ctx.request.keys, "soldier")  # face up and charged


@effect("trap-counter")
def _trap_counter(ctx: Ctx) -> None:
    victim = ctx.state.request_on_stage(ctx.target().ref)
    assert victim is not None
    mine = ctx.request.keys[0]
    if any((k.suit, k.rank) == (mine.suit, mine.rank) for k in victim.keys):
        negate(ctx, victim.uid)
    else:
        if ctx.state.recording:
            ctx.log(f"対象のキーカード {card_list(victim.keys)} に {mine} と同じカードがないため取り除けない")


# ------------------------------------------------------------------------------------------------ 切札
def trump_closed(state: GameState, uid: int) -> bool:
    """クローズ: 「このターンが終わるまで、それは表向きにならない」, marked by its fog card this turn."""
    return any(f.fog_id == "close" and f.target == uid and f.turn == state.turn for p in state.players for f in p.fog)


def _set_trump(state: GameState, trump: TrumpCard, face_up: bool) -> None:
    owner = state.players[state.trump_owner(trump.uid)]
    owner.trumps = tuple(TrumpCard(t.uid, t.card, face_up) if t.uid == trump.uid else t for t in owner.trumps)


@effect("open")
def _open(ctx: Ctx) -> None:
    s = ctx.state
    face_down = [t for t in s.players[ctx.me].trumps if not t.face_up and not trump_closed(s, t.uid)]
    pick = ctx.choose(ctx.me, "表にする裏切札", [t.card for t in face_down])
    if pick is None:
        ctx.log("表にできる裏切札がないため効果なし")
        return
    trump = next(t for t in face_down if t.card == pick)
    _set_trump(s, trump, True)
    if ctx.state.recording:
        ctx.log(f"裏切札 {trump.card} を表にし切札とする")


@effect("close")
def _close(ctx: Ctx) -> None:
    s = ctx.state
    trump = s.find_trump(ctx.target().ref)
    assert trump is not None
    _set_trump(s, trump, False)
    if ctx.state.recording:
        ctx.log(f"{player_name(s.trump_owner(trump.uid))} の切札を裏向きにする(このターンが終わるまで表向きにならない)")
    place_fog(ctx, "close", ctx.request.keys, trump.uid)


@effect("trump-break")
def _trump_break(ctx: Ctx) -> None:
    s = ctx.state
    trump = s.find_trump(ctx.target().ref)
    assert trump is not None
    key = ctx.request.keys[0]
    if (trump.card.suit, trump.card.rank) != (key.suit, key.rank):
        if ctx.state.recording:
            ctx.log(f"切札とキーカード {key} のスートと数字が同じでないため効果なし")
        return
    owner_index = s.trump_owner(trump.uid)
    owner = s.players[owner_index]
    owner.trumps = tuple(t for t in owner.trumps if t.uid != trump.uid)
    owner.graveyard += (trump.card,)
    if ctx.state.recording:
        ctx.log(f"{player_name(owner_index)} の切札 {trump.card} を墓地へ")


# ------------------------------------------------------------------------------------------------ 兵士起因
def _key_soldier(ctx: Ctx) -> Character | None:
    """Steps 1-2: the key soldier if the drive counts as done (ruling keydrive-double-drive), else None."""
    uid = ctx.request.key_character
    ch = ctx.state.find(uid) if uid is not None else None
    if ch is None:
        ctx.log("キーカードの兵士が場にいないため、ドライブできなかった")
    return ch


@effect("slash")
def _slash(ctx: Ctx) -> None:
    key = _key_soldier(ctx)
    if key is None:
        return
    s, target = ctx.state, ctx.target_char()
    x, n = size(s, key), size(s, target)
    if ctx.state.recording:
        ctx.log(f"X = {char_text(key)} のサイズ {x}、対象のサイズ {n}")
    if n <= x:
        ops.to_graveyard(s, target.uid)


@effect("encourage")
def _encourage(ctx: Ctx) -> None:
    key = _key_soldier(ctx)
    if key is None:
        return
    s, target = ctx.state, ctx.target_char()
    x = size(s, key)
    s.modifiers += (Modifier("this", ctx.me, s.uid(), size=x, target=target.uid, source="encourage", turn=s.turn),)
    if ctx.state.recording:
        ctx.log(f"{char_text(target)} のサイズをこのターンが終わるまで {x} 加算(→ {size(s, target)})")


@effect("negotiate")
def _negotiate(ctx: Ctx) -> None:
    if _key_soldier(ctx) is None:
        return
    target = ctx.target_char()
    ctx.state.replace(target.with_driven(True))
    if ctx.state.recording:
        ctx.log(f"{char_text(target)} をドライブする")


@effect("switch")
def _switch(ctx: Ctx) -> None:
    s = ctx.state
    key = _key_soldier(ctx)
    if key is not None:
        card = ctx.choose(ctx.me, "兵士として場に出す手札のカード", sort_cards(s.players[ctx.me].hand))
        if card is not None:
            ops.take_from_hand(s, ctx.me, card)
            ops.place(s, ctx.me, (card,), "soldier")
        ops.to_hand(s, key.uid)  # 3. 「キーカードを手札に戻す」
