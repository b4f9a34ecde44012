"""Scenarios: a starting position, a script of decisions and expectations, read from located YAML.

A malformed file gives ``file:line:col: path: message`` (schema errors and the simulator's own checks alike);
``run_scenario`` plays the script and checks every expectation, returning a Japanese play-by-play.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from blackpoker.core.cards import Card, full_deck, parse_card
from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.model import Rules
from blackpoker.core.schema import validate
from blackpoker.core.yamlsource import SourceFile, parse_yaml
from blackpoker.sim.abilities import all_labels, can_attack, size, soldier_type
from blackpoker.sim.decisions import Choose, Decision, Pass, RequestAction
from blackpoker.sim.engine import apply, current_player
from blackpoker.sim.errors import IllegalDecision
from blackpoker.sim.frames import SetupChoice, SetupError, check_regulation, default_deck, preset
from blackpoker.sim.requests import cost_letters
from blackpoker.sim.setup import begin, new_game
from blackpoker.sim.state import (
    PLAYER_NAMES,
    Character,
    FogCard,
    GameState,
    Modifier,
    Payment,
    Player,
    Request,
    Target,
    TrumpCard,
    card_order,
    player_name,
)
from blackpoker.sim.text import TYPE_NAMES, card_list, char_ref, life_answer

SCHEMA = "scenario.schema.json"
PLAYER_INDEX = {"A": 0, "B": 1}
TYPE_BY_NAME = {v: k for k, v in TYPE_NAMES.items()}


@dataclass(frozen=True)
class Scenario:
    """A parsed, validated scenario file (its data stays located for errors found while running)."""

    path: str
    title: str
    section: str
    format: str
    src: SourceFile
    frame: str | None = None


@dataclass(frozen=True)
class ExpectationResult:
    step: int  # index of the script step after which it was checked (len(script) for the final block)
    name: str
    passed: bool
    expected: object
    actual: object

    def line(self) -> str:
        mark = "PASS" if self.passed else "FAIL"
        text = f"{mark} {self.name} = {self.expected!s}"
        return text if self.passed else f"{text}(実際: {self.actual!s})"


@dataclass
class ScenarioResult:
    scenario: Scenario
    expectations: list[ExpectationResult] = field(default_factory=list)
    transcript: list[str] = field(default_factory=list)
    state: GameState | None = None

    @property
    def passed(self) -> bool:
        return all(e.passed for e in self.expectations) and bool(self.expectations)


# --- loading -------------------------------------------------------------------------------------------
def load_scenario(path: Path, rules: Rules, display_name: str | None = None) -> Scenario:
    """Parse and validate one scenario; raises :class:`DefinitionErrors` with located problems."""
    src, problems = parse_yaml(path, display_name or str(path))
    if src is None or problems:
        raise DefinitionErrors(problems)
    errors = list(validate(src, SCHEMA))
    if errors:
        raise DefinitionErrors(errors)
    data = src.data
    if data["ruleset"] != rules.edition.version:
        raise DefinitionErrors([src.error(("ruleset",), f"'{data['ruleset']}' is not the loaded ruleset "
                                                        f"'{rules.edition.version}'")])
    scenario = Scenario(src.name, data["title"], data["section"], data["format"], src, data.get("frame"))
    if scenario.frame is not None and scenario.frame not in {f.id for f in rules.frames}:
        raise DefinitionErrors([src.error(("frame",), f"'{scenario.frame}' is not a frame; expected one of "
                                                      + ", ".join(f.id for f in rules.frames))])
    try:
        build_start(scenario, rules)  # semantic problems surface at load time, located
    except SetupError:
        pass  # a refused regulation, deck or setup choice is behaviour (expect: setup_error), checked when run
    try:
        for i, step in enumerate(data.get("script", [])):
            if "request" in step:
                _action(rules, step["request"], ("script", i, "request"))
            _cards(step.get("keys", []), ("script", i, "keys"))
            _cards(step.get("cost", {}).get("discard", []), ("script", i, "cost", "discard"))
    except _Located as exc:
        raise _locate(scenario, exc) from None
    return scenario


class _Located(Exception):
    def __init__(self, path: tuple[Any, ...], message: str) -> None:
        self.path, self.message = path, message


def _card(text: str, path: tuple[Any, ...]) -> Card:
    try:
        return parse_card(str(text))
    except ValueError as exc:
        raise _Located(path, str(exc)) from None


def _cards(items: list[Any], path: tuple[Any, ...]) -> tuple[Card, ...]:
    return tuple(_card(t, path + (i,)) for i, t in enumerate(items))


def _locate(scenario: Scenario, exc: _Located) -> DefinitionErrors:
    return DefinitionErrors([scenario.src.error(exc.path, exc.message)])


def build_start(scenario: Scenario, rules: Rules, *, record: bool = False) -> GameState:
    try:
        return _build_start(scenario, rules, record)
    except _Located as exc:
        raise _locate(scenario, exc) from None


def _deck(rules: Rules, scenario: Scenario, spec: dict[str, Any], path: tuple[Any, ...]) -> tuple[Card, ...]:
    """A deck from its scenario spec: the frame's default deck changed by cards / without / add / size."""
    frame = rules.frame(scenario.frame) if scenario.frame else None
    if "cards" in spec:
        deck = list(_cards(spec["cards"], path + ("cards",)))
    else:
        deck = sorted(default_deck(rules, frame), key=lambda c: ("CDHS".index(c.suit) if c.suit else 4, c.rank, c.index))
    for card in _cards(spec.get("without", []), path + ("without",)):
        if card not in deck:
            raise _Located(path + ("without",), f"{card} is not in the deck")
        deck.remove(card)
    deck += _cards(spec.get("add", []), path + ("add",))
    return tuple(deck[:spec["size"]] if "size" in spec else deck)


