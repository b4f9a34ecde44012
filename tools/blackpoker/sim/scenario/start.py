"""The starting position of a scenario: a frame's setup, a deck, or a position written out card by card.

A position written out is checked as it is read, so an impossible one is refused at the text that makes it so
(``Located``): a card in two zones or not in the deck, a character whose type, kind or cards do not go together,
a fog, a request on the stage or an attack the rules could not have produced, a preset without the life it takes.
"""

from __future__ import annotations

from typing import Any

from blackpoker.core.cards import Card, full_deck
from blackpoker.core.errors import format_path
from blackpoker.core.model import Action, Rules, Speed
from blackpoker.core.targets import TargetSpec
from blackpoker.sim.abilities import soldier_type
from blackpoker.sim.frames import SETUP_CHOICES, SetupChoice, SetupError, check_regulation, default_deck, preset
from blackpoker.sim.requests import available_actions, key_zone, regulation_name, target_candidates
from blackpoker.sim.scenario.refs import (
    PLAYER_INDEX,
    TYPE_BY_NAME,
    Located,
    Scenario,
    action_at,
    card_at,
    cards_at,
    character_at,
    fog_at,
    located,
    mark_at,
    target_at,
    unplayable,
)
from blackpoker.sim.setup import begin, new_game
from blackpoker.sim.state import (
    AttackLine,
    Character,
    FogCard,
    GameState,
    Modifier,
    Payment,
    Player,
    Request,
    Target,
    TrumpCard,
    player_name,
)
from blackpoker.sim.text import TYPE_NAMES, card_list

# What a started game reads of ``start`` when it plays the frame's setup; every other key would be ignored.
SETUP_KEYS = ("setup", "seed")

Where = tuple[Any, ...]  # a data path in the scenario file


def build_start(scenario: Scenario, rules: Rules, *, record: bool = False) -> GameState:
    """The scenario's starting position; a position the simulator cannot set up is a located error, not a traceback."""
    try:
        return _build_start(scenario, rules, record)
    except Located as exc:
        raise located(scenario, exc) from None
    except SetupError:
        raise  # a refused regulation, deck or setup choice: behaviour a scenario expects (setup_error)
    except Exception as exc:  # a position the checks let through and the simulator cannot set up
        raise located(scenario, Located(("start",), unplayable("this position", exc))) from exc

def _deck(rules: Rules, scenario: Scenario, spec: dict[str, Any], path: Where) -> tuple[Card, ...]:
    """A deck from its scenario spec: the frame's default deck changed by cards / without / add / size."""
    frame = rules.frame(scenario.frame) if scenario.frame else None
    if "cards" in spec:
        deck = list(cards_at(spec["cards"], path + ("cards",)))
    else:
        deck = sorted(default_deck(rules, frame), key=lambda c: ("CDHS".index(c.suit) if c.suit else 4, c.rank, c.index))
    for card in cards_at(spec.get("without", []), path + ("without",)):
        if card not in deck:
            raise Located(path + ("without",), f"{card} is not in the deck")
        deck.remove(card)
    deck += cards_at(spec.get("add", []), path + ("add",))
    return tuple(deck[:spec["size"]] if "size" in spec else deck)

def _choice(item: dict[str, Any], allowed: frozenset[str] | None, frame: str, path: Where) -> SetupChoice:
    if allowed is not None:
        for key in item:
            if key not in allowed:
                wanted = "only " + ", ".join(sorted(allowed)) if allowed else "no choices"
                raise Located(path + (key,), f"the {frame} setup has no '{key}' choice; expected {wanted}", key=True)

    def one(key: str) -> Card | None:
        return card_at(item[key], path + (key,)) if key in item else None
    return SetupChoice(trumps=cards_at(item.get("trumps", []), path + ("trumps",)),
                       starting=cards_at(item.get("starting", []), path + ("starting",)),
                       rare=one("rare"), reveal=one("reveal"))

