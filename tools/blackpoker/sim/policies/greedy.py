"""``greedy``: the plain heuristic of a beginner who plays by sight, one decision at a time.

Develop the field (summon, set bulwarks while life allows), attack when ahead (more attacking strength than the
opponent can block, or more life), block what would hurt, counter the opponent's requests that hurt, aim harmful
magic at the opponent's biggest character and helpful magic at one's own. It reads only the observation.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from blackpoker.core.cards import Card
from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
from blackpoker.sim.policies.observation import CharacterView, Observation, SideView
from blackpoker.sim.state import Payment

SUMMONS = {"soldier-summon": 6, "hero-summon": 7, "ace-summon": 6, "quick-summon": 5, "magician-summon": 5,
           "equip": 4, "rare-summon": 6, "bulwark-refill": 4, "reanimate": 4, "conscription": 4}
HARMFUL = {"down": 3, "kill": 5, "twist": 2, "throw": 5, "sword-rain": 5, "death-spear": 5, "hand-destruction": 4,
           "bulwark-break": 4, "slash": 5, "trump-break": 3, "switch": 2, "negotiate": 2}
HELPFUL = {"up": 2, "reunion": 3, "force": 3, "encourage": 2, "search": 1, "pack-open": 3, "rare-draw": 3,
           "open": 2, "close": 1, "blackjack": 3, "royal-straight-flush": 6, "return": 1, "reverse": 1,
           "ceasefire": 1}
COUNTERS = {"counter": 7, "trap-counter": 7, "retarget": 3}
HURTS = set(HARMFUL) | {"attack", "hero-summon", "royal-straight-flush", "sword-rain"}
DONE = "決定"


def life_estimate(side: SideView) -> int:
    """A side's life count: exact for the viewer, else the public answer (``10枚以上`` counts as 10)."""
    if side.life is not None:
        return side.life
    text = side.life_answer.rstrip("枚")
    return int(text) if text.isdigit() else 10


def size(obs: Observation, ch: CharacterView) -> int:
    """Printed numbers plus the up/down fogs on it (a face-down bulwark counts 0)."""
    base = sum(c.number for c in ch.cards) if ch.cards else 0
    for side in obs.players:
        for fog in side.fog:
            if fog.turn == obs.turn and fog.target == ch.uid:
                base += fog.amount if fog.fog_id == "up" else -fog.amount if fog.fog_id == "down" else 0
    return base


def _character(obs: Observation, uid: int) -> CharacterView | None:
    return next((ch for side in obs.players for ch in side.field if ch.uid == uid), None)


def _blockers(obs: Observation, side: SideView) -> list[CharacterView]:
    return [ch for ch in side.field if not ch.driven]


def ahead(obs: Observation) -> bool:
    """More life than the opponent, or soldiers the opponent cannot block all of."""
    me, opp = obs.me, obs.opponent
    mine = [ch for ch in me.field if ch.kind == "soldier" and not ch.driven]
    return life_estimate(me) > life_estimate(opp) or len(mine) > len(_blockers(obs, opp))