def _choice(item: dict[str, Any], path: tuple[Any, ...]) -> SetupChoice:
    def one(key: str) -> Card | None:
        return _card(item[key], path + (key,)) if key in item else None
    return SetupChoice(trumps=_cards(item.get("trumps", []), path + ("trumps",)),
                       starting=_cards(item.get("starting", []), path + ("starting",)),
                       rare=one("rare"), reveal=one("reveal"))


def _setup_start(scenario: Scenario, rules: Rules, record: bool) -> GameState:
    """A game started by the frame's setup (or 2.9) from the given decks and choices."""
    start = scenario.src.data["start"]
    setup = start["setup"]
    decks = tuple(_deck(rules, scenario, setup.get("decks", {}).get(name, {}), ("start", "setup", "decks", name))
                  for name in PLAYER_INDEX)
    choices = tuple(_choice(setup.get("choices", {}).get(name, {}), ("start", "setup", "choices", name))
                    for name in PLAYER_INDEX)
    state = new_game(rules, scenario.format, int(start.get("seed", 0)), frame=scenario.frame, decks=decks,
                     choices=choices, record=record)
    return state


def _build_start(scenario: Scenario, rules: Rules, record: bool) -> GameState:
    start = scenario.src.data["start"]
    if "setup" in start:
        return _setup_start(scenario, rules, record)
    check_regulation(rules, scenario.format, scenario.frame)
    s = GameState(rules, scenario.format, int(start.get("seed", 0)), [Player(), Player()], frame=scenario.frame,
                  events=[] if record else None)
    s.turn_player = PLAYER_INDEX[start["turn"]]
    s.chance = PLAYER_INDEX[start.get("chance", start["turn"])]
    s.turn = int(start.get("turn_number", 2))
    for name, index in PLAYER_INDEX.items():
        pdata = start["players"].get(name, {})
        base = ("start", "players", name)
        p = s.players[index]
        p.hand = _cards(pdata.get("hand", []), base + ("hand",))
        p.graveyard = _cards(pdata.get("graveyard", []), base + ("graveyard",))
        for i, item in enumerate(pdata.get("field", [])):
            cards = _cards(item["cards"], base + ("field", i, "cards"))
            kind = item.get("kind", "bulwark" if item.get("type") in ("bulwark", "防壁") else "soldier")
            type_id = TYPE_BY_NAME.get(item.get("type", ""), item.get("type"))
            if type_id is None:
                type_id = "bulwark" if kind == "bulwark" else (
                    "equipped-soldier" if len(cards) > 1 else soldier_type(cards[0].rank))
            ch = Character(s.uid(), index, cards, kind, type_id, driven=item.get("driven", False),
                           face_up=item.get("face_up", kind == "soldier"),
                           entered_turn=s.turn if item.get("new", False) else s.turn - 1, timestamp=s.next_uid)
            p.field += (ch,)
        life = pdata.get("life", 10)
        if isinstance(life, int):
            life = {"count": life}
        if isinstance(life, list):
            life = {"top": life, "count": len(life)}
        top = _cards(life.get("top", []), base + ("life", "top"))
        used = set(top) | set(p.hand) | set(p.graveyard) | {c for ch in p.field for c in ch.cards}
        p.pack = _cards(pdata.get("pack", []), base + ("pack",))
        p.pack_opened = bool(pdata.get("pack_opened", False))
        p.rare = _cards(pdata.get("rare", []), base + ("rare",))
        p.trumps = tuple(TrumpCard(s.uid(), _card(t["card"], base + ("trumps", i, "card")), t.get("face_up", False))
                         for i, t in enumerate(pdata.get("trumps", [])))
        frame_cards = list(p.pack) + list(p.rare) + [t.card for t in p.trumps]
        if frame_cards and scenario.frame is None:
            raise _Located(base, "pack, rare and trumps need a frame (add 'frame:' to the scenario)")
        used |= set(frame_cards)
        for i, item in enumerate(pdata.get("fog", [])):
            fog_id = _fog_id(rules, item["fog"], base + ("fog", i, "fog"))
            cards = _cards(item["cards"], base + ("fog", i, "cards"))
            used |= set(cards)
            target = _mark(s, item["target"], base + ("fog", i, "target")) if "target" in item else None
            p.fog += (FogCard(fog_id, index, cards, sum(c.number for c in cards), s.turn, s.uid(), target),)
        listed = [c for c in top] + list(p.hand) + list(p.graveyard) + [c for ch in p.field for c in ch.cards] \
            + [c for f in p.fog for c in f.cards] + frame_cards
        dup = [c for c, n in Counter(listed).items() if n > 1]
        if dup:
            raise _Located(base, f"card {dup[0]} is listed twice; every card of a player is in exactly one zone")
        count = life.get("count", len(top))
        fillers = [c for c in _filler_order() if c not in used]
        if count < len(top) or count - len(top) > len(fillers):
            raise _Located(base + ("life",), f"life count {count} does not fit the {len(top)} listed cards and "
                                             f"the {len(fillers)} cards left in the deck")
        p.life = top + tuple(fillers[:count - len(top)])
        p.deck = frozenset(listed) | frozenset(p.life)
    for key, abilities in (("used", start.get("used", {})),):
        for name, actions in abilities.items():
            for i, a in enumerate(actions):
                s.used = s.used | {(PLAYER_INDEX[name], _action(rules, a, ("start", key, name, i)))}
    for i, item in enumerate(start.get("abilities", [])):
        path = ("start", "abilities", i)
        target = _char(s, item["target"], path + ("target",)) if "target" in item else None
        s.modifiers += (Modifier(item["scope"], PLAYER_INDEX[item.get("player", "A")], int(item.get("timestamp", i)),
                                 size=int(item.get("size", 0)), can_attack=item.get("can_attack"), target=target,
                                 source=item.get("text", "")),)
    for i, item in enumerate(start.get("stage", [])):
        path = ("start", "stage", i)
        controller = PLAYER_INDEX[item["player"]]
        action_id = _action(rules, item["action"], path + ("action",))
        keys = _cards(item.get("keys", []), path + ("keys",))
        targets = tuple(_target(s, t, path + ("targets", j)) for j, t in enumerate(item.get("targets", [])))
        s.stage += (Request(s.uid(), action_id, controller, keys, Payment(), targets),)
    for name in start.get("preset", []):  # frames' プリセット (E20), before the first player is decided
        preset(s, PLAYER_INDEX[name])
    if start.get("decide_first"):  # 2.9.2 and 2.9.3 on the given lives
        begin(s)
    if "attack" in start:
        from blackpoker.sim.state import AttackLine
        s.attack = tuple(AttackLine(_char(s, line["attacker"], ("start", "attack", i, "attacker")),
                                    tuple(_char(s, b, ("start", "attack", i, "blockers", j))
                                          for j, b in enumerate(line.get("blockers", []))))
                         for i, line in enumerate(start["attack"]))
    return s


