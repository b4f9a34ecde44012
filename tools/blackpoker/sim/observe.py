"""What a player may know (2.11.1 公開レベル, and the frames' pack, rare-card and trump zones of 5.3.1).

``observation(state, viewer)`` is the game as ``viewer`` sees it, in the spirit of OpenSpiel's observation
tensors: every zone of the regulation, with its 完全公開 part for both players' zones, its 個人公開 part only for
the viewer's own zones (ruling personal-disclosure), and never its 非公開 part. Which zones exist and what each
level holds come from the model's disclosure tables; only how to read a zone at each level is code (``VIEWS``).
"""

from __future__ import annotations

from collections.abc import Callable

from blackpoker.sim.state import GameState, Player, player_name
from blackpoker.sim.text import card_list, life_answer

View = tuple[object, object]  # (完全公開, 個人公開)


def _life(p: Player) -> View:
    return life_answer(len(p.life)), len(p.life)  # 非公開: ライフの中身, even for its owner


def _graveyard(p: Player) -> View:
    return (str(p.graveyard[-1]) if p.graveyard else None), [str(c) for c in p.graveyard]


def _field(p: Player) -> View:
    public = [f"{card_list(ch.cards)}" if ch.face_up else "(伏せ)" for ch in p.field]
    personal = [card_list(ch.cards) for ch in p.field if not ch.face_up]
    return public, personal


def _hand(p: Player) -> View:
    return len(p.hand), [str(c) for c in p.hand]


def _fog(p: Player) -> View:
    return [card_list(f.cards) for f in p.fog], []  # fog cards lie face up


def _pack(p: Player) -> View:
    # 完全公開: 開封済み・未開封 / 個人公開: 開封後のパックの中身 / 非公開: 未開封のパックの中身
    state = "開封済み" if p.pack_opened else "未開封"
    return state, ([str(c) for c in p.pack] if p.pack_opened else None)


def _rare(p: Player) -> View:
    return len(p.rare), [str(c) for c in p.rare]


def _trump(p: Player) -> View:
    return [str(t.card) if t.face_up else "(伏せ)" for t in p.trumps], [str(t.card) for t in p.trumps if not t.face_up]


VIEWS: dict[str, Callable[[Player], View]] = {
    "life": _life, "graveyard": _graveyard, "field": _field, "hand": _hand, "fog": _fog,
    "pack": _pack, "rare": _rare, "trump": _trump,
}


def zones_in_play(state: GameState) -> list[str]:
    """The common zones, plus the frame's (5.2 配置図)."""
    zones = [z.id for z in state.rules.zones if z.common]
    if state.frame:
        zones += [z for z in state.rules.frame(state.frame).zones if z not in zones]
    return zones


def observation(state: GameState, viewer: int) -> dict[str, object]:
    """The game as ``viewer`` may know it: ``{"プレイヤー": {name: {zone name: {level name: value}}}, "ステージ": …}``."""
    rules = state.rules
    level = {lv.id: lv.name for lv in rules.disclosure_levels}
    players: dict[str, object] = {}
    for index, p in enumerate(state.players):
        zones: dict[str, object] = {}
        for zone_id in zones_in_play(state):
            public, personal = VIEWS[zone_id](p)
            seen = {level["public"]: public}
            if index == viewer:
                seen[level["personal"]] = personal
            zones[rules.zone(zone_id).name] = seen
        players[player_name(index)] = zones
    stage = [f"{rules.action(r.action_id).name}({player_name(r.controller)}) {card_list(r.keys)}" for r in state.stage]
    return {"プレイヤー": players, "ステージ": stage}
