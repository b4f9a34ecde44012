"""The starting position of a scenario: a frame's setup, a deck, or a position written out card by card."""

from __future__ import annotations

from collections import Counter
from typing import Any

from blackpoker.core.cards import Card, full_deck
from blackpoker.core.model import Rules
from blackpoker.sim.abilities import soldier_type
from blackpoker.sim.frames import SetupChoice, check_regulation, default_deck, preset
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
)
from blackpoker.sim.setup import begin, new_game
from blackpoker.sim.state import (
    Character,
    FogCard,
    GameState,
    Modifier,
    Payment,
    Player,
    Request,
    TrumpCard,
)


def build_start(scenario: Scenario, rules: Rules, *, record: bool = False) -> GameState:
    try:
        return _build_start(scenario, rules, record)
    except Located as exc:
        raise located(scenario, exc) from None

def _deck(rules: Rules, scenario: Scenario, spec: dict[str, Any], path: tuple[Any, ...]) -> tuple[Card, ...]:
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

def _choice(item: dict[str, Any], path: tuple[Any, ...]) -> SetupChoice:
    def one(key: str) -> Card | None:
        return card_at(item[key], path + (key,)) if key in item else None
    return SetupChoice(trumps=cards_at(item.get("trumps", []), path + ("trumps",)),
                       starting=cards_at(item.get("starting", []), path + ("starting",)),
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
        p.hand = cards_at(pdata.get("hand", []), base + ("hand",))
        p.graveyard = cards_at(pdata.get("graveyard", []), base + ("graveyard",))
        for i, item in enumerate(pdata.get("field", [])):
            cards = cards_at(item["cards"], base + ("field", i, "cards"))
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
        top = cards_at(life.get("top", []), base + ("life", "top"))
        used = set(top) | set(p.hand) | set(p.graveyard) | {c for ch in p.field for c in ch.cards}
        p.pack = cards_at(pdata.get("pack", []), base + ("pack",))
        p.pack_opened = bool(pdata.get("pack_opened", False))
        p.rare = cards_at(pdata.get("rare", []), base + ("rare",))
        p.trumps = tuple(TrumpCard(s.uid(), card_at(t["card"], base + ("trumps", i, "card")), t.get("face_up", False))
                         for i, t in enumerate(pdata.get("trumps", [])))
        frame_cards = list(p.pack) + list(p.rare) + [t.card for t in p.trumps]
        if frame_cards and scenario.frame is None:
            raise Located(base, "pack, rare and trumps need a frame (add 'frame:' to the scenario)")
        used |= set(frame_cards)
        for i, item in enumerate(pdata.get("fog", [])):
            fog_id = fog_at(rules, item["fog"], base + ("fog", i, "fog"))
            cards = cards_at(item["cards"], base + ("fog", i, "cards"))
            used |= set(cards)
            target = mark_at(s, item["target"], base + ("fog", i, "target")) if "target" in item else None
            p.fog += (FogCard(fog_id, index, cards, sum(c.number for c in cards), s.turn, s.uid(), target),)
        listed = [c for c in top] + list(p.hand) + list(p.graveyard) + [c for ch in p.field for c in ch.cards] \
            + [c for f in p.fog for c in f.cards] + frame_cards
        dup = [c for c, n in Counter(listed).items() if n > 1]
        if dup:
            raise Located(base, f"card {dup[0]} is listed twice; every card of a player is in exactly one zone")
        count = life.get("count", len(top))
        fillers = [c for c in _filler_order() if c not in used]
        if count < len(top) or count - len(top) > len(fillers):
            raise Located(base + ("life",), f"life count {count} does not fit the {len(top)} listed cards and "
                                             f"the {len(fillers)} cards left in the deck")
        p.life = top + tuple(fillers[:count - len(top)])
        p.deck = frozenset(listed) | frozenset(p.life)
    for key, abilities in (("used", start.get("used", {})),):
        for name, actions in abilities.items():
            for i, a in enumerate(actions):
                s.used = s.used | {(PLAYER_INDEX[name], action_at(rules, a, ("start", key, name, i)))}
    for i, item in enumerate(start.get("abilities", [])):
        path = ("start", "abilities", i)
        target = character_at(s, item["target"], path + ("target",)) if "target" in item else None
        s.modifiers += (Modifier(item["scope"], PLAYER_INDEX[item.get("player", "A")], int(item.get("timestamp", i)),
                                 size=int(item.get("size", 0)), can_attack=item.get("can_attack"), target=target,
                                 source=item.get("text", "")),)
    for i, item in enumerate(start.get("stage", [])):
        path = ("start", "stage", i)
        controller = PLAYER_INDEX[item["player"]]
        action_id = action_at(rules, item["action"], path + ("action",))
        keys = cards_at(item.get("keys", []), path + ("keys",))
        targets = tuple(target_at(s, t, path + ("targets", j)) for j, t in enumerate(item.get("targets", [])))
        s.stage += (Request(s.uid(), action_id, controller, keys, Payment(), targets),)
    for name in start.get("preset", []):  # frames' プリセット (E20), before the first player is decided
        preset(s, PLAYER_INDEX[name])
    if start.get("decide_first"):  # 2.9.2 and 2.9.3 on the given lives
        begin(s)
    if "attack" in start:
        from blackpoker.sim.state import AttackLine
        s.attack = tuple(AttackLine(character_at(s, line["attacker"], ("start", "attack", i, "attacker")),
                                    tuple(character_at(s, b, ("start", "attack", i, "blockers", j))
                                          for j, b in enumerate(line.get("blockers", []))))
                         for i, line in enumerate(start["attack"]))
    return s

def _filler_order() -> list[Card]:
    """Cards that fill a life given as a count: plain numbers first (so fillers do not trigger 世代交代 or
    surprise a scenario), then faces; the same order every time."""
    deck = full_deck(2)
    return sorted(deck, key=lambda c: (c.rank in (0, 1, 11, 12, 13), "CDHS".index(c.suit) if c.suit else 4, c.rank))