def _setup_start(scenario: Scenario, rules: Rules, record: bool) -> GameState:
    """A game started by the frame's setup (or 2.9) from the given decks and choices."""
    start = scenario.src.data["start"]
    for key in start:
        if key not in SETUP_KEYS:
            raise Located(("start", key), f"'{key}' is not read when 'setup' deals the position; expected only "
                                          "'setup' and 'seed' (or a position written out without 'setup')", key=True)
    setup = start["setup"]
    allowed = SETUP_CHOICES.get(scenario.frame or "")
    decks = tuple(_deck(rules, scenario, setup.get("decks", {}).get(name, {}), ("start", "setup", "decks", name))
                  for name in PLAYER_INDEX)
    choices = tuple(_choice(setup.get("choices", {}).get(name, {}), allowed, scenario.frame or "common (2.9)",
                            ("start", "setup", "choices", name))
                    for name in PLAYER_INDEX)
    state = new_game(rules, scenario.format, int(start.get("seed", 0)), frame=scenario.frame, decks=decks,
                     choices=choices, record=record)
    return state


# --- a position written out --------------------------------------------------------------------------------
class _Cards:
    """Every card placed so far, per player, with where it was written: a card is in one zone only, and in the
    deck the player brought (the frame's fixed deck, else one pack of 54)."""

    def __init__(self, deck: tuple[Card, ...], deck_name: str) -> None:
        self.deck, self.deck_name = frozenset(deck), deck_name
        self.where: list[dict[Card, Where]] = [{}, {}]

    def add(self, player: int, cards: tuple[Card, ...], path: Where) -> None:
        for i, card in enumerate(cards):
            at = path + (i,)
            if card not in self.deck:
                raise Located(at, f"{card} is not in the {self.deck_name}; expected a card of the deck")
            first = self.where[player].get(card)
            if first is not None:
                raise Located(at, f"card {card} is listed twice (also at {format_path(first)}); every card of a player "
                                  "is in exactly one zone")
            self.where[player][card] = at

def _character(s: GameState, index: int, item: dict[str, Any], path: Where) -> Character:
    """A character as written: its type, kind and cards must go together (2.8, 2.11.3)."""
    cards = cards_at(item["cards"], path + ("cards",))
    type_text = item.get("type")
    type_id: str | None = None
    if type_text is not None:
        type_id = TYPE_BY_NAME.get(type_text, type_text)
        if type_id not in TYPE_NAMES:
            raise Located(path + ("type",), f"'{type_text}' is not a character type; expected one of "
                                            + ", ".join(TYPE_NAMES.values()) + " (or left out: from the cards)")
    kind = item.get("kind", "bulwark" if type_id == "bulwark" else "soldier")
    if kind == "bulwark":
        if type_id not in (None, "bulwark"):
            raise Located(path + ("type",), f"a bulwark is a 防壁, not a {TYPE_NAMES[type_id]}; expected no type "
                                            "(or kind: soldier)")
        if len(cards) != 1:
            raise Located(path + ("cards",), f"a bulwark is one card, not {len(cards)}; expected one card "
                                             "(several bulwarks are several characters)")
        type_id = "bulwark"
    elif type_id == "bulwark":
        raise Located(path + ("kind",), "a 防壁 is a bulwark; expected kind: bulwark (or no kind)")
    elif len(cards) > 1:
        if type_id not in (None, "equipped-soldier"):
            raise Located(path + ("type",), f"a soldier of {len(cards)} cards is a 装備兵, not a "
                                            f"{TYPE_NAMES[type_id]}; expected type: 装備兵 (or no type)")
        if any(c.is_joker for c in cards) or len({c.suit for c in cards}) != 1:
            raise Located(path + ("cards",), f"the cards {card_list(cards)} cannot be one 装備兵: 装備 adds key "
                                             "cards of the soldier's suit, and a Joker has none; expected cards of "
                                             "one suit, no Joker")
        type_id = "equipped-soldier"
    else:
        own = soldier_type(cards[0].rank)
        if type_id not in (None, own):
            raise Located(path + ("type",), f"{cards[0]} alone is a {TYPE_NAMES[own]}, not a {TYPE_NAMES[type_id]} "
                                            "(2~10 一般兵, J~K 英雄, A エース, Joker 魔術士, 装備兵 has several cards); "
                                            f"expected type: {TYPE_NAMES[own]} (or no type)")
        type_id = own
    face_up = item.get("face_up", kind == "soldier")
    if kind == "soldier" and not face_up:
        raise Located(path + ("face_up",), "a soldier is always face up (2.11.3); expected face_up: true "
                                           "(or a bulwark)")
    return Character(s.uid(), index, cards, kind, type_id, driven=item.get("driven", False), face_up=face_up,
                     entered_turn=s.turn if item.get("new", False) else s.turn - 1, timestamp=s.next_uid)