class GreedyPolicy:
    """The ``greedy`` opponent: a beginner's heuristic, one decision at a time, from the observation only."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.turn = 0
        self.free: dict[str, int] = {}  # actions requested this turn without key cards or cost (rare-draw, …)

    def decide(self, observation: Observation, legal: Sequence[Decision]) -> Decision:
        """The best-scored decision, ties broken at random so that games between two greedy players differ."""
        if len(legal) == 1:
            return legal[0]
        if observation.turn != self.turn:
            self.turn, self.free = observation.turn, {}
        scored = [(self.score(observation, d), i) for i, d in enumerate(legal)]
        best = max(s for s, _ in scored)
        choice = legal[self.rng.choice([i for s, i in scored if s == best])]
        if isinstance(choice, RequestAction) and not choice.keys and choice.payment == Payment():
            self.free[choice.action_id] = self.free.get(choice.action_id, 0) + 1
        return choice

    # --- scores ------------------------------------------------------------------------------------------
    def score(self, obs: Observation, d: Decision) -> float:
        """A beginner's value of a decision: passing on one's own idle turn scores low, so the player develops the
        field."""
        if isinstance(d, Choose):
            return self.choose_score(obs, d.option)
        if isinstance(d, Pass):  # on one's own turn with an empty stage a pass only hands the chance back
            idle = not obs.stage and obs.turn_player == obs.viewer and obs.chance == obs.viewer
            return 0.05 if idle else 0.5
        return self.request_score(obs, d)

    def request_score(self, obs: Observation, d: RequestAction) -> float:
        """A request's value: what it does for this player, less what it costs (life counts more when little is
        left)."""
        me_i, opp_i = obs.viewer, 1 - obs.viewer
        life = life_estimate(obs.me)
        cost = d.payment.life * (3 if life <= 3 else 0.3) + len(d.payment.discards) * 0.4 \
            + len(d.payment.sacrifices) * 2
        a = d.action_id
        if self.free.get(a) and not d.keys and d.payment == Payment():
            return -1.0  # a free action once a turn is enough: it would not change anything a second time
        if a == "rare-draw" and not obs.me.rare_count:
            return -1.0
        if a == "end":
            return 0.1  # when nothing better: end the turn
        if a == "attack":
            return 6.0 if ahead(obs) else -1.0
        if a == "bulwark-set":
            bulwarks = sum(ch.kind == "bulwark" for ch in obs.me.field)
            return (4.5 if bulwarks < 3 else 1.0) - cost if life > 4 else -1.0
        if a in COUNTERS:
            top = next((r for r in obs.stage for t in d.targets if t.kind == "request" and t.ref == r.uid), None)
            if top is None or top.controller == me_i or top.action_id not in HURTS:
                return -1.0
            return COUNTERS[a] - cost
        if a in SUMMONS:
            keys = sum(c.number for c in d.keys if isinstance(c, Card))
            return SUMMONS[a] + keys / 13 - cost
        harm = HARMFUL.get(a)
        if harm is not None:
            total = 0.0
            for t in d.targets:
                if t.kind == "character":
                    ch = _character(obs, t.ref)
                    if ch is None:
                        continue
                    if ch.owner == me_i:
                        return -2.0
                    total += size(obs, ch) / 13
                elif (t.kind == "player" and t.ref == me_i) or (
                        t.kind == "trump" and all(x.uid != t.ref for x in obs.players[opp_i].trumps)):
                    return -2.0
            return harm + total - cost
        value = float(HELPFUL.get(a, 1))
        for t in d.targets:
            if t.kind == "character":
                ch = _character(obs, t.ref)
                if ch is not None and ch.owner != me_i:
                    return -2.0
            if t.kind == "player" and t.ref != me_i:
                return -2.0
        return value - cost

    def choose_score(self, obs: Observation, option: object) -> float:
        """An option's value while an effect waits for a choice (attackers, blockers, targets, cards)."""
        prompt = obs.pending.prompt if obs.pending else ""
        opp = obs.opponent
        if prompt.startswith("アタッカー"):
            if option == DONE:
                return 0.5
            ch = _character(obs, option) if isinstance(option, int) else None
            if ch is None:
                return 0.0
            strongest = max((size(obs, b) for b in _blockers(obs, opp) if b.kind == "soldier"), default=0)
            return 1.0 + size(obs, ch) / 13 if (ahead(obs) or size(obs, ch) > strongest) else 0.0
        if "ブロック" in prompt:
            if option == DONE:
                return 0.5
            ch = _character(obs, option) if isinstance(option, int) else None
            attacker = next((_character(obs, line.attacker) for line in obs.attack), None)
            if ch is None or attacker is None:
                return 0.0
            if ch.kind == "soldier" and size(obs, ch) >= size(obs, attacker):
                return 2.0 - size(obs, ch) / 26  # the smallest soldier that holds
            if ch.kind == "bulwark":
                return 1.0 if life_estimate(obs.me) <= max(4, size(obs, attacker) // 3) else 0.2
            return 0.1
        if isinstance(option, str) and (m := re.search(r"合計 (\d+) 点", prompt)):
            return (1.0 if option == "ヒット" else 0.0) if int(m.group(1)) <= 16 else (1.0 if option == "スタンド" else 0.0)
        if isinstance(option, str):
            return {"引く": 1.0, "ヒット": 0.6, "スタンド": 0.5, "チャージ": 1.0, "エース": 1.0, "1枚チャージ": 1.0,
                    "そのまま": 0.5}.get(option, 0.5)
        if isinstance(option, Card):
            worst_first = prompt.startswith("捨てるカード") or "一番下" in prompt
            return -option.number if worst_first else option.number
        if isinstance(option, tuple) and len(option) == 2 and option[0] == "character":
            ch = _character(obs, option[1])
            return 1.0 if ch is not None and ch.owner != obs.viewer else 0.0
        return 0.0