def _filler_order() -> list[Card]:
    """Cards that fill a life given as a count: plain numbers first (so fillers do not trigger 世代交代 or
    surprise a scenario), then faces; the same order every time."""
    deck = full_deck(2)
    return sorted(deck, key=lambda c: (c.rank in (0, 1, 11, 12, 13), "CDHS".index(c.suit) if c.suit else 4, c.rank))


def _fog_id(rules: Rules, text: str, path: tuple[Any, ...]) -> str:
    for f in rules.fogs:
        if text in (f.id, f.name):
            return f.id
    raise _Located(path, f"'{text}' is not a fog; expected one of " + ", ".join(f.name for f in rules.format_fogs))


def _action(rules: Rules, text: str, path: tuple[Any, ...]) -> str:
    try:
        return rules.find_action(str(text)).id
    except KeyError as exc:
        raise _Located(path, str(exc.args[0])) from None


def _char(s: GameState, ref: str, path: tuple[Any, ...]) -> int:
    """A character reference: owner and one of its cards, ``A:♠7`` (ASCII ``A:S7`` too)."""
    owner, _, card_text = str(ref).partition(":")
    if owner not in PLAYER_INDEX or not card_text:
        raise _Located(path, f"'{ref}' is not a character reference; expected e.g. 'A:♠7'")
    card = _card(card_text, path)
    for ch in s.players[PLAYER_INDEX[owner]].field:
        if card in ch.cards:
            return ch.uid
    raise _Located(path, f"no character with {card} on {owner}'s field")