def _life(pdata: dict[str, Any], path: Where) -> tuple[tuple[Card, ...], int]:
    """The life as written: its top cards and its count."""
    life = pdata.get("life", 10)
    if isinstance(life, int):
        return (), life
    if isinstance(life, list):
        top = cards_at(life, path)
        return top, len(top)
    top = cards_at(life.get("top", []), path + ("top",))
    count = life.get("count", len(top))
    if count < len(top):
        raise Located(path + ("count",), f"life count {count} is less than the {len(top)} cards listed on top; "
                                         f"expected at least {len(top)}")
    return top, count

def _fog(s: GameState, rules: Rules, index: int, item: dict[str, Any], path: Where) -> FogCard:
    """A fog card as 2.11.4 places it: a fog of the regulation, its action's key cards, its action's target."""
    fog = rules.fog(fog_at(rules, item["fog"], path + ("fog",)))
    if s.format not in fog.formats and (s.frame is None or s.frame not in fog.frames):
        raise Located(path + ("fog",), f"'{fog.name}' is not a fog of this regulation ({regulation_name(s)})")
    cards = cards_at(item["cards"], path + ("cards",))
    if not fog.key.accepts(cards):
        raise Located(path + ("cards",), f"{card_list(cards)} are not the key cards of {fog.name}; expected "
                                         f"「{fog.key_card}」")
    action = rules.action(fog.placed_by)
    spec = action.target_spec
    mark: int | None = None
    if spec is None:
        if "target" in item:
            raise Located(path + ("target",), f"{fog.name} marks nothing; expected no target")
    else:
        if "target" not in item:
            raise Located(path, f"{fog.name} marks its target; expected target: 「{action.target}」")
        mark = mark_at(s, item["target"], path + ("target",))
        kind = "trump" if str(item["target"]).startswith("trump:") else "character"
        if Target(kind, mark) not in target_candidates(s, index, action, cards):
            raise Located(path + ("target",), f"'{item['target']}' is not a target of {action.name}; expected "
                                              f"「{action.target}」")
    return FogCard(fog.id, index, cards, sum(c.number for c in cards), s.turn, s.uid(), mark)

def _stage_request(s: GameState, item: dict[str, Any], path: Where) -> Request:
    """A request already on the stage: one the rules could have put there (6.2.2), with the key cards and the
    targets its action takes (2.10.1, 2.10.3)."""
    rules = s.rules
    controller = PLAYER_INDEX[item["player"]]
    action = rules.action(action_at(rules, item["action"], path + ("action",)))
    if action not in available_actions(s):
        raise Located(path + ("action",), f"{action.name} is not an action of this regulation "
                                          f"({regulation_name(s)})")
    if action.speed is Speed.INSTANT:
        raise Located(path + ("action",), f"{action.name} is instant: it resolves when requested and never waits "
                                          "on the stage; expected an action of normal speed")
    if action.timing.value == "main" and controller != s.turn_player:
        raise Located(path + ("player",), f"{action.name} has main timing: only the turn player "
                                          f"({player_name(s.turn_player)}) requests it or has it triggered (2.10.1); "
                                          f"expected player: {player_name(s.turn_player)}")
    keys = cards_at(item.get("keys", []), path + ("keys",))
    _check_stage_keys(action, keys, path)
    targets = tuple(target_at(s, t, path + ("targets", j)) for j, t in enumerate(item.get("targets", [])))
    _check_stage_targets(s, controller, action, keys, targets, item, path)
    return Request(s.uid(), action.id, controller, keys, Payment(), targets)

def _check_stage_keys(action: Action, keys: tuple[Card, ...], path: Where) -> None:
    where = path + ("keys",)
    if key_zone(action) == "rare":  # ruling rare-card-key
        if len(keys) != 1:
            raise Located(where, f"{action.name} has one key card, a rare card; expected keys: [one card]")
    elif action.key is None:
        if keys:
            raise Located(where, f"{action.name} has no key card; expected no keys")
    elif not keys:
        raise Located(where, f"{action.name} has key cards 「{action.key_card}」 and none are given; expected keys "
                             "that meet it")
    elif not action.key.accepts(keys):
        raise Located(where, f"the key cards {card_list(keys)} do not meet {action.name}'s 「{action.key_card}」; "
                             "expected keys that do")

