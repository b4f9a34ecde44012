"""The guided tutorial's engine: a lesson played step by step, every move of the learner checked by the rules.

A lesson (``tutorial/*.yaml``, verified and written as JSON by the build: ``pipeline/tutorialpage.py``) is a
starting position and a script. The opponent's moves are played as scripted; at each of the learner's moves
the learner may try anything: an action of the regulation with any of their cards as its key cards (hand cards,
characters on the field, trumps, rare cards: :func:`blackpoker.sim.probe.try_request`), then any payment and
targets (the ones the rules allow, offered as moves, or any others the learner chooses:
:func:`blackpoker.sim.probe.try_made`), passing, or an answer to an effect's question. The rules refuse what
they do not allow, with their own text and its section; a legal move that is not the lesson's is answered with
the step's hint; the lesson's move is played and the lesson goes on.

A card the learner picks is named as the page names it (a *pick*): a hand card by its code (``S5``), else by its
place: ``field:<uid>`` (a character of theirs), ``trump:<uid>``, ``rare:<code>``. A choice of payment or target
is ``<kind>:<ref>`` (``character:3``, ``player:1``, ``request:7``, ``trump:2``, ``card:D2``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from blackpoker.core.cards import Card, parse_card
from blackpoker.core.model import Rules
from blackpoker.play.gameview import decision_text_of, option_text, variant_text
from blackpoker.play.playbyplay import PlayByPlay, action_href, private_to
from blackpoker.play.position import decode_state
from blackpoker.play.session import PlayError
from blackpoker.render.board import board_svg
from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
from blackpoker.sim.engine import apply, legal_decisions, target_text
from blackpoker.sim.game_errors import IllegalDecision
from blackpoker.sim.probe import try_made, try_request
from blackpoker.sim.record import decode_decision
from blackpoker.sim.requests import available_actions, cost_letters, key_character_of
from blackpoker.sim.state import PLAYER_NAMES, GameState, Payment, Target
from blackpoker.sim.text import char_text

SECTION = re.compile(r"^(\d+(?:\.\d+)*)\s*:")  # a refusal names its rule first: 「2.10.3: …」


def section_of(rule: str) -> str | None:
    """The rulebook section a refusal names (its leading number), or None."""
    m = SECTION.match(rule)
    return m[1] if m else None


@dataclass(frozen=True)
class Step:
    """A lesson's move as the page's engine keeps it: who makes it, the decision, the instruction and the hint."""

    player: int
    decision: Decision
    say: str
    hint: str


class Tutorial:
    """One lesson in progress (``lesson``: the build's JSON of it)."""

    def __init__(self, rules: Rules, lesson: dict[str, Any]) -> None:
        self.rules = rules
        self.lesson = lesson
        self.learner = PLAYER_NAMES.index(lesson["learner"])
        self.steps = [Step(PLAYER_NAMES.index(s["player"]), decode_decision(s["decision"]), s.get("say", ""),
                           s.get("hint", "")) for s in lesson["steps"]]
        self.state: GameState = decode_state(rules, lesson["state"])
        self.index = 0
        self.seen: GameState | None = None  # the position at the learner's last move (what moved since is marked)
        self.narration: list[str] = []  # what the opponent did since the learner's last move
        self.log = PlayByPlay(rules, self.learner)
        self._advance()

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps)

    def _advance(self) -> None:
        """Play the opponent's scripted moves up to the learner's next move."""
        while not self.done and self.steps[self.index].player != self.learner:
            step = self.steps[self.index]
            self.state = apply(self.state, step.decision)
            if step.say:
                self.narration.append(step.say)
            self.index += 1

    def _step(self) -> Step:
        if self.done:
            raise PlayError("the lesson is complete")
        return self.steps[self.index]

    # --- the learner's moves --------------------------------------------------------------------------------
    def _keys(self, action_id: str, picks: list[str]) -> tuple[tuple[Card, ...], int | None]:
        """The key cards and key soldier of a request from the learner's picks (see the module's docstring)."""
        keys: list[Card] = []
        chars: list[int] = []
        for pick in picks:
            zone, _, ref = pick.rpartition(":")
            if zone == "field":
                chars.append(int(ref))
            elif zone == "trump":
                trump = self.state.find_trump(int(ref))
                if trump is None:
                    raise PlayError(f"no trump {ref}")
                keys.append(trump.card)
            elif zone in ("", "rare"):
                keys.append(parse_card(ref))
            else:
                raise PlayError(f"unknown pick {pick!r}")
        return tuple(keys), key_character_of(self.state, action_id, chars)

    def _refused(self, action_id: str, exc: IllegalDecision) -> dict[str, Any]:
        known = {a.id: a for a in self.rules.actions}
        action = known.get(action_id)
        return {"kind": "refused", "rule": exc.rule, "section": section_of(exc.rule),
                "action": action.name if action else action_id, "entry": action_href(action) if action else None}

    def attempt(self, action_id: str, picks: list[str]) -> dict[str, Any]:
        """The learner names an action with these cards as its key cards: the rules' refusal, or the ways to
        make it and the payments and targets to choose from (when there is a choice to make), or the move
        itself (when there is none)."""
        self._step()
        try:
            keys, key_character = self._keys(action_id, picks)
            found = try_request(self.state, self.learner, action_id, keys, key_character)
        except IllegalDecision as exc:
            return self._refused(action_id, exc)
        slots = self._slots(action_id)
        if len(found) == 1 and not slots:
            return self.pick(found[0])
        legal = legal_decisions(self.state)
        moves = []
        for i in found:
            d = legal[i]
            assert isinstance(d, RequestAction)
            moves.append({"move": i, "text": variant_text(self.state, d)})
        return {"kind": "variants", "action": self.rules.action(action_id).name, "id": action_id, "picks": picks,
                "moves": moves, "slots": slots}

    def _slots(self, action_id: str) -> list[dict[str, Any]]:
        """What the learner chooses to pay and target ``action_id``: every cost letter B, D, S and the target,
        each with everything the learner could point at (legal or not: the rules refuse the wrong ones)."""
        state, me = self.state, self.learner
        action = self.rules.action(action_id)
        letters = cost_letters(state, me, action)
        characters = [{"choice": f"character:{ch.uid}", "text": private_to(char_text(ch), me)}
                      for ch in state.characters()]
        slots = []
        for letter, slot, label, unit in (("B", "bulwarks", "コスト B: ドライブする防壁を", "体"),
                                          ("D", "discards", "コスト D: 捨てる手札を", "枚"),
                                          ("S", "sacrifices", "コスト S: 墓地に移すキャラクターを", "体")):
            count = letters.count(letter)
            if not count:
                continue
            options = characters if letter != "D" else [{"choice": f"card:{c.code}", "text": str(c)}
                                                        for c in state.players[me].hand]
            slots.append({"slot": slot, "label": f"{label}{count}{unit}", "count": count, "options": options})
        spec = action.target_spec
        if spec is not None:
            others: list[dict[str, Any]] = [{"choice": f"player:{i}", "text": f"プレイヤー {PLAYER_NAMES[i]}"}
                                            for i in (0, 1)]
            others += [{"choice": f"request:{r.uid}", "text": f"ステージの{target_text(state, 'request', r.uid)}"}
                       for r in reversed(state.stage)]
            others += [{"choice": f"trump:{t.uid}", "text": private_to(target_text(state, "trump", t.uid), me)}
                       for p in state.players for t in p.trumps]
            slots.append({"slot": "targets", "label": f"対象を{spec.count}つ: {action.target}", "count": spec.count,
                          "options": characters + others})
        return slots

    def request(self, action_id: str, picks: list[str], chosen: dict[str, list[str]]) -> dict[str, Any]:
        """The learner's own payment and targets for the action with these key cards (``chosen``: slot → the
        choices, as :meth:`_slots` names them): the rules' refusal, or the move (the lesson's, or the hint)."""
        self._step()
        try:
            keys, key_character = self._keys(action_id, picks)
            action = self.rules.action(action_id)
            refs = {slot: [_choice(c) for c in chosen.get(slot, [])] for slot in ("bulwarks", "discards", "sacrifices",
                                                                                   "targets")}
            payment = Payment(tuple(int(r) for _, r in refs["bulwarks"]),
                              cost_letters(self.state, self.learner, action).count("L"),
                              tuple(parse_card(str(r)) for _, r in refs["discards"]),
                              tuple(int(r) for _, r in refs["sacrifices"]))
            targets = tuple(Target(kind, int(r)) for kind, r in refs["targets"])
            move = try_made(self.state, self.learner, RequestAction(action_id, keys, payment, targets, key_character))
        except IllegalDecision as exc:
            return self._refused(action_id, exc)
        return self.pick(move)

    def pass_move(self) -> dict[str, Any]:
        self._step()
        legal = legal_decisions(self.state)
        if Pass() not in legal:
            return {"kind": "refused", "rule": "効果の解決中です: 質問に答えてください", "section": None,
                    "action": "パス", "entry": None}
        return self.pick(legal.index(Pass()))

    def pick(self, move: int) -> dict[str, Any]:
        """One of the legal decisions: the lesson's move goes on, any other is answered with the hint."""
        step = self._step()
        legal = legal_decisions(self.state)
        if not 0 <= move < len(legal):
            raise PlayError(f"move {move} is not offered; expected 0 to {len(legal) - 1}")
        decision = legal[move]
        if decision != step.decision:
            return {"kind": "other", "tried": decision_text_of(self.state, decision), "hint": step.hint}
        self.seen = self.state
        self.state = apply(self.state, decision)
        self.index += 1
        self.narration = []
        self._advance()
        return {"kind": "ok", "did": decision_text_of(self.seen, decision)}

    def answer(self) -> dict[str, Any]:
        """The lesson's move (「答えを見る」; tests follow it): the action, its key cards, and its index."""
        step = self._step()
        d = step.decision
        out: dict[str, Any] = {"move": legal_decisions(self.state).index(d), "text": decision_text_of(self.state, d),
                               "pass": isinstance(d, Pass), "choose": isinstance(d, Choose)}
        if isinstance(d, Pass):
            out["how"] = "「パス」を選ぶ"
        elif isinstance(d, Choose):
            out["how"] = f"質問の答えから「{option_text(self.state, d.option)}」を選ぶ"
        else:
            name = self.rules.action(d.action_id).name
            cards = "・".join(str(c) for c in d.keys)
            how = f"手札の {cards} を選んでから" if d.keys else "カードを選ばずに"
            if d.key_character is not None:
                how = f"場の {char_text(self.state.character(d.key_character))} を選んでから"
            out["how"] = how + f"「{name}」を選ぶ"
            picks = [c.code for c in d.keys] + ([] if d.key_character is None else [f"field:{d.key_character}"])
            out.update(action=d.action_id, keys=[c.code for c in d.keys], picks=picks)
        return out

    # --- what the page shows --------------------------------------------------------------------------------
    def _own_cards(self) -> list[dict[str, Any]]:
        """The learner's cards beyond the hand that a key card might be taken from: characters on the field,
        trumps and rare cards (each a pick; the rules refuse the ones an action does not take)."""
        me = self.state.players[self.learner]
        cards = [{"pick": f"field:{ch.uid}", "zone": "場", "text": char_text(ch)} for ch in me.field]
        cards += [{"pick": f"trump:{t.uid}", "zone": "切札", "text": f"{t.card}" + ("(表)" if t.face_up else "(裏)")}
                  for t in me.trumps]
        cards += [{"pick": f"rare:{c.code}", "zone": "レアカード", "text": str(c)} for c in me.rare]
        return cards

    def view(self) -> dict[str, Any]:
        state, me = self.state, PLAYER_NAMES[self.learner]
        mine = [i for i, s in enumerate(self.steps) if s.player == self.learner]
        question = None
        if not self.done and state.pending is not None:
            question = {"prompt": state.pending.prompt,
                        "options": [{"move": i, "text": option_text(state, d.option)}
                                    for i, d in enumerate(legal_decisions(state)) if isinstance(d, Choose)]}
        return {
            "board": board_svg(state, f"盤面(あなたは{me})", before=self.seen, hidden_hands=(1 - self.learner,),
                               since="あなたの前の手"),
            "you": me, "turn": state.turn, "turn_player": PLAYER_NAMES[state.turn_player],
            "chance": None if state.chance is None else PLAYER_NAMES[state.chance],
            "stage": [state.rules.action(r.action_id).name for r in reversed(state.stage)],
            "done": self.done, "winner": None if state.winner is None else PLAYER_NAMES[state.winner],
            "instruction": self.lesson["done"] if self.done else self.steps[self.index].say,
            "step": sum(1 for i in mine if i < self.index) + (0 if self.done else 1), "steps": len(mine),
            "narration": list(self.narration), "log": self.log.lines(state),
            "hand": [{"code": c.code, "text": str(c)} for c in state.players[self.learner].hand],
            "cards": self._own_cards(),
            "actions": [{"id": a.id, "name": a.name, "shorthand": a.shorthand} for a in available_actions(state)],
            "question": question,
        }