def _trump(s: GameState, ref: str, path: tuple[Any, ...]) -> int:
    """A trump reference: ``trump:A:♠2`` (owner and card)."""
    owner, _, card_text = str(ref)[len("trump:"):].partition(":")
    if owner not in PLAYER_INDEX or not card_text:
        raise _Located(path, f"'{ref}' is not a trump reference; expected e.g. 'trump:A:♠2'")
    card = _card(card_text, path)
    for t in s.players[PLAYER_INDEX[owner]].trumps:
        if t.card == card:
            return t.uid
    raise _Located(path, f"no trump {card} in {owner}'s trump zone")


def _mark(s: GameState, ref: str, path: tuple[Any, ...]) -> int:
    """What a fog card marks: a trump (クローズ) or a character (アップ, ダウン)."""
    return _trump(s, ref, path) if str(ref).startswith("trump:") else _char(s, ref, path)


def _request_ref(s: GameState, ref: str, path: tuple[Any, ...]) -> int:
    name = str(ref)[len("request:"):]
    for r in reversed(s.stage):
        a = s.rules.action(r.action_id)
        if name in (a.id, a.name):
            return r.uid
    raise _Located(path, f"no request '{name}' on the stage")


def _target(s: GameState, ref: str, path: tuple[Any, ...]) -> Target:
    ref = str(ref)
    if ref in PLAYER_INDEX:
        return Target("player", PLAYER_INDEX[ref])
    if ref.startswith("request:"):
        return Target("request", _request_ref(s, ref, path))
    if ref.startswith("trump:"):
        return Target("trump", _trump(s, ref, path))
    return Target("character", _char(s, ref, path))


# --- running ---------------------------------------------------------------------------------------------
def _decision(s: GameState, step: dict[str, Any], path: tuple[Any, ...]) -> Decision:
    if step.get("pass"):
        return Pass()
    if "choose" in step:
        return Choose(_option(s, step["choose"], path + ("choose",)))
    action_id = _action(s.rules, step["request"], path + ("request",))
    keys = _cards(step.get("keys", []), path + ("keys",))
    cost = step.get("cost", {})
    player = PLAYER_INDEX[step["player"]]
    letters = cost_letters(s, player, s.rules.action(action_id))
    if "bulwarks" in cost:
        bulwarks = tuple(_char(s, b, path + ("cost", "bulwarks", i)) for i, b in enumerate(cost["bulwarks"]))
    else:  # the first charged bulwarks, in field order
        free = [ch.uid for ch in s.players[player].field if ch.kind == "bulwark" and not ch.driven]
        bulwarks = tuple(free[:letters.count("B")])
    discards = _cards(cost.get("discard", []), path + ("cost", "discard"))
    sacrifices = tuple(_char(s, c, path + ("cost", "sacrifice", i)) for i, c in enumerate(cost.get("sacrifice", [])))
    payment = Payment(tuple(sorted(bulwarks)), letters.count("L"), discards, sacrifices)
    targets = tuple(_target(s, t, path + ("targets", i)) for i, t in enumerate(step.get("targets", [])))
    key_soldier = _char(s, step["key_soldier"], path + ("key_soldier",)) if "key_soldier" in step else None
    return RequestAction(action_id, keys, payment, targets, key_soldier)


def _option(s: GameState, value: Any, path: tuple[Any, ...]) -> object:
    options = s.pending.options if s.pending else ()
    if value in options:
        return value
    text = str(value)
    candidates: list[object] = []
    try:
        target = _target(s, text, path)
        candidates += [target.ref, (target.kind, target.ref)]
    except _Located:
        pass
    try:
        candidates.append(parse_card(text))
    except ValueError:
        pass
    for c in candidates:
        if c in options:
            return c
    return text  # not an option: the engine names the rule