def _check_stage_targets(s: GameState, controller: int, action: Action, keys: tuple[Card, ...],
                         targets: tuple[Target, ...], item: dict[str, Any], path: Where) -> None:
    spec: TargetSpec | None = action.target_spec
    if spec is None:
        if targets:
            raise Located(path + ("targets",), f"{action.name} has no target; expected no targets")
        return
    if len(targets) != spec.count:
        raise Located(path + ("targets",), f"{action.name} takes {spec.count} target(s) 「{action.target}」, not "
                                           f"{len(targets)}; expected targets: [...]")
    legal = target_candidates(s, controller, action, keys)
    for j, t in enumerate(targets):
        if t not in legal:
            raise Located(path + ("targets", j), f"'{item['targets'][j]}' is not a target {action.name} can take; "
                                                 f"expected 「{action.target}」")

def _preset_life(s: GameState, player: int, path: Where) -> None:
    """プリセット takes a bulwark and then a soldier from the top of life (in ライト a Joker is passed over)."""
    life = s.players[player].life
    rest = [c for c in life[1:] if not (c.is_joker and s.format == "lite")]
    if not life or not rest:
        name = player_name(player)
        raise Located(path, f"{name}'s life ({len(life)} cards) cannot give プリセット a bulwark and then a soldier"
                            f"{' (not a Joker, in ライト)' if life[1:] else ''}; expected a life of at least 2 cards "
                            f"(start.players.{name}.life)")

def _attack(s: GameState, lines: list[dict[str, Any]]) -> tuple[AttackLine, ...]:
    """Attack lines as アタック and ブロック make them: the turn player's soldiers attack, the other player's
    characters block, each at most once, and a bulwark blocks alone."""
    seen: set[int] = set()
    out = []
    for i, line in enumerate(lines):
        path = ("start", "attack", i)
        attacker = character_at(s, line["attacker"], path + ("attacker",))
        ch = s.character(attacker)
        if ch.owner != s.turn_player or ch.kind != "soldier":
            raise Located(path + ("attacker",), f"'{line['attacker']}' cannot attack; expected a soldier of the turn "
                                                f"player ({player_name(s.turn_player)})")
        if attacker in seen:
            raise Located(path + ("attacker",), f"'{line['attacker']}' is already in the attack; expected each "
                                                "character once")
        seen.add(attacker)
        blockers = []
        for j, ref in enumerate(line.get("blockers", [])):
            uid = character_at(s, ref, path + ("blockers", j))
            if s.character(uid).owner == s.turn_player:
                raise Located(path + ("blockers", j), f"'{ref}' cannot block its own player's attack; expected a "
                                                      f"character of {player_name(s.other(s.turn_player))}")
            if uid in seen:
                raise Located(path + ("blockers", j), f"'{ref}' is already in the attack; expected each character "
                                                      "once")
            seen.add(uid)
            blockers.append(uid)
        if len(blockers) > 1 and any(s.character(b).kind == "bulwark" for b in blockers):
            raise Located(path + ("blockers",), "a bulwark blocks alone; expected one bulwark or only soldiers")
        out.append(AttackLine(attacker, tuple(blockers)))
    return tuple(out)

def _modifier(s: GameState, i: int, item: dict[str, Any]) -> Modifier:
    path = ("start", "abilities", i)
    if item["scope"] == "this" and "target" not in item:
        raise Located(path, "a 'this' ability needs the character it is on; expected target: 'A:♠7'")
    if item["scope"] != "this" and "target" in item:
        raise Located(path + ("target",), f"an ability of scope '{item['scope']}' has no target; expected scope: "
                                          "this, or no target")
    target = character_at(s, item["target"], path + ("target",)) if "target" in item else None
    return Modifier(item["scope"], PLAYER_INDEX[item.get("player", "A")], int(item.get("timestamp", i)),
                    size=int(item.get("size", 0)), can_attack=item.get("can_attack"), target=target,
                    source=item.get("text", ""))