def _choice(text: str) -> tuple[str, str]:
    """A payment or target choice ``kind:ref`` as its two parts."""
    kind, _, ref = text.partition(":")
    if not ref:
        raise PlayError(f"unknown choice {text!r}")
    return kind, ref


def run(tutorial: Tutorial | None, rules: Rules, command: dict[str, Any]) -> tuple[Tutorial | None, dict[str, Any]]:
    """One of the page's lesson commands: ``lesson`` (start one), ``attempt``, ``request``, ``pick``, ``pass``,
    ``answer``; every answer carries the view after it."""
    name = command.get("command")
    if name == "lesson":
        tutorial = Tutorial(rules, command["lesson"])
        return tutorial, {"view": tutorial.view()}
    if tutorial is None:
        raise PlayError("no lesson has started")
    if name == "lesson-attempt":
        result = tutorial.attempt(str(command["action"]), [str(c) for c in command.get("keys", [])])
    elif name == "lesson-request":
        chosen = {str(slot): [str(c) for c in refs] for slot, refs in dict(command.get("chosen", {})).items()}
        result = tutorial.request(str(command["action"]), [str(c) for c in command.get("keys", [])], chosen)
    elif name == "lesson-pick":
        result = tutorial.pick(int(command["move"]))
    elif name == "lesson-pass":
        result = tutorial.pass_move()
    elif name == "lesson-answer":
        result = tutorial.answer()
    else:
        raise PlayError(f"unknown command {name!r}")
    return tutorial, {"result": result, "view": tutorial.view()}