def run_scenario(rules: Rules, scenario: Scenario) -> ScenarioResult:
    """Play the script from the starting position, checking expectations after the steps that have them."""
    result = ScenarioResult(scenario)
    data = scenario.src.data
    result.transcript.append(f"# {scenario.title}({scenario.section})")
    wanted = data.get("expect", {}).get("setup_error")
    try:
        state = build_start(scenario, rules, record=True)
    except SetupError as exc:
        result.transcript.append(f"ゲームの始め方を拒否: {exc.rule}")
        ok = wanted is not None and wanted in exc.rule
        result.expectations.append(ExpectationResult(0, "setup_error", ok, wanted, exc.rule))
        result.transcript.append("　" + result.expectations[-1].line())
        return result
    result.transcript.extend(state.events or [])
    state.events = [] if state.events is not None else None
    if wanted is not None:
        result.expectations.append(ExpectationResult(0, "setup_error", False, wanted, "拒否されなかった"))
    try:
        for i, step in enumerate(data.get("script", [])):
            path = ("script", i)
            if "expect" in step:
                _check(state, step["expect"], i, result, path + ("expect",))
                continue
            player = PLAYER_INDEX[step["player"]]
            expected_error = step.get("illegal")
            try:
                if current_player(state) != player:
                    raise IllegalDecision(f"6.1.5: {step['player']} はチャンスを持っていません",
                                          f"判断するプレイヤー: {player_name(current_player(state))}")
                decision = _decision(state, step, path)
                before = len(state.events or [])
                state = apply(state, decision)
                if isinstance(decision, Choose):
                    result.transcript.append(f"{step['player']}: 選択「{step['choose']}」")
                result.transcript.extend((state.events or [])[before:])
                if expected_error is not None:
                    result.expectations.append(ExpectationResult(i, "illegal", False, expected_error, "許可された"))
            except IllegalDecision as exc:
                ok = expected_error is not None and expected_error in str(exc)
                result.transcript.append(f"{step['player']}: 不正な判断 — {exc.rule}")
                result.expectations.append(ExpectationResult(i, "illegal", ok, expected_error, exc.rule))
                if expected_error is None:
                    break
            if state.pending is not None:
                result.transcript.append(f"　→ {player_name(state.pending.player)} が選ぶ: {state.pending.prompt}")
        if "expect" in data:
            _check(state, data["expect"], len(data.get("script", [])), result, ("expect",))
        result.state = state
    except _Located as exc:
        raise _locate(scenario, exc) from None
    return result


def _check(s: GameState, expect: dict[str, Any], step: int, result: ScenarioResult, path: tuple[Any, ...]) -> None:
    def add(name: str, expected: object, actual: object, same: bool | None = None) -> None:
        passed = expected == actual if same is None else same
        r = ExpectationResult(step, name, passed, expected, actual)
        result.expectations.append(r)
        result.transcript.append("　" + r.line())

    for key, value in expect.items():
        if key == "setup_error":
            continue  # checked when the game was set up
        if key == "winner":
            add("winner", value, None if s.winner is None else PLAYER_NAMES[s.winner])
        elif key in ("turn", "chance"):
            holder = s.turn_player if key == "turn" else s.chance
            add(key, value, "system" if holder is None else PLAYER_NAMES[holder])
        elif key == "stage":
            add("stage", value, [s.rules.action(r.action_id).name for r in s.stage])
        elif key == "resolved":
            add("resolved", value, list(s.resolved))
        elif key == "pending":
            add("pending", value, s.pending.prompt if s.pending else None)
        elif key == "labels":
            for ref, want in value.items():
                ch = s.find(_char(s, ref, path + (key, ref)))
                add(f"labels[{ref}]", sorted(want), sorted(all_labels(s, ch)) if ch else None)
        elif key in ("pack_count", "pack_opened", "rare", "trumps"):
            for name, want in value.items():
                p = s.players[PLAYER_INDEX[name]]
                add(f"{key}.{name}", _show_frame(key, want, path + (key, name)), _frame_actual(p, key))
        elif key in ("size", "can_attack"):
            for ref, want in value.items():
                ch = s.find(_char(s, ref, path + (key, ref))) if _exists(s, ref) else None
                got = None if ch is None else (size(s, ch) if key == "size" else can_attack(s, ch))
                add(f"{key}[{ref}]", want, got)
        else:
            for name, want in value.items():
                p = s.players[PLAYER_INDEX[name]]
                add(f"{key}.{name}", _show(key, want, path + (key, name)), _actual(s, p, key, want, path + (key, name)),
                    _same(s, p, key, want, path + (key, name)))