def _build_start(scenario: Scenario, rules: Rules, record: bool) -> GameState:
    start = scenario.src.data["start"]
    if "setup" in start:
        return _setup_start(scenario, rules, record)
    frame = check_regulation(rules, scenario.format, scenario.frame)
    s = GameState(rules, scenario.format, int(start.get("seed", 0)), [Player(), Player()], frame=scenario.frame,
                  events=[] if record else None)
    s.turn_player = PLAYER_INDEX[start["turn"]]
    s.chance = PLAYER_INDEX[start.get("chance", start["turn"])]
    s.turn = int(start.get("turn_number", 2))
    deck = default_deck(rules, frame)
    placed = _Cards(deck, f"{frame.name} deck" if frame is not None and frame.deck and frame.deck.cards
                    else "deck (54 cards)")
    lives: list[tuple[tuple[Card, ...], int]] = []
    players = start["players"]
    for name, index in PLAYER_INDEX.items():
        pdata = players.get(name, {})
        base = ("start", "players", name)
        p = s.players[index]
        top, count = _life(pdata, base + ("life",))
        lives.append((top, count))
        placed.add(index, top, base + ("life", "top") if isinstance(pdata.get("life"), dict) else base + ("life",))
        p.hand = cards_at(pdata.get("hand", []), base + ("hand",))
        placed.add(index, p.hand, base + ("hand",))
        p.graveyard = cards_at(pdata.get("graveyard", []), base + ("graveyard",))
        placed.add(index, p.graveyard, base + ("graveyard",))
        for i, item in enumerate(pdata.get("field", [])):
            ch = _character(s, index, item, base + ("field", i))
            placed.add(index, ch.cards, base + ("field", i, "cards"))
            p.field += (ch,)
        p.pack = cards_at(pdata.get("pack", []), base + ("pack",))
        placed.add(index, p.pack, base + ("pack",))
        p.pack_opened = bool(pdata.get("pack_opened", False))
        p.rare = cards_at(pdata.get("rare", []), base + ("rare",))
        placed.add(index, p.rare, base + ("rare",))
        p.trumps = tuple(TrumpCard(s.uid(), card_at(t["card"], base + ("trumps", i, "card")), t.get("face_up", False))
                         for i, t in enumerate(pdata.get("trumps", [])))
        for i, t in enumerate(p.trumps):
            placed.add(index, (t.card,), base + ("trumps", i))
        if (p.pack or p.rare or p.trumps) and scenario.frame is None:
            raise Located(base, "pack, rare and trumps need a frame (add 'frame:' to the scenario)")
    for name, index in PLAYER_INDEX.items():  # fogs mark characters and trumps of either player
        base = ("start", "players", name)
        for i, item in enumerate(players.get(name, {}).get("fog", [])):
            fog = _fog(s, rules, index, item, base + ("fog", i))
            placed.add(index, fog.cards, base + ("fog", i, "cards"))
            s.players[index].fog += (fog,)
    for i, item in enumerate(start.get("stage", [])):  # key cards wait on the stage with their request
        req = _stage_request(s, item, ("start", "stage", i))
        placed.add(req.controller, req.keys, ("start", "stage", i, "keys"))
        s.stage += (req,)
    for name, index in PLAYER_INDEX.items():  # a life given as a count is filled with cards no zone uses
        p = s.players[index]
        top, count = lives[index]
        fillers = [c for c in _filler_order() if c in placed.deck and c not in placed.where[index]]
        if count - len(top) > len(fillers):
            raise Located(("start", "players", name, "life"),
                          f"life count {count} does not fit the {len(top)} listed cards and the {len(fillers)} "
                          "cards left in the deck")
        p.life = top + tuple(fillers[:count - len(top)])
        p.deck = frozenset(placed.where[index]) | frozenset(p.life)
    for name, actions in start.get("used", {}).items():
        for i, a in enumerate(actions):
            s.used = s.used | {(PLAYER_INDEX[name], action_at(rules, a, ("start", "used", name, i)))}
    for i, item in enumerate(start.get("abilities", [])):
        s.modifiers += (_modifier(s, i, item),)
    seen: set[str] = set()
    for i, name in enumerate(start.get("preset", [])):  # frames' プリセット (E20), before the first player is decided
        if name in seen:
            raise Located(("start", "preset", i), f"{name} is listed twice; a player presets once")
        seen.add(name)
        _preset_life(s, PLAYER_INDEX[name], ("start", "preset", i))
        preset(s, PLAYER_INDEX[name])
    if start.get("decide_first"):  # 2.9.2 and 2.9.3 on the given lives
        begin(s)
    if "attack" in start:
        s.attack = _attack(s, start["attack"])
    return s

def _filler_order() -> list[Card]:
    """Cards that fill a life given as a count: plain numbers first (so fillers do not trigger 世代交代 or
    surprise a scenario), then faces; the same order every time."""
    deck = full_deck(2)
    return sorted(deck, key=lambda c: (c.rank in (0, 1, 11, 12, 13), "CDHS".index(c.suit) if c.suit else 4, c.rank))