def _show_frame(key: str, want: Any, path: tuple[Any, ...]) -> object:
    """An expected frame-zone value in the form :func:`_frame_actual` reports (so equality compares them)."""
    if key == "rare":
        return [str(c) for c in _cards(want, path)]
    if key == "trumps":
        return sorted((str(_card(t["card"], path + (i, "card"))), bool(t["face_up"])) for i, t in enumerate(want))
    return want


def _frame_actual(p: Player, key: str) -> object:
    if key == "pack_count":
        return len(p.pack)
    if key == "pack_opened":
        return p.pack_opened
    if key == "rare":
        return [str(c) for c in p.rare]
    return sorted((str(t.card), t.face_up) for t in p.trumps)


def _exists(s: GameState, ref: str) -> bool:
    owner, _, card_text = str(ref).partition(":")
    try:
        card = parse_card(card_text)
    except ValueError:
        return False
    return any(card in ch.cards for ch in s.players[PLAYER_INDEX.get(owner, 0)].field)


def _show(key: str, value: Any, path: tuple[Any, ...]) -> object:
    if key in ("hand", "graveyard", "fog", "life_top", "graveyard_top_in"):
        return card_list(sorted(_cards(value, path), key=card_order)) if key != "life_top" else \
            [str(c) for c in _cards(value, path)]
    return value


def _cards_of(p: Player, key: str) -> list[Card]:
    if key == "hand":
        return list(p.hand)
    if key == "graveyard":
        return list(p.graveyard)
    if key == "fog":
        return [c for f in p.fog for c in f.cards]
    return list(p.life)


def _actual(s: GameState, p: Player, key: str, want: Any, path: tuple[Any, ...]) -> object:
    if key == "life":
        return len(p.life)
    if key in ("hand_count", "graveyard_count"):
        return len(_cards_of(p, key.split("_")[0]))
    if key == "life_inquiry":
        return life_answer(len(p.life))
    if key == "life_top":
        return [str(c) for c in p.life[:len(want)]]
    if key == "graveyard_top_in":
        return str(p.graveyard[-1]) if p.graveyard else None
    if key == "field":
        return [_char_summary(s, ch) for ch in p.field]
    return card_list(sorted(_cards_of(p, key), key=card_order))


def _same(s: GameState, p: Player, key: str, want: Any, path: tuple[Any, ...]) -> bool:
    if key == "life":
        return bool(len(p.life) == want)
    if key in ("hand_count", "graveyard_count"):
        return bool(len(_cards_of(p, key.split("_")[0])) == want)
    if key == "life_inquiry":
        return bool(life_answer(len(p.life)) == want)
    if key == "life_top":
        return list(p.life[:len(want)]) == list(_cards(want, path))
    if key == "graveyard_top_in":
        return bool(p.graveyard) and p.graveyard[-1] in _cards(want, path)
    if key == "field":
        return _field_matches(s, p, want, path)
    return Counter(_cards_of(p, key)) == Counter(_cards(want, path))


def _char_summary(s: GameState, ch: Character) -> dict[str, object]:
    out: dict[str, object] = {"cards": [str(c) for c in ch.cards], "kind": ch.kind, "type": TYPE_NAMES[ch.type_id],
                              "driven": ch.driven, "face_up": ch.face_up}
    if ch.kind == "soldier":
        out["size"] = size(s, ch)
    return out


def _field_matches(s: GameState, p: Player, want: list[dict[str, Any]], path: tuple[Any, ...]) -> bool:
    chars = list(p.field)
    if len(chars) != len(want):
        return False
    for i, item in enumerate(want):
        cards = set(_cards(item["cards"], path + (i, "cards")))
        match = next((ch for ch in chars if set(ch.cards) == cards), None)
        if match is None:
            return False
        summary = _char_summary(s, match)
        for k in ("kind", "driven", "face_up", "size"):
            if k in item and summary.get(k) != item[k]:
                return False
        if "type" in item and item["type"] not in (match.type_id, TYPE_NAMES[match.type_id]):
            return False
        chars.remove(match)
    return True


__all__ = ["ExpectationResult", "Scenario", "ScenarioResult", "load_scenario", "run_scenario", "char_ref"]
